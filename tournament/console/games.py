"""A game: its page (round control, live slip count, rounds), its live panel, and the arbiter's actions."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, npgettext
from django.views.decorators.http import require_GET, require_POST

from .. import gamestate, labels
from ..errors import ServiceError
from ..live.stream import stream_url
from ..models import Game, Round, Tournament
from ..services import actions, games, players, rounds, signs, slips
from ..web.access import arbiter_view, flash_error
from . import forms
from .tournaments import context, overview

#: Actions of the game itself (the others act on its current round, :mod:`tournament.services.actions`).
GAME_ACTIONS = ("draw", "finish", "penalty")
#: Round actions of the game page's buttons (the top is chosen on the review page).
ROUND_ACTIONS = frozenset(a.value for a in actions.Action) - {actions.Action.TOP.value}


def game_of(tournament: Tournament, number: int) -> Game:
    return get_object_or_404(Game, tournament=tournament, number=number)


class ReceivedSlip(TypedDict):
    table: int
    name: str
    text: str
    at: str  # local time, HH:MM:SS
    late: bool
    source: str
    version: int


class LiveState(TypedDict):
    """The live panel (polled as JSON): the round, the slips received, the tables whose only slip came late
    (counted apart, not missing) and the tables without any slip."""

    round: int | None
    received: list[ReceivedSlip]
    missing: list[int]
    missing_text: str  # the missing tables as runs, "201–240, 305" (labels.table_ranges)
    late: list[int]
    late_text: str  # "1 late" in the page's language ("" when none)
    late_tables: str  # the late tables as runs
    limit: int  # at most this many slips are listed
    players: int
    status: NotRequired[str]
    status_label: NotRequired[str]
    seconds_left: NotRequired[int | None]
    count: NotRequired[int]
    solver: NotRequired[str]


def live_state(tournament: Tournament, rnd: Round | None) -> LiveState:
    """What the live panel shows: the round, the slips received (the first ones) and every table missing."""
    if rnd is None:
        return {"round": None, "received": [], "missing": [], "missing_text": "", "late": [], "late_text": "",
                "late_tables": "", "limit": slips.RECENT_SLIPS, "players": tournament.registrations.count()}
    counted = slips.count(rnd)
    style = labels.tournament_style(tournament)
    received: list[ReceivedSlip] = [{"table": s.registration.table_number, "name": s.registration.player.name,
                 "text": style.slip(s.coordinates, s.word, s.announced_score),
                 "at": timezone.localtime(s.received_at).strftime("%H:%M:%S"), "late": s.late,
                 "source": s.get_source_display(), "version": s.version} for s in slips.recent(rnd)]
    left = rnd.seconds_left(timezone.now()) if rnd.status == Round.Status.OPEN else None
    late = set(counted.late)
    missing = [t for t in counted.missing if t not in late]  # a late slip came: its table is late, not missing
    return {"round": rnd.number, "status": rnd.status, "status_label": rnd.get_status_display(),
            "seconds_left": left, "received": received, "missing": missing,
            "missing_text": labels.table_ranges(missing), "late": counted.late, "late_text": late_text(len(late)),
            "late_tables": labels.table_ranges(counted.late), "limit": slips.RECENT_SLIPS,
            "count": counted.received, "players": counted.registered, "solver": rnd.get_solver_status_display()}


def late_text(n: int) -> str:
    """"1 late": the tables whose only slip came after the deadline (it does not count), "" when none."""
    return npgettext("slips", "%(n)d late", "%(n)d late", n) % {"n": n} if n else ""


def games_in_play(tournament: Tournament) -> list[str]:
    """The games of the tournament still played, each as a sentence ("Game 1: round 5 is open.")."""
    said = []
    for g in tournament.games.filter(status=Game.Status.PLAYING).order_by("number"):
        rnd = games.pending_round(g)
        if rnd is None:
            said.append(_("Game %(n)d is not ended yet.") % {"n": g.number})
        else:
            said.append(_("Game %(n)d: round %(round)d is %(status)s.")
                        % {"n": g.number, "round": rnd.number, "status": rnd.get_status_display()})
    return said


@arbiter_view
@require_POST
def game_create(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """A new game; while another game of the tournament is played, only once the arbiter confirmed it."""
    form = forms.GameForm(request.POST, tournament=tournament)
    if not form.is_valid():
        messages.error(request, _("Check the game form."))
        return redirect("arbiter:tournament", slug=tournament.slug)
    in_play = games_in_play(tournament)
    if in_play and request.POST.get("confirm") != "1":
        return overview(request, tournament, game_form=form, in_play=in_play)
    try:
        game = games.create_game(request.user, tournament, seed=form.cleaned_data["seed"],
                                 prepared_racks=form.cleaned_data["prepared"], variant=form.cleaned_data["variant"],
                                 seconds_per_move=form.cleaned_data["seconds_per_move"])
    except ServiceError as exc:
        flash_error(request, exc)
        return redirect("arbiter:tournament", slug=tournament.slug)
    return redirect("arbiter:game", slug=tournament.slug, number=game.number)


@arbiter_view
@require_GET
def game(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    g = game_of(tournament, number)
    rnd = rounds.current_round(g)
    leftover, new = gamestate.next_draw(g) if g.status == Game.Status.PLAYING else ("", 0)
    return render(request, "arbiter/game.html", context(
        tournament, "games", page="game", game=g, round=rnd, live=live_state(tournament, rnd),
        stream=stream_url(tournament.slug),
        rounds=g.rounds.order_by("number", "id"), draw_form=forms.DrawForm(), cancel_form=forms.ReasonForm(),
        penalty_form=forms.PenaltyForm(), top=(rnd.top_moves[0] if rnd and rnd.top_moves else None),
        next_leftover=leftover, next_new=new, replaced=gamestate.replaced_blanks(g), end_text=labels.end_text(g.end_reason, g.end_note) if g.end_reason else "",
        redraws=[{"rack": d["rack"], "reason": labels.REDRAW_REASONS[d["reason"]]} for d in gamestate.redraws(rnd)]
        if rnd is not None else []))


@arbiter_view
@require_GET
def live(request: HttpRequest, tournament: Tournament, number: int) -> JsonResponse:
    return JsonResponse(live_state(tournament, rounds.current_round(game_of(tournament, number))))


def _draw(request: HttpRequest, g: Game) -> None:
    form = forms.DrawForm(request.POST)
    typed = (form.cleaned_data["typed_rack"] or None) if form.is_valid() else None
    new = rounds.draw_round(request.user, g, typed_rack=typed)
    if new is None:
        messages.warning(request, _("The rack typed is not valid: all its tiles went back into the bag. "
                                    "Draw again (redraw)."))
    else:
        messages.success(request, _("Round %(n)d drawn: %(rack)s.") % {"n": new.number, "rack": new.rack})


def _finish(request: HttpRequest, g: Game) -> None:
    form = forms.ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Ending a game needs a reason."))
        return
    games.finish_game(request.user, g, why=form.cleaned_data["why"])
    messages.success(request, _("Game %(n)d is over; warnings became penalties.") % {"n": g.number})


def _penalty(request: HttpRequest, tournament: Tournament, g: Game) -> None:
    form = forms.PenaltyForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("A penalty needs a table, whole points and a reason."))
        return
    table = form.cleaned_data["table"]
    reg = players.registration_at(tournament, table)
    if reg is None:
        messages.error(request, _("No player at table %(t)d.") % {"t": table})
        return
    games.add_penalty(request.user, g, reg, points=form.cleaned_data["points"], reason=form.cleaned_data["reason"])
    points = form.cleaned_data["points"]
    messages.success(request, ngettext("Penalty of %(p)d point for table %(t)d.",
                                       "Penalty of %(p)d points for table %(t)d.", points)
                     % {"p": points, "t": reg.table_number})


def _round_action(request: HttpRequest, action: str, rnd: Round) -> None:
    """One of :mod:`tournament.services.actions`, and what the arbiter is told of it."""
    if action == "cancel":
        form = forms.ReasonForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("A cancellation needs a reason."))
            return
        actions.act(request.user, action, rnd, why=form.cleaned_data["why"])
        messages.success(request, _("Round %(n)d is cancelled.") % {"n": rnd.number})
        return
    result = actions.act(request.user, action, rnd)
    n = rnd.number
    if action == "no_move":
        if result is None:
            messages.warning(request, _("No legal move and no other rack can be drawn: the game is over."))
        else:
            messages.success(request, _("The rack went back into the bag; round %(n)d redrawn: %(rack)s.")
                             % {"n": result.number, "rack": result.rack})
    elif action == "publish" and result is not None:
        messages.success(request, _("Round %(n)d is published: %(move)s, %(score)s.")
                         % {"n": n, "move": labels.tournament_style(rnd.game.tournament).move(result.chosen_move),
                            "score": result.chosen_score})
    else:
        done = {"open": _("Round %(n)d is open."), "close": _("Round %(n)d is closed."),
                "judge": _("Round %(n)d is judged: review the verdicts."),
                "review": _("Round %(n)d is reviewed.")}
        messages.success(request, done.get(action, _("Round %(n)d is reviewed.")) % {"n": n})


@arbiter_view
@require_POST
def round_action(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    g = game_of(tournament, number)
    action = request.POST.get("action", "")
    rnd = rounds.current_round(g)
    if action not in GAME_ACTIONS and (rnd is None or str(rnd.pk) != request.POST.get("round")):
        messages.error(request, _("The round changed meanwhile; look again."))
        return redirect("arbiter:game", slug=tournament.slug, number=g.number)
    try:
        if action == "draw":
            _draw(request, g)
        elif action == "finish":
            _finish(request, g)
        elif action == "penalty":
            _penalty(request, tournament, g)
        elif action in ROUND_ACTIONS and rnd is not None:
            _round_action(request, action, rnd)
            if action == "judge":
                return redirect("arbiter:review", slug=tournament.slug, number=g.number)
        else:
            messages.error(request, _("Unknown action."))
    except ServiceError as exc:
        flash_error(request, exc)
    return redirect("arbiter:game", slug=tournament.slug, number=g.number)


@arbiter_view
@require_POST
def rack_typing(request: HttpRequest, tournament: Tournament, number: int) -> JsonResponse:
    """The arbiter is typing the rack drawn from the bag (``console.js``: at his first key in the draw form, then
    now and then while he types): the tablets say so until the draw (:func:`services.signs.rack_typing`)."""
    return JsonResponse({"shown": signs.rack_typing(game_of(tournament, number))})

