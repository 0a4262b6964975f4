"""Players: register one by one, renumber tables, import a CSV file."""

from __future__ import annotations

from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from ..errors import ServiceError
from ..models import Registration, Tournament
from ..services import playerimport
from ..services import players as player_service
from ..web.access import arbiter_view, flash_error
from . import forms
from .tournaments import context


def to_correct(n: int) -> str:
    """The import's refusal: how many lines of the file to correct."""
    return ngettext("Nothing was imported: %(n)d line to correct.", "Nothing was imported: %(n)d lines to correct.",
                    n) % {"n": n}


@arbiter_view
@never_cache  # the codes to hand out are kept in no cache of the browser
@require_http_methods(["GET", "POST"])
def players(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The players and their tables, and the access codes still to hand out (every player registered whose
    tablet has not logged in, whose card was not printed and whose code was not marked handed out); a player
    registered, tables saved or codes handed out → back to this page (POST/redirect/GET)."""
    regs = tournament.registrations.select_related("player").order_by("table_number")
    posted = request.POST.get("form") if request.method == "POST" else None
    if posted == "handed_out":
        return handed_out(request, tournament)
    player_form = forms.PlayerForm(request.POST if posted == "player" else None,
                                   known=regs.values_list("player__name", "table_number"))
    tables_form = forms.TablesForm(request.POST if posted == "tables" else None, registrations=regs)
    if posted == "player" and player_form.is_valid():
        try:
            reg, code = player_service.register_player(request.user, tournament, **player_form.cleaned_data)
        except ServiceError as exc:
            flash_error(request, exc)
        else:
            messages.success(request, _("%(name)s registered at table %(n)d: the access code is in the list of "
                                        "codes to hand out.") % {"name": reg.player.name, "n": reg.table_number})
            return redirect("arbiter:players", slug=tournament.slug)
    elif posted == "tables" and tables_form.is_valid():
        moved = player_service.assign_tables(request.user, tournament, {
            reg: tables_form.cleaned_data[f"table_{reg.pk}"] for reg in tables_form.registrations})
        messages.success(request, _("Tables saved (%(n)d changed).") % {"n": moved})
        return redirect("arbiter:players", slug=tournament.slug)
    return render(request, "arbiter/players.html", context(
        tournament, "players", player_form=player_form, tables_form=tables_form,
        to_hand_out=player_service.codes_to_hand_out(tournament), registrations=regs))


def handed_out(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The arbiter handed out one code (``registration``: its id) or all of them (``all``): they leave the list."""
    which = request.POST.get("registration", "")
    if which != "all" and not which.isdigit():
        messages.error(request, _("Choose the code handed out."))
        return redirect("arbiter:players", slug=tournament.slug)
    n = player_service.mark_handed_out(request.user, tournament, None if which == "all" else [int(which)])
    messages.success(request, ngettext("%(n)d access code handed out.", "%(n)d access codes handed out.", n)
                     % {"n": n})
    return redirect("arbiter:players", slug=tournament.slug)


@arbiter_view
@never_cache  # the imported players' codes are kept in no cache of the browser
@require_http_methods(["GET", "POST"])
def import_players(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """A CSV file checked whole (every bad line listed, nothing written); up to ``BATCH`` players registered
    at once, more by the worker in short transactions while this page shows its progress (``?job=``)."""
    job = request.GET.get("job", "")
    if job and request.method == "GET":
        found = playerimport.state(job, tournament)
        if found is None:
            raise Http404(_("No such import."))
        return render(request, "arbiter/import.html", context(
            tournament, "players", job=found, progress=_job_progress(found),
            status_url=reverse("arbiter:import_status", args=[tournament.slug, job])))
    form = forms.ImportForm(request.POST or None, request.FILES or None)
    problems: list[forms.CsvProblem] = []
    imported: list[tuple[Registration, str]] = []
    if request.method == "POST" and form.is_valid():
        known = set(tournament.registrations.values_list("player__name", flat=True))
        rows, problems = forms.parse_players_csv(form.cleaned_data["content"], known)
        if not problems and not rows:
            messages.error(request, _("No player line found."))
        elif problems:
            messages.error(request, to_correct(len(problems)))
        elif len(rows) > playerimport.MAX_ROWS:
            messages.error(request, forms.too_many_rows(len(rows)))
        elif len(rows) > playerimport.BATCH:
            job = playerimport.start(request.user, tournament, [row.fields() for row in rows])
            return redirect(f"{reverse('arbiter:import', args=[tournament.slug])}?job={job}")
        else:
            imported = _register_now(request, tournament, rows, problems)
    return render(request, "arbiter/import.html", context(
        tournament, "players", form=form, problems=problems, imported=imported))


def _register_now(request: HttpRequest, tournament: Tournament, rows: list[forms.CsvLine],
                  problems: list[forms.CsvProblem]) -> list[tuple[Registration, str]]:
    """A small file (one batch) registered in this request, all or none; its codes shown at once."""
    imported: list[tuple[Registration, str]] = []
    try:
        with transaction.atomic():
            for row in rows:
                try:
                    imported.append(player_service.register_player(request.user, tournament, **row.fields()))
                except ServiceError as exc:
                    problems.append(forms.CsvProblem(row.line, row.name, exc.message))
                    raise
    except ServiceError:
        messages.error(request, to_correct(len(problems)))
        return []
    messages.success(request, ngettext("%(n)d player imported.", "%(n)d players imported.",
                                       len(imported)) % {"n": len(imported)})
    return imported


def _job_progress(job: playerimport.State) -> dict[str, object]:
    labels = {"queued": _("Waiting for the worker"), "running": _("Importing"), "done": _("Imported"),
              "failed": _("The import stopped")}
    return {"status_label": labels.get(job["status"], job["status"]),
            "progress": job["done"] * 100 // max(job["total"], 1), "done": job["status"] in ("done", "failed")}


@arbiter_view
@never_cache
@require_GET
def import_status(request: HttpRequest, tournament: Tournament, job: str) -> JsonResponse:
    """A background import's progress, polled by its page (``static/js/progress.js``)."""
    found = playerimport.state(job, tournament)
    if found is None:
        raise Http404(_("No such import."))
    return JsonResponse(_job_progress(found))
