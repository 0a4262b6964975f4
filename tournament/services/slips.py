"""Slips: handed in from tablets or typed from paper, every version kept, never lost; the live count.

A slip is stored under an idempotency key: a retry with the same key returns the slip already stored
(a tablet's outbox re-sends after a network error), the same key with another body is refused.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.coords import CoordError, parse_coord
from scoring.notation import NotationError, parse_word
from scoring.placement import fewest_new_tiles, new_tiles_at
from scoring.rules import get_ruleset

from .. import gamestate, labels
from ..errors import Code, ServiceError
from ..models import Registration, Round, Slip, Tournament
from . import audit, judging, push, rows, solving

#: Slips listed on the console's live panel (the newest); the counts cover every slip.
RECENT_SLIPS = 200


#: The round statuses a tablet's slip is stored in (late once the round is closed).
TABLET_STATUSES = (Round.Status.OPEN, Round.Status.CLOSED, Round.Status.JUDGED, Round.Status.REVIEWED)
#: A paper slip is typed until the publication: with the time it was handed in, judged at once after the judging.
PAPER_STATUSES = TABLET_STATUSES
#: The slips an arbiter types (from a paper slip), with the time they were handed in.
PAPER_SOURCES = (Slip.Source.PAPER, Slip.Source.ARBITER)
#: The statuses of a judged round not yet published.
JUDGED_STATUSES = (Round.Status.JUDGED, Round.Status.REVIEWED)


def submit_slip(rnd: Round, registration: Registration, *, word: str, coordinates: str = "",
                score: int | None = None, idempotency_key: str | None = None, source: str = Slip.Source.TABLET,
                actor: audit.Actor = None, received_at: datetime | None = None, checked: bool = False,
                marked_late: bool = False, door: datetime | None = None) -> Slip:
    """Stores a slip version. A retry with the same idempotency key returns the same slip.

    Until the deadline a new slip replaces the previous one (every version is kept).
    A slip after the deadline is kept, marked late, and does not replace an on-time one; a tablet's slip is
    kept so until the round is published (it counts as missing; the arbiter sees it in the review).
    Paper slips may be typed by the arbiter after closing, with the time they were handed in.
    ``checked``: the caller has just looked the idempotency key up and found no slip.
    ``marked_late``: the arbiter ticked a paper slip as handed in late: it is late whatever the clock says
    (an open round, a round closed early). ``door``: when a tablet's request reached the hall's front door
    (:func:`tournament.proxies.door_time`): a tablet slip is late by that time, not by when a busy server got
    to it, and is stored with it.

    The round row is share-locked (PostgreSQL ``FOR SHARE``) and the player's row locked: slips of
    many players are stored side by side, one player's versions one after another, while the close
    (an ``UPDATE`` of that row) waits for the slips in flight and a slip that comes after it sees the
    round closed.
    """
    key = idempotency_key or f"auto-{uuid.uuid4()}"
    if not checked:
        existing = slip_for_key(key)
        if existing is not None:
            return _same_slip(existing, rnd, registration)
    tournament = registration.tournament
    if source in PAPER_SOURCES and rnd.game.variant == "topping":
        raise ServiceError(Code.TOPPING_PAPER, _("round %(n)s is a topping round: record the paper player's time "
                                                 "(table, time, move) on the times page") % {"n": rnd.number})
    if tournament.pk != rnd.game.tournament_id:
        raise ServiceError(Code.WRONG_TOURNAMENT, _("this player is not registered in this round's tournament"))
    check_word(tournament, rnd, word, coordinates or "")
    try:
        with transaction.atomic():
            slip, status = _store(rnd, registration, key, word=word, coordinates=coordinates, score=score,
                                  source=source, actor=actor, received_at=received_at, marked_late=marked_late,
                                  door=door)
    except IntegrityError:
        existing = slip_for_key(key)
        if existing is None:
            raise
        return _same_slip(existing, rnd, registration)
    if source in PAPER_SOURCES and status in JUDGED_STATUSES:
        judging.judge_round(rnd, actor)  # a paper slip typed after the round was judged: its verdict at once
    return slip


def check_word(tournament: Tournament, rnd: Round, word: str, coordinates: str) -> None:
    """Refuses a slip's word before anything is stored: a letter outside the tile set (``bad_letter``: a typo to
    fix), more tiles than a move may place (:func:`check_tiles`)."""
    try:
        tiles = parse_word(word, get_ruleset(tournament.ruleset))
    except NotationError as exc:
        raise ServiceError(Code.BAD_LETTER, _("word: %(why)s") % {
            "why": labels.engine_error(exc, labels.tournament_style(tournament))}) from None
    check_tiles(rnd, word.strip(), [t.letter for t in tiles], coordinates)


def check_tiles(rnd: Round, word: str, letters: list[str], coordinates: str) -> None:
    """Refuses (``too_many_tiles``) a slip whose word places more tiles than a move may (7-among-8: at most 7 of
    the rack's 8; any game: more than a rack holds) wherever it goes on the round's board: the judge could only
    give it 0. Only letters not already on the board count; the count said is the one at the written place when
    the word lies there, else the fewest it places anywhere (on an empty board, round 1: the word's length).
    A word that could lie elsewhere with fewer tiles is taken: a wrong place may still score (RULES §4)."""
    game = rnd.game
    ruleset = gamestate.ruleset_of(game)
    most = ruleset.move_tiles
    if len(letters) <= most:  # the slips of every round: nothing to look at
        return
    board = solving.board_of(rnd)
    count = fewest_new_tiles(board, letters)
    if count <= most:
        return
    tournament = game.tournament
    style = labels.tournament_style(tournament)
    what = f"«{word}»"
    if coordinates.strip() and not board.is_empty():
        try:
            coord = parse_coord(coordinates, cyrillic=ruleset.cyrillic, convention=tournament.convention)
        except CoordError:
            coord = None
        at = new_tiles_at(board, coord, letters) if coord is not None else None
        if at is not None:
            count, what = at, style.slip(coordinates.strip(), word, None)
    raise ServiceError(Code.TOO_MANY_TILES, ngettext(
        "%(slip)s places %(count)d tile: a move places at most %(most)d.",
        "%(slip)s places %(count)d tiles: a move places at most %(most)d.", count)
        % {"slip": what, "count": count, "most": most})


def _store(rnd: Round, registration: Registration, key: str, *, word: str, coordinates: str, score: int | None,
           source: str, actor: audit.Actor, received_at: datetime | None, marked_late: bool = False,
           door: datetime | None = None) -> tuple[Slip, str]:
    status, deadline = share_lock_round(rnd.pk)
    paper = source in PAPER_SOURCES
    # after closing, tablet slips are still kept (as late) until the top is published — a slip a tablet held
    # through an outage reaches the arbiter's review; paper slips carry their hand-in time, typed until the
    # publication (the hall's runners bring them after the deadline, the round judged meanwhile)
    taking = PAPER_STATUSES if paper else TABLET_STATUSES
    if status not in taking:
        raise ServiceError(Code.ROUND_NOT_OPEN, _("round %(n)s is %(status)s: slips are not taken")
                           % {"n": rnd.number, "status": Round.Status(status).label})
    now = timezone.now()
    if paper and received_at:
        now = received_at
    elif not paper and door is not None:
        now = min(door, now)
    # a tablet slip that comes after the close (even a close forced before the deadline) is late
    late = ((deadline is not None and now > deadline) or (status != Round.Status.OPEN and not paper)
            or marked_late)
    if paper and status == Round.Status.REVIEWED:  # a verdict the arbiter has not seen yet: to review again
        audit.claim(Round, rnd.pk, Round.Status.REVIEWED, Round.Status.JUDGED)
    version = _lock_player(registration.pk, rnd.pk) + 1
    current = not late
    if current and version > 1:
        with connection.cursor() as cur:
            cur.execute(f'UPDATE "{Slip._meta.db_table}" SET "is_current" = %s '
                        'WHERE "registration_id" = %s AND "round_id" = %s AND "is_current" = %s',
                        [False, registration.pk, rnd.pk, True])
    slip = rows.insert(Slip(
        registration=registration, round_id=rnd.pk, word=word.strip(), coordinates=(coordinates or "").strip(),
        announced_score=score, received_at=now, source=source, idempotency_key=key, version=version,
        is_current=current, late=late, entered_by=audit.user_or_none(actor),
    ))
    audit.record(actor, "slip.submit", slip, after={"text": slip.text, "version": version, "late": late,
                                                    "source": source}, tournament=registration.tournament)
    push.slip_handed_in(registration.tournament_id)
    return slip, status


_BY_KEY = rows.Select(Slip)


def slip_for_key(key: str) -> Slip | None:
    """The slip stored under this idempotency key (asked with every tablet slip: the SQL is written once)."""
    return _BY_KEY.one('WHERE a0."idempotency_key" = %s ORDER BY a0."id" LIMIT 1', [key])


def _lock_player(registration_id: int, round_id: int) -> int:
    """Locks the player's row until the transaction ends — one player's slips one at a time (versions), other
    players' side by side — and returns his last slip version of the round (0: none yet)."""
    lock = " FOR NO KEY UPDATE" if connection.features.has_select_for_no_key_update else (
        " FOR UPDATE" if connection.features.has_select_for_update else "")
    with connection.cursor() as cur:
        cur.execute(f'SELECT "id" FROM "{Registration._meta.db_table}" WHERE "id" = %s{lock}', [registration_id])
        if cur.fetchone() is None:
            raise Registration.DoesNotExist(registration_id)
        # a statement of its own, after the lock: one that waited for it must see the version just stored
        cur.execute(f'SELECT MAX("version") FROM "{Slip._meta.db_table}" '
                    'WHERE "registration_id" = %s AND "round_id" = %s', [registration_id, round_id])
        row = cur.fetchone()
    return int(row[0] or 0) if row else 0


def last_version(registration_id: int, round_id: int) -> int:
    """The player's last slip version of the round (0: none), his row locked until the transaction ends
    (a slip stored by another path — the topping arbiter's time — takes the next version)."""
    return _lock_player(registration_id, round_id)


def share_lock_round(pk: int) -> tuple[str, datetime | None]:
    """(status, deadline) of a round, share-locked until the transaction ends."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute(f"SELECT status, deadline FROM {Round._meta.db_table} WHERE id = %s FOR SHARE", [pk])
            row = cur.fetchone()
        if row is None:
            raise Round.DoesNotExist(pk)
        return row[0], row[1]
    # SQLite has one writer at a time; other databases: an exclusive row lock
    status, deadline = Round.objects.select_for_update().values_list("status", "deadline").get(pk=pk)
    return status, deadline


def _same_slip(existing: Slip, rnd: Round, registration: Registration) -> Slip:
    if existing.round_id != rnd.pk or existing.registration_id != registration.pk:
        raise ServiceError(Code.KEY_REUSED, _("this slip key belongs to another slip"))
    return existing


# -- retries (the tablet's outbox, the API's Idempotency-Key) ---------------------------------------------


def same_body(slip: Slip, word: str, coordinates: str, score: int | None) -> bool:
    return slip.word == word.strip() and slip.coordinates == (coordinates or "").strip() and \
        slip.announced_score == score


def retried_slip(key: str, registration: Registration, *, word: str, coordinates: str, score: int | None
                 ) -> Slip | None:
    """The slip already stored under this idempotency key (a retry), None for a new key.

    Same key + another body or another player → ``idempotency_conflict``.
    """
    existing = slip_for_key(key)
    if existing is not None and (existing.registration_id != registration.pk
                                 or not same_body(existing, word, coordinates, score)):
        raise ServiceError(Code.IDEMPOTENCY_CONFLICT, key_used_text())
    return existing


def key_used_text() -> str:
    """``idempotency_conflict``'s words (the view and the slips' door say them alike)."""
    return _("this slip key was already used for another slip: send a new key for a new slip")


def late_text() -> str:
    """``time_over``'s words for a late tablet slip (the view and the slips' door say them alike)."""
    return _("time is over: the slip was stored as late and counts as missing")


def submit_once(rnd: Round, registration: Registration, key: str, *, word: str, coordinates: str,
                score: int | None, looked_up: bool = False, source: str = Slip.Source.TABLET,
                actor: audit.Actor = None, received_at: datetime | None = None, door: datetime | None = None
                ) -> tuple[Slip, bool]:
    """:func:`submit_slip` with a retry check: (slip, created). Same key + another body → refused.

    ``looked_up``: :func:`retried_slip` was called for this key just before and found nothing.
    """
    if not looked_up:
        existing = retried_slip(key, registration, word=word, coordinates=coordinates, score=score)
        if existing is not None:
            return existing, False
    slip = submit_slip(rnd, registration, word=word, coordinates=coordinates, score=score, idempotency_key=key,
                       checked=True, source=source, actor=actor, received_at=received_at, door=door)
    return slip, True


# -- the live count ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Count:
    """Slips of a round: the tables registered, those with a slip that counts, late ones, missing ones."""

    registered: int
    received: int
    late: list[int]  # tables whose only slips came late
    missing: list[int]  # tables without a slip that counts


def count(rnd: Round) -> Count:
    """Every table of the round's tournament counted (no limit, whatever the size of the hall)."""
    tables = dict(rnd.game.tournament.registrations.values_list("pk", "table_number"))
    on_time = set(rnd.slips.filter(is_current=True).values_list("registration_id", flat=True)) & set(tables)
    late = set(rnd.slips.filter(late=True).values_list("registration_id", flat=True)) - on_time
    return Count(
        registered=len(tables), received=len(on_time),
        late=sorted(tables[r] for r in late if r in tables),
        missing=sorted(t for r, t in tables.items() if r not in on_time),
    )


def recent(rnd: Round, limit: int = RECENT_SLIPS) -> list[Slip]:
    """The slips that count and the late ones, by table, at most ``limit``."""
    return list(Slip.objects.filter(round=rnd).exclude(is_current=False, late=False)
                .select_related("registration__player").order_by("registration__table_number", "-version")[:limit])


__all__ = ["RECENT_SLIPS", "Count", "check_tiles", "check_word", "count", "key_used_text", "last_version", "late_text", "recent", "retried_slip", "same_body", "share_lock_round", "slip_for_key", "submit_once",
           "submit_slip"]
