"""The stream (``/live/stream/<slug>/``, :mod:`tournament.live.stream`) in-process: the current state at once,
each change of the tournament as an event — read by the stream itself without Redis, woken by the services'
Redis message with it — a ping when quiet, 404 for an unknown tournament, and the stream closed with the
client."""

from __future__ import annotations

import asyncio
import functools
import itertools
import json
import time
from types import SimpleNamespace

import pytest
from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator
from django.conf import settings

from tournament import services
from tournament.live import stream as live_stream
from tournament.live import tokens as live_tokens

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fresh_memo():
    """The slug → id memo of an earlier test's tournament (same slug, another id) must not answer."""
    from tournament import live

    live.reset()
    yield
    live.reset()


def request(path: str) -> dict:
    return {"type": "http", "method": "GET", "path": path, "headers": [], "query_string": b""}


async def events(comm: ApplicationCommunicator, count: int, timeout: float = 3.0) -> list[dict]:
    """The next ``count`` state events of the stream (pings skipped)."""
    found: list[dict] = []
    while len(found) < count:
        message = await comm.receive_output(timeout)
        body = message.get("body", b"").decode()
        for block in body.split("\n\n"):
            if "event: state" in block:
                found.append(json.loads(block.split("data: ", 1)[1]))
    return found


def change(alice, tournament) -> None:
    services.tournaments.update_tournament(alice, tournament, {"venue": "Salle B"})


@pytest.mark.parametrize("redis", [False, True])
def test_each_change_reaches_the_stream(alice, tournament, redis):
    if redis and not settings.REDIS_URL:
        pytest.skip("Redis only in the run against PostgreSQL and Redis")

    async def scenario() -> None:
        hub = live_stream.Hub()
        if redis:
            hub.check_seconds = 60.0  # only Redis can tell it in time
        app = live_stream.StreamApp(None, hub=hub)
        comm = ApplicationCommunicator(app, request(f"/live/stream/{tournament.slug}/"))
        await comm.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await comm.receive_output(3)
        assert start["status"] == 200
        headers = dict(start["headers"])
        assert headers[b"content-type"].startswith(b"text/event-stream")
        assert b"content-security-policy" in headers and headers[b"x-accel-buffering"] == b"no"
        first = (await events(comm, 1))[0]
        if redis:
            await asyncio.sleep(0.3)  # the subscription is in place
        await sync_to_async(change, thread_sensitive=False)(alice, tournament)
        loop = asyncio.get_running_loop()
        began = loop.time()
        second = (await events(comm, 1))[0]
        assert second["version"] != first["version"]
        assert loop.time() - began < 1.5
        assert hub.listeners == 1
        await comm.send_input({"type": "http.disconnect"})
        await asyncio.sleep(0.1)
        assert hub.listeners == 0
        await hub.stop()

    asyncio.run(scenario())


def test_a_quiet_stream_gets_pings_and_an_unknown_tournament_a_404(tournament, monkeypatch):
    monkeypatch.setattr(live_stream, "HEARTBEAT_SECONDS", 0.2)

    async def scenario() -> None:
        hub = live_stream.Hub()
        app = live_stream.StreamApp(None, hub=hub)
        comm = ApplicationCommunicator(app, request(f"/live/stream/{tournament.slug}/"))
        await comm.send_input({"type": "http.request", "body": b"", "more_body": False})
        await comm.receive_output(3)
        await events(comm, 1)
        ping = await comm.receive_output(2)
        assert ping["body"] == live_stream.PING
        await comm.send_input({"type": "http.disconnect"})
        missing = ApplicationCommunicator(app, request("/live/stream/no-such-tournament/"))
        await missing.send_input({"type": "http.request", "body": b"", "more_body": False})
        assert (await missing.receive_output(3))["status"] == 404
        other = ApplicationCommunicator(app, request("/anything/else/"))
        await other.send_input({"type": "http.request", "body": b"", "more_body": False})
        assert (await other.receive_output(3))["status"] == 404
        await hub.stop()

    asyncio.run(scenario())


def test_pages_offer_the_stream_only_when_the_server_pushes(client, tournament, settings):
    settings.LIVE_PUSH = False
    assert live_stream.stream_url(tournament.slug) is None
    page = client.get(f"/display/{tournament.slug}/").content.decode()
    assert "/live/stream/" not in page
    settings.LIVE_PUSH = True
    page = client.get(f"/display/{tournament.slug}/").content.decode()
    assert f"/live/stream/{tournament.slug}/" in page


def open_round(alice, tournament, eager):
    from tests.tools.world import PREPARED

    reg, _code = services.players.register_player(alice, tournament, name="Anna")
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    return reg, rnd


@pytest.mark.parametrize("redis", [False, True])
def test_the_arbiters_stream_counts_the_slips(alice, tournament, eager, redis):
    if redis and not settings.REDIS_URL:
        pytest.skip("Redis only in the run against PostgreSQL and Redis")
    reg, rnd = open_round(alice, tournament, eager)

    async def slips(comm: ApplicationCommunicator) -> dict:
        while True:
            body = (await comm.receive_output(3)).get("body", b"").decode()
            for block in body.split("\n\n"):
                if "event: slips" in block:
                    return json.loads(block.split("data: ", 1)[1])

    async def scenario() -> None:
        hub = live_stream.Hub()
        if redis:
            hub.check_seconds = 60.0
        app = live_stream.StreamApp(None, hub=hub)
        tablet = ApplicationCommunicator(app, request(f"/live/stream/{tournament.slug}/"))
        comm = ApplicationCommunicator(app, {**request(f"/live/stream/{tournament.slug}/"), "query_string": b"slips=1"})
        for c in (tablet, comm):
            await c.send_input({"type": "http.request", "body": b"", "more_body": False})
            await c.receive_output(3)
        assert await slips(comm) == {"round": rnd.pk, "slips": 0}
        if redis:
            await asyncio.sleep(0.3)
        await sync_to_async(services.slips.submit_slip, thread_sensitive=False)(
            rnd, reg, word="CARTS", coordinates="H4", score=20)
        assert await slips(comm) == {"round": rnd.pk, "slips": 1}
        # a tablet's stream gets no slip counts
        await asyncio.sleep(0.3)
        while not tablet.output_queue.empty():
            assert b"event: slips" not in tablet.output_queue.get_nowait().get("body", b"")
        for c in (tablet, comm):
            await c.send_input({"type": "http.disconnect"})
        await hub.stop()

    asyncio.run(scenario())


def test_a_logged_in_tablet_gets_its_own_state_with_a_judged_round(alice, tournament, eager, monkeypatch):
    """The own states are written once per change for every listening tablet (``stream_events``), not by each
    stream as it wakes (``stream_state``: only for a tablet that joined after the change)."""
    from tournament.live import tablet as live_tablet

    def per_stream(*_args):
        raise AssertionError("a stream wrote its own state: the change's one pass should have")

    monkeypatch.setattr(live_tablet, "stream_state", per_stream)
    _reg, rnd = open_round(alice, tournament, eager)
    reg2, code = services.players.register_player(alice, tournament, name="Boris")
    _r, token = services.players.login(code)
    services.slips.submit_slip(rnd, reg2, word="CARTS", coordinates="H4", score=20)

    async def scenario() -> None:
        hub = live_stream.Hub()
        app = live_stream.StreamApp(None, hub=hub)
        scope = {**request(f"/live/stream/{tournament.slug}/"),
                 "headers": [(b"cookie", f"lang=en; tablet_token={token}".encode())]}
        comm = ApplicationCommunicator(app, scope)
        await comm.send_input({"type": "http.request", "body": b"", "more_body": False})
        await comm.receive_output(3)
        await comm.receive_output(3)  # the first event: the stream is counted by now
        assert hub.feeds and next(iter(hub.feeds.values())).players == 1

        def judge() -> None:
            services.rounds.close_round(rnd, alice, force=True)
            services.judging.judge_round(rnd, alice)
            with eager(execute=True):
                services.rounds.publish_round(alice, rnd)

        await sync_to_async(judge, thread_sensitive=False)()
        while True:
            body = (await comm.receive_output(3)).get("body", b"").decode()
            own = [b for b in body.split("\n\n") if "event: own" in b]
            if own:
                state = json.loads(own[-1].split("data: ", 1)[1])
                if state["round"]["status"] == "published":
                    break
        assert state["player"]["name"] == "Boris" and state["slip"]["word"] == "CARTS"
        assert state["result"] is not None and state["top"] is not None
        await comm.send_input({"type": "http.disconnect"})
        await hub.stop()

    asyncio.run(scenario())


def test_changes_in_a_row_are_sent_once_as_the_latest(monkeypatch):
    """A change announced while the previous one is being read: the read version is not sent, the latest is."""
    versions = iter(["v1", "v2", "v3"])
    reads: list[str] = []

    def slow_read(_tournament_id: int) -> tuple[str, bytes]:
        current = next(versions)
        reads.append(current)
        time.sleep(0.05)
        return current, json.dumps({"version": current}).encode()

    monkeypatch.setattr(live_stream, "_read", slow_read)

    async def scenario() -> list[str]:
        hub = live_stream.Hub()
        feed = hub.feeds[1] = live_stream.Feed(1, version="v0")
        sent: list[str] = []
        publish = feed.publish
        monkeypatch.setattr(feed, "publish", lambda current, body: (sent.append(current), publish(current, body)))
        first = asyncio.create_task(hub.refresh(1))
        await asyncio.sleep(0.01)
        await hub.refresh(1)  # two more changes while v1 is read
        await hub.refresh(1)
        await first
        assert feed.version == "v2" and feed.event.startswith(b"id: v2\n")
        return sent

    assert asyncio.run(scenario()) == ["v2"]
    assert reads == ["v1", "v2"]


def test_the_node_answers_known_version_polls_without_django(client, tournament, monkeypatch):
    """The ASGI application answers a version poll from the process's memo as the WSGI layer does (200 with the
    version, 304 with its ETag); a poll of a tournament it has no fresh memo of goes on to Django."""
    from tournament.live import version
    from tournament.live.wsgi import FastVersionPolls

    monkeypatch.setattr(version, "VERSION_TTL", 60.0)  # the memo stays fresh through a slow machine's pause
    path = f"/tablet/version/{tournament.slug}/"
    reached: list[str] = []

    async def django(scope, receive, send) -> None:
        reached.append(scope["path"])
        await send({"type": "http.response.start", "status": 299, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    def wsgi_never(environ, start_response):
        raise AssertionError("the WSGI application is not called for an answer given from the memo")

    app = live_stream.StreamApp(django, hub=live_stream.Hub(), fast=FastVersionPolls(wsgi_never))

    async def poll(headers: list[tuple[bytes, bytes]]) -> tuple[int, dict, bytes]:
        comm = ApplicationCommunicator(app, {**request(path), "headers": headers})
        await comm.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await comm.receive_output(3)
        body = await comm.receive_output(3)
        return start["status"], dict(start["headers"]), body.get("body", b"")

    assert asyncio.run(poll([]))[0] == 299 and reached == [path]  # no memo yet: Django's
    view = client.get(path)  # Django's view fills the memo
    status, headers, body = asyncio.run(poll([]))
    assert status == 200 and json.loads(body)["version"] == view.json()["version"]
    assert headers[b"etag"].decode() == view["ETag"] and b"content-security-policy" in headers
    status, _headers, body = asyncio.run(poll([(b"if-none-match", view["ETag"].encode())]))
    assert status == 304 and body == b"" and reached == [path]


def test_the_load_generators_reader_reads_what_the_stream_writes():
    """The load test reads the streams by chunks (:func:`tests.load.tablets.sse_blocks`): an event cut anywhere
    comes out whole, once, with its name and data."""
    from tests.load.sse import sse_blocks

    async def written() -> bytes:
        feed = live_stream.Feed(1)
        feed.publish("v7", b'{"version": "v7", "round": null}')
        return f"retry: {live_stream.RETRY_MS}\n\n".encode() + feed.event + live_stream.PING + feed.event

    wire = asyncio.run(written())
    for cut in range(len(wire) + 1):
        first, rest = sse_blocks(wire[:cut])
        second, left = sse_blocks(rest + wire[cut:])
        blocks = first + second
        assert left == b""
        assert [(k, d) for k, d, _r in blocks] == [
            ("message", ""), ("state", '{"version": "v7", "round": null}'), ("ping", ""),
            ("state", '{"version": "v7", "round": null}')]
        assert blocks[0][2] == live_stream.RETRY_MS


def test_the_load_generators_stream_protocol_reads_the_answer_cut_anywhere():
    """The load test's tablets read their streams with a plain protocol (:mod:`tests.load.streamclient`): the
    status, then every event of the chunked body whole and once, however the bytes come; the last chunk ends
    the stream."""
    from tests.load.streamclient import StreamProtocol

    async def written() -> list[bytes]:
        feed = live_stream.Feed(1)
        feed.publish("v7", b'{"version": "v7", "round": null}')
        return [f"retry: {live_stream.RETRY_MS}\n\n".encode() + feed.event, live_stream.PING, feed.event]

    events = asyncio.run(written())
    wire = (b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
            + b"".join(b"%x\r\n" % len(e) + e + b"\r\n" for e in events) + b"0\r\n\r\n")

    def keep(got: list[tuple[str, str, int | None]], kind: str, data: str, retry: int | None) -> None:
        got.append((kind, data, retry))

    class Wire:
        closed = False

        def write(self, _data: bytes) -> None:
            pass

        def close(self) -> None:
            self.closed = True

    loop = asyncio.new_event_loop()
    try:
        for step in (1, 2, 3, 7, 64, len(wire)):
            got: list[tuple[str, str, int | None]] = []
            statuses: list[int] = []
            stream = StreamProtocol(b"GET / HTTP/1.1\r\n\r\n", functools.partial(keep, got), loop.create_future(),
                                    statuses.append)
            stream.transport = Wire()  # type: ignore[assignment]
            for at in range(0, len(wire), step):
                stream.data_received(wire[at:at + step])
            assert statuses == [200] and stream.transport.closed, step
            assert [(k, d) for k, d, _r in got] == [
                ("message", ""), ("state", '{"version": "v7", "round": null}'), ("ping", ""),
                ("state", '{"version": "v7", "round": null}')], step
            assert got[0][2] == live_stream.RETRY_MS
    finally:
        loop.close()


def test_a_feed_a_stream_joined_is_kept_current_while_it_waits(monkeypatch):
    """A stream counts as the feed's listener from the moment it joins, before any wait: the check loop, which
    drops feeds without listeners, never leaves a stream waiting on a feed the hub no longer reads."""
    versions = itertools.count(1)
    monkeypatch.setattr(live_stream, "_read", lambda _tid: (current := f"v{next(versions)}", current.encode()))

    async def scenario() -> None:
        hub = live_stream.Hub()
        hub.check_seconds = 0.01
        await hub.start()
        feed = await hub.join(1)
        assert feed.listeners == 1 and feed.version == "v1"
        await asyncio.sleep(0.1)  # several passes of the check loop
        assert hub.feeds.get(1) is feed and feed.version not in ("", "v1")  # kept and read again
        feed.listeners -= 1
        await asyncio.sleep(0.05)
        assert 1 not in hub.feeds  # without listeners it is dropped
        await hub.stop()

    asyncio.run(scenario())


def test_a_version_that_moved_on_while_its_hall_was_read_is_read_again(monkeypatch):
    """The verdicts and the publication a moment apart: the hall read for the verdicts' version finds the
    publication's. The older version is not sent as a plain event (every tablet would fetch its state), the newer
    one is read again and each tablet gets it as its own event."""
    from tournament.live import tablet as live_tablet

    versions = iter(["v1", "v2"])
    monkeypatch.setattr(live_stream, "_read", lambda _tid: (v := next(versions), json.dumps({"version": v}).encode()))
    halls: list[str] = []

    def stream_hall(_tid: int, current: str) -> object:
        halls.append(current)
        if current == "v1":
            raise live_tablet.VersionMoved("v2")
        return SimpleNamespace(read_at=0.0, roster={"h": (7, "Boris", 3)})

    monkeypatch.setattr(live_tablet, "stream_hall", stream_hall)
    monkeypatch.setattr(live_tablet, "stream_events", lambda hall, current, players: {
        pk: json.dumps({"version": current, "player": pk}).encode() for pk in players})

    async def scenario() -> None:
        hub = live_stream.Hub()
        feed = hub.feeds[1] = live_stream.Feed(1, version="v0")
        feed.join_player((7, "Boris", 3))
        sent: list[str] = []
        publish = feed.publish
        monkeypatch.setattr(feed, "publish", lambda current, body: (sent.append(current), publish(current, body)))
        await hub.refresh(1)
        assert sent == ["v2"] and halls == ["v1", "v2"]
        holder = live_tokens.Holder(1, (7, "Boris", 3), ("h",), read_at=0.0)
        assert live_stream._event_for(feed, holder).startswith(b"id: v2\nevent: own\n")

    asyncio.run(scenario())


def test_quiet_streams_are_pinged_in_shares_and_a_gone_client_ends_its_stream(tournament, monkeypatch):
    """Each of 60 quiet streams gets a ping once a heartbeat, sent in turns by the hub's one pinger (no timer per
    stream); a client that goes away ends its stream at once and leaves the feed."""
    monkeypatch.setattr(live_stream, "HEARTBEAT_SECONDS", 0.6)

    async def scenario() -> None:
        hub = live_stream.Hub()
        app = live_stream.StreamApp(None, hub=hub)
        comms = []
        for _ in range(60):
            comm = ApplicationCommunicator(app, request(f"/live/stream/{tournament.slug}/"))
            await comm.send_input({"type": "http.request", "body": b"", "more_body": False})
            await comm.receive_output(3)
            await events(comm, 1)
            comms.append(comm)
        assert hub.listeners == 60 and len(hub.tasks) == (3 if hub.redis_url else 2)  # not one per stream
        loop = asyncio.get_running_loop()
        began = loop.time()
        for comm in comms:
            assert (await comm.receive_output(2))["body"] == live_stream.PING
        assert loop.time() - began < 1.5
        feed = next(iter(hub.feeds.values()))
        assert max(len(share) for share in feed.shares) <= 2  # spread: a share of the streams each tick
        await comms[0].send_input({"type": "http.disconnect"})
        await comms[0].wait(2)  # the stream's task ended
        assert hub.listeners == 59 and sum(len(share) for share in feed.shares) == 59
        for comm in comms[1:]:
            await comm.send_input({"type": "http.disconnect"})
            await comm.wait(2)
        assert hub.listeners == 0
        await hub.stop()

    asyncio.run(scenario())


def test_an_open_is_sent_without_reading_the_hall(monkeypatch):
    """The open's event carries the rack and the deadline, and the tablets take the open from it: the streams
    send it at once, without reading every player's slip and verdict first."""
    from tournament.live import tablet as live_tablet

    body = json.dumps({"version": "v1", "round": {"id": 3, "status": "open", "rack": "CATSROE"}}).encode()
    monkeypatch.setattr(live_stream, "_read", lambda _tid: ("v1", body))

    def stream_hall(*_args):
        raise AssertionError("the hall was read for an open")

    monkeypatch.setattr(live_tablet, "stream_hall", stream_hall)

    async def scenario() -> None:
        hub = live_stream.Hub()
        feed = hub.feeds[1] = live_stream.Feed(1, version="v0")
        feed.join_player((7, "Boris", 3))
        await hub.refresh(1)
        assert feed.version == "v1" and feed.hall is None
        holder = live_tokens.Holder(1, (7, "Boris", 3), ("h",), read_at=0.0)
        assert live_stream._event_for(feed, holder) == feed.event and b"event: state" in feed.event

    asyncio.run(scenario())
