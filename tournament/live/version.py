"""The screen version of a tournament and its public round: what every tablet and display polls.

The version is ``<counter>.<tag>``: :attr:`Tournament.screen_version`, a counter that every audited
change a screen shows moves forward (:func:`tournament.services.audit.record`), and a short hash of the
latest live round's row, which catches a change made without the services (a status set in the
database by hand). The counter only grows, so a screen can tell a process's memo a moment old from news. The *public round* is what anybody in the hall may see of the
latest round: no rack before the open, never the top. A process reuses both for :data:`VERSION_TTL`
seconds: 1,500 tablets polling every second cost a few queries a second, not 1,500.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from datetime import UTC, datetime
from typing import Any, TypedDict

from django.db import connection
from django.http import Http404, HttpRequest, HttpResponseBase
from django.utils import timezone
from django.utils.translation import gettext

from ..models import Game, Round, Tournament

#: Seconds a computed version is reused by this process (the poll interval is ~1 s: a change is seen within ~1.3 s).
VERSION_TTL = 0.25



class PublicRound(TypedDict):
    """The latest round as anybody in the hall may see it: no rack before the open, never the top."""

    id: int
    game: int
    number: int
    status: str
    rack: str | None
    deadline: str | None  # ISO 8601
    grace_seconds: int


ScreenState = tuple[str, PublicRound | None]

_lock = threading.Lock()
#: tournament id → (monotonic time, version, public round): this process's memo.
_versions: dict[int, tuple[float, str, PublicRound | None]] = {}
_slug_ids: dict[str, int] = {}

_VERSION_SQL = f"SELECT screen_version FROM {Tournament._meta.db_table} WHERE id = %s"
_ROUND_SQL = (  # plain SQL: built once, not by the ORM on every call
    f"SELECT r.id, r.status, r.deadline, r.rack, r.number, g.number, r.grace_seconds, r.published_at, "
    f"r.chosen_move, r.chosen_score "
    f"FROM {Round._meta.db_table} r JOIN {Game._meta.db_table} g ON g.id = r.game_id "
    f"WHERE g.tournament_id = %s AND r.status <> %s ORDER BY g.number DESC, r.number DESC, r.id DESC LIMIT 1")


def reset() -> None:
    """Forgets the memoised versions and slugs (tests; a restored database)."""
    with _lock:
        _versions.clear()
        _slug_ids.clear()


def expire() -> None:
    """Forgets the memoised versions only, as :data:`VERSION_TTL` seconds later (tests)."""
    with _lock:
        _versions.clear()


def compute(tournament_id: int) -> ScreenState:
    """(version, public round) read now: two small indexed queries."""
    with connection.cursor() as cur:
        cur.execute(_VERSION_SQL, [tournament_id])
        row = cur.fetchone()
        if row is None:
            raise Http404(gettext("No such tournament."))
        cur.execute(_ROUND_SQL, [tournament_id, Round.Status.CANCELLED])
        rnd = cur.fetchone()
    tag = hashlib.sha256(repr(rnd).encode()).hexdigest()[:12]
    return f"{row[0]}.{tag}", public_round(rnd)


def public_round(row: tuple[Any, ...] | None) -> PublicRound | None:
    """The round as the hall sees it on the projector: no rack before the open, never the top.

    ``row``: the database row of :data:`_ROUND_SQL` (the driver's values)."""
    if row is None:
        return None
    rid, status, deadline, rack, number, game, grace = row[:7]
    if isinstance(deadline, str):  # SQLite without a converter
        deadline = datetime.fromisoformat(deadline)
    if deadline is not None and timezone.is_naive(deadline):  # SQLite: naive UTC
        deadline = timezone.make_aware(deadline, UTC)
    return {"id": rid, "game": game, "number": number, "status": status,
            "rack": rack if status != Round.Status.DRAWN else None,
            "deadline": deadline.isoformat() if deadline else None, "grace_seconds": grace}


def screen_state(tournament_id: int, *, fresh: bool = False) -> ScreenState:
    """:func:`compute`, reused for :data:`VERSION_TTL` seconds by this process (``fresh``: read now)."""
    now = time.monotonic()
    hit = _versions.get(tournament_id)
    if not fresh and hit is not None and now - hit[0] < VERSION_TTL:
        return hit[1], hit[2]
    state = compute(tournament_id)
    _versions[tournament_id] = (now, *state)
    return state


def version_of(tournament_id: int, *, fresh: bool = False) -> str:
    return screen_state(tournament_id, fresh=fresh)[0]


def known_screen_state(tournament_id: int) -> ScreenState | None:
    """(version, public round) this process read less than :data:`VERSION_TTL` seconds ago, or None."""
    hit = _versions.get(tournament_id)
    if hit is None or time.monotonic() - hit[0] >= VERSION_TTL:
        return None
    return hit[1], hit[2]


def known_version(tournament_id: int) -> str | None:
    known = known_screen_state(tournament_id)
    return known[0] if known else None


def known_tournament_id(slug: str) -> int | None:
    """The id of a tournament this process has seen (no query)."""
    return _slug_ids.get(slug)


def tournament_id_for(slug: str) -> int:
    """The tournament's id (memoised: slugs don't change); 404 for an unknown slug."""
    tid = _slug_ids.get(slug)
    if tid is None:
        tid = Tournament.objects.filter(slug=slug).values_list("id", flat=True).first()
        if tid is None:
            raise Http404(gettext("No such tournament."))
        _slug_ids[slug] = tid
    return tid


# -- HTTP: ETag, 304, the server's clock ------------------------------------------------------------------


def changes_between(older: str, newer: str) -> int | None:
    """How many audited changes lie between two versions (their counters' difference; None for a malformed one)."""
    try:
        return int(newer.split(".", 1)[0]) - int(older.split(".", 1)[0])
    except ValueError:
        return None


def etag_of(version: str) -> str:
    return f'"{version}"'


def matches(if_none_match: str, etag: str) -> bool:
    """Whether an ``If-None-Match`` header names this ETag (weak or strong)."""
    return any(tag.strip().removeprefix("W/") == etag for tag in if_none_match.split(",")) if if_none_match else False


def not_modified(request: HttpRequest, etag: str) -> bool:
    return matches(request.headers.get("If-None-Match", ""), etag)


def stamp(response: HttpResponseBase, etag: str | None = None) -> HttpResponseBase:
    """Headers of every polled answer: the server clock, the ETag, revalidate each time."""
    response["X-Server-Time"] = str(int(time.time() * 1000))
    response["Cache-Control"] = "no-cache"
    if etag:
        response["ETag"] = etag
    return response


def version_body(version: str, rnd: PublicRound | None) -> bytes:
    """The body of a version answer that is not a 304 (the Django view and the WSGI layer send the same)."""
    return json.dumps({"version": version, "server_time": timezone.now().isoformat(), "round": rnd},
                      separators=(",", ":")).encode()


__all__ = ["VERSION_TTL", "changes_between", "compute", "etag_of", "expire", "known_screen_state", "known_tournament_id", "known_version",
           "matches", "not_modified", "public_round", "reset", "screen_state", "stamp", "tournament_id_for",
           "version_body", "version_of"]
