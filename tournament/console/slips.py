"""Paper slips typed by the arbiter: table, word, coordinates, score, late tick."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from ..errors import ServiceError
from ..models import Registration, Round, Slip, Tournament
from ..services import rounds, slips
from ..web.access import arbiter_view, flash_error
from . import forms
from .games import game_of, live_state
from .tournaments import context

RECENT_PAPER = 12


@arbiter_view
@require_http_methods(["GET", "POST"])
def slip_entry(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    g = game_of(tournament, number)
    rnd = rounds.current_round(g)
    tables = dict(tournament.registrations.values_list("table_number", "pk"))
    taking = rnd is not None and rnd.status in (Round.Status.OPEN, Round.Status.CLOSED)
    form = forms.SlipForm(request.POST or None, tables=tables, initial={"key": uuid.uuid4().hex})
    if request.method == "POST" and taking and rnd is not None and form.is_valid():
        data = form.cleaned_data
        reg = Registration.objects.get(pk=tables[data["table"]])
        now = timezone.now()
        handed = now if data["late"] or rnd.deadline is None or now <= rnd.deadline else rnd.deadline
        try:
            slip = slips.submit_slip(rnd, reg, word=data["word"], coordinates=data["coordinates"],
                                     score=data["score"], idempotency_key=f"paper-{data['key']}",
                                     source=Slip.Source.PAPER, actor=request.user, received_at=handed)
        except ServiceError as exc:
            flash_error(request, exc)
        else:
            messages.success(request, _("Table %(n)d: %(text)s saved.") % {"n": data["table"], "text": slip.text})
            return redirect("arbiter:slips", slug=tournament.slug, number=g.number)
    recent: list[Slip] = []
    if rnd is not None:
        recent = list(Slip.objects.filter(round=rnd, source__in=[Slip.Source.PAPER, Slip.Source.ARBITER])
                      .select_related("registration__player").order_by("-id")[:RECENT_PAPER])
    return render(request, "arbiter/slips.html", context(
        tournament, "games", page="slips", game=g, round=rnd, form=form, taking=taking, recent=recent,
        live=live_state(tournament, rnd)))
