"""The topping variant on the console: the current round's players (topped or not, time, attempts), the
arbiter's time for a paper slip, and the game's standings by total time."""

from __future__ import annotations

from typing import TypedDict

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from scoring.topping import format_seconds
from scoring.variants import get_variant

from .. import labels
from ..errors import Code, ServiceError
from ..models import Game, Round, Tournament
from ..services import players, rounds, topping
from ..services.topping import GameRow, RoundRow
from ..web.access import arbiter_view, flash_error
from .forms import ConsoleForm
from .games import game_of
from .tournaments import context


class TimeForm(ConsoleForm):
    """The arbiter's time for a player (a paper slip): table, minutes:seconds (empty: not topped), the word."""

    table = forms.IntegerField(label=gettext_lazy("Table"), min_value=1)
    time = forms.CharField(label=gettext_lazy("Time (m:ss)"), max_length=12, required=False,
                           help_text=gettext_lazy("empty: not topped"))
    word = forms.CharField(label=gettext_lazy("Move (as on the slip)"), max_length=40, required=False)


def time_form(tournament: Tournament) -> TimeForm:
    """The empty form, its move field saying how the move is typed (coordinates in the tournament's letters)."""
    form = TimeForm()
    form.fields["word"].help_text = _("coordinates and word (%(coordinates)s …), as on the slip; round 1: the word; "
                                      "his points and his attempt follow from it") % {
        "coordinates": labels.tournament_style(tournament).example()}
    return form


class ShownRound(TypedDict):
    table: int
    name: str
    topped: bool
    time: str
    counted: str
    attempts: int


class ShownLine(TypedDict):
    table: int
    name: str
    rank: int
    total: str
    topped: int
    attempts: int
    rounds: list[str]


def shown_round(rows: list[RoundRow]) -> list[ShownRound]:
    return [{"table": r["table"], "name": r["name"], "topped": r["topped"],
             "time": format_seconds(r["seconds"]) if r["seconds"] is not None else "",
             "counted": format_seconds(r["counted"]), "attempts": r["attempts"]} for r in rows]


def shown_lines(rows: list[GameRow]) -> list[ShownLine]:
    """A game's (or a tournament's) lines by total time, the times written m:ss."""
    return [{"table": r["table"], "name": r["name"], "rank": r["rank"], "total": format_seconds(r["total"]),
             "topped": r["topped"], "attempts": r["attempts"], "rounds": [format_seconds(s) for s in r["rounds"]]}
            for r in rows]


def _record(request: HttpRequest, tournament: Tournament, rnd: Round) -> None:
    form = TimeForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("A time needs a table and minutes:seconds (0:42); empty: not topped."))
        return
    reg = players.registration_at(tournament, form.cleaned_data["table"])
    if reg is None:
        raise ServiceError(Code.UNKNOWN_TABLE, _("No player at table %(t)d.") % {"t": form.cleaned_data["table"]})
    text = form.cleaned_data["time"].strip()
    seconds = topping.parse_time(text) if text else None
    topping.record_time(request.user, rnd, reg, seconds, word=form.cleaned_data["word"])
    if seconds is None:
        messages.success(request, _("Table %(t)d: not topped in round %(n)d (recorded).")
                         % {"t": reg.table_number, "n": rnd.number})
    else:
        messages.success(request, _("Table %(t)d: top in %(time)s in round %(n)d (recorded).")
                         % {"t": reg.table_number, "time": format_seconds(seconds), "n": rnd.number})


@arbiter_view
@require_http_methods(["GET", "POST"])
def times(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    g = game_of(tournament, number)
    if not topping.is_topping(g):
        messages.error(request, _("Game %(n)d is not a topping game.") % {"n": g.number})
        return redirect("arbiter:game", slug=tournament.slug, number=g.number)
    rnd = rounds.current_round(g)
    if rnd is not None and rnd.status in (Round.Status.DRAWN, Round.Status.CANCELLED):
        rnd = g.rounds.filter(status__in=topping.FINAL_STATUSES).order_by("-number").first()
    if request.method == "POST":
        try:
            if rnd is None:
                raise ServiceError(Code.NO_OPEN_ROUND, _("No round is open."))
            _record(request, tournament, rnd)
        except ServiceError as exc:
            flash_error(request, exc)
        return redirect("arbiter:times", slug=tournament.slug, number=g.number)
    rows = shown_round(topping.round_rows(rnd)) if rnd is not None else []
    numbers = list(g.rounds.filter(status__in=topping.FINAL_STATUSES).order_by("number").values_list(
        "number", flat=True))
    return render(request, "arbiter/topping.html", context(
        tournament, "games", game=g, round=rnd, rows=rows, topped=sum(1 for r in rows if r["topped"]),
        limit=format_seconds(topping.limit_seconds(rnd)) if rnd is not None else "",
        penalty=get_variant(g.variant).timeout_penalty, form=time_form(tournament),
        lines=shown_lines(topping.game_rows(tournament, g)), numbers=numbers,
        finished=g.status == Game.Status.FINISHED))


__all__ = ["shown_lines", "shown_round", "times"]
