"""Server push in headless Chromium: the tablet and the hall display served by the ASGI application (uvicorn, as
``manage.py serve --push`` runs it) get the open and the publication through the stream within the real-time
limit, polling only now and then; with the stream blocked they fall back to their polls and still get them.

The server runs in a thread of the test process (the test database, the eager tasks of the ``hall`` fixture);
without Redis its stream reads the version itself every 0.25 s, with Redis (CI's PostgreSQL pass) the
services' messages wake it.
"""

from __future__ import annotations

import re
import socket
import threading
import time
from types import SimpleNamespace

import pytest
import uvicorn
from a2wsgi import WSGIMiddleware
from django.conf import settings

from tests.tools.browser import REAL_TIME, new_page
from tests.tournament.tablet.test_tablet_browser import login
from tournament.live.stream import Hub, StreamApp
from tournament.wsgi import application as wsgi_application

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def push_server(settings):
    from tournament import live

    live.reset()
    settings.LIVE_PUSH = True
    hub = Hub()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(StreamApp(WSGIMiddleware(wsgi_application, workers=8), hub=hub), host="127.0.0.1",
                            port=port, loop="asyncio", lifespan="on", log_level="warning",
                            timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(100):
        if server.started:
            break
        time.sleep(0.05)
    assert server.started, "uvicorn did not start"
    yield SimpleNamespace(url=f"http://127.0.0.1:{port}", hub=hub)
    server.should_exit = True
    thread.join(10)


def watch(page, path: str) -> list[float]:
    """The times of the page's requests to ``path`` (polls)."""
    seen: list[float] = []
    page.on("request", lambda req: seen.append(time.monotonic()) if path in req.url else None)
    return seen


def screens(chromium, push_server, hall, *, blocked: bool):
    tablet = new_page(chromium, push_server, width=800, height=1280)
    display = new_page(chromium, push_server, width=1366, height=768)
    if blocked:  # a proxy or a Wi-Fi that does not let the stream through
        for page in (tablet, display):
            page.route("**/live/stream/**", lambda route: route.abort("connectionrefused"))
    streams = {"tablet": watch(tablet, "/live/stream/"), "display": watch(display, "/live/stream/")}
    polls = {"tablet": watch(tablet, "/tablet/version/"), "display": watch(display, f"/display/{hall.t.slug}/state")}
    login(tablet, hall.players[0][1])
    display.goto(f"{display.base}/display/{hall.t.slug}/")
    display.wait_for_selector("#display[data-phase=none]")
    return tablet, display, streams, polls


def within(pages_selectors, action) -> float:
    started = time.monotonic()
    action()
    for page, selector in pages_selectors:
        page.wait_for_selector(selector, timeout=REAL_TIME * 1000)
    delay = time.monotonic() - started
    assert delay <= REAL_TIME + 0.3, delay
    return delay


def test_the_open_and_the_publication_come_through_the_stream(chromium, push_server, hall):
    tablet, display, streams, polls = screens(chromium, push_server, hall, blocked=False)
    rnd = hall.draw()  # the set-up (not timed): the pages have just loaded and open their streams
    tablet.wait_for_selector("#status[data-phase=drawn]", timeout=10_000)
    display.wait_for_selector("#display[data-phase=drawn]", timeout=10_000)
    time.sleep(1.5)  # both streams are up by now: the polls slow down
    assert push_server.hub.listeners == 2
    since = time.monotonic()
    within([(tablet, "#status[data-phase=open]"), (display, "#display[data-phase=open]")], lambda: hall.open(rnd))
    within([(tablet, "#result:not([hidden])"), (display, "#display[data-phase=published]")],
           lambda: hall.finish(rnd))
    # the changes came by the stream: hardly a version poll meanwhile (every second without the stream), and
    # the published result came whole in the tablet's own event (no state request)
    assert len([t for t in polls["tablet"] if t >= since]) <= 1, polls["tablet"]
    # (with Redis the close, the verdicts and the publication can come as three events, and a tablet may fetch
    # one intermediate state itself when its version had moved on: how it came is checked without Redis)
    if not settings.REDIS_URL:
        assert tablet.get_attribute("#status", "data-via") == "stream"
    # the next draw too: the tablet's whole state in its own event, no request
    within([(tablet, "#status[data-phase=drawn]"), (display, "#display[data-phase=drawn]")], hall.draw)
    if not settings.REDIS_URL:
        assert tablet.get_attribute("#status", "data-via") == "stream"
    assert len(streams["tablet"]) >= 1 and len(streams["display"]) >= 1
    assert not tablet.js_errors and not display.js_errors


def test_with_the_stream_blocked_the_screens_poll_and_still_follow(chromium, push_server, hall):
    tablet, display, _streams, polls = screens(chromium, push_server, hall, blocked=True)
    rnd = hall.draw()
    within([(tablet, "#status[data-phase=drawn]"), (display, "#display[data-phase=drawn]")], lambda: None)
    since = time.monotonic()
    within([(tablet, "#status[data-phase=open]"), (display, "#display[data-phase=open]")], lambda: hall.open(rnd))
    within([(tablet, "#result:not([hidden])"), (display, "#display[data-phase=published]")],
           lambda: hall.finish(rnd))
    assert push_server.hub.listeners == 0
    assert len([t for t in polls["tablet"] if t >= since]) >= 1  # the polls carried it
    assert not tablet.js_errors and not display.js_errors


def test_the_arbiters_live_count_follows_the_slips_through_the_stream(chromium, push_server, hall):
    from tests.tools.browser import arbiter_page
    from tournament import services

    rnd = hall.open(hall.draw())
    page = arbiter_page(chromium, push_server, hall.alice)
    fetched = watch(page, "/live.json")
    page.goto(f"{page.base}/arbiter/t/{hall.t.slug}/g/{hall.game.number}/")
    page.wait_for_selector("#live-count")
    time.sleep(1.0)  # the stream is up
    since = time.monotonic()
    for i, (reg, _code) in enumerate(hall.players[:3], 1):
        services.slips.submit_slip(rnd, reg, word="CARTS", coordinates="H4", score=20)
        # faster than the 2 s of the console's poll: the slip's event brings it
        page.wait_for_function(f"() => document.getElementById('live-count').textContent === '{i}'",
                               timeout=1500)
    # fetched on the slips' events (each count within 1.5 s), not on the 2 s poll
    assert [t for t in fetched if t >= since], fetched
    assert push_server.hub.feeds and any(f.slip_listeners for f in push_server.hub.feeds.values())
    assert not page.js_errors


def test_the_first_poll_and_the_streams_first_event_make_one_state_request(chromium, push_server, hall):
    """At load the tablet's first poll and its stream's first event name the same version: one state request
    for both, even when the event comes while that request is on its way (a hall of 10,000 tablets logging in
    would otherwise ask twice)."""
    tablet = new_page(chromium, push_server, width=800, height=1280)
    states = watch(tablet, "/api/tablet/state/")

    def slow(route) -> None:  # the state answer takes a second: the stream's first event comes meanwhile
        time.sleep(1.0)
        route.continue_()

    tablet.route(re.compile(r".*/api/tablet/state/.*"), slow)
    login(tablet, hall.players[0][1])
    tablet.wait_for_timeout(1500)
    assert push_server.hub.listeners == 1  # the stream is up: its first event has come
    assert len(states) == 1, states
    assert not tablet.js_errors
