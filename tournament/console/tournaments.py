"""Tournaments: the list, a new tournament, its settings and its overview."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from ..backup import archive as backup_archive
from ..backup import automatic as backups
from ..errors import ServiceError
from ..models import Round, Tournament
from ..services import audit, tournaments
from ..web.access import arbiter_tournaments, arbiter_view, flash_error
from . import forms, lexicon_offer


def context(tournament: Tournament, active: str, **extra: object) -> dict[str, object]:
    """What every page of a tournament needs (its menu shows ``active``)."""
    return {"tournament": tournament, "active": active, **extra}


@login_required
@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    qs = arbiter_tournaments(request.user).annotate(
        players=Count("registrations", distinct=True), game_count=Count("games", distinct=True))
    return render(request, "arbiter/tournament_list.html", {"tournaments": qs, "active": "tournaments"})


@login_required
@require_http_methods(["GET", "POST"])
def tournament_create(request: HttpRequest) -> HttpResponse:
    """A new tournament; the form also offers to build a rule set's missing lexicon from an installed package
    (``build_lexicon``: the form comes back as typed while the worker builds it)."""
    if request.method == "POST" and request.POST.get("build_lexicon"):
        return build_lexicon(request)
    form = forms.TournamentForm(request.POST or None, initial={"language": (translation.get_language() or "ru")[:2]})
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        try:
            t = tournaments.create_tournament(request.user, name=data.pop("name"), slug=data.pop("slug"),
                                              ruleset=data.pop("ruleset"), lexicon=data.pop("lexicon"),
                                              arbiters=[request.user], **data)
        except ServiceError as exc:
            flash_error(request, exc)
        else:
            with translation.override(t.language):  # said on the new tournament's pages, in its language
                messages.success(request, _("Tournament created. Import the players next."))
            return redirect("arbiter:players", slug=t.slug)
    return new_tournament_page(request, form)


def new_tournament_page(request: HttpRequest, form: forms.TournamentForm) -> HttpResponse:
    return render(request, "arbiter/tournament_form.html", {
        "form": form, "active": "tournaments", "lexicon_offers": lexicon_offer.lexicon_offers(),
        "may_build": lexicon_offer.may_build(request.user)})


def build_lexicon(request: HttpRequest) -> HttpResponse:
    """Starts building the lexicon offered (``build_lexicon``: its source, e.g. uk); the form comes back with
    what was typed in it, and the lexicon's progress until it is ready and chosen."""
    typed = {name: value for name, value in request.POST.items() if name not in ("csrfmiddlewaretoken", "build_lexicon")}
    source = request.POST.get("build_lexicon", "")
    if not lexicon_offer.may_build(request.user):
        messages.error(request, _("Only staff members may add lexicons."))
    elif (row := lexicon_offer.start(request.user, source)) is None:
        messages.error(request, _("No lexicon to build from an installed package for «%(source)s».") % {"source": source})
    else:
        row.refresh_from_db()
        if row.is_ready:  # built already (a worker quicker than this answer): chosen in the form
            typed["lexicon"] = str(row.pk)
        messages.info(request, _("The lexicon is being built from the installed package (a minute at most): it is "
                                 "chosen in the form as soon as it is ready."))
    return new_tournament_page(request, forms.TournamentForm(initial=typed))


@arbiter_view
@require_http_methods(["GET", "POST"])
def tournament_settings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = forms.TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        tournaments.update_tournament(request.user, tournament,
                                      {name: form.cleaned_data[name] for name in form.changed_data})
        messages.success(request, _("Settings saved."))
        return redirect("arbiter:tournament", slug=tournament.slug)
    return render(request, "arbiter/tournament_form.html", context(tournament, "settings", form=form))


@arbiter_view
@require_GET
def tournament_detail(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return overview(request, tournament)


def overview(request: HttpRequest, tournament: Tournament, game_form: forms.GameForm | None = None,
             in_play: list[str] | None = None) -> HttpResponse:
    """The tournament's overview; ``game_form`` and ``in_play`` (the games still played, said before another
    one is created) when the new-game form comes back to the arbiter."""
    games = tournament.games.annotate(
        published=Count("rounds", filter=Q(rounds__status=Round.Status.PUBLISHED))).order_by("number")
    return render(request, "arbiter/tournament_detail.html", context(
        tournament, "overview", games=games, game_form=game_form or forms.GameForm(tournament=tournament),
        in_play=in_play or [], players=tournament.registrations.count(), backup=backup_status(tournament)))


def backup_status(tournament: Tournament) -> dict[str, object]:
    """The overview's backup card: the latest automatic archive, where they go, whether one is overdue (only
    when the tournament changed since that archive: :func:`tournament.backup.automatic.overdue`)."""
    latest = backups.latest(tournament)
    every = settings.BACKUP_SECONDS
    overdue = backups.overdue(tournament, latest)
    minutes = (every // 60 if every % 60 == 0 else round(every / 60, 1)) if every else 0
    return {"latest": latest, "folder": str(backups.backup_dir()), "minutes": minutes,
            "same_disk": backups.backup_dir().is_relative_to(settings.VAR_DIR), "overdue": overdue,
            "lexicon": backups.lexicon_file(tournament)}


@arbiter_view
@require_GET
def backup_download(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """A backup archive of the tournament written now, as a download (``manage.py restore`` reads it)."""
    data, _manifest = backup_archive.archive_bytes([tournament], reason="download")
    audit.record(request.user, "tournament.backup", tournament, tournament=tournament, after={"bytes": len(data)})
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{backup_archive.file_name([tournament])}"'
    return response
