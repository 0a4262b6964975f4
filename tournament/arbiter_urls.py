"""Arbiter console. Included by tournament/urls.py as ``path("arbiter/", include("tournament.arbiter_urls"))``."""

from django.urls import path

from . import views_arbiter as v

app_name = "arbiter"

urlpatterns = [
    path("", v.tournament_list, name="tournaments"),
    path("new/", v.tournament_create, name="tournament_create"),
    path("language/", v.set_language, name="language"),
    path("t/<slug:slug>/", v.tournament_detail, name="tournament"),
    path("t/<slug:slug>/settings/", v.tournament_settings, name="settings"),
    path("t/<slug:slug>/players/", v.players, name="players"),
    path("t/<slug:slug>/players/import/", v.import_players, name="import"),
    path("t/<slug:slug>/games/new/", v.game_create, name="game_create"),
    path("t/<slug:slug>/g/<int:number>/", v.game, name="game"),
    path("t/<slug:slug>/g/<int:number>/live.json", v.live, name="live"),
    path("t/<slug:slug>/g/<int:number>/action/", v.round_action, name="round_action"),
    path("t/<slug:slug>/g/<int:number>/slips/", v.slip_entry, name="slips"),
    path("t/<slug:slug>/g/<int:number>/review/", v.review, name="review"),
    path("t/<slug:slug>/g/<int:number>/top/", v.choose_top, name="choose_top"),
    path("t/<slug:slug>/g/<int:number>/board/", v.board, name="board"),
    path("t/<slug:slug>/verdicts/<int:pk>/override/", v.override, name="override"),
    path("t/<slug:slug>/standings/", v.standings, name="standings"),
    path("t/<slug:slug>/audit/", v.audit_log, name="audit"),
]
