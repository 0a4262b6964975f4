"""The training pages: the games to train on and the upload of a record, a player's run (its rounds, its
slips, its results). No login: a run is reached by its code (``/training/run/<code>/``), written on the
page so that the player can resume it on another device."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import override
from django.views.decorators.http import require_GET, require_POST

from scoring.judge import SlipParts

from .. import labels
from ..models import Game, TrainingGame, TrainingRun
from ..templatetags.duplicate import explained
from ..web.language import hall_language, language_for, languages, render_in
from . import services
from .forms import ImportForm, StartForm
from .strings import training_strings

LANG_COOKIE = "training_lang"


def language(request: HttpRequest, default: str = "") -> tuple[str, str | None]:
    """A training page's language: ``?lang=``, the reader's choice (cookie), the game's, the one language every
    hall of this server speaks, and only then the browser's."""
    return language_for(
        request, default or hall_language() or getattr(request, "LANGUAGE_CODE", "") or settings.LANGUAGE_CODE,
        LANG_COOKIE)


def respond(response: HttpResponse, store: str | None) -> HttpResponse:
    if store:
        response.set_cookie(LANG_COOKIE, store, max_age=365 * 24 * 3600, samesite="Lax")
    elif store == "":
        response.delete_cookie(LANG_COOKIE)
    return response


def index_page(
    request: HttpRequest, *, form: ImportForm | None = None, error: str = "", status: int = 200
) -> HttpResponse:
    lang, store = language(request)
    context = {
        "finished": services.finished_games(),
        "imported": services.imported_games(),
        "form": form or ImportForm(),
        "error": error,
        "languages": languages(),
        "lang_cookie": request.COOKIES.get(LANG_COOKIE, "") if store is None else store,
    }
    response = render_in(request, lang, "training/index.html", context)
    response.status_code = status
    return respond(response, store)


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    """The finished games to train on, the upload of a record, resuming a run by its code."""
    return index_page(request)


@require_POST
def upload(request: HttpRequest) -> HttpResponse:
    """A record uploaded: a training game, or the page again with the reason (nothing created)."""
    lang, _store = language(request)
    with override(lang):
        form = ImportForm(request.POST, request.FILES)
        if not form.is_valid():
            return index_page(request, form=form, status=400)
        raw = form.cleaned_data["record"].read(services.MAX_RECORD_BYTES + 1)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return index_page(request, form=form, error=_("The file is not text in UTF-8."), status=400)
        try:
            game = services.import_record(
                text=text,
                lexicon=form.cleaned_data["lexicon"],
                seconds_per_move=form.cleaned_data["seconds_per_move"],
                title=form.cleaned_data["title"],
                language=lang,
            )
        except services.TrainingError as exc:
            return index_page(request, form=form, error=str(exc), status=400)
    return redirect(f"{reverse('training:index')}#training-{game.pk}")


@require_POST
def start(request: HttpRequest) -> HttpResponse:
    """A new run of a game (``game``: a finished tournament game; ``training``: an imported one)."""
    lang, _store = language(request)
    with override(lang):
        form = StartForm(request.POST)
        if not form.is_valid():
            return index_page(request, error=_("Write your name."), status=400)
        try:
            if request.POST.get("game"):
                source = get_object_or_404(Game, pk=number(request.POST["game"]), status=Game.Status.FINISHED)
                game = services.from_tournament_game(source)
            else:
                game = get_object_or_404(TrainingGame, pk=number(request.POST.get("training", "")))
            run_ = services.start_run(game, form.cleaned_data["name"])
        except services.TrainingError as exc:
            return index_page(request, error=str(exc), status=400)
    return redirect("training:run", code=run_.code)


def number(text: str) -> int:
    if not text.isdigit():
        raise Http404
    return int(text)


@require_GET
def resume(request: HttpRequest) -> HttpResponse:
    found = services.run_for_code(request.GET.get("code", "")[:16])
    if found is None:
        lang, _store = language(request)
        with override(lang):
            return index_page(request, error=_("No training has this code: check it."), status=404)
    return redirect("training:run", code=found.code)


def _run_or_404(code: str) -> TrainingRun:
    found = services.run_for_code(code[:16])
    if found is None:
        raise Http404
    return found


@require_GET
def run(request: HttpRequest, code: str) -> HttpResponse:
    """The run: the round being played (board, rack, clock, slip), the last round's result, or the end."""
    r = _run_or_404(code)
    game = r.game
    lang, store = language(request, game.language)
    with override(lang):
        context = _run_context(r)
    response = render_in(
        request,
        lang,
        "training/run.html",
        {
            **context,
            "languages": languages(),
            "lang_cookie": request.COOKIES.get(LANG_COOKIE, "") if store is None else store,
        },
        training_strings,
    )
    return respond(response, store)


def _run_context(r: TrainingRun) -> dict[str, Any]:
    game = r.game
    style = labels.tournament_style(game)
    rnd = services.current_round(r) if services.is_playing(r) else None
    results = [_shown(res, style) for res in r.results]
    score = services.score(r)
    over = services.is_finished(r)
    deadline = services.deadline(r)
    config = {
        "board": labels.board_config(game),
        "fen": services.board_before_next(r),
        "rack": rnd["rack"] if rnd else "",
        "deadline": deadline.isoformat() if deadline else None,
        "server_time": timezone.now().isoformat(),
        "playing": rnd is not None,
        "fen_before": game.rounds[len(results) - 1]["board_before"] if results and rnd is None else "",
        "poll": {"url": reverse("training:run_state", args=[r.code]), "signature": services.signature(r)}
        if r.club_id is not None and not over
        else None,
    }
    return {
        "run": r,
        "game": game,
        "round": rnd,
        "last": results[-1] if results and rnd is None else None,
        "results": results,
        "score": score,
        "over": over,
        "count": services.rounds_count(r),
        "comparison": services.comparison(r) if over else None,
        "config": config,
        "club": r.club,
        "coords_example": style.example(),
        "seconds": game.seconds_per_move,
    }


def _shown(res: services.RoundResult, style: labels.CoordStyle) -> dict[str, Any]:
    """A round's result as the page shows it (coordinates in the game's style, the explanation translated)."""
    slip = style.slip(res["coordinates"], res["word"], res["announced"]) if res["word"] else ""
    return {
        **res,
        "slip": slip,
        "top_shown": style.move(res["top"]),
        "top_stored": res["top"],
        "move_shown": style.move(res["move"]) if res["move"] else "",
        "explained": explained(res["explanation"], style, res["message"]),  # the coordinates' letters marked
        # the Joker variant: the blank the top played is now its letter's tile on the board, as the tablet says it
        "replaced_shown": ", ".join(f"? → {letter}" for letter in res.get("replaced", "")),
        "best_shown": [{"move": style.move(m["move"]), "score": m["score"]} for m in res["best"]],
    }


@require_POST
def next_round(request: HttpRequest, code: str) -> HttpResponse:
    r = _run_or_404(code)
    try:
        services.next_round(r)
    except services.TrainingError:
        pass  # a second tap, or the game is over: the page shows where the run is
    return redirect("training:run", code=r.code)


@require_POST
def slip(request: HttpRequest, code: str) -> HttpResponse:
    """The slip of the round being played (``timeout``: the clock ran out, nothing handed in)."""
    r = _run_or_404(code)
    word = request.POST.get("word", "").strip()[:40]
    parts = None
    if word and request.POST.get("timeout") != "1":
        score_text = request.POST.get("score", "").strip()
        score = int(score_text) if score_text.isdigit() and len(score_text) <= 4 else None
        parts = SlipParts(word, request.POST.get("coordinates", "").strip()[:10] or None, score)
    try:
        written_for = request.POST.get("round", "")
        services.hand_in(r, parts, round_number=int(written_for) if written_for.isdigit() else None)
    except services.TrainingError:
        pass  # the round was already judged (a second tap): the page shows its result
    return redirect("training:run", code=r.code)


@require_POST
def show_moves(request: HttpRequest, code: str) -> HttpResponse:
    r = _run_or_404(code)
    services.set_show_moves(r, request.POST.get("show") == "1")
    return redirect("training:run", code=r.code)
