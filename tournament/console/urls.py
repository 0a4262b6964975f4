"""Arbiter console. Included by tournament/urls.py as ``path("arbiter/", include("tournament.console.urls"))``."""

from django.urls import path

from ..web.language import set_language
from . import audit, board, games, players, review, simultaneous, slips, standings, topping, tournaments

app_name = "arbiter"

urlpatterns = [
    path("", tournaments.tournament_list, name="tournaments"),
    path("new/", tournaments.tournament_create, name="tournament_create"),
    path("language/", set_language, name="language"),
    path("t/<slug:slug>/", tournaments.tournament_detail, name="tournament"),
    path("t/<slug:slug>/settings/", tournaments.tournament_settings, name="settings"),
    path("t/<slug:slug>/backup/", tournaments.backup_download, name="backup"),
    path("t/<slug:slug>/players/", players.players, name="players"),
    path("t/<slug:slug>/players/import/", players.import_players, name="import"),
    path("t/<slug:slug>/players/import/<str:job>/", players.import_status, name="import_status"),
    path("t/<slug:slug>/games/new/", games.game_create, name="game_create"),
    path("t/<slug:slug>/g/<int:number>/", games.game, name="game"),
    path("t/<slug:slug>/g/<int:number>/live.json", games.live, name="live"),
    path("t/<slug:slug>/g/<int:number>/action/", games.round_action, name="round_action"),
    path("t/<slug:slug>/g/<int:number>/typing/", games.rack_typing, name="rack_typing"),
    path("t/<slug:slug>/g/<int:number>/slips/", slips.slip_entry, name="slips"),
    path("t/<slug:slug>/g/<int:number>/review/", review.review, name="review"),
    path("t/<slug:slug>/g/<int:number>/top/", review.choose_top, name="choose_top"),
    path("t/<slug:slug>/g/<int:number>/board/", board.board, name="board"),
    path("t/<slug:slug>/g/<int:number>/times/", topping.times, name="times"),
    path("t/<slug:slug>/verdicts/<int:pk>/override/", review.override, name="override"),
    path("t/<slug:slug>/standings/", standings.standings, name="standings"),
    path("t/<slug:slug>/audit/", audit.audit_log, name="audit"),
    path("t/<slug:slug>/simultaneous/", simultaneous.hall_page, name="simul_hall"),
    path("t/<slug:slug>/simultaneous/<int:number>/results/", simultaneous.hall_results, name="simul_hall_results"),
    path("simultaneous/", simultaneous.simul_list, name="simuls"),
    path("simultaneous/<uuid:game>/", simultaneous.simul_detail, name="simul"),
    path("simultaneous/<uuid:game>/halls/", simultaneous.simul_hall, name="simul_add_hall"),
    path("simultaneous/<uuid:game>/halls/<slug:code>/package/", simultaneous.simul_package, name="simul_package"),
    path("simultaneous/<uuid:game>/results/", simultaneous.simul_results, name="simul_results"),
]
