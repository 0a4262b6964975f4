"""Standings: of the tournament, of one game, or per series, category or club; searched by name, table or
club (``?q=``, and as the arbiter types, by ``console.js``)."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET

from .. import labels
from ..models import Game, Tournament
from ..services import standings as standing_service
from ..services import topping
from ..services.standings import Standing
from ..web.access import arbiter_view
from .games import game_of
from .topping import shown_lines
from .tournaments import context


def matches(row: Standing, query: str) -> bool:
    """A number is a table (that table only); words are looked for in the name and the club (any case)."""
    if query.isdigit():
        return row.registration.table_number == int(query)
    needle = query.casefold()
    return needle in row.player.name.casefold() or needle in row.player.club.casefold()


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
    query = " ".join(request.GET.get("q", "").split())[:100]
    players = sum(len(rows) for rows in tables.values())
    if query:
        tables = {name: [r for r in rows if matches(r, query)] for name, rows in tables.items()}
        tables = {name: rows for name, rows in tables.items() if rows} or {"": []}
    return render(request, "arbiter/standings.html", context(
        tournament, "standings", tables=tables, group=group, games=games, game=game_obj, query=query,
        times=shown_lines(topping.standings_times(tournament, game_obj)) if not group else [],
        players=players, shown=sum(len(rows) for rows in tables.values()),
        shown_forms=json.dumps(labels.plural_forms(lambda n: ngettext(
            "%(shown)s of %(total)s player", "%(shown)s of %(total)s players", n)), ensure_ascii=False),
        groups=[("series", _("Series")), ("category", _("Categories")), ("club", _("Clubs"))]))
