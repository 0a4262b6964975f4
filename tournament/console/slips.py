"""Paper slips typed by the arbiter: table, word, coordinates, score, late tick.

A slip that would replace the table's slip (from a tablet or typed before) is not saved at once: the page
shows the slip it replaces and asks to confirm (``replace`` = that slip's id), so a mistyped table number
never silently replaces another player's slip. Everything refused stays in the form.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from .. import labels
from ..errors import ServiceError
from ..models import Registration, Round, Slip, Tournament
from ..services import rounds, slips, topping
from ..templatetags.duplicate import coord_marked
from ..web.access import arbiter_view, flash_error
from . import forms
from .games import game_of, live_state
from .tournaments import context

RECENT_PAPER = 12


@arbiter_view
@require_http_methods(["GET", "POST"])
def slip_entry(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    g = game_of(tournament, number)
    if topping.is_topping(g):  # a paper player's result is his time, recorded on the times page
        messages.info(request, _("In a topping game a paper slip is recorded as a time: table, time and move."))
        return redirect("arbiter:times", slug=tournament.slug, number=g.number)
    rnd = rounds.current_round(g)
    tables = dict(tournament.registrations.values_list("table_number", "pk"))
    taking = rnd is not None and rnd.status in slips.PAPER_STATUSES
    form = forms.SlipForm(request.POST or None, tables=tables, ruleset=tournament.ruleset,
                          convention=tournament.convention, script=tournament.coordinate_script, initial={"key": uuid.uuid4().hex})
    replacing: Slip | None = None
    if request.method == "POST" and taking and rnd is not None and form.is_valid():
        data = form.cleaned_data
        reg = Registration.objects.select_related("player").get(pk=tables[data["table"]])
        replacing = slip_to_replace(rnd, reg, data, request.POST.get("replace", ""))
        if replacing is None and save(request, rnd, reg, data):
            return redirect("arbiter:slips", slug=tournament.slug, number=g.number)
    recent: list[Slip] = []
    if rnd is not None:
        recent = list(Slip.objects.filter(round=rnd, source__in=slips.PAPER_SOURCES)
                      .select_related("registration__player").order_by("-id")[:RECENT_PAPER])
    return render(request, "arbiter/slips.html", context(
        tournament, "games", page="slips", game=g, round=rnd, form=form, taking=taking, recent=recent,
        replacing=replacing, table_data=table_data(tournament, rnd) if taking else {},
        live=live_state(tournament, rnd)))


def slip_to_replace(rnd: Round, reg: Registration, data: dict[str, Any], confirmed: str) -> Slip | None:
    """The table's slip this one would replace, when the arbiter has not confirmed it yet (else None).

    A slip ticked late replaces nothing; a second Enter on the same form (same key) is the same slip.
    """
    if data["late"]:
        return None
    current = (Slip.objects.filter(round=rnd, registration=reg, is_current=True)
               .select_related("registration__player").order_by("-version").first())
    if current is None or current.idempotency_key == f"paper-{data['key']}" or confirmed == str(current.pk):
        return None
    return current


def save(request: HttpRequest, rnd: Round, reg: Registration, data: dict[str, Any]) -> bool:
    """Stores the paper slip (its hand-in time: now, or the deadline when typed after it); False if refused."""
    now = timezone.now()
    handed = now if data["late"] or rnd.deadline is None or now <= rnd.deadline else rnd.deadline
    try:
        slip = slips.submit_slip(rnd, reg, word=data["word"], coordinates=data["coordinates"],
                                 score=data["score"], idempotency_key=f"paper-{data['key']}",
                                 source=Slip.Source.PAPER, actor=request.user, received_at=handed,
                                 marked_late=data["late"])
    except ServiceError as exc:
        flash_error(request, exc)
        return False
    # the slip in the tournament's rows, the letter of its coordinates drawn apart (З9, never read as 39)
    text = coord_marked(labels.tournament_style(slip.round.game.tournament).slip(slip.coordinates, slip.word,
                                                                                 slip.announced_score))
    if slip.late:
        messages.warning(request, _html(_("Table %(n)d: %(text)s saved as late (it does not count)."),
                                        n=data["table"], text=text))
    else:
        messages.success(request, _html(_("Table %(n)d: %(text)s saved."), n=data["table"], text=text))
    return True


def _html(template: str, **values: int | str) -> SafeString:
    """A translated text with its values, escaped but for the ones already made safe (a marked coordinate)."""
    shown = {k: v if isinstance(v, int) else conditional_escape(v) for k, v in values.items()}
    return mark_safe(conditional_escape(template) % shown)  # noqa: S308 - every part escaped


def table_data(tournament: Tournament, rnd: Round | None) -> dict[str, list[str]]:
    """Table number → [player's name, text of the slip that counts now (or "")], for the page's script."""
    data = {str(n): [name, ""] for n, name in
            tournament.registrations.values_list("table_number", "player__name")}
    style = labels.tournament_style(tournament)
    if rnd is not None:
        for slip in Slip.objects.filter(round=rnd, is_current=True).select_related("registration").only(
                "registration__table_number", "word", "coordinates", "announced_score"):
            row = data.get(str(slip.registration.table_number))
            if row is not None:
                row[1] = style.slip(slip.coordinates, slip.word, slip.announced_score)
    return data
