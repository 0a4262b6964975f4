"""Arbiter pages: check words for challenges, list lexicons, upload a new list and follow its build."""

from __future__ import annotations

import logging
import zoneinfo
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, Concatenate, ParamSpec

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from . import services, sources, texts
from .forms import CheckForm, UploadForm, ready_lexicons
from .models import BuildOptions, Lexicon, LexiconError, lexicon_dir
from .pages import ArbiterPage, arbiter_page
from .tasks import build_uploaded_lexicon

log = logging.getLogger(__name__)

P = ParamSpec("P")


def staff_required(
    view: Callable[Concatenate[HttpRequest, P], HttpResponse],
) -> Callable[Concatenate[HttpRequest, P], HttpResponse]:
    """Anonymous users go to the login page; logged-in users who are not staff get 403."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not (request.user.is_active and request.user.is_staff):
            raise PermissionDenied(_("Only staff members may add lexicons."))
        return view(request, *args, **kwargs)

    return wrapper


def _console(request: HttpRequest) -> ArbiterPage:
    """The console around the page: the tournament the arbiter comes from; its language unless one was chosen,
    its time zone (deactivated after the request by ``TournamentTimeZone``)."""
    page = arbiter_page(request)
    if page.language:
        translation.activate(page.language)
        request.LANGUAGE_CODE = page.language
    if page.time_zone:
        try:
            timezone.activate(zoneinfo.ZoneInfo(page.time_zone))
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            pass  # an unknown zone: the site's
    return page


def _render(request: HttpRequest, page: ArbiterPage, template: str, context: dict[str, Any]) -> HttpResponse:
    """A lexicon page in the console's frame (its menu: the tournament's tabs when there is one)."""
    return render(request, template, {"tournament": page.tournament, **context})


def _default_lexicon(request: HttpRequest, page: ArbiterPage) -> tuple[Lexicon | None, str]:
    """The word check's list when none is posted, and why: ``asked`` (``?lexicon=``), ``tournament``
    (the lexicon of the tournament the arbiter comes from) or ``first`` (no tournament: the first ready)."""
    ready = ready_lexicons()
    wanted = request.GET.get("lexicon", "")
    if wanted.isdigit() and (row := ready.filter(pk=int(wanted)).first()) is not None:
        return row, "asked"
    if page.lexicon_id is not None and (row := ready.filter(pk=page.lexicon_id).first()) is not None:
        return row, "tournament"
    return ready.first(), "first"


@login_required
@require_http_methods(["GET", "POST"])
def check(request: HttpRequest) -> HttpResponse:
    page = _console(request)
    results: list[tuple[str, bool]] | None = None
    error = None
    chosen, why = _default_lexicon(request, page)
    if request.method == "POST":
        form = CheckForm(request.POST)
        if form.is_valid():
            lexicon = form.cleaned_data["lexicon"]
            try:
                results = services.check_words(lexicon, form.cleaned_data["words"])
            except LexiconError as exc:
                error = _("The words could not be checked: %(err)s") % {"err": exc}
            why = "tournament" if page.lexicon_id == lexicon.pk else "asked"
            chosen = lexicon
    else:
        form = CheckForm(initial={"lexicon": chosen.pk} if chosen is not None else {})
    checked = results or []
    context = {
        "form": form,
        "results": results,
        "all_valid": bool(checked) and all(ok for _w, ok in checked),
        "invalid_count": sum(1 for _w, ok in checked if not ok),
        "error": error,
        "has_lexicons": ready_lexicons().exists(),
        "chosen": chosen,
        "chosen_why": why,
        "active": "check",
    }
    return _render(request, page, "lexicon/check.html", context)


@login_required
@require_GET
def lexicon_list(request: HttpRequest) -> HttpResponse:
    page = _console(request)
    rows = Lexicon.objects.order_by("name", "-version", "-created_at")
    if not request.GET.get("all"):
        rows = rows.exclude(status=Lexicon.Status.FAILED)
    return _render(request, page, "lexicon/list.html",
                   {"lexicons": rows, "active": "lexicons", "show_all": bool(request.GET.get("all"))})


@staff_required
@require_http_methods(["GET", "POST"])
def upload(request: HttpRequest) -> HttpResponse:
    page = _console(request)
    if request.method == "POST":
        form = UploadForm(request.POST, request.FILES)
        if form.is_valid():
            assert isinstance(request.user, User)  # staff_required: a signed-in staff member
            row = _create_pending(request, request.user, form.cleaned_data)
            if row is not None:
                return redirect("lexicon:detail", pk=row.pk)
    else:
        form = UploadForm()
    return _render(request, page, "lexicon/upload.html", {"form": form, "active": "upload"})


def _create_pending(request: HttpRequest, user: User, data: dict[str, Any]) -> Lexicon | None:
    upload_file = data.get("file")
    installed = data.get("installed") or ""
    input_rel = ""
    options: BuildOptions
    try:
        if upload_file is not None:
            input_rel = services.save_upload(upload_file.chunks(), upload_file.name)
            options = {"kind": "file", "skip_capitalised": data["skip_capitalised"], "original_name": upload_file.name}
            source = _("upload %(name)s") % {"name": Path(upload_file.name).name}
        else:
            kind, _sep, key = installed.partition(":")
            if kind == "package":
                options = {"kind": "package", "source": key, "yo_as_e": data["yo_as_e"]}
                source = sources.describe_package_source(key)
            else:
                entry = sources.debian_list(key)
                options = {"kind": "debian", "source": key, "skip_capitalised": data["skip_capitalised"]}
                input_rel = str(entry.path)
                source = entry.describe()
        with transaction.atomic():
            row = Lexicon.objects.create(
                name=data["name"],
                ruleset=data["ruleset"],
                source=source,
                input_path=input_rel,
                options=options,
                status=Lexicon.Status.PENDING,
                created_by=user,
            )
            pk = row.pk
            transaction.on_commit(lambda: _enqueue(pk))
    except (OSError, sources.SourceError, LexiconError) as exc:
        if upload_file is not None and input_rel:
            (lexicon_dir() / input_rel).unlink(missing_ok=True)
        log.warning("lexicon upload refused: %s", exc)
        messages.error(request, _("The list could not be stored: %(err)s") % {"err": exc})
        return None
    except BaseException:
        if upload_file is not None and input_rel:
            (lexicon_dir() / input_rel).unlink(missing_ok=True)
        raise
    return row


def _enqueue(pk: int) -> None:
    try:
        build_uploaded_lexicon.delay(pk)
    except Exception as exc:  # broker unreachable: say so on the row rather than leave it pending forever
        log.exception("lexicon %s: cannot queue the build", pk)
        Lexicon.objects.filter(pk=pk, status=Lexicon.Status.PENDING).update(
            status=Lexicon.Status.FAILED, error=f"the build could not be queued: {exc}"
        )


@login_required
@require_GET
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    page = _console(request)
    row = get_object_or_404(Lexicon, pk=pk)
    report = row.report or {}
    skipped = report.get("skipped") or {}
    context = {
        "lexicon": row,
        "report": report,
        "figures": report.get("figures") or {},
        "skipped": skipped,
        "reasons": [(reason, {**info, "label": texts.reason_label(reason)})
                    for reason, info in (skipped.get("by_reason") or {}).items()],
        "foreign_letters": list((skipped.get("foreign_letters") or {}).items())[:30],
        "notes": [texts.note_text(note) for note in skipped.get("notes") or []],
        "in_progress": row.status in (Lexicon.Status.PENDING, Lexicon.Status.BUILDING),
        "status_url": reverse("lexicon:status", args=[row.pk]),
        "active": "lexicons",
    }
    return _render(request, page, "lexicon/detail.html", context)


@login_required
@require_GET
def status(request: HttpRequest, pk: int) -> JsonResponse:
    _console(request)  # the status label in the page's language
    row = get_object_or_404(Lexicon, pk=pk)
    return JsonResponse(
        {
            "id": row.pk,
            "name": row.name,
            "version": row.version,
            "status": row.status,
            "status_label": row.get_status_display(),
            "progress": row.progress,
            "word_count": row.word_count,
            "content_hash": row.content_hash,
            "build_seconds": row.build_seconds,
            "error": row.error,
            "done": row.status in (Lexicon.Status.READY, Lexicon.Status.FAILED),
        }
    )
