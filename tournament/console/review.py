"""Review: the verdicts of the current round (flagged first), overrides, and the choice of the top."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from .. import labels
from ..errors import ServiceError
from ..models import Tournament, Verdict
from ..services import actions, judging, rounds, solving
from ..web.access import arbiter_view, flash_error
from . import forms
from .games import game_of
from .tournaments import context


def is_flagged(v: Verdict) -> bool:
    return labels.flagged(v.reason, v.warning, v.automatic)


@arbiter_view
@require_GET
def review(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    g = game_of(tournament, number)
    rnd = rounds.current_round(g)
    verdicts: list[Verdict] = []
    solos: set[int] = set()
    if rnd is not None:
        verdicts = sorted(rnd.verdicts.select_related("registration__player", "slip", "overridden_by"),
                          key=lambda v: (not is_flagged(v), v.registration.table_number))
        solos = {s.registration_id for s in rnd.solos.all()}
    rows = [{"v": v, "flagged": is_flagged(v), "solo": v.registration_id in solos,
             "reason": labels.reason_label(v.reason),
             "form": forms.OverrideForm(initial={"awarded": v.awarded, "warning": v.warning}, prefix=f"v{v.pk}")}
            for v in verdicts]
    return render(request, "arbiter/review.html", context(
        tournament, "games", page="review", game=g, round=rnd, rows=rows,
        tops=solving.tops(rnd) if rnd is not None else [],
        flagged=sum(1 for r in rows if r["flagged"]), chosen=rnd.chosen_move if rnd else ""))


@arbiter_view
@require_POST
def override(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    verdict = get_object_or_404(Verdict.objects.select_related("round__game", "registration"), pk=pk,
                                round__game__tournament=tournament)
    form = forms.OverrideForm(request.POST, prefix=f"v{verdict.pk}")
    if form.is_valid():
        try:
            judging.override_verdict(request.user, verdict, awarded=form.cleaned_data["awarded"],
                                     warning=form.cleaned_data["warning"], why=form.cleaned_data["why"])
        except ServiceError as exc:
            flash_error(request, exc)
        else:
            messages.success(request, _("Verdict of table %(n)d changed.") % {"n": verdict.registration.table_number})
    else:
        messages.error(request, _("An override needs the points and a reason."))
    return redirect(reverse("arbiter:review", args=[tournament.slug, verdict.round.game.number]) + f"#v{verdict.pk}")


@arbiter_view
@require_POST
def choose_top(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    g = game_of(tournament, number)
    rnd = rounds.current_round(g)
    form = forms.TopForm(request.POST)
    if rnd is None or not form.is_valid():
        raise Http404
    try:
        actions.act(request.user, actions.Action.TOP, rnd, move=form.cleaned_data["move"])
    except ServiceError as exc:
        flash_error(request, exc)
    else:
        messages.success(request, _("Top chosen: %(move)s.") % {"move": form.cleaned_data["move"]})
    return redirect("arbiter:review", slug=tournament.slug, number=g.number)
