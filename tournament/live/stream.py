"""Server push: ``GET /live/stream/<slug>/`` keeps a Server-Sent Events stream open to each tablet and display.

Each event is what a version poll answers with a 200 — ``{"version", "server_time", "round"}``, the open
round's rack and deadline included — so a screen acts on it exactly as on a poll: the open is shown at
once, any other change makes the screen fetch its own state (from the per-version memo, as today).

A stream process holds one :class:`Feed` per tournament it serves: the current version and its event, read
once and sent down every open stream of that tournament. It learns of a change

* from Redis (``PUBLISH live:<id>``, sent by :mod:`tournament.services.push` when a change commits, whatever
  process made it): the new version is read within milliseconds;
* by reading the version itself every :data:`CHECK_SECONDS` (every :data:`~tournament.live.version.VERSION_TTL`
  without Redis — the embedded default's push inside one process — and every few seconds with it, in case a
  message was lost or a change bypassed the services).

Changes that come in a row (the close, the verdicts and the publication within milliseconds) are sent as one:
a version read while a newer change was announced is read again (at most :data:`COALESCE_READS` times)
and only the latest goes down the streams.

A stream asked with ``?slips=1`` (the arbiter's console) also gets ``event: slips`` — ``{"round", "slips"}``,
the latest round's slips handed in — when that count moves (woken by ``slips:<id>`` from the slips service,
read at most every :data:`SLIPS_SECONDS`); the console then fetches its live panel.

A stream that stays quiet gets a ``ping`` event every :data:`HEARTBEAT_SECONDS`, so proxies keep it open and
the screen knows it is alive; a screen whose stream breaks, or never delivers (a proxy that buffers), falls
back to its polls (``static/js/stream.js``). Pages offer the stream when ``LIVE_PUSH`` is on (the server runs
this application: ``manage.py serve --push``); otherwise they poll.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection
from django.http import Http404

from .. import proxies
from ..models import Game, Round, Slip
from ..services import push
from . import tablet, tokens, version
from .slipdoor import SLIP_PATH, SlipDoor
from .wsgi import POLL_PATH, FastVersionPolls, security_headers

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

STREAM_PATH = re.compile(r"^/live/stream/([-a-zA-Z0-9_]+)/$")
HEARTBEAT_SECONDS = 30.0  # 10,000 quiet streams: ~330 pings a second
#: The streams' pings are sent by one task, a share of the streams at a time (each stream once a heartbeat).
PING_SHARES = 30
#: How often a stream process reads the versions itself: with Redis only as a safety net.
CHECK_SECONDS_WITH_REDIS = 3.0
#: The live counts are read at most this often per tournament (a burst of 70 slips a second: 4 events).
SLIPS_SECONDS = 0.25
#: A version read while a newer change was announced is skipped (read again) at most this many times in a row.
COALESCE_READS = 3
#: Tells the browser how soon to reconnect a broken stream (EventSource's own retry).
RETRY_MS = 2000
PING = b"event: ping\ndata: \n\n"
T = TypeVar("T")


def stream_url(slug: str) -> str | None:
    """The stream a page of the tournament listens to, or None when this server does not push (polls only)."""
    return f"/live/stream/{slug}/" if getattr(settings, "LIVE_PUSH", False) else None


class Listener:
    """One stream's wake-up: set at each change of its feed, and by the hub's pinger once a heartbeat (its
    ``share`` of the feed's streams)."""

    __slots__ = ("ping", "share", "wake")

    def __init__(self, share: set[Listener]) -> None:
        self.wake = asyncio.Event()
        self.ping = False
        self.share = share
        share.add(self)


@dataclass
class Feed:
    """A tournament in this process: its current version, the event that carries it, and the streams to wake
    at each change (in :data:`PING_SHARES` shares, which the hub pings in turn)."""

    tournament_id: int
    version: str = ""
    event: bytes = b""
    listeners: int = 0
    shares: list[set[Listener]] = field(default_factory=lambda: [set() for _ in range(PING_SHARES)])
    joined: int = 0
    #: (version, every player's slip and verdict of that version's round, the own event of each player whose
    #: tablet listens here — written once per change, in one pass), for the tablets' own events
    hall: tuple[str, tablet.JudgedHall, dict[int, bytes]] | None = None
    #: the players whose tablets (a cookie ``tablet_token``) listen here — they get their own state with each
    #: change — and how many streams each has open
    members: dict[int, tuple[tablet.Player, int]] = field(default_factory=dict)
    reading: bool = False
    again: bool = False
    #: the slips handed in for the latest round (the arbiter's live count): streams asked with ``?slips=1``
    slips: tuple[int, int] | None = None  # (round id, slips)
    slips_event: bytes = b""
    slip_listeners: int = 0
    slips_read_at: float = 0.0
    slips_pending: bool = False

    @property
    def players(self) -> int:
        """Streams of logged-in tablets."""
        return sum(streams for _player, streams in self.members.values())

    def listen(self) -> Listener:
        self.joined += 1
        return Listener(self.shares[self.joined % len(self.shares)])

    def _wake(self) -> None:
        for share in self.shares:
            for listener in share:
                listener.wake.set()

    def join_player(self, player: tablet.Player) -> None:
        streams = self.members.get(player[0], (player, 0))[1]
        self.members[player[0]] = (player, streams + 1)

    def leave_player(self, player: tablet.Player) -> None:
        streams = self.members.get(player[0], (player, 1))[1] - 1
        if streams > 0:
            self.members[player[0]] = (player, streams)
        else:
            self.members.pop(player[0], None)

    def publish_slips(self, counted: tuple[int, int]) -> None:
        self.slips = counted
        body = json.dumps({"round": counted[0], "slips": counted[1]}).encode()
        self.slips_event = b"event: slips\ndata: " + body + b"\n\n"
        self._wake()

    def publish(self, current: str, body: bytes) -> None:
        self.version = current
        self.event = b"id: " + current.encode() + b"\nevent: state\ndata: " + body + b"\n\n"
        self._wake()


def _read(tournament_id: int) -> tuple[str, bytes]:
    current, rnd = version.compute(tournament_id)
    return current, version.version_body(current, rnd)


def _timed(read: Callable[..., T], *args: Any) -> tuple[T, float]:
    """``read(*args)`` and the CPU its thread spent on it (the log tells a busy machine from a slow read)."""
    began = time.thread_time()
    return read(*args), time.thread_time() - began


def _opens(body: bytes) -> bool:
    """Whether the version answer shows an open round: its event carries the rack and the deadline, and the
    tablets take the open from it (no own state, no hall to read)."""
    try:
        shown = json.loads(body).get("round") or {}
    except (ValueError, AttributeError):
        return False
    return isinstance(shown, dict) and shown.get("status") == Round.Status.OPEN


_SLIPS_SQL = (f"SELECT r.id, (SELECT COUNT(*) FROM {Slip._meta.db_table} s WHERE s.round_id = r.id) "
              f"FROM {Round._meta.db_table} r JOIN {Game._meta.db_table} g ON g.id = r.game_id "
              f"WHERE g.tournament_id = %s ORDER BY g.number DESC, r.number DESC, r.id DESC LIMIT 1")


def _read_slips(tournament_id: int) -> tuple[int, int]:
    """(latest round, slips handed in for it): one small indexed query."""
    with connection.cursor() as cur:
        cur.execute(_SLIPS_SQL, [tournament_id])
        row = cur.fetchone()
    return (int(row[0]), int(row[1])) if row else (0, 0)


class Hub:
    """This process's feeds, kept current from Redis and from its own reads."""

    def __init__(self) -> None:
        self.feeds: dict[int, Feed] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.redis_url: str | None = getattr(settings, "REDIS_URL", None)
        self.check_seconds = CHECK_SECONDS_WITH_REDIS if self.redis_url else version.VERSION_TTL
        self.events_sent = 0
        self.reads = 0
        self.tokens = tokens.Tokens()  # whom each stream speaks for (read in batches, kept a minute)

    @property
    def listeners(self) -> int:
        return sum(f.listeners for f in self.feeds.values())

    async def start(self) -> None:
        if self.tasks:
            return
        self.tasks.append(asyncio.create_task(self._check_loop()))
        self.tasks.append(asyncio.create_task(self._ping_loop()))
        if self.redis_url:
            self.tasks.append(asyncio.create_task(self._redis_loop()))

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.tasks.clear()

    async def join(self, tournament_id: int) -> Feed:
        """The tournament's feed with one more listener, counted before any wait: the check loop drops feeds
        without listeners, and a stream must never wait on a feed the hub no longer keeps current. A new
        feed's version is read first (the listener is taken back if that fails)."""
        found = self.feeds.get(tournament_id)
        if found is None:
            found = self.feeds[tournament_id] = Feed(tournament_id)
        found.listeners += 1
        if not found.version:
            try:
                await self.refresh(tournament_id)
            except BaseException:
                found.listeners -= 1
                raise
        return found

    async def refresh(self, tournament_id: int) -> None:
        """Reads the tournament's version (once at a time per tournament) and sends it on when it moved."""
        feed = self.feeds.get(tournament_id)
        if feed is None:
            return
        if feed.reading:
            feed.again = True
            return
        feed.reading = True
        skipped = 0
        try:
            while True:
                feed.again = False
                asked = time.monotonic()
                current, body = await sync_to_async(_read, thread_sensitive=False)(tournament_id)
                self.reads += 1
                if feed.again and skipped < COALESCE_READS:
                    # another change came while this one was read (close → verdicts → publication in a row):
                    # read again and send only the latest, so a tablet never fetches a state already gone
                    skipped += 1
                    continue
                if current != feed.version:
                    began = time.monotonic()
                    feed.hall = None
                    hall_at = events_at = began
                    hall_cpu = 0.0
                    if feed.members and not _opens(body):  # read once here, each tablet's own state goes with it
                        try:
                            hall, hall_cpu = await sync_to_async(_timed, thread_sensitive=False)(
                                tablet.stream_hall, tournament_id, current)
                        except tablet.VersionMoved:
                            if skipped < COALESCE_READS:  # a newer change came between the two reads
                                skipped += 1
                                continue
                            hall = None  # changing without end: the plain event, each tablet fetches its state
                        hall_at = events_at = time.monotonic()
                        if hall is not None:  # every listening player's event written in one pass, off the loop
                            events = await sync_to_async(tablet.stream_events, thread_sensitive=False)(
                                hall, current, {pk: player for pk, (player, _n) in feed.members.items()})
                            feed.hall = (current, hall, events)
                            events_at = time.monotonic()
                    feed.publish(current, body)
                    log.info("stream: tournament %s version %s to %s streams (%s players), version read in %.3f s, "
                             "hall read in %.3f s (%.3f s of its thread's CPU), events written in %.3f s", tournament_id,
                             current, feed.listeners, feed.players, began - asked, hall_at - began, hall_cpu,
                             events_at - hall_at)
                if not feed.again:
                    break
        finally:
            feed.reading = False

    async def refresh_slips(self, tournament_id: int) -> None:
        """Reads the latest round's slip count (at most every :data:`SLIPS_SECONDS`) for the live counts."""
        feed = self.feeds.get(tournament_id)
        if feed is None or feed.slip_listeners == 0:
            return
        now = time.monotonic()
        wait = SLIPS_SECONDS - (now - feed.slips_read_at)
        if wait > 0:  # read a moment later, once, so the last slip of a burst is counted too
            if not feed.slips_pending:
                feed.slips_pending = True
                asyncio.create_task(self._slips_later(tournament_id, wait))
            return
        feed.slips_read_at = now
        counted = await sync_to_async(_read_slips, thread_sensitive=False)(tournament_id)
        if counted != feed.slips:
            feed.publish_slips(counted)

    @staticmethod
    async def _safely(read: Awaitable[None]) -> None:
        try:
            await read
        except Exception:  # the database away: the check loop reads again (screens poll meanwhile)
            log.warning("stream: a version not read", exc_info=True)

    async def _slips_later(self, tournament_id: int, wait: float) -> None:
        await asyncio.sleep(wait)
        feed = self.feeds.get(tournament_id)
        if feed is not None:
            feed.slips_pending = False
            await self._safely(self.refresh_slips(tournament_id))

    async def _ping_loop(self) -> None:
        """Each stream pinged once a heartbeat, a share of every feed's streams each tick: one timer for all
        of them instead of one per stream (a stream with a timer of its own costs ten times the CPU to wake)."""
        turn = 0
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS / PING_SHARES)
            for feed in list(self.feeds.values()):
                for listener in feed.shares[turn % len(feed.shares)]:
                    listener.ping = True
                    listener.wake.set()
            turn += 1

    async def _check_loop(self) -> None:
        while True:
            await asyncio.sleep(self.check_seconds)
            for tid, feed in list(self.feeds.items()):
                if feed.listeners == 0:
                    del self.feeds[tid]
                    continue
                try:
                    await self.refresh(tid)
                    await self.refresh_slips(tid)
                except Exception:  # the database away: the next pass tries again (screens poll meanwhile)
                    log.warning("stream: version of tournament %s not read", tid, exc_info=True)

    async def _redis_loop(self) -> None:
        import redis.asyncio as aioredis  # noqa: PLC0415 (only with Redis: the embedded default has none)

        assert self.redis_url
        while True:
            try:
                client = aioredis.Redis.from_url(self.redis_url)
                pubsub = client.pubsub()
                await pubsub.psubscribe(push.PATTERN, push.SLIPS_PATTERN)
                async for message in pubsub.listen():
                    if message.get("type") != "pmessage":
                        continue
                    try:
                        tid = int(message["data"])
                    except (TypeError, ValueError):
                        continue
                    if tid not in self.feeds:
                        continue
                    slips = bytes(message.get("pattern") or b"").startswith(b"slips:")
                    asyncio.create_task(self._safely(self.refresh_slips(tid) if slips else self.refresh(tid)))
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis restarted: subscribe again; the check loop covers the gap
                log.warning("stream: Redis subscription lost (%s); again in 1 s", exc)
                await asyncio.sleep(1)


HUB = Hub()


async def _wait_disconnect(receive: Receive) -> None:
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return


def _headers(extra: list[tuple[str, str]]) -> list[tuple[bytes, bytes]]:
    return [(k.lower().encode(), v.encode()) for k, v in [*extra, *security_headers()]]


async def _plain(send: Send, status: int, text: str) -> None:
    body = text.encode()
    await send({"type": "http.response.start", "status": status,
                "headers": _headers([("Content-Type", "text/plain; charset=utf-8"),
                                     ("Content-Length", str(len(body)))])})
    await send({"type": "http.response.body", "body": body})


def _cookie(scope: Scope, name: str) -> str | None:
    for key, value in scope.get("headers", []):
        if key == b"cookie":
            for part in value.decode("latin-1").split(";"):
                k, _sep, v = part.strip().partition("=")
                if k == name and v:
                    return v
    return None


async def _holder(scope: Scope, tournament_id: int, hub: Hub) -> tokens.Holder | None:
    """The tablet's player (its ``tablet_token`` cookie) when it plays this tournament: from the hub's memory,
    else read with the other streams that connect meanwhile (:mod:`tournament.live.tokens`)."""
    token = _cookie(scope, "tablet_token")
    if not token:
        return None
    holder = await hub.tokens.holder(token)
    return holder if holder is not None and holder.tournament_id == tournament_id else None


def _event_for(feed: Feed, holder: tokens.Holder | None) -> bytes:
    """The change as this stream gets it: a logged-in tablet its whole own state (``event: own``, what
    ``GET /api/tablet/state/`` gives) for any change but an open, while the change's roster still holds its
    token; else (and to the display) the version answer, which carries the open's rack and deadline."""
    if holder is not None and feed.hall is not None and feed.hall[0] == feed.version and \
            tokens.speaks_for(holder, feed.hall[1]):
        player = holder.player
        written = feed.hall[2].get(player[0])  # written in the change's one pass; a tablet that joined since: now
        body = written if written is not None else tablet.stream_state(feed.hall[1], feed.version, player)
        return b"id: " + feed.version.encode() + b"\nevent: own\ndata: " + body + b"\n\n"
    return feed.event


async def stream(scope: Scope, receive: Receive, send: Send, slug: str, hub: Hub = HUB) -> None:
    """One screen's stream: the current state at once, then each change, a comment when quiet."""
    if scope.get("method") not in ("GET", "HEAD"):
        await _plain(send, 405, "GET only")
        return
    try:  # memoised: a hall's streams coming back at once cost no thread
        tid = version.known_tournament_id(slug) or await sync_to_async(
            version.tournament_id_for, thread_sensitive=False)(slug)
    except Http404:
        await _plain(send, 404, "no such tournament")
        return
    except Exception:  # the database does not answer
        log.warning("stream: tournament %s not found", slug, exc_info=True)
        await _plain(send, 503, "the database is not answering: try again in a moment")
        return
    await hub.start()
    holder = await _holder(scope, tid, hub)
    player = holder.player if holder is not None else None
    try:
        feed = await hub.join(tid)
    except Exception:  # the database does not answer: the screen polls (and gets the same 503) meanwhile
        log.warning("stream: tournament %s not read", tid, exc_info=True)
        await _plain(send, 503, "the database is not answering: try again in a moment")
        return
    counts = b"slips=1" in scope.get("query_string", b"")  # the arbiter's live count too
    if player is not None:
        feed.join_player(player)
    if counts:
        feed.slip_listeners += 1
    listener = feed.listen()
    gone = asyncio.ensure_future(_wait_disconnect(receive))
    me = asyncio.current_task()

    def went(_gone: asyncio.Future[None]) -> None:  # the client went away: the stream ends
        if me is not None:
            me.cancel()

    gone.add_done_callback(went)
    try:
        await send({"type": "http.response.start", "status": 200, "headers": _headers([
            ("Content-Type", "text/event-stream; charset=utf-8"), ("X-Accel-Buffering", "no"),
            ("X-Server-Time", str(int(time.time() * 1000)))])})
        if counts and feed.slips is None:
            await hub.refresh_slips(tid)
        seen, seen_slips = feed.version, feed.slips  # what the first event carries (a change during its send wakes)
        first = (f"retry: {RETRY_MS}\n\n".encode() + _event_for(feed, holder)
                 + (feed.slips_event if counts else b""))
        await send({"type": "http.response.body", "body": first, "more_body": True})
        hub.events_sent += 1
        while True:
            await listener.wake.wait()
            listener.wake.clear()
            out = b""
            if feed.version != seen:
                seen = feed.version
                out += _event_for(feed, holder)
            if counts and feed.slips != seen_slips:
                seen_slips = feed.slips
                out += feed.slips_event
            if out:
                await send({"type": "http.response.body", "body": out, "more_body": True})
                hub.events_sent += 1
            elif listener.ping:
                await send({"type": "http.response.body", "body": PING, "more_body": True})
            listener.ping = False
    except OSError:  # the client went away while we wrote
        pass
    except asyncio.CancelledError:
        if not gone.done() or me is None:
            raise  # the server stops
        me.uncancel()  # the client went away (``went``): the stream ends normally
    finally:
        gone.remove_done_callback(went)
        listener.share.discard(listener)
        feed.listeners -= 1
        if player is not None:
            feed.leave_player(player)
        if counts:
            feed.slip_listeners -= 1
        gone.cancel()


def _environ(scope: Scope) -> dict[str, Any]:
    """The WSGI environ of a bodiless GET, for the version-poll layer."""
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope.get("method", "GET"), "PATH_INFO": scope.get("path", ""),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"), "wsgi.url_scheme": scope.get("scheme", "http"),
    }
    for key, value in scope.get("headers", []):
        name = "HTTP_" + key.decode("latin-1").upper().replace("-", "_")
        text = value.decode("latin-1")
        environ[name] = f"{environ[name]},{text}" if name in environ else text
    return environ


class StreamApp:
    """ASGI: the streams here; the version polls the poll layer ``fast`` can answer from the process's memo
    answered here too (without a thread: no query is made); the tablets' slips to ``door`` (written in batches,
    :mod:`tournament.live.slipdoor`) when given; everything else to ``app`` (Django, through a WSGI adapter)."""

    def __init__(self, app: ASGIApp | None, hub: Hub = HUB, fast: FastVersionPolls | None = None,
                 door: SlipDoor | None = None) -> None:
        self.app = app
        self.hub = hub
        self.fast = fast
        self.door = door

    async def _answered(self, scope: Scope, send: Send) -> bool:
        """A poll answered from the memo (the WSGI layer's answer, sent from here), or False: Django's."""
        path = scope.get("path", "")
        # polls only: a judged round's state checks the token against the code keys, which may need a query
        if self.fast is None or scope.get("method") != "GET" or not POLL_PATH.match(path):
            return False
        started: list[tuple[str, list[tuple[str, str]]]] = []

        def start_response(status: str, headers: list[tuple[str, str]], _exc: Any = None) -> Callable[[bytes], object]:
            started.append((status, headers))
            return len

        body = self.fast.answer_here(_environ(scope), start_response)
        if body is None or not started:
            return False
        status, headers = started[0]
        await send({"type": "http.response.start", "status": int(status.split()[0]),
                    "headers": [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers]})
        await send({"type": "http.response.body", "body": b"".join(body)})
        return True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.lifespan(receive, send)
            return
        if scope["type"] == "http":
            scope[proxies.SCOPE_DOOR] = time.time()  # when it reached this server (a slip's lateness)
            if self.door is not None and self.app is not None and scope.get("method") == "POST" and \
                    scope.get("path") == SLIP_PATH:
                await self.door(scope, receive, send, self.app)
                return
            match = STREAM_PATH.match(scope.get("path", ""))
            if match:
                await stream(scope, receive, send, match.group(1), self.hub)
                return
            if await self._answered(scope, send):
                return
        if self.app is None:
            await _plain(send, 404, "not found")
            return
        await self.app(scope, receive, send)

    async def lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await self.hub.start()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.hub.stop()
                if self.door is not None:
                    await asyncio.to_thread(self.door.close)
                await send({"type": "lifespan.shutdown.complete"})
                return


__all__ = ["HUB", "Feed", "Hub", "StreamApp", "stream", "stream_url"]
