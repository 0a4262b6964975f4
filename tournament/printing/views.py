"""Printing for arbiters: request a PDF → a Celery task → its progress (JSON) → the file.

Only the tournament's arbiters (and superusers) reach these pages; others get 404 as in the
console. Included by tournament/urls.py as ``path("arbiter/pdf/", include("tournament.printing.urls"))``.

``POST t/<slug>/request/`` with ``kind`` (standings, game-sheet, player-sheet, arbitration, slips, cards)
and ``game``, ``round``, ``player`` (a Player id; for the player sheets also ``all``, ``club:<name>``,
``series:<name>``, ``category:<name>``), ``group_by``, ``copies``, ``flagged_only=1`` (arbitration); cards
also need ``confirm=1`` (printing cards issues new access codes) and take ``base_url`` (the address the
tablets open, ``http(s)://host[:port]``; the machine's LAN address by default, see
:mod:`tournament.web.address`) and ``log_out_tablets=1``. The answer is the job as
JSON (``Accept: application/json`` or ``format=json``) or a redirect to its progress page.
"""

from __future__ import annotations

import time
from typing import Any

from django.contrib import messages
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from ..models import Tournament
from ..services import reading
from ..web.access import arbiter_view
from ..web.address import suggested_address
from . import build
from . import spec as specs
from .address import AddressError, clean_address
from .jobs import Job, get_job, job_file, start_job
from .layout import tr as _

#: A queued job that no worker took after this many seconds: the page says the worker may be down.
WORKER_HINT_AFTER = 15


def kind_labels() -> dict[str, str]:
    return {
        "standings": _("Standings"), "game-sheet": _("Game sheet"), "player-sheet": _("Player sheet"),
        "arbitration": _("Arbitration sheet"), "slips": _("Slips"), "cards": _("Access cards"),
    }


def job_texts() -> dict[str, str]:
    """What the job page's script says of each state, in the active language."""
    return {"queued": _("Waiting for a worker…"), "running": _("Making the document…"), "done": _("Ready."),
            "cached": _("Ready (unchanged since it was last made)."),
            "failed": _("The document could not be made.")}


def wants_json(request: HttpRequest) -> bool:
    return (request.POST.get("format") or request.GET.get("format")) == "json" or \
        "application/json" in request.headers.get("Accept", "")


def _job_or_404(tournament: Tournament, job_id: str, user: Any) -> Job:
    job = get_job(job_id)
    if job is None or job.get("tournament_id") != tournament.pk:
        raise Http404(_("No such print job."))
    if job.get("kind") == "cards" and job.get("user_id") != user.pk:
        raise Http404(_("No such print job."))  # cards carry codes: only for the arbiter who printed them
    return job


def job_json(tournament: Tournament, job: Job) -> dict[str, Any]:
    args = [tournament.slug, job["id"]]
    done = job.get("state") == "done"
    waiting = time.time() - job.get("created", time.time()) if job.get("state") == "queued" else 0
    return {
        "id": job["id"], "kind": job.get("kind"), "state": job.get("state"), "progress": job.get("progress", 0),
        "stage": job.get("stage", ""), "cached": bool(job.get("cached")), "pages": job.get("pages"),
        "error": job.get("error", ""), "filename": job.get("filename", ""),
        "worker_hint": bool(waiting > WORKER_HINT_AFTER),
        "status_url": reverse("pdf:status", args=args), "page_url": reverse("pdf:job", args=args),
        "download_url": reverse("pdf:download", args=args) if done else None,
    }


def _base_url(request: HttpRequest, given: str) -> str:
    """The tablets' address of a cards request (:class:`AddressError` when it is not ``http(s)://host[:port]``);
    none given: the machine's LAN address, as the form offers."""
    return clean_address(given) if (given or "").strip() else suggested_address(request)


def _player_choice(value: str) -> dict[str, Any]:
    """The player sheets' choice of the form (a Player id, ``all``, ``club:<name>``…) as make_spec's arguments."""
    kind, sep, name = (value or "").partition(":")
    if sep and kind in reading.PLAYER_GROUPS:
        return {"player": "all", "group_by": kind, "group": name}
    return {"player": value}


@arbiter_view
@require_GET
def index(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    menu = reading.print_menu(tournament)
    return render(request, "pdf/index.html", {
        "tournament": tournament, "active": "print", "games": menu.games, "last_round": menu.last_round,
        "registrations": menu.registrations, "groups": menu.groups, "base_url": suggested_address(request),
        "max_copies": specs.MAX_COPIES,
    })


def _refuse(request: HttpRequest, tournament: Tournament, message: str, status: int = 400) -> HttpResponse:
    if wants_json(request):
        return JsonResponse({"error": message}, status=status)
    messages.error(request, message)
    return redirect("pdf:index", slug=tournament.slug)


@arbiter_view
@require_POST
def request_document(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    data = request.POST
    kind = data.get("kind", "")
    players = _player_choice(data.get("player", "")) if kind == "player-sheet" else {"player": data.get("player")}
    players.setdefault("group_by", data.get("group_by"))
    try:
        spec = specs.make_spec(tournament, kind, game=data.get("game"), round=data.get("round"),
                               copies=data.get("copies"), flagged_only=data.get("flagged_only"), **players)
    except specs.SpecError as exc:
        return _refuse(request, tournament, str(exc))
    base_url, log_out = None, False
    if kind == "cards":
        if data.get("confirm") != "1":
            return _refuse(request, tournament, _("Printing access cards issues new codes: the codes given "
                                                   "before stop working. Tick the box to confirm."))
        try:
            base_url = _base_url(request, data.get("base_url", ""))
        except AddressError as exc:
            return _refuse(request, tournament, str(exc))
        log_out = data.get("log_out_tablets") == "1"
    job = start_job(tournament, request.user, spec, base_url=base_url, log_out_tablets=log_out)
    if wants_json(request):
        return JsonResponse(job_json(tournament, job), status=200 if job["state"] == "done" else 202)
    return redirect("pdf:job", slug=tournament.slug, job=job["id"])


@arbiter_view
@require_GET
def job_page(request: HttpRequest, tournament: Tournament, job: str) -> HttpResponse:
    record = _job_or_404(tournament, job, request.user)
    return render(request, "pdf/job.html", {
        "tournament": tournament, "active": "print", "job": job_json(tournament, record),
        "title": kind_labels().get(str(record.get("kind")), record.get("kind")), "texts": job_texts(),
    })


@arbiter_view
@require_GET
def job_status(request: HttpRequest, tournament: Tournament, job: str) -> HttpResponse:
    record = _job_or_404(tournament, job, request.user)
    response = JsonResponse(job_json(tournament, record))
    response["Cache-Control"] = "no-store"
    return response


@arbiter_view
@require_GET
def download(request: HttpRequest, tournament: Tournament, job: str) -> HttpResponseBase:
    record = _job_or_404(tournament, job, request.user)
    if record.get("state") != "done":
        return HttpResponse(_("The document is not ready yet."), status=409, content_type="text/plain")
    path = job_file(record)
    if path is None:
        return HttpResponse(_("This file is no longer kept (the data it showed changed, or the cards expired): "
                              "print the document again."), status=410, content_type="text/plain")
    if record.get("kind") == "cards" and time.time() - path.stat().st_mtime > build.CARDS_TTL:
        path.unlink(missing_ok=True)
        return HttpResponse(_("The access cards expired: print them again."), status=410, content_type="text/plain")
    response = FileResponse(path.open("rb"), content_type="application/pdf",
                            as_attachment=request.GET.get("download") == "1",
                            filename=str(record.get("filename") or "document.pdf"))
    response["Cache-Control"] = "no-store" if record.get("kind") == "cards" else "private, max-age=0"
    response["X-Content-Type-Options"] = "nosniff"
    return response
