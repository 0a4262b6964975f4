"""Standings: of the tournament, of one game, or per series, category or club."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from ..models import Game, Tournament
from ..services import standings as standing_service
from ..web.access import arbiter_view
from .games import game_of
from .tournaments import context


@arbiter_view
@require_GET
def standings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    group = request.GET.get("by", "")
    games = list(tournament.games.exclude(status=Game.Status.CANCELLED).order_by("number"))
    number = request.GET.get("game", "")
    game_obj = None
    if number.isdigit():
        game_obj = game_of(tournament, int(number))
        tables = {"": standing_service.game_standings(game_obj)}
        group = ""
    elif group in standing_service.GROUPS:
        tables = standing_service.grouped_standings(tournament, group)
    else:
        group = ""
        tables = {"": standing_service.tournament_standings(tournament)}
    return render(request, "arbiter/standings.html", context(
        tournament, "standings", tables=tables, group=group, games=games, game=game_obj,
        groups=[("series", _("Series")), ("category", _("Categories")), ("club", _("Clubs"))]))
