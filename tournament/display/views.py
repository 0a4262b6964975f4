"""The projector's pages: the list of tournaments, a tournament's display, and its state as JSON."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotModified, JsonResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET

from .. import labels
from ..live import display as live_display
from ..live import version
from ..live.stream import stream_url
from ..models import Round, Tournament
from ..services import rounds, topping
from ..web.language import language_for, render_in


def display_strings() -> dict[str, str | dict[str, str]]:
    """Every text the display script shows, in the active language."""
    return {
        "status_none": _("Waiting for the first round"),
        "status_drawn": _("The arbiter is drawing the rack"),
        "status_open": _("Hand in your slips"),
        "status_closed": _("Time is over"),
        "status_judged": _("Time is over: the arbiter is checking the slips"),
        "status_published": _("The top is on the board"),
        "status_typing": _("The arbiter is typing the rack drawn from the bag…"),
        "game_over": _("Game over"),
        "game_round": _("Game %(game)s · round %(round)s"),
        "game": _("Game %(game)s"),
        "previous_top": _("Top of round %(n)s"),
        "points": labels.points_forms(),
        "standings": _("Standings after game %(n)s"),
        "player": _("Player"),
        "club": _("Club"),
        "total": _("Points"),
        "deficit": _("Deficit"),
        "tournament_total": _("Tournament"),
        "top_total": _("Top total: %(n)s"),
        "offline": _("No connection to the server"),
        "status_drawn_random": _("The computer drew the rack: the round opens in a moment"),
        "status_drawn_typed": _("The arbiter typed the rack drawn from the bag: the round opens in a moment"),
        "status_drawn_prepared": _("The rack of the prepared game is ready: the round opens in a moment"),
        "redrawn": _("Rack redrawn: %(rack)s — %(reason)s"),
        "redraw_reasons": labels.redraw_reason_texts(),
        "game_over_n": _("Game %(game)s is over"),
        "end_reasons": labels.end_reason_texts(),
        "topped": labels.plural_forms(lambda n: ngettext("Topping: %(n)s of %(total)s player has found the top",
                                                         "Topping: %(n)s of %(total)s players have found the top",
                                                         n)),
    }


@require_GET
def display_state_json(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The display's state, with the version as ETag (304 while unchanged). ``?v=`` names the version the
    stream announced: read afresh when this process's memo of a moment ago does not know it yet."""
    tid = version.tournament_id_for(slug)
    wanted = request.GET.get("v", "")[:80]
    etag = version.etag_of(version.version_of(tid, fresh=bool(wanted) and version.known_version(tid) != wanted))
    if version.not_modified(request, etag):
        return version.stamp(HttpResponseNotModified(), etag)
    t = get_object_or_404(Tournament, pk=tid)
    return version.stamp(JsonResponse(live_display.display_state(t), json_dumps_params={"ensure_ascii": False}),
                         etag)


display_state_json.shows_no_time = True  # type: ignore[attr-defined]  # no time zone query (web.timezone)


@require_GET
def topped_json(request: HttpRequest, slug: str) -> JsonResponse:
    """A topping round's count of players who have topped (polled by the display while the round is open:
    a top moves no screen version)."""
    t = get_object_or_404(Tournament, slug=slug)
    rnd = rounds.tournament_round(t)
    if rnd is None or not topping.is_topping(rnd.game) or rnd.status == Round.Status.DRAWN:
        return JsonResponse({"round": None, "topped": 0, "players": 0})
    return JsonResponse({"round": rnd.pk, "topped": topping.topped_count(rnd),
                         "players": t.registrations.count()})


@require_GET
def display(request: HttpRequest, slug: str) -> HttpResponse:
    t = get_object_or_404(Tournament, slug=slug)
    lang, _store = language_for(request, t.language)
    config = {
        "slug": t.slug, "lang": lang,
        "urls": {"state": reverse("display:state", args=[t.slug]), "stream": stream_url(t.slug),
                 "topped": reverse("display:topped", args=[t.slug])},
        "board": labels.board_config(t),
    }
    return render_in(request, lang, "display/display.html", {"tournament": t, "config": config}, display_strings)


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    """The tournaments, each with a link to its hall display."""
    lang = translation.get_language() or settings.LANGUAGE_CODE
    tournaments = Tournament.objects.order_by("-starts_on", "name")
    return render_in(request, lang, "display/index.html", {"tournaments": tournaments})
