"""The club session's pages: open a session, join it, the leader's page (start each round for everyone),
the session's table, and the small state answers the waiting pages poll."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import override
from django.views.decorators.http import require_GET, require_POST

from ..models import Game, TrainingClub, TrainingGame
from ..web.address import address_of
from ..web.language import languages, render_in
from . import clubs, services
from .views import LANG_COOKIE, index_page, language, number, respond


def _game(choice: str) -> TrainingGame:
    """``g<id>``: a finished tournament game; ``t<id>``: an imported game."""
    kind, pk = choice[:1], number(choice[1:])
    if kind == "g":
        return services.from_tournament_game(get_object_or_404(Game, pk=pk, status=Game.Status.FINISHED))
    if kind == "t":
        return get_object_or_404(TrainingGame, pk=pk)
    raise Http404


@require_POST
def open_club(request: HttpRequest) -> HttpResponse:
    lang, _store = language(request)
    with override(lang):
        try:
            club = clubs.open_club(_game(request.POST.get("game", "")), request.POST.get("club", ""))
        except services.TrainingError as exc:
            return index_page(request, error=str(exc), status=400)
    return redirect("training:club_lead", code=club.code, key=club.leader_key)


@require_POST
def join(request: HttpRequest) -> HttpResponse:
    lang, _store = language(request)
    with override(lang):
        club = clubs.club_for_code(request.POST.get("code", ""))
        if club is None:
            return index_page(request, error=_("No club session has this code: check it."), status=404)
        try:
            run = clubs.join(club, request.POST.get("name", ""))
        except services.TrainingError as exc:
            return index_page(request, error=str(exc), status=400)
    return redirect("training:run", code=run.code)


def _leader_or_404(code: str, key: str) -> TrainingClub:
    club = clubs.club_for_leader(code, key)
    if club is None:
        raise Http404
    return club


def _signature(club: TrainingClub) -> str:
    """What the club's pages compare to know that the session moved on: a round started, a slip came in, a player
    joined, or the round's time ran out."""
    rows = clubs.table(club)
    return f"{club.round}:{sum(1 for r in rows if r.handed_in)}:{len(rows)}:{int(clubs.is_running(club))}"


@require_GET
def lead(request: HttpRequest, code: str, key: str) -> HttpResponse:
    """The leader's page: the join code, the players and who has handed in, the button that starts a round."""
    club = _leader_or_404(code, key)
    return _club_page(request, club, leader=True)


def _club_page(request: HttpRequest, club: TrainingClub, *, leader: bool) -> HttpResponse:
    lang, store = language(request, club.game.language)
    deadline = clubs.deadline(club)
    running = clubs.is_running(club)  # the round's time is not over: who has handed in is shown
    awaited = clubs.round_open(club)  # and a slip is still awaited: the clock shows the time left (else none)
    config = {
        "deadline": deadline.isoformat() if deadline and awaited else None,
        "server_time": timezone.now().isoformat(),
        "poll": {"url": reverse("training:club_state", args=[club.code]), "signature": _signature(club)},
    }
    context = {
        "club": club,
        "game": club.game,
        "rows": clubs.table(club),
        "leader": leader,
        "count": clubs.rounds_count(club),
        "running": running,
        "awaited": awaited,
        "over": clubs.is_over(club),
        "join_url": address_of(request, reverse("training:index")),  # what the players' tablets can open
        "config": config,
        "languages": languages(),
        "lang_cookie": request.COOKIES.get(LANG_COOKIE, "") if store is None else store,
    }
    response = render_in(request, lang, "training/club.html", context)
    return respond(response, store)


@require_POST
def start(request: HttpRequest, code: str, key: str) -> HttpResponse:
    club = _leader_or_404(code, key)
    lang, _store = language(request, club.game.language)
    with override(lang):
        try:
            clubs.start_round(club)
        except services.TrainingError as exc:
            messages.error(request, str(exc))
    return redirect("training:club_lead", code=club.code, key=club.leader_key)


@require_GET
def table(request: HttpRequest, code: str) -> HttpResponse:
    """The session's table (public: the players' names and totals)."""
    club = clubs.club_for_code(code)
    if club is None:
        raise Http404
    return _club_page(request, club, leader=False)


@require_GET
def state(request: HttpRequest, code: str) -> JsonResponse:
    club = clubs.club_for_code(code)
    if club is None:
        raise Http404
    return JsonResponse({"signature": _signature(club)})


@require_GET
def run_state(request: HttpRequest, code: str) -> JsonResponse:
    run = services.run_for_code(code[:16])
    if run is None:
        raise Http404
    return JsonResponse({"signature": services.signature(run)})
