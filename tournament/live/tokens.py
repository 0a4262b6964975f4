"""Which player a stream belongs to (its ``tablet_token`` cookie), for 10,000 tablets connecting at once.

A stream asks once, when it connects. The answers are kept in the process's memory for
:data:`KEPT_SECONDS` (a Wi-Fi that drops the whole hall brings every stream back within seconds: none of them
costs a query), and the tokens this process does not know are read together — every stream that connected
while the previous read ran waits for the next one, one query for all of them — in a thread, off the loop.

The memory only says whom a stream speaks for; it does not decide what a logged-out token still gets. Each
change's hall is read with its roster (every logged-in token's hash, :class:`~tournament.live.tablet.JudgedHall`),
and a stream sends a player's own state only while the roster still holds its token, or when the token was
read after the roster (:func:`speaks_for`): a card replaced or a tablet logged out gets the public event from
the next change on.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass

from asgiref.sync import sync_to_async

from ..models import Registration, secret_hashes
from . import tablet

log = logging.getLogger(__name__)

#: How long a token's player is believed without reading it again.
KEPT_SECONDS = 60.0
#: Tokens kept at most (beyond it the memory starts again).
KEPT = 50_000
#: Tokens read in one query at most.
BATCH = 2_000


@dataclass(frozen=True)
class Holder:
    """A token's player as read at ``read_at`` (epoch seconds), with the hashes its token is stored under."""

    tournament_id: int
    player: tablet.Player
    hashes: tuple[str, ...]
    read_at: float


def read_tokens(tokens: Sequence[str]) -> dict[str, Holder | None]:
    """Each token's player (None: no tablet logged in with it), in one query."""
    hashes = {token: tuple(secret_hashes(token)) for token in tokens}
    owner = {h: token for token, hs in hashes.items() for h in hs}
    now = time.time()
    found: dict[str, Holder | None] = dict.fromkeys(tokens)
    rows = Registration.objects.filter(token_hash__in=list(owner)).order_by("id").values_list(
        "token_hash", "id", "tournament_id", "player__name", "table_number")
    for token_hash, pk, tid, name, table in rows:
        token = owner.get(token_hash or "")
        if token is not None and found[token] is None:
            found[token] = Holder(tid, (pk, name, table), hashes[token], now)
    return found


class Tokens:
    """This process's token → player memory for the streams, with the unknown tokens read in batches."""

    def __init__(self) -> None:
        self.known: dict[str, tuple[float, Holder | None]] = {}  # token → (monotonic time read, its player)
        self.waiting: dict[str, asyncio.Future[Holder | None]] = {}
        self.reading = False
        self.queries = 0

    async def holder(self, token: str) -> Holder | None:
        """The token's player: from the memory, else read with the other tokens that wait."""
        kept = self.known.get(token)
        if kept is not None and time.monotonic() - kept[0] < KEPT_SECONDS:
            return kept[1]
        future = self.waiting.get(token)
        if future is None:
            future = self.waiting[token] = asyncio.get_running_loop().create_future()
            if not self.reading:
                self.reading = True
                asyncio.create_task(self._read())
        return await asyncio.shield(future)

    async def _read(self) -> None:
        try:
            while self.waiting:
                batch = dict(list(self.waiting.items())[:BATCH])
                for token in batch:
                    del self.waiting[token]
                try:
                    found = await sync_to_async(read_tokens, thread_sensitive=False)(list(batch))
                except Exception as exc:  # the database does not answer: these streams go on without their own state
                    log.warning("stream: %s tokens not read (%s)", len(batch), exc)
                    for future in batch.values():
                        if not future.done():
                            future.set_result(None)
                    continue
                self.queries += 1
                if len(self.known) + len(found) > KEPT:
                    self.known.clear()
                now = time.monotonic()
                for token, holder in found.items():
                    self.known[token] = (now, holder)
                    if not batch[token].done():
                        batch[token].set_result(holder)
        finally:
            self.reading = False


def speaks_for(holder: Holder, hall: tablet.JudgedHall) -> bool:
    """Whether a stream may send ``holder``'s own state of this hall: its token is in the hall's roster, or was
    read after the hall (a tablet that logged in since)."""
    if holder.read_at > hall.read_at:
        return True
    return any((p := hall.roster.get(h)) is not None and p[0] == holder.player[0] for h in holder.hashes)


__all__ = ["BATCH", "KEPT", "KEPT_SECONDS", "Holder", "Tokens", "read_tokens", "speaks_for"]
