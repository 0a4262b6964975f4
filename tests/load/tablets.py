"""The clients of a run, over HTTP only: N simulated tablets and the arbiter (asyncio + aiohttp).

The arbiter draws a round through the API, waits for the solver, opens the round ``announce`` seconds
after the draw (he reads the rack out), waits for the close and the verdicts and publishes them
``review`` seconds later. Each tablet logs in with its access code and behaves as the tablet page:
it polls the state version about once a second (ETag / 304), takes the open of the round it shows
from the poll's answer, fetches its state on other changes (spread over 0.2 s, with ``?v=`` the
version the poll saw) and hands in its slips with an ``Idempotency-Key`` — most of them in the last
``burst`` seconds before the deadline, some retrying the same key after a lost answer, some aborting
mid-flight and retrying, some replacing their slip. Every request is timed (:class:`Recorder`).

With ``push`` each tablet holds one Server-Sent Events stream (``/live/stream/<slug>/``) and acts on its
events as ``static/js/tablet.js`` does: the open of the round it shows comes with the event (no request),
any other new version makes it fetch its own state (``?v=``), unless an ``own`` event (the stream of a
logged-in tablet, cookie ``tablet_token``) brought it; it polls only every ``check_poll`` seconds
while its stream is up, every ``poll`` seconds while it is down, and opens a broken stream again (after the
server's ``retry``, as EventSource; 5–10 s after a refused one, as ``static/js/stream.js``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import urllib.parse
import urllib.request
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from .common import Recorder, arbiter_token, older_tag, parse_time, split_move
from .streamclient import Watchdog, read_stream

#: Statuses of a round whose verdicts are in.
JUDGED = ("judged", "reviewed", "published")
PUBLICATION_CPU_SECONDS = 3.0  # the window after the publish request whose CPU the report gives, per process
Headers = dict[str, str]
Answer = tuple[int | None, Any, bytes]


@dataclass
class DriveOptions:
    url: str
    tablets: int
    burst: float = 20
    poll: float = 1.0
    announce: float = 5.0  # seconds between the draw and the open: the arbiter reads the rack out
    publish: bool = True  # the arbiter publishes the round once it is judged
    review: float = 5.0  # seconds from the verdicts to the publication
    early_fraction: float = 0.15
    replace_fraction: float = 0.10
    lost_fraction: float = 0.05
    abort_fraction: float = 0.05
    connections: int = 1000
    max_seconds: float = 900
    seed: int = 1
    push: bool = False  # one Server-Sent Events stream per tablet; polls only as a check / fallback
    check_poll: float = 120.0  # poll interval while the stream is up (tablet.js POLL_STREAMING_MS, ±25 %)
    #: push: fetch the tablet's own state only for a publication (or a first state); every other change is
    #: applied from the event's public round (a proposal: tablet.js fetches its state on every change today)
    lean: bool = False
    ramp: float = 0.0  # seconds over which the tablets start (their first poll and stream), 0: within `poll`
    quiet: float = 0.0  # seconds of a quiet window before the draw, all streams up, measured with `cpu`
    cpu: Callable[[], dict[str, float]] | None = None  # CPU seconds so far of the server's processes, by name
    #: called (in a thread) with the drive when the round is open, e.g. a fault test killing a node
    on_open: Callable[[Drive], None] | None = None


@dataclass
class Screen:
    """What one tablet shows and knows: the version it holds, the round it shows, its slips planned."""

    table: int
    auth: Headers
    etag: str | None = None
    shown: dict[str, Any] = field(default_factory=dict)
    planned: bool = False
    changed_at: float = 0.0  # epoch: its poll saw a new version
    stream_up: bool = False
    wake: asyncio.Event | None = None  # set when the stream breaks: poll at once (push)
    broke_at: float | None = None  # epoch: its stream broke (the last time)
    loading: str | None = None  # the version of the state request on its way (tablet.js asks once for it)


class Drive:
    """One run of the clients; the figures are read from it afterwards (:mod:`tests.load.report`)."""

    def __init__(self, opts: DriveOptions, setup: dict[str, Any]) -> None:
        self.o = opts
        self.setup = setup
        self.rec = Recorder()
        self.rng = random.Random(opts.seed)
        self.done = asyncio.Event()
        self.wakes: list[asyncio.Event] = []  # the pushed tablets' waits: all set when the drive is done
        self.version_url: str | None = None
        self.round_id: int | None = None
        self.deadline: float | None = None  # epoch seconds
        self.moves: list[dict[str, Any]] = []
        self.log: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.tokens: dict[int, str] = {}
        self.state_seen: Counter[str | None] = Counter()
        self.plans_done = 0
        self.start = self.end = 0.0  # monotonic: the measured span (tablets polling)
        self.login_seconds = self.solve_seconds = 0.0
        self.open_sent: float | None = None  # epoch: the arbiter asked to open the round
        self.open_mono: float | None = None  # monotonic: the open was answered
        self.saw_open: dict[int, float] = {}  # table → epoch its screen first showed the open round
        self.judged_seen: float | None = None
        self.publish_sent: float | None = None
        self.publish_seconds: float | None = None
        self.saw_published: dict[int, float] = {}  # table → epoch its state first showed its result
        self.published_detected: dict[int, float] = {}  # table → epoch its poll saw the version of that state
        self.session: aiohttp.ClientSession | None = None
        self.arbiter_session: aiohttp.ClientSession | None = None
        self.stream_path = f"/live/stream/{setup['slug']}/"
        self.streams_up = 0
        self.in_flight = 0  # the tablets' requests sent and not yet answered (the arbiter's not counted)
        served = urllib.parse.urlsplit(opts.url)
        self.host, self.port = served.hostname or "127.0.0.1", served.port or 80
        self.watchdog = Watchdog(75)  # stream.js's watchdog: 75 s without an event (pings every 30 s)
        self.events: Counter[str] = Counter()  # push: events received, by type; stream breaks, refusals
        self.reconnects: list[tuple[int, float, float]] = []  # (table, broke at, up again at) epoch
        self.quiet_cpu: dict[str, float] = {}  # process → CPU share of a core in the quiet window
        self.quiet_seconds = 0.0
        self.quiet_requests: Counter[str] = Counter()
        self.hooks: list[asyncio.Future[None]] = []
        self.round_cpu: dict[str, float] = {}  # CPU seconds of the server's processes from the draw to the end
        #: CPU seconds of each process in the :data:`PUBLICATION_CPU_SECONDS` after the publish request was sent
        self.publication_cpu: dict[str, float] = {}
        self.round_requests: Counter[str] = Counter()

    # -- HTTP with measurement --------------------------------------------------------------------------------
    async def request(self, endpoint: str, method: str, path: str, *, timeout: float = 30, **kw: Any) -> Answer:
        # the arbiter is another device: his requests do not wait for a free connection of the tablets' pool
        session = self.arbiter_session if endpoint == "arbiter" and self.arbiter_session else self.session
        assert session is not None
        t0 = time.monotonic()
        tablets = int(endpoint != "arbiter")
        self.in_flight += tablets
        try:
            async with session.request(method, self.o.url + path, timeout=aiohttp.ClientTimeout(total=timeout),
                                            **kw) as r:
                body = await r.read()
                ok = r.status < 400 or (endpoint.startswith("slip") and r.status == 409)
                self.rec.add(endpoint, t0, str(r.status), ok and r.status < 500)
                return r.status, r.headers, body
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            self.rec.add(endpoint, t0, type(exc).__name__, "simulated" in endpoint)
            return None, {}, b""
        finally:
            self.in_flight -= tablets

    # -- the arbiter ----------------------------------------------------------------------------------------
    @property
    def arbiter_auth(self) -> Headers:
        return {"Authorization": f"Token {self.setup['token']}"}

    async def arbiter_round(self) -> dict[str, Any] | None:
        st, _h, body = await self.request("arbiter", "GET", f"/api/arbiter/rounds/{self.round_id}/",
                                          headers=self.arbiter_auth)
        return json.loads(body) if st == 200 else None

    async def arbiter_post(self, path: str, expected: int = 200) -> dict[str, Any]:
        st, _h, body = await self.request("arbiter", "POST", path, json={}, headers=self.arbiter_auth)
        if st != expected:
            raise RuntimeError(f"{path} failed: {st} {body[:300]!r}")
        return dict(json.loads(body))

    async def draw(self) -> None:
        """Draws the round and waits for the solver: the arbiter needs the top moves."""
        slug, game = self.setup["slug"], self.setup["game"]
        rnd = await self.arbiter_post(f"/api/arbiter/tournaments/{slug}/games/{game}/draw/", expected=201)
        self.round_id = rnd["id"]
        t_draw = time.monotonic()
        while time.monotonic() - t_draw < 120:
            rnd = await self.arbiter_round() or rnd
            if rnd["solver_status"] in ("done", "no_move", "failed"):
                break
            await asyncio.sleep(0.2)
        self.solve_seconds = time.monotonic() - t_draw
        self.moves = rnd.get("top_moves") or []
        await asyncio.sleep(max(0.0, self.o.announce - (time.monotonic() - t_draw)))

    async def open(self) -> float:
        """Opens the round; its deadline + grace (epoch)."""
        self.open_sent = time.time()
        rnd = await self.arbiter_post(f"/api/arbiter/rounds/{self.round_id}/open/")
        self.deadline = parse_time(rnd["deadline"])
        self.open_mono = time.monotonic()
        return self.deadline + rnd["grace_seconds"]

    async def wait_judged(self, due: float) -> None:
        while time.time() < due + 120:
            rnd = await self.arbiter_round()
            if rnd is not None and rnd["status"] in JUDGED:
                self.judged_seen = time.time()
                return
            await asyncio.sleep(0.25)

    async def publish(self) -> None:
        """Publishes the verdicts and waits until every tablet shows its result (30 s at most)."""
        await asyncio.sleep(self.o.review)  # the arbiter looks at the verdicts, then publishes
        loop = asyncio.get_running_loop()
        cpu0 = await loop.run_in_executor(None, self.o.cpu) if self.o.cpu else None
        self.publish_sent = time.time()
        t_pub = time.monotonic()
        window = loop.create_task(self.publication_window(cpu0, t_pub)) if cpu0 is not None else None
        await self.arbiter_post(f"/api/arbiter/rounds/{self.round_id}/publish/")
        self.publish_seconds = time.time() - self.publish_sent
        while len(self.saw_published) < len(self.tokens) and time.monotonic() - t_pub < 30:
            await asyncio.sleep(0.1)
        if window is not None:
            await window

    async def publication_window(self, cpu0: dict[str, float], t_pub: float) -> None:
        """The CPU each process spent in the publication's first :data:`PUBLICATION_CPU_SECONDS` (what the two
        cores had to do before the last result could reach its tablet)."""
        assert self.o.cpu is not None
        await asyncio.sleep(max(0.0, PUBLICATION_CPU_SECONDS - (time.monotonic() - t_pub)))
        cpu1 = await asyncio.get_running_loop().run_in_executor(None, self.o.cpu)
        self.publication_cpu = {k: cpu1[k] - cpu0.get(k, 0.0) for k in cpu1}

    async def arbiter(self) -> None:
        await self.draw()
        due = await self.open()
        if self.o.on_open is not None:
            self.hooks.append(asyncio.get_running_loop().run_in_executor(None, self.o.on_open, self))
        await self.wait_judged(due)
        if self.judged_seen is not None and self.o.publish:
            await self.publish()
        await asyncio.sleep(2 * self.o.poll)  # the tablets see the last version change
        self.done.set()

    # -- a tablet -------------------------------------------------------------------------------------------
    async def login(self, table: int, code: str) -> None:
        for attempt in range(20):
            st, _h, body = await self.request("login", "POST", "/api/tablet/login/", json={"code": code})
            if st == 200:
                self.tokens[table] = json.loads(body)["token"]
                return
            await asyncio.sleep(min(5, 0.5 * 2 ** attempt) * (0.8 + 0.4 * self.rng.random()))
        raise RuntimeError(f"table {table} could not log in")

    async def tablet(self, table: int) -> None:
        screen = Screen(table, {"Authorization": f"Tablet {self.tokens[table]}", "Accept": "application/json"})
        await asyncio.sleep(self.rng.random() * (self.o.ramp or self.o.poll))
        if self.o.push:
            await self.pushed_tablet(screen)
            return
        while not self.done.is_set():
            if self.version_url:
                new_tag = await self.poll(screen)
                if new_tag is not None:
                    await asyncio.sleep(self.rng.random() * 0.2)  # as the tablet page spreads its state requests
                    await self.fetch_state(screen, f"?v={new_tag.strip(chr(34))}" if new_tag else "", new_tag)
            else:
                await self.fetch_state(screen, "", None)
            await asyncio.sleep(self.o.poll + self.rng.random() * 0.15)

    async def poll(self, screen: Screen) -> str | None:
        """One version poll; the new ETag ("" if none) when the tablet must fetch its state, else None."""
        headers = {"If-None-Match": screen.etag} if screen.etag else {}
        st, h, raw = await self.request("version", "GET", self.version_url or "", headers=headers)
        if st != 200 or h.get("ETag") == screen.etag or older_tag(h.get("ETag"), screen.etag):
            return None
        new_tag = h.get("ETag") or ""
        screen.changed_at = time.time()
        # as the tablet page: the open of the round it shows as drawn comes with the poll's answer
        try:
            opened = json.loads(raw).get("round") or {}
        except (ValueError, AttributeError):
            opened = {}
        if not self.opened_now(screen, opened):
            return new_tag
        screen.etag = new_tag
        return None

    async def fetch_state(self, screen: Screen, query: str, new_tag: str | None) -> None:
        st, _h, body = await self.request("state", "GET", "/api/tablet/state/" + query, headers=screen.auth)
        if st != 200:
            return
        self.show_state(screen, json.loads(body), new_tag)

    def show_state(self, screen: Screen, state: dict[str, Any], new_tag: str | None) -> None:
        screen.etag = f'"{state["version"]}"' if state.get("version") else new_tag  # as the tablet page
        rnd = screen.shown = state.get("round") or {}
        self.state_seen[rnd.get("status")] += 1
        if rnd.get("id") != self.round_id:
            return
        if rnd.get("status") == "open":
            self.saw_open.setdefault(screen.table, time.time())
            self.start_plan(screen, parse_time(rnd["deadline"]))
        if rnd.get("status") == "published" and state.get("result") and screen.table not in self.saw_published:
            self.saw_published[screen.table] = time.time()
            self.published_detected[screen.table] = screen.changed_at

    # -- a tablet with a stream (push) ------------------------------------------------------------------------
    async def pushed_tablet(self, screen: Screen) -> None:
        """The stream and the polls beside it, as tablet.js: a poll at once, then every ``check_poll`` s while
        the stream is up, every ``poll`` s while it is down (at once when it breaks)."""
        screen.wake = asyncio.Event()
        self.wakes.append(screen.wake)
        listener = asyncio.get_running_loop().create_task(self.listen(screen))
        try:
            while not self.done.is_set():
                new_tag = await self.poll(screen)
                if new_tag is not None:
                    await self.load_state(screen, new_tag, spread=screen.etag is not None)
                interval = (self.o.check_poll * (0.75 + self.rng.random() * 0.5) if screen.stream_up
                            else self.o.poll + self.rng.random() * 0.15)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(screen.wake.wait(), interval)
                screen.wake.clear()
        finally:
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener

    async def listen(self, screen: Screen) -> None:
        """One EventSource: reads ``event:``/``data:`` blocks (:mod:`tests.load.streamclient`); opens the stream
        again when it breaks."""
        retry = 2.0

        def on_status(status: int) -> None:
            self.events["connected" if status == 200 else f"refused {status}"] += 1

        def on_event(kind: str, data: str, retry_ms: int | None) -> None:
            nonlocal retry
            if retry_ms is not None:
                retry = retry_ms / 1000
            if data or kind != "message":
                self.on_event(screen, kind, data)

        # the tablet page's cookie: the stream sends this tablet its own state with each change ("own")
        headers = {"Accept": "text/event-stream", "Cookie": f"tablet_token={self.tokens[screen.table]}"}
        while not self.done.is_set():
            refused = False
            try:
                status = await read_stream(self.host, self.port, self.stream_path, headers, on_event,
                                           self.watchdog, on_status)
                refused = status != 200
                if not refused:
                    self.events["ended by the server"] += 1
            except (TimeoutError, OSError) as exc:
                self.events[f"broken ({type(exc).__name__})"] += 1
            if screen.stream_up:
                screen.stream_up = False
                self.streams_up -= 1
                screen.broke_at = time.time()
                assert screen.wake is not None
                screen.wake.set()  # poll at once, then every second
            if self.done.is_set():
                return
            # EventSource opens a broken stream again after the server's retry; stream.js reopens a refused one
            await asyncio.sleep(5 + 5 * self.rng.random() if refused else retry)

    def on_event(self, screen: Screen, kind: str, data: str) -> None:
        self.events[kind] += 1
        if not screen.stream_up:
            screen.stream_up = True
            self.streams_up += 1
            if screen.broke_at is not None:
                self.reconnects.append((screen.table, screen.broke_at, time.time()))
                screen.broke_at = None
        if kind not in ("state", "own"):
            return
        try:
            body = json.loads(data)
        except ValueError:
            return
        if isinstance(body, dict) and body.get("version"):
            if kind == "own":
                self.own(screen, body)
            else:
                self.pushed(screen, body)

    def own(self, screen: Screen, body: dict[str, Any]) -> None:
        """An "own" event: the tablet's whole state (tablet.js ``own``), no request."""
        tag = f'"{body["version"]}"'
        if tag == screen.etag or older_tag(tag, screen.etag):
            return
        screen.changed_at = time.time()
        self.state_seen["own (from the stream)"] += 1
        self.show_state(screen, body, tag)

    def pushed(self, screen: Screen, body: dict[str, Any]) -> None:
        """An event of the stream: the same answer as a poll's 200 (tablet.js ``pushed``)."""
        tag = f'"{body["version"]}"'
        if tag == screen.etag or older_tag(tag, screen.etag):
            return
        screen.changed_at = time.time()
        if self.opened_now(screen, body.get("round") or {}):
            screen.etag = tag
            return
        if self.o.lean and screen.etag is not None and self.applied(screen, body.get("round")):
            screen.etag = tag
            return
        asyncio.get_running_loop().create_task(self.load_state(screen, tag, spread=screen.etag is not None))

    def applied(self, screen: Screen, rnd: dict[str, Any] | None) -> bool:
        """``lean``: a change but a publication shown from the event's public round alone, no request."""
        if not rnd or rnd.get("status") == "published":
            return False
        same = screen.shown.get("id") == rnd.get("id")
        screen.shown = {**screen.shown, **rnd} if same else dict(rnd)
        self.state_seen["applied from the event"] += 1
        if rnd.get("id") == self.round_id and rnd.get("status") == "open" and rnd.get("deadline"):
            self.saw_open.setdefault(screen.table, time.time())
            self.start_plan(screen, parse_time(rnd["deadline"]))
        return True

    async def load_state(self, screen: Screen, tag: str, *, spread: bool) -> None:
        """tablet.js ``loadState``: the state of version ``tag`` fetched, spread over 0.2 s after a change seen by
        many tablets at once; not asked again while a request for the same version is on its way (the first
        poll and the stream's first event name the same one)."""
        if tag and screen.loading == tag:
            return
        screen.loading = tag
        try:
            if spread:
                await asyncio.sleep(self.rng.random() * 0.2)
            await self.fetch_state(screen, f"?v={tag.strip(chr(34))}" if tag else "", tag)
        finally:
            if screen.loading == tag:
                screen.loading = None

    def opened_now(self, screen: Screen, opened: dict[str, Any]) -> bool:
        """The round it shows as drawn has opened: the rack and the deadline come with the answer."""
        shown = screen.shown
        if not (shown.get("id") == opened.get("id") == self.round_id and shown.get("status") == "drawn"
                and opened.get("status") == "open" and opened.get("rack") and opened.get("deadline")):
            return False
        screen.shown = opened
        self.saw_open.setdefault(screen.table, time.time())
        self.state_seen["open (from the stream)" if self.o.push else "open (from the poll)"] += 1
        self.start_plan(screen, parse_time(opened["deadline"]))
        return True

    def start_plan(self, screen: Screen, deadline: float) -> None:
        if not screen.planned:
            screen.planned = True
            asyncio.get_running_loop().create_task(self.submit_plan(screen, deadline))

    def plan(self, deadline: float) -> list[tuple[float, str]]:
        """(epoch time, mode) of each slip this tablet hands in (the deadline as the tablet's state says)."""
        now, end = time.time(), deadline - 0.7
        burst_start = max(now + 0.5, end - self.o.burst)
        r = self.rng.random()
        when = self.rng.uniform(now + 1, burst_start) if r < self.o.early_fraction else self.rng.uniform(
            burst_start, end)
        out = [when]
        if self.rng.random() < self.o.replace_fraction:
            first = self.rng.uniform(now + 1, max(now + 1.5, when - 1))
            out = [min(first, when - 0.3), when]
        x = self.rng.random()
        mode = "lost" if x < self.o.lost_fraction else (
            "abort" if x < self.o.lost_fraction + self.o.abort_fraction else "normal")
        return [(t, mode if i == len(out) - 1 else "normal") for i, t in enumerate(out)]

    def body(self) -> dict[str, Any]:
        """A slip: most of them one of the round's best moves (some with a wrong score), some any word."""
        r = self.rng.random()
        if self.moves and r < 0.7:
            m = self.moves[0] if r < 0.3 else self.rng.choice(self.moves)
            coords, word = split_move(m["move"])
            score = m["score"] if self.rng.random() < 0.8 else m["score"] + 2
        else:
            coords, word, score = "H8", self.rng.choice(["КОТ", "ДОМ", "ЁЖИК", "СЛОН"]), self.rng.randint(2, 30)
        return {"word": word, "coordinates": coords, "score": score, "round": self.round_id}

    async def submit_plan(self, screen: Screen, deadline: float) -> None:
        for when, mode in self.plan(deadline):
            await asyncio.sleep(max(0, when - time.time()))
            await self.submit(screen, mode)
        self.plans_done += 1

    async def submit(self, screen: Screen, mode: str) -> None:
        """Hands a slip in until it is acknowledged or refused, always with the same key."""
        key = uuid.uuid4().hex
        body = self.body()
        entry = {"key": key, "word": body["word"], "mode": mode, "slip_id": None, "attempts": 0, "sent_at": time.time()}
        self.log[str(screen.table)].append(entry)
        headers = {**screen.auth, "Idempotency-Key": key}
        first_id = None
        for attempt in range(12):
            entry["attempts"] += 1
            abort = mode == "abort" and attempt == 0  # the answer never comes back: stored or not
            st, _h, raw = await self.request("slip(simulated abort)" if abort else "slip", "POST", "/api/tablet/slip/",
                                             json=body, headers=headers, timeout=0.005 if abort else 30)
            if st in (200, 201) or (st == 409 and b"time_over" in raw):
                data = json.loads(raw)
                slip = data if st != 409 else data.get("slip") or {}
                if mode == "lost" and attempt == 0:
                    first_id = slip.get("id")  # the answer is lost on the way: retry with the same key
                    await asyncio.sleep(0.2 + self.rng.random())
                    continue
                if first_id is not None and slip.get("id") != first_id:
                    self.rec.errors[("slip", "retry returned another slip")] += 1
                entry.update(slip_id=slip.get("id"), late=bool(slip.get("late")), status=st, acked_at=time.time())
                return
            if st is not None and 400 <= st < 500 and st not in (408, 429):
                entry["refused"] = st
                return
            await asyncio.sleep(min(8, 0.5 * 2 ** attempt) * (0.8 + 0.4 * self.rng.random()))

    # -- the whole run --------------------------------------------------------------------------------------
    async def login_all(self) -> None:
        sem = asyncio.Semaphore(100)

        async def one(table: int, code: str) -> None:
            async with sem:
                await self.login(table, code)

        t0 = time.monotonic()
        await asyncio.gather(*(one(int(t), c) for t, c in self.setup["codes"].items()))
        self.login_seconds = time.monotonic() - t0

    async def settle(self) -> None:
        """Push: until every tablet's stream is up, every tablet shows the tournament and no tablet's request is
        waiting for its answer (the logins' state fetches are behind us, not in a quiet window), or 3 min."""
        end = time.monotonic() + 180 + self.o.ramp
        while time.monotonic() < end and (self.streams_up < len(self.tokens) or self.in_flight or
                                          sum(self.state_seen.values()) < len(self.tokens)):
            await asyncio.sleep(0.25)
        if self.o.quiet:
            await asyncio.sleep(min(self.o.check_poll, 10))  # the first check polls behind us, before a quiet window

    async def measure_quiet(self) -> None:
        """CPU of the server's processes over ``quiet`` seconds in which nothing changes (no round going on)."""
        assert self.o.cpu is not None
        loop = asyncio.get_running_loop()
        before, t0, m0 = await loop.run_in_executor(None, self.o.cpu), time.time(), time.monotonic()
        await asyncio.sleep(self.o.quiet)
        after, m1 = await loop.run_in_executor(None, self.o.cpu), time.monotonic()
        self.quiet_seconds = time.time() - t0
        self.quiet_cpu = {k: (after[k] - before.get(k, 0.0)) / self.quiet_seconds for k in after}
        for ep, times in self.rec.times.items():
            self.quiet_requests[ep] = sum(1 for t in times if m0 <= t <= m1)

    async def run(self) -> None:
        # an idle connection given up before uvicorn's 5 s: never reused at the moment the server closes it (the
        # arbiter's open comes 5 s after his last request; at 15 s, aiohttp's default, it met a closed connection)
        connector = aiohttp.TCPConnector(limit=self.o.connections, force_close=False, keepalive_timeout=4)
        # (the streams: a connection each, as a browser's, read by tests.load.streamclient)
        async with aiohttp.ClientSession(connector=connector) as self.session, \
                aiohttp.ClientSession(connector=aiohttp.TCPConnector(keepalive_timeout=4)) as self.arbiter_session:
            probe = f"/tablet/version/{self.setup['slug']}/"
            st, _h, _b = await self.request("probe", "GET", probe)
            self.version_url = probe if st == 200 else None
            await self.login_all()
            self.start = time.monotonic()
            tablets = [asyncio.create_task(self.tablet(t)) for t in self.tokens]
            await asyncio.sleep(self.o.ramp or 0)
            if self.o.push:
                await self.settle()
            await asyncio.sleep(3 + self.o.poll)  # steady polling before the round
            if self.o.quiet and self.o.cpu is not None:
                await self.measure_quiet()
            loop = asyncio.get_running_loop()
            cpu0 = await loop.run_in_executor(None, self.o.cpu) if self.o.cpu else {}
            m0 = time.monotonic()
            try:
                await asyncio.wait_for(self.arbiter(), timeout=self.o.max_seconds)
            finally:
                self.done.set()
                self.watchdog.stop()
                for wake in self.wakes:  # a pushed tablet waits up to its check poll (minutes): end it now
                    wake.set()
                self.end = time.monotonic()
                if self.o.cpu:
                    cpu1 = await loop.run_in_executor(None, self.o.cpu)
                    self.round_cpu = {k: cpu1[k] - cpu0.get(k, 0.0) for k in cpu1}
                    self.round_requests = Counter({ep: sum(1 for t in ts if m0 <= t <= self.end)
                                                   for ep, ts in self.rec.times.items()})
                await asyncio.wait(tablets, timeout=30)
                pending = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
                if pending:
                    await asyncio.wait(pending, timeout=30)
                if self.hooks:
                    await asyncio.wait(self.hooks, timeout=60)


__all__ = ["JUDGED", "PUBLICATION_CPU_SECONDS", "Drive", "DriveOptions", "Recorder", "Screen", "arbiter_token", "parse_time"]
