"""One game, many halls: the organiser's pages (prepare a simultaneous game, register halls, give packages,
take results, national standings) and the hall's page inside a tournament (import a package, export or send the
results). The rules are in :mod:`tournament.services.simultaneous` and :mod:`~tournament.services.simulhall`."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from lexicon.models import Lexicon
from scoring.variants import variant_ids

from ..errors import Code, ServiceError
from ..models import VARIANT_CHOICES, Game, Simultaneous, Tournament
from ..services import simulfiles, simulhall, simultaneous
from ..web.access import arbiter_view, flash_error
from ..web.address import address_of
from ..web.organiser import organiser_view
from .forms import ConsoleForm
from .tournaments import context

#: What an organiser's results upload or a hall's package upload may weigh.
MAX_UPLOAD = simulfiles.MAX_BYTES


class LexiconChoice(forms.ModelChoiceField):
    """A ready lexicon, named with its version, rule set and content hash (what the halls must have)."""

    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.label} · {obj.ruleset} · {obj.hash_prefix}…"


class PrepareForm(ConsoleForm):
    name = forms.CharField(label=pgettext_lazy("tournament", "name"), max_length=200)
    lexicon = LexiconChoice(label=gettext_lazy("lexicon"), queryset=Lexicon.objects.none())
    variant = forms.ChoiceField(label=gettext_lazy("variant"), choices=VARIANT_CHOICES, initial="classic")
    seconds_per_move = forms.TypedChoiceField(label=gettext_lazy("time per move"), coerce=int, initial=180,
                                              choices=Tournament.SECONDS_CHOICES)
    language = forms.ChoiceField(label=gettext_lazy("language"), choices=Tournament.Language.choices,
                                 help_text=gettext_lazy("of the national standings"))

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        field = self.fields["lexicon"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = Lexicon.objects.filter(status=Lexicon.Status.READY).order_by("name", "-version")


class HallForm(ConsoleForm):
    name = forms.CharField(label=gettext_lazy("hall"), max_length=200)
    club = forms.CharField(label=gettext_lazy("club"), max_length=200, required=False)
    city = forms.CharField(label=gettext_lazy("city"), max_length=200, required=False)
    code = forms.SlugField(label=gettext_lazy("hall code"), max_length=40, required=False,
                           help_text=gettext_lazy("Empty: made from the name."))


class FileForm(ConsoleForm):
    file = forms.FileField(label=gettext_lazy("file"))


class PackageForm(ConsoleForm):
    file = forms.FileField(label=gettext_lazy("game package (file)"), required=False)
    url = forms.URLField(label=gettext_lazy("or its address"), required=False, assume_scheme="https",
                         widget=forms.TextInput(attrs={"inputmode": "url", "spellcheck": "false"}),
                         help_text=gettext_lazy("The package's address given by the organiser, when online."))
    token = forms.CharField(label=gettext_lazy("hall token"), max_length=64, required=False)


def _file_bytes(form: forms.Form) -> bytes:
    upload = form.cleaned_data.get("file")
    if upload is None:
        return b""
    if upload.size > MAX_UPLOAD:
        raise ServiceError(Code.SIMUL_BAD_FILE, _("the file is larger than %(mb)s MB")
                           % {"mb": MAX_UPLOAD // (1024 * 1024)})
    return bytes(upload.read())


def _download(data: dict[str, Any], name: str) -> HttpResponse:
    response = HttpResponse(simulfiles.dumps(data), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


# -- the organiser -------------------------------------------------------------------------------------------------


@organiser_view
@require_http_methods(["GET", "POST"])
def simul_list(request: HttpRequest) -> HttpResponse:
    form = PrepareForm(request.POST or None, initial={"language": (request.LANGUAGE_CODE or "ru")[:2]})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            simul = simultaneous.prepare(request.user, name=data["name"], lexicon=data["lexicon"],
                                         variant=data["variant"], seconds_per_move=data["seconds_per_move"],
                                         language=data["language"])
        except ServiceError as exc:
            flash_error(request, exc)
        else:
            messages.success(request, ngettext("The game is prepared: %(n)s round.", "The game is prepared: %(n)s rounds.",
                                               len(simul.rounds)) % {"n": len(simul.rounds)})
            return redirect("arbiter:simul", game=simul.game_id)
    games = Simultaneous.objects.select_related("lexicon").annotate(
        hall_count=Count("halls", distinct=True), result_count=Count("halls__result", distinct=True))
    return render(request, "arbiter/simul_list.html", {"active": "simultaneous", "form": form, "games": games,
                                                       "variants": variant_ids()})


FILTER_LABELS = {"hall": gettext_lazy("Hall"), "club": gettext_lazy("Club"), "series": gettext_lazy("Series"),
                 "category": gettext_lazy("Category")}


def _filters(request: HttpRequest) -> dict[str, str]:
    return {k: request.GET.get(k, "")[:200] for k in simultaneous.FILTERS if request.GET.get(k)}


@organiser_view
@require_GET
def simul_detail(request: HttpRequest, simul: Simultaneous) -> HttpResponse:
    filters = _filters(request)
    choices = simultaneous.filter_choices(simul)
    rows = simultaneous.national_standings(simul, **filters)
    halls = simultaneous.hall_summaries(simul)
    tops = simultaneous.played_tops(simul)
    links = {h.hall.code: (address_of(request, reverse("api:simul-package", args=[simul.game_id, h.hall.code])),
                           simulfiles.hall_token(h.hall.key, str(simul.game_id), h.hall.code)) for h in halls}
    return render(request, "arbiter/simul_detail.html", {
        "active": "simultaneous", "simul": simul, "halls": halls, "links": links, "rows": rows,
        "filters": filters, "filter_menus": [(k, FILTER_LABELS[k], choices[k]) for k in simultaneous.FILTERS],
        "hall_form": HallForm(), "file_form": FileForm(),
        "played": len(tops), "top_total": sum(tops),
        "results_url": address_of(request, reverse("api:simul-results", args=[simul.game_id])),
        "query": request.GET.urlencode()})


@organiser_view
@require_POST
def simul_hall(request: HttpRequest, simul: Simultaneous) -> HttpResponse:
    form = HallForm(request.POST)
    if form.is_valid():
        try:
            hall = simultaneous.add_hall(request.user, simul, **form.cleaned_data)
            messages.success(request, _("Hall «%(name)s» registered.") % {"name": hall.name})
        except ServiceError as exc:
            flash_error(request, exc)
    else:
        messages.error(request, _("A hall needs a name."))
    return redirect("arbiter:simul", game=simul.game_id)


@organiser_view
@require_GET
def simul_package(request: HttpRequest, simul: Simultaneous, code: str) -> HttpResponse:
    try:
        hall = simultaneous.hall_of(simul, code)
    except ServiceError as exc:
        flash_error(request, exc)
        return redirect("arbiter:simul", game=simul.game_id)
    url = address_of(request, reverse("api:simul-results", args=[simul.game_id]))
    return _download(simultaneous.package(hall, results_url=url), f"package-{str(simul.game_id)[:8]}-{code}.json")


@organiser_view
@require_POST
def simul_results(request: HttpRequest, simul: Simultaneous) -> HttpResponse:
    form = FileForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, _("Choose the results file of a hall."))
        return redirect("arbiter:simul", game=simul.game_id)
    try:
        result, outcome = simultaneous.import_results(request.user, simul, _file_bytes(form))
    except ServiceError as exc:
        flash_error(request, exc)
    else:
        n = len(result.document["players"])
        said = {"new": ngettext("Results of «%(hall)s» imported: %(n)s player.",
                                "Results of «%(hall)s» imported: %(n)s players.", n),
                "same": _("These results of «%(hall)s» were imported already: nothing changed."),
                "replaced": _("Results of «%(hall)s» replaced by the corrected file (version %(v)s).")}[outcome]
        messages.success(request, said % {"hall": result.hall.name, "n": n, "v": result.version})
    return redirect("arbiter:simul", game=simul.game_id)


# -- the hall ------------------------------------------------------------------------------------------------------


@arbiter_view
@require_http_methods(["GET", "POST"])
def hall_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = PackageForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            data = _file_bytes(form)
            if not data and form.cleaned_data["url"]:
                data = simulhall.fetch_package(form.cleaned_data["url"], form.cleaned_data["token"])
            if not data:
                raise ServiceError(Code.SIMUL_BAD_FILE, _("choose the package file or give its address"))
            game = simulhall.import_package(request.user, tournament, data)
        except ServiceError as exc:
            flash_error(request, exc)
        else:
            messages.success(request, _("Game %(n)s is the simultaneous game: its racks come from the package.")
                             % {"n": game.number})
            return redirect("arbiter:simul_hall", slug=tournament.slug)
    return render(request, "arbiter/simul_hall.html", context(
        tournament, "simultaneous", form=form, hall_games=simulhall.hall_games(tournament)))


@arbiter_view
@require_POST
def hall_results(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponseBase:
    game = get_object_or_404(Game, tournament=tournament, number=number)
    try:
        if request.POST.get("send"):
            answer = simulhall.send_results(request.user, game)
            n = int(answer.get("players") or 0)
            said = {"same": _("The organiser had these results already: nothing changed."),
                    "replaced": ngettext("The organiser replaced the hall's earlier results: %(n)s player.",
                                         "The organiser replaced the hall's earlier results: %(n)s players.", n)}
            messages.success(request, said.get(str(answer.get("outcome")), ngettext(
                "The organiser received the results: %(n)s player.",
                "The organiser received the results: %(n)s players.", n)) % {"n": n})
            return redirect("arbiter:simul_hall", slug=tournament.slug)
        signed = simulhall.results_file(request.user, game)
    except ServiceError as exc:
        flash_error(request, exc)
        return redirect("arbiter:simul_hall", slug=tournament.slug)
    doc = signed["results"]
    return _download(signed, f"results-{doc['game'][:8]}-{doc['hall']}.json")


__all__ = ["hall_page", "hall_results", "simul_detail", "simul_hall", "simul_list", "simul_package",
           "simul_results"]
