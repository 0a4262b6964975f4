"""Hall display (the projector page) and the cheap *state version* every screen polls.

Real time is plain polling: each tablet and display asks about once a second for the
tournament's state version with ``If-None-Match``. While nothing changed the answer is a
``304 Not Modified`` without a body, computed from a per-process memo refreshed at most every
:data:`VERSION_TTL` seconds (two small indexed queries), so 1,500 tablets cost a few queries a
second, not 1,500. When the version changes a screen fetches its full state once: the tablet
``GET /api/tablet/state/``, the display ``state.json`` here (also answered 304 while unchanged).

Every answer carries ``X-Server-Time`` (milliseconds since the epoch) so that a screen keeps its
clock offset to the server up to date and counts down to the deadline correctly even when its own
clock is wrong.

Public, no login: the display shows what the hall sees on the projector.
"""

from __future__ import annotations

import hashlib
import json
import time
from datetime import UTC, datetime

from django.conf import settings
from django.db import connection
from django.http import Http404, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET

from scoring.board import Board, BoardError
from scoring.coords import LATIN_ROWS, row_label
from scoring.rules import get_ruleset

from . import services
from .api.views import board_after, current_round
from .models import AuditLog, Game, Round, Tournament

#: Seconds a computed version is reused by this process (the poll interval is ~1 s: a change is seen within ~1.4 s).
VERSION_TTL = 0.25
#: Audit actions that change nothing a screen shows (one per slip: they would bump the version all round long).
QUIET_ACTIONS = AuditLog.QUIET_ACTIONS
#: Standing rows sent to the display at the end of a game.
STANDINGS_ROWS = 2000
PREMIUM_CLASS = {"TW": "tw", "DW": "dw", "TL": "tl", "DL": "dl", "Y": "ly", "G": "lg", "B": "lb", "R": "lr"}

#: tournament id → (monotonic time, version, public round): this process's memo.
_versions: dict[int, tuple[float, str, dict | None]] = {}
_slug_ids: dict[str, int] = {}


# -- state version ---------------------------------------------------------------------------------------


_ROUND_SQL = (  # plain SQL: built once, not by the ORM on every call
    f"SELECT r.id, r.status, r.deadline, r.published_at, r.chosen_move, r.chosen_score, "
    f"r.rack, r.number, g.number, r.grace_seconds FROM {Round._meta.db_table} r JOIN {Game._meta.db_table} g ON g.id = r.game_id "
    f"WHERE g.tournament_id = %s AND r.status <> %s ORDER BY g.number DESC, r.number DESC, r.id DESC LIMIT 1")
_AUDIT_SQL = (  # served by the partial index audit_screen_version
    f"SELECT id FROM {AuditLog._meta.db_table} WHERE tournament_id = %s AND "
    f"NOT (action = %s) ORDER BY id DESC LIMIT 1")
assert len(AuditLog.QUIET_ACTIONS) == 1, "_AUDIT_SQL names one quiet action (as the index does)"


def compute_screen_state(tournament_id: int) -> tuple[str, dict | None]:
    """(version, public round). The version is a short tag of what every screen shows: the latest live round
    and the latest state-changing audit row (every service that changes a round, a verdict, a penalty or
    the tournament writes one; the round's own fields catch the rest, e.g. a status set by a task). The
    public round is what anybody in the hall may see of it."""
    with connection.cursor() as cur:
        cur.execute(_ROUND_SQL, [tournament_id, Round.Status.CANCELLED])
        rnd = cur.fetchone()
        cur.execute(_AUDIT_SQL, [tournament_id, *QUIET_ACTIONS])
        row = cur.fetchone()
    audit_id = row[0] if row else None
    raw = repr((rnd, audit_id)).encode()
    # "<last audit id>.<hash>": the number only grows, so a screen can tell a process's stale memo from news
    version = f"{audit_id or 0}.{hashlib.sha256(raw).hexdigest()[:16]}"
    return version, public_round(rnd)


def public_round(row) -> dict | None:
    """The round as the hall sees it on the projector: no rack before the open, never the top."""
    if row is None:
        return None
    rid, status, deadline, _published, _move, _score, rack, number, game, grace = row
    if isinstance(deadline, str):  # SQLite without a converter
        deadline = datetime.fromisoformat(deadline)
    if deadline is not None and timezone.is_naive(deadline):  # SQLite: naive UTC
        deadline = timezone.make_aware(deadline, UTC)
    return {"id": rid, "game": game, "number": number, "status": status,
            "rack": rack if status != Round.Status.DRAWN else None,
            "deadline": deadline.isoformat() if deadline else None, "grace_seconds": grace}


def tournament_version(tournament_id: int, *, fresh: bool = False) -> str:
    """The version (:func:`compute_screen_state`), reused for :data:`VERSION_TTL` seconds by this process
    (``fresh``: computed now)."""
    return screen_state(tournament_id, fresh=fresh)[0]


def screen_state(tournament_id: int, *, fresh: bool = False) -> tuple[str, dict | None]:
    """:func:`compute_screen_state`, reused for :data:`VERSION_TTL` seconds by this process."""
    now = time.monotonic()
    hit = _versions.get(tournament_id)
    if not fresh and hit is not None and now - hit[0] < VERSION_TTL:
        return hit[1], hit[2]
    version, rnd = compute_screen_state(tournament_id)
    _versions[tournament_id] = (now, version, rnd)
    return version, rnd


def version_body(version: str, rnd: dict | None) -> bytes:
    """The body of a version answer that is not a 304 (the Django view and the WSGI layer send the same)."""
    return json.dumps({"version": version, "server_time": timezone.now().isoformat(), "round": rnd},
                      separators=(",", ":")).encode()


def known_tournament_id(slug: str) -> int | None:
    """The id of a tournament this process has seen (no query)."""
    return _slug_ids.get(slug)


def known_version_of(tournament_id: int) -> str | None:
    """The version this process computed less than :data:`VERSION_TTL` seconds ago; None if it has none."""
    known = known_screen_state(tournament_id)
    return known[0] if known else None


def known_screen_state(tournament_id: int) -> tuple[str, dict | None] | None:
    """(version, public round) this process computed less than :data:`VERSION_TTL` seconds ago, or None."""
    hit = _versions.get(tournament_id)
    if hit is None or time.monotonic() - hit[0] >= VERSION_TTL:
        return None
    return hit[1], hit[2]


def tournament_id_for(slug: str) -> int:
    """The tournament's id (memoised: slugs don't change); 404 for an unknown slug."""
    tid = _slug_ids.get(slug)
    if tid is None:
        tid = Tournament.objects.filter(slug=slug).values_list("id", flat=True).first()
        if tid is None:
            raise Http404("no such tournament")
        _slug_ids[slug] = tid
    return tid


def etag_of(version: str) -> str:
    return f'"{version}"'


def not_modified(request, etag: str) -> bool:
    wanted = request.headers.get("If-None-Match", "")
    return any(tag.strip().removeprefix("W/") == etag for tag in wanted.split(",")) if wanted else False


def stamp(response, etag: str | None = None):
    """Headers of every polled answer: the server clock, the ETag, revalidate each time."""
    response["X-Server-Time"] = str(int(time.time() * 1000))
    response["Cache-Control"] = "no-cache"
    if etag:
        response["ETag"] = etag
    return response


@require_GET
def state_version(request, slug: str):
    """``{"version", "server_time", "round"}`` with an ETag; ``304`` when ``If-None-Match`` is the current version.

    No authentication and, most of the time, no query. ``round`` is what the projector shows of the
    latest round (no rack before the open, never the top): when a round opens a tablet shows the rack
    and starts the clock from this answer, without a request of its own.
    """
    version, rnd = screen_state(tournament_id_for(slug))
    etag = etag_of(version)
    if not_modified(request, etag):
        return stamp(HttpResponseNotModified(), etag)
    return stamp(HttpResponse(version_body(version, rnd), content_type="application/json"), etag)


# -- language ---------------------------------------------------------------------------------------


def language_for(request, default: str, cookie: str | None = None) -> tuple[str, str | None]:
    """The screen's language: ``?lang=`` (``auto`` = the tournament's), then the cookie, then ``default``.

    Returns (language, value to store in the cookie: ``""`` = delete, None = leave it).
    """
    known = dict(settings.LANGUAGES)
    asked = request.GET.get("lang")
    if asked is not None:
        if asked in known:
            return asked, asked
        return (default if default in known else settings.LANGUAGE_CODE), ""
    if cookie and request.COOKIES.get(cookie) in known:
        return request.COOKIES[cookie], None
    return (default if default in known else settings.LANGUAGE_CODE), None


def render_in(request, lang: str, template: str, context: dict, strings=None):
    """Renders ``template`` in ``lang``; ``strings()`` (texts for the page's script) is called in that language."""
    with translation.override(lang):
        extra = {"strings": strings()} if strings is not None else {}
        response = render(request, template, {**context, **extra, "LANG": lang})
    response["Content-Language"] = lang
    return response


# -- board data for the screens ------------------------------------------------------------------------


def board_config(ruleset_id: str, convention: str, lang: str) -> dict:
    """What a screen needs to draw the board and tiles: premiums, labels, tile values."""
    ruleset = get_ruleset(ruleset_id)
    layout = ruleset.layout
    premiums = [[PREMIUM_CLASS.get(layout.premium_code(r, c), "") for c in range(15)] for r in range(15)]
    english = convention == "english"
    cyrillic = ruleset.cyrillic and lang in ("ru", "uk") and not english
    if english:
        rows, cols = [str(i + 1) for i in range(15)], list(LATIN_ROWS)
    else:
        rows, cols = [row_label(i, cyrillic) for i in range(15)], [str(i + 1) for i in range(15)]
    return {"ruleset": ruleset_id, "values": dict(ruleset.values), "blank_value": ruleset.blank_value,
            "colours": dict(ruleset.letter_colours), "premiums": premiums, "rows": rows, "cols": cols,
            "convention": convention, "cyrillic": cyrillic, "cyrillic_input": ruleset.cyrillic and not english,
            "alphabet": [letter for letter in ruleset.letters],
            "rack_size": ruleset.rack_size}


def new_squares(ruleset_id: str, before: str, after: str) -> list[list[int]]:
    """Squares filled between two boards (the last top, highlighted)."""
    try:
        ruleset = get_ruleset(ruleset_id)
        old, new = Board.from_fen(ruleset, before or None), Board.from_fen(ruleset, after or None)
    except BoardError:
        return []
    return [[r, c] for r, c, _tile in new.tiles() if old.tile(r, c) is None]


# -- display ------------------------------------------------------------------------------------------------


def _iso(value):
    return value.isoformat() if value else None


def display_state(t: Tournament) -> dict:
    """Everything the projector shows, in one JSON (only fetched again when the version changes)."""
    now = timezone.now()
    rnd = current_round(t)
    game = rnd.game if rnd is not None else (
        t.games.exclude(status=Game.Status.CANCELLED).order_by("-number").first())
    state = {
        "server_time": now.isoformat(),
        "tournament": {"slug": t.slug, "name": t.name, "ruleset": t.ruleset, "games": t.games.count()},
        "game": None, "round": None, "board": "", "last_move": [], "previous": None, "standings": None,
    }
    if game is None:
        return state
    state["game"] = {"number": game.number, "status": game.status, "end_reason": game.end_reason}
    last = game.rounds.filter(status=Round.Status.PUBLISHED).order_by("-number").first()
    if last is not None:
        after = board_after(last)
        state["board"] = after
        state["last_move"] = new_squares(t.ruleset, last.board_before, after)
        state["previous"] = {"number": last.number, "rack": last.rack, "move": last.chosen_move,
                             "score": last.chosen_score}
    else:
        state["board"] = (game.state or {}).get("board", "") if rnd is None else rnd.board_before
    if rnd is not None:
        shown = rnd.status != Round.Status.DRAWN
        left = None if rnd.deadline is None else max(0, int((rnd.deadline - now).total_seconds()))
        state["round"] = {"id": rnd.pk, "number": rnd.number, "status": rnd.status,
                          "rack": rnd.rack if shown else None, "deadline": _iso(rnd.deadline), "seconds_left": left}
    if game.status == Game.Status.FINISHED:
        rows = services.game_standings(game)
        several = state["tournament"]["games"] > 1
        totals = {}
        if several:
            totals = {r.registration.pk: r.total for r in services.tournament_standings(t)}
        state["standings"] = {
            "game": game.number, "top_total": rows[0].top_total if rows else 0,
            "rows": [{"rank": r.rank, "table": r.registration.table_number, "name": r.player.name,
                      "club": r.player.club, "total": r.total, "deficit": r.deficit, "percentage": r.percentage,
                      "tournament_total": totals.get(r.registration.pk)} for r in rows[:STANDINGS_ROWS]],
        }
    return state


@require_GET
def display_state_json(request, slug: str):
    """The display's state, with the version as ETag (304 while unchanged)."""
    tid = tournament_id_for(slug)
    etag = etag_of(tournament_version(tid))
    if not_modified(request, etag):
        return stamp(HttpResponseNotModified(), etag)
    t = get_object_or_404(Tournament, pk=tid)
    return stamp(JsonResponse(display_state(t), json_dumps_params={"ensure_ascii": False}), etag)


def points_forms() -> dict:
    """"%(n)s points" for n = 1, 2 and 5: the script picks the plural form of the language (1 / few / many)."""
    return {str(n): ngettext("%(n)s point", "%(n)s points", n) for n in (1, 2, 5)}


def display_strings() -> dict:
    """Every text the display script shows, in the active language."""
    return {
        "status_none": _("Waiting for the first round"),
        "status_drawn": _("The arbiter is drawing the rack"),
        "status_open": _("Hand in your slips"),
        "status_closed": _("Time is over"),
        "status_judged": _("Time is over: the arbiter is checking the slips"),
        "status_published": _("The top is on the board"),
        "game_over": _("Game over"),
        "game_round": _("Game %(game)s · round %(round)s"),
        "game": _("Game %(game)s"),
        "previous_top": _("Top of round %(n)s"),
        "points": points_forms(),
        "standings": _("Standings after game %(n)s"),
        "player": _("Player"),
        "club": _("Club"),
        "total": _("Points"),
        "deficit": _("Deficit"),
        "tournament_total": _("Tournament"),
        "top_total": _("Top total: %(n)s"),
        "offline": _("No connection to the server"),
    }


@require_GET
def display(request, slug: str):
    t = get_object_or_404(Tournament, slug=slug)
    lang, _store = language_for(request, t.language)
    config = {
        "slug": t.slug, "lang": lang,
        "urls": {"state": reverse("display:state", args=[t.slug])},
        "board": board_config(t.ruleset, t.convention, lang),
    }
    return render_in(request, lang, "display/display.html", {"tournament": t, "config": config}, display_strings)


@require_GET
def index(request):
    """The tournaments, each with a link to its hall display."""
    lang = translation.get_language() or settings.LANGUAGE_CODE
    tournaments = Tournament.objects.order_by("-starts_on", "name")
    return render_in(request, lang, "display/index.html", {"tournaments": tournaments})
