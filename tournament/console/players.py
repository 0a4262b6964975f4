"""Players: register one by one, renumber tables, import a CSV file."""

from __future__ import annotations

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from ..errors import ServiceError
from ..models import Registration, Tournament
from ..services import players as player_service
from ..web.access import arbiter_view, flash_error
from . import forms
from .tournaments import context

#: The session key of the access codes just made, shown once on the next page.
NEW_CODES = "new_access_codes"


def to_correct(n: int) -> str:
    """The import's refusal: how many lines of the file to correct."""
    return ngettext("Nothing was imported: %(n)d line to correct.", "Nothing was imported: %(n)d lines to correct.",
                    n) % {"n": n}


@arbiter_view
@require_http_methods(["GET", "POST"])
def players(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The players and their tables; a player registered or tables saved → back to this page (POST/redirect/GET),
    the new player's access code shown once on it."""
    regs = tournament.registrations.select_related("player").order_by("table_number")
    posted = request.POST.get("form") if request.method == "POST" else None
    player_form = forms.PlayerForm(request.POST if posted == "player" else None,
                                   known=regs.values_list("player__name", "table_number"))
    tables_form = forms.TablesForm(request.POST if posted == "tables" else None, registrations=regs)
    if posted == "player" and player_form.is_valid():
        try:
            reg, code = player_service.register_player(request.user, tournament, **player_form.cleaned_data)
        except ServiceError as exc:
            flash_error(request, exc)
        else:
            messages.success(request, _("%(name)s registered at table %(n)d.")
                             % {"name": reg.player.name, "n": reg.table_number})
            request.session[NEW_CODES] = [[reg.pk, code]]
            return redirect("arbiter:players", slug=tournament.slug)
    elif posted == "tables" and tables_form.is_valid():
        moved = player_service.assign_tables(request.user, tournament, {
            reg: tables_form.cleaned_data[f"table_{reg.pk}"] for reg in tables_form.registrations})
        messages.success(request, _("Tables saved (%(n)d changed).") % {"n": moved})
        return redirect("arbiter:players", slug=tournament.slug)
    return render(request, "arbiter/players.html", context(
        tournament, "players", player_form=player_form, tables_form=tables_form,
        new_codes=new_codes(request, tournament), registrations=regs))


def new_codes(request: HttpRequest, tournament: Tournament) -> list[tuple[Registration, str]]:
    """The access codes of the players just registered, taken out of the session: shown once."""
    saved = dict(request.session.pop(NEW_CODES, []) or [])
    regs = tournament.registrations.select_related("player").filter(pk__in=list(saved)).order_by("table_number")
    return [(reg, saved[reg.pk]) for reg in regs]


@arbiter_view
@require_http_methods(["GET", "POST"])
def import_players(request: HttpRequest, tournament: Tournament) -> HttpResponse:
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
        else:
            try:
                with transaction.atomic():
                    for row in rows:
                        try:
                            imported.append(player_service.register_player(
                                request.user, tournament, name=row.name, club=row.club, category=row.category,
                                series=row.series, licence=row.licence))
                        except ServiceError as exc:
                            problems.append(forms.CsvProblem(row.line, row.name, exc.message))
                            raise
            except ServiceError:
                imported = []
                messages.error(request, to_correct(len(problems)))
            else:
                messages.success(request, ngettext("%(n)d player imported.", "%(n)d players imported.",
                                                   len(imported)) % {"n": len(imported)})
    return render(request, "arbiter/import.html", context(
        tournament, "players", form=form, problems=problems, imported=imported))
