"""Telling the screens' stream servers that a tournament changed: one Redis message per change.

Whatever process makes a change a screen shows (a web request, a Celery task) calls :func:`changed` inside
its transaction; when the transaction commits, ``PUBLISH live:<tournament id>`` reaches every stream process
(:mod:`tournament.live.stream`), which reads the new version once and sends it down its open streams. A
message that cannot be sent (Redis away) is only logged: the stream processes also read the version of every
tournament they serve every few seconds, and the screens fall back to polls, so nothing is missed for long.
Without Redis (the embedded default) there is nothing to publish: the stream reads the version itself.
"""

from __future__ import annotations

import logging
import threading
import time

import redis
from django.conf import settings
from django.db import transaction

log = logging.getLogger(__name__)

#: The channel of a tournament's changes; stream processes subscribe to the pattern ``live:*``.
CHANNEL = "live:{}"
PATTERN = "live:*"
#: The channel of the slips handed in (the arbiter's live count; no screen version moves for a slip).
SLIPS_CHANNEL = "slips:{}"
SLIPS_PATTERN = "slips:*"

_local = threading.local()


def _client() -> redis.Redis | None:
    url = getattr(settings, "REDIS_URL", None)
    if not url:
        return None
    client: redis.Redis | None = getattr(_local, "client", None)
    if client is None or getattr(_local, "url", None) != url:
        client = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
        _local.client, _local.url = client, url
    return client


def publish(tournament_id: int, channel: str = CHANNEL) -> None:
    """Sends the change now (outside a transaction: e.g. a task's own commit already happened)."""
    client = _client()
    if client is None:
        return
    try:
        client.publish(channel.format(tournament_id), str(tournament_id))
    except redis.RedisError as exc:  # the streams' own reads catch up; the screens poll meanwhile
        log.warning("push of tournament %s not sent: %s", tournament_id, exc)


def changed(tournament_id: int) -> None:
    """The tournament changed in the current transaction: tell the streams once it commits."""
    if getattr(settings, "REDIS_URL", None):
        transaction.on_commit(lambda: publish(tournament_id))


#: A process tells of a tournament's slips at most this often (the live count is read at most every 0.25 s):
#: a burst of 400 slips a second sends 4 messages a second, not 400 round trips to Redis.
SLIPS_EVERY_SECONDS = 0.25
_slips_lock = threading.Lock()
_slips_sent: dict[int, float] = {}  # tournament → when this process last told of its slips
_slips_due: set[int] = set()  # tournaments whose message is due (a timer will send it)


def _tell_slips(tournament_id: int) -> None:
    """Sends ``slips:<id>`` now, or once at the end of the current interval (the last slip of a burst is
    always told, within :data:`SLIPS_EVERY_SECONDS`)."""
    now = time.monotonic()
    with _slips_lock:
        if tournament_id in _slips_due:
            return
        wait = _slips_sent.get(tournament_id, -1e9) + SLIPS_EVERY_SECONDS - now
        if wait > 0:
            _slips_due.add(tournament_id)
        else:
            _slips_sent[tournament_id] = now
    if wait > 0:
        timer = threading.Timer(wait, _tell_due_slips, (tournament_id,))
        timer.daemon = True
        timer.start()
    else:
        publish(tournament_id, SLIPS_CHANNEL)


def _tell_due_slips(tournament_id: int) -> None:
    with _slips_lock:
        _slips_due.discard(tournament_id)
        _slips_sent[tournament_id] = time.monotonic()
    publish(tournament_id, SLIPS_CHANNEL)


def slip_handed_in(tournament_id: int) -> None:
    """A slip was stored in the current transaction: the arbiter's live count hears of it once it commits (at
    most every :data:`SLIPS_EVERY_SECONDS` from this process)."""
    if getattr(settings, "REDIS_URL", None):
        transaction.on_commit(lambda: _tell_slips(tournament_id))


__all__ = ["CHANNEL", "PATTERN", "SLIPS_CHANNEL", "SLIPS_EVERY_SECONDS", "SLIPS_PATTERN", "changed", "publish",
           "slip_handed_in"]
