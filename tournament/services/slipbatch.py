"""Tablets' slips written in batches (group commit): the slips that arrive while the previous batch is being
written go to the database together — one transaction, a multi-row ``INSERT`` of the slips and one of their
audit rows — and each is answered only after its batch has committed (an answer still means "in the database").

:func:`store_batch` is the whole rule, for slips whose request has been read and checked for form
(:class:`Incoming`); :class:`tournament.live.slipdoor.SlipDoor` gathers them from the ASGI application and runs
the batches in a thread of their own. The rules are :func:`tournament.services.slips.submit_slip`'s, for many
slips at once:

* the round's row is share-locked (PostgreSQL ``FOR SHARE``) and the players' rows locked, in the order of their
  keys: the close (an ``UPDATE`` of the round) waits for a batch in flight, and one player's slips are stored one
  after another whichever node or batch carries them;
* a new slip replaces the player's previous one until the deadline (every version is kept); a slip is late by
  the time its request reached the hall's front door (:func:`tournament.proxies.door_time`), not by when its
  batch is written; after the close a tablet's slip is kept as late until the publication;
* the idempotency key: a key already stored (or earlier in the same batch) with the same player and body is
  answered as the first time (200); with another body or player it is refused (``idempotency_conflict``).

Anything else — a token this process cannot place, a word with letters outside the tile set or more tiles than
a rack holds, no round taking slips, a slip for another round, a topping round — is not stored here: its answer
is None and the caller hands the request to Django's view, which says why in the player's language.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, tzinfo

from django.db import connection, transaction
from django.utils import timezone

from .. import labels
from ..errors import ServiceError
from ..models import AuditLog, Registration, Round, Slip, Tournament, secret_hashes
from . import push, rounds, rows, slips

#: Slips written in one transaction at most (the rest wait for the next batch).
MOST = 500
#: Tokens this process remembers (token → player): beyond it the memory starts again.
TOKENS_KEPT = 50_000


@dataclass
class Incoming:
    """A tablet's slip as its request brought it, checked for form (the serializer's limits)."""

    token: str
    key: str  # the Idempotency-Key header, as sent
    word: str
    coordinates: str
    score: int | None
    round_id: int | None  # the round the tablet says the slip is for
    door: datetime  # when the request reached the hall's front door
    language: str  # the language of the answer's message
    address: str | None = None  # the client's address, for the audit row


@dataclass
class Outcome:
    """What became of a slip: stored now (``created``), found stored under its key (a retry), or its key
    already used for another slip (``conflict``); ``zone``: the hall's time zone, to write its time in."""

    slip: Slip | None
    created: bool
    conflict: bool
    zone: tzinfo


@dataclass
class _Player:
    registration_id: int
    tournament_id: int
    token_hash: str


@dataclass
class _Place:
    """Where a batch's slips of one tournament go: its round (game and tournament read with it), the round's status
    and deadline as the share lock read them, the hall's time zone."""

    round: Round
    status: str
    deadline: datetime | None
    zone: tzinfo


_tokens: dict[str, _Player] = {}


def forget_tokens() -> None:
    """Forgets every token this process placed (tests; a card replaced is found by the lock's check anyway)."""
    _tokens.clear()


def _players(items: Sequence[Incoming]) -> list[_Player | None]:
    """Each slip's player from this process's memory, the tokens it does not know read in one query. The
    memory is only a hint: :func:`_lock_players` checks every token against the row it locks."""
    unknown: dict[str, str] = {}  # hash → token
    for item in items:
        if item.token not in _tokens:
            for h in secret_hashes(item.token):
                unknown[h] = item.token
    if unknown:
        with connection.cursor() as cur:
            cur.execute(f'SELECT "id", "tournament_id", "token_hash" FROM "{Registration._meta.db_table}" '
                        f'WHERE "token_hash" IN ({rows.placeholders(len(unknown))})', list(unknown))
            found = cur.fetchall()
        if len(_tokens) + len(found) > TOKENS_KEPT:
            _tokens.clear()
        for pk, tid, token_hash in found:
            _tokens[unknown[token_hash]] = _Player(pk, tid, token_hash)
    return [_tokens.get(item.token) for item in items]


def _places(tournament_ids: set[int]) -> dict[int, _Place]:
    """The round of each tournament that a tablet's slip goes to (:func:`rounds.tournament_round`), share-locked
    until the transaction ends as one slip's is (:func:`slips.share_lock_round`)."""
    out: dict[int, _Place] = {}
    for t in Tournament.objects.filter(pk__in=tournament_ids).order_by("pk"):
        rnd = rounds.tournament_round(t)
        if rnd is not None:
            rnd.game.tournament = t
            status, deadline = slips.share_lock_round(rnd.pk)
            out[t.pk] = _Place(rnd, status, deadline, labels.zone_of(t.time_zone))
    return out


def _lock_players(players: dict[int, str]) -> set[int]:
    """Locks the players' rows (in the order of their keys: batches on two nodes never wait for each other in a
    circle) and returns those whose tablet token is still the one the slip carries."""
    lock = " FOR NO KEY UPDATE" if connection.vendor == "postgresql" else ""
    with connection.cursor() as cur:
        cur.execute(f'SELECT "id", "token_hash" FROM "{Registration._meta.db_table}" '
                    f'WHERE "id" IN ({rows.placeholders(len(players))}) ORDER BY "id"{lock}', sorted(players))
        return {pk for pk, token_hash in cur.fetchall() if token_hash and token_hash == players[pk]}


_BY_KEYS = rows.Select(Slip)


def _stored(keys: list[str]) -> dict[str, Slip]:
    found = _BY_KEYS.many(f'WHERE a0."idempotency_key" IN ({rows.placeholders(len(keys))})', keys)
    return {s.idempotency_key: s for s in found}


def _last_versions(round_id: int, registration_ids: list[int]) -> dict[int, int]:
    with connection.cursor() as cur:
        cur.execute(f'SELECT "registration_id", MAX("version") FROM "{Slip._meta.db_table}" WHERE "round_id" = %s '
                    f'AND "registration_id" IN ({rows.placeholders(len(registration_ids))}) '
                    'GROUP BY "registration_id"', [round_id, *registration_ids])
        return {reg: int(v or 0) for reg, v in cur.fetchall()}


@dataclass
class _Work:
    """One batch being decided: each slip's player, place and outcome."""

    items: Sequence[Incoming]
    players: list[_Player | None]
    places: dict[int, _Place]
    keys: list[str] = field(default_factory=list)
    slips: dict[int, Slip] = field(default_factory=dict)  # item → the slip it is answered with
    created: set[int] = field(default_factory=set)
    conflicts: set[int] = field(default_factory=set)
    repeats: dict[int, int] = field(default_factory=dict)  # item → the earlier item of the batch with its key


def store_batch(items: Sequence[Incoming]) -> list[Outcome | None]:
    """Stores the slips in one transaction and returns what became of each (None: Django's view answers it)."""
    if not items:
        return []
    players = _players(items)
    with transaction.atomic():
        work = _Work(items, players, _places({p.tournament_id for p in players if p is not None}))
        _decide(work)
    return [_outcome(work, i) for i in range(len(items))]


def _taken(work: _Work, i: int) -> bool:
    """The slip can be stored here: a known player, his tournament's round taking slips (not topping), the
    round the tablet meant, a word the view would take (:func:`slips.check_word`)."""
    player, item = work.players[i], work.items[i]
    place = work.places.get(player.tournament_id) if player is not None else None
    if place is None or place.status not in slips.TABLET_STATUSES or place.round.game.variant == "topping":
        return False
    if item.round_id is not None and item.round_id != place.round.pk:
        return False
    try:
        slips.check_word(place.round.game.tournament, place.round, item.word, item.coordinates)
    except ServiceError:
        return False
    return True


def _decide(work: _Work) -> None:
    """Inside the batch's transaction: which slips are retries, conflicts, new versions; the new ones inserted."""
    taken = [i for i in range(len(work.items)) if _taken(work, i)]
    if not taken:
        return
    holders = {}
    for i in taken:
        player = work.players[i]
        assert player is not None
        holders[player.registration_id] = player.token_hash
    valid = _lock_players(holders)
    taken = [i for i in taken if work.players[i].registration_id in valid]  # type: ignore[union-attr]
    for i in set(range(len(work.items))) - set(taken):
        player = work.players[i]
        if player is not None and player.registration_id not in valid and player.registration_id in holders:
            _tokens.pop(work.items[i].token, None)  # logged out, card replaced: Django's view says so
    if not taken:
        return
    work.keys = [""] * len(work.items)
    for i in taken:
        work.keys[i] = f"tablet:{work.players[i].registration_id}:{work.items[i].key}"  # type: ignore[union-attr]
    stored = _stored([work.keys[i] for i in taken])
    by_round: dict[int, list[int]] = defaultdict(list)
    first_of_key: dict[str, int] = {}
    for i in taken:
        item, reg = work.items[i], work.players[i].registration_id  # type: ignore[union-attr]
        existing = stored.get(work.keys[i])
        if existing is None and work.keys[i] in first_of_key:  # the same key twice in this batch
            j = first_of_key[work.keys[i]]
            if _same(work.items[j], item):
                work.repeats[i] = j
            else:
                work.conflicts.add(i)
            continue
        if existing is not None:
            if existing.registration_id != reg or not slips.same_body(existing, item.word, item.coordinates, item.score):
                work.conflicts.add(i)
            else:
                work.slips[i] = existing
            continue
        first_of_key[work.keys[i]] = i
        by_round[work.places[work.players[i].tournament_id].round.pk].append(i)  # type: ignore[union-attr]
    new = _new_slips(work, by_round)
    Slip.objects.bulk_create(new)  # one INSERT (on PostgreSQL one UNNEST a column), the keys set on the slips
    for i, j in work.repeats.items():
        work.slips[i] = work.slips[j]
    _audit(work)


def _same(a: Incoming, b: Incoming) -> bool:
    return (a.word, a.coordinates, a.score) == (b.word, b.coordinates, b.score)


def _new_slips(work: _Work, by_round: dict[int, list[int]]) -> list[Slip]:
    """The new slips, versions numbered after each player's last, the last one on time current; the player's
    previous current slip stepped down first."""
    new: list[Slip] = []
    now = timezone.now()
    for round_id, indices in by_round.items():
        place = work.places[work.players[indices[0]].tournament_id]  # type: ignore[union-attr]
        regs = sorted({work.players[i].registration_id for i in indices})  # type: ignore[union-attr]
        versions = _last_versions(round_id, regs)
        last_on_time: dict[int, int] = {}
        lateness: dict[int, bool] = {}
        for i in indices:
            door = min(work.items[i].door, now)
            late = (place.deadline is not None and door > place.deadline) or place.status != Round.Status.OPEN
            lateness[i] = late
            if not late:
                last_on_time[work.players[i].registration_id] = i  # type: ignore[union-attr]
        if last_on_time:
            with connection.cursor() as cur:
                cur.execute(f'UPDATE "{Slip._meta.db_table}" SET "is_current" = %s WHERE "round_id" = %s AND '
                            f'"registration_id" IN ({rows.placeholders(len(last_on_time))}) AND "is_current" = %s',
                            [False, round_id, *sorted(last_on_time), True])
        for i in indices:
            item, reg = work.items[i], work.players[i].registration_id  # type: ignore[union-attr]
            versions[reg] = versions.get(reg, 0) + 1
            slip = Slip(registration_id=reg, round_id=round_id, word=item.word, coordinates=item.coordinates,
                        announced_score=item.score, received_at=min(item.door, now), source=Slip.Source.TABLET,
                        idempotency_key=work.keys[i], version=versions[reg], is_current=last_on_time.get(reg) == i,
                        late=lateness[i])
            work.slips[i] = slip
            work.created.add(i)
            new.append(slip)
    return new


def _audit(work: _Work) -> None:
    """The audit rows of the new slips (as :func:`audit.record` writes them: quiet, the screen version stays),
    and the arbiter's live count told once per tournament when the batch commits."""
    entries = []
    for i in sorted(work.created):
        slip, player = work.slips[i], work.players[i]
        assert player is not None
        entries.append(AuditLog(
            actor=None, tournament_id=player.tournament_id, action="slip.submit", object_type="Slip",
            object_id=str(slip.pk), before=None, address=work.items[i].address,
            after={"text": slip.text, "version": slip.version, "late": slip.late, "source": slip.source}))
    AuditLog.objects.bulk_create(entries)
    for tid in {player.tournament_id for i in work.created if (player := work.players[i]) is not None}:
        push.slip_handed_in(tid)


def _outcome(work: _Work, i: int) -> Outcome | None:
    if i in work.conflicts:
        return Outcome(None, False, True, work.places[work.players[i].tournament_id].zone)  # type: ignore[union-attr]
    slip = work.slips.get(i)
    if slip is None:
        return None
    place = work.places[work.players[i].tournament_id]  # type: ignore[union-attr]
    return Outcome(slip, i in work.created, False, place.zone)
