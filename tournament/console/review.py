"""Review: the verdicts of any judged round of a game (the current one by default, ``?round=<n>`` for
another, published ones included), filtered, a page at a time, one table at a time; corrections
(overrides) and the choice of the top.

Made for a hall of 1,000: the verdicts are read in one query and filtered here (``?show=``), a page
shows :data:`PAGE_SIZE` rows, each with a correction form opened on demand, and ``?table=<n>`` jumps to
one table. A correction of a published round recomputes what follows from it
(:func:`tournament.services.judging.override_verdict`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from .. import labels
from ..errors import ServiceError
from ..models import Game, Round, Tournament, Verdict
from ..services import actions, judging, rounds, solving
from ..web.access import arbiter_view, flash_error
from . import forms
from .games import game_of
from .tournaments import context

#: Verdicts shown on one page of the review.
PAGE_SIZE = 100
#: Round statuses that have verdicts to review.
REVIEWABLE = (Round.Status.JUDGED, Round.Status.REVIEWED, Round.Status.PUBLISHED)
#: What the review page can show (``?show=``): its label and which verdicts.
FILTERS: dict[str, tuple[Promise, Callable[[Verdict], bool]]] = {
    "all": (gettext_lazy("All"), lambda v: True),
    "attention": (gettext_lazy("Needs attention"), lambda v: is_flagged(v)),
    "warnings": (gettext_lazy("Warnings"), lambda v: v.warning),
    "zeros": (gettext_lazy("Zeros"), lambda v: v.awarded == 0 and v.slip_id is not None),
    "overridden": (gettext_lazy("Overridden"), lambda v: not v.automatic),
    "noslip": (gettext_lazy("No slip"), lambda v: v.slip_id is None),
}
#: The query parameters the page keeps from one view to the next (a correction comes back to them).
KEPT = ("round", "show", "table", "page")


def is_flagged(v: Verdict) -> bool:
    return labels.flagged(v.reason, v.warning, v.automatic)


def review_round(g: Game, wanted: str) -> Round | None:
    """The round ``?round=<n>`` names (its live, not cancelled, instance), else the game's current round."""
    if wanted.isdigit():
        return get_object_or_404(g.rounds.exclude(status=Round.Status.CANCELLED).order_by("-id"),
                                 number=int(wanted))
    return rounds.current_round(g)


def kept_query(params: QueryDict, **changes: Any) -> str:
    """The page's query string with ``changes`` (None drops a parameter), only the parameters it knows."""
    q = QueryDict(mutable=True)
    for key in KEPT:
        value = changes[key] if key in changes else params.get(key)
        if value not in (None, ""):
            q[key] = str(value)
    return q.urlencode()


def _table_of(request: HttpRequest) -> int | None:
    text = request.GET.get("table", "").strip()
    return int(text) if text.isdigit() and len(text) <= 6 else None


def _rows(request: HttpRequest, rnd: Round, verdicts: list[Verdict], show: str, table: int | None
          ) -> dict[str, Any]:
    """The rows of this page: the filter's (or the one table's), a page of them, each with its form."""
    chosen = [v for v in verdicts if v.registration.table_number == table] if table is not None else \
        [v for v in verdicts if FILTERS[show][1](v)]
    page = Paginator(chosen, PAGE_SIZE).get_page(request.GET.get("page"))
    solos = set(rnd.solos.values_list("registration_id", flat=True))
    back = kept_query(request.GET, round=rnd.number)
    rows = [{"v": v, "flagged": is_flagged(v), "solo": v.registration_id in solos,
             "reason": labels.reason_label(v.reason),
             "form": forms.OverrideForm(initial={"awarded": v.awarded, "warning": v.warning}, prefix=f"v{v.pk}")}
            for v in page.object_list]
    pages = [(n, "?" + kept_query(request.GET, round=rnd.number, page=n)) for n in page.paginator.page_range]
    return {"rows": rows, "pager": page, "pages": pages if len(pages) > 1 else [], "back": back,
            "matching": len(chosen)}


def _filters(request: HttpRequest, rnd: Round, verdicts: list[Verdict], show: str, table: int | None
             ) -> list[dict[str, Any]]:
    return [{"key": key, "label": label, "count": sum(1 for v in verdicts if test(v)),
             "url": "?" + kept_query(request.GET, round=rnd.number, show=key if key != "all" else None, table=None,
                                     page=None),
             "active": table is None and key == show} for key, (label, test) in FILTERS.items()]


def _round_choices(g: Game, rnd: Round | None) -> list[Round]:
    """The rounds of the selector: those with verdicts, and the one shown (an open round has none yet)."""
    choices = list(g.rounds.filter(status__in=REVIEWABLE).order_by("number", "id"))
    if rnd is not None and rnd not in choices:
        choices = sorted([*choices, rnd], key=lambda r: (r.number, r.pk))
    return choices


@arbiter_view
@require_GET
def review(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    g = game_of(tournament, number)
    rnd = review_round(g, request.GET.get("round", ""))
    show = request.GET.get("show", "all")
    show = show if show in FILTERS else "all"
    table = _table_of(request)
    data: dict[str, Any] = {"rows": [], "filters": []}
    if rnd is not None:
        verdicts = sorted(rnd.verdicts.select_related("registration__player", "slip", "overridden_by"),
                          key=lambda v: (not is_flagged(v), v.registration.table_number))
        data = _rows(request, rnd, verdicts, show, table)
        data["filters"] = _filters(request, rnd, verdicts, show, table)
        data["flagged"] = sum(1 for v in verdicts if is_flagged(v))
        data["verdict_count"] = len(verdicts)
    current = rounds.current_round(g)
    return render(request, "arbiter/review.html", context(
        tournament, "games", page="review", game=g, round=rnd, show=show, table=table,
        is_current=rnd is not None and current is not None and rnd.pk == current.pk,
        review_rounds=_round_choices(g, rnd),
        tops=solving.tops(rnd) if rnd is not None else [], chosen=rnd.chosen_move if rnd else "", **data))


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
            messages.success(request, _("Round %(r)d, table %(n)d: the verdict is changed; totals and ranks follow.")
                             % {"r": verdict.round.number, "n": verdict.registration.table_number})
    else:
        messages.error(request, _("An override needs the points and a reason."))
    back = kept_query(QueryDict(request.POST.get("back", "")), round=verdict.round.number)
    return redirect(reverse("arbiter:review", args=[tournament.slug, verdict.round.game.number])
                    + f"?{back}#v{verdict.pk}")


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
        rnd.refresh_from_db(fields=["chosen_move"])
        shown = labels.tournament_style(tournament).move(rnd.chosen_move or form.cleaned_data["move"])
        messages.success(request, _("Top chosen: %(move)s.") % {"move": shown})
    return redirect("arbiter:review", slug=tournament.slug, number=g.number)
