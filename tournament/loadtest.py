"""Load test of the production stack on one machine: gunicorn + Celery + PostgreSQL + Redis, N simulated tablets.

Used by ``manage.py loadtest`` and by the fault tests (``tests/test_faults.py``), which reuse :class:`Stack`
(start/stop of the real server processes) and :func:`setup_tournament` (the data a run needs).

A run has three phases, each in its own process so that every one sees the *load* environment
(database, broker, var dir) and not the caller's:

1. ``setup``   (subprocess ``manage.py loadtest --phase setup``): lexicon, arbiter + API token, tournament,
   N registrations with their access codes, one game → a JSON file.
2. ``drive``   (this process, asyncio + aiohttp): the arbiter draws and opens a round through the API; N tablets
   log in, poll the state version (ETag / 304) about once a second, fetch the state when it changes and hand in
   their slips with an ``Idempotency-Key`` — most of them in the last seconds before the deadline, some
   retrying the same key after a lost answer, some replacing their slip — then wait for the close and the verdicts.
3. ``check``   (subprocess ``manage.py loadtest --phase check``): every acknowledged slip stored exactly once,
   none lost, no duplicates, verdicts for every registration, time from the deadline to the verdicts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIM_LEXICON = ROOT / "fixtures" / "lexicons" / "sim-ru.txt"
ARBITER_NAME = "load-arbiter"
SLUG = "load"


# -- processes ----------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def manage(env: dict, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """``manage.py ARGS`` in a subprocess with ``env``; raises with its output when it fails."""
    proc = subprocess.run([sys.executable, str(ROOT / "manage.py"), *args], cwd=ROOT, env=env, text=True,
                          capture_output=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc


def stack_env(var_dir: Path, *, database_url: str | None = None, broker_url: str | None = None,
              redis_url: str | None = None, extra: dict | None = None) -> dict:
    """The environment of every process of a run: its own var dir, database, broker and cache."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL", "DUPLICATE_VAR_DIR", "LEXICON_DIR",
                        "CELERY_TASK_ALWAYS_EAGER")}
    env.update({"DUPLICATE_VAR_DIR": str(var_dir), "DJANGO_DEBUG": "0", "LOG_LEVEL": "WARNING",
                "PYTHONUNBUFFERED": "1", "DJANGO_SETTINGS_MODULE": "tournament.settings"})
    if database_url:
        env["DATABASE_URL"] = database_url
    if broker_url:
        env["CELERY_BROKER_URL"] = broker_url
    if redis_url:
        env["REDIS_URL"] = redis_url
    env.update(extra or {})
    return env


class Stack:
    """The server processes of a run (gunicorn, Celery worker), each in its own process group.

    ``stop()`` ends every process it started (TERM, then KILL after ``grace`` seconds); use it as a
    context manager so that errors and Ctrl+C stop them too.
    """

    def __init__(self, env: dict, log_dir: Path, *, port: int | None = None, web_workers: int = 2,
                 threads: int = 8, celery_concurrency: int = 1, worker_pool: str = "prefork",
                 worker_argv: list[str] | None = None):
        self.env = env
        self.log_dir = Path(log_dir)
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.web_workers, self.threads = web_workers, threads
        self.celery_concurrency, self.worker_pool = celery_concurrency, worker_pool
        self.worker_argv = worker_argv
        self.procs: dict[str, subprocess.Popen] = {}

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _spawn(self, name: str, argv: list[str]) -> subprocess.Popen:
        log = open(self.log_dir / f"{name}.log", "ab")  # noqa: SIM115 (kept open for the child)
        proc = subprocess.Popen(argv, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        log.close()
        self.procs[name] = proc
        return proc

    def start_web(self, wait: float = 60) -> subprocess.Popen:
        proc = self._spawn("web", [
            sys.executable, "-m", "gunicorn", "tournament.wsgi:application", "--bind", f"127.0.0.1:{self.port}",
            "--workers", str(self.web_workers), "--threads", str(self.threads), "--worker-class", "gthread",
            "--worker-connections", "2000", "--backlog", "4096", "--keep-alive", "5", "--timeout", "60",
            "--graceful-timeout", "10",
        ])
        self.wait_ready(wait)
        return proc

    def start_worker(self) -> subprocess.Popen:
        argv = self.worker_argv or [sys.executable, "-m", "celery", "-A", "tournament", "worker"]
        return self._spawn("worker", [
            *argv, "--loglevel", "INFO", "--pool", self.worker_pool, "--concurrency", str(self.celery_concurrency),
            "--hostname", f"load-{uuid.uuid4().hex[:8]}@%h", "--without-gossip", "--without-mingle",
            "--beat",  # the recovery sweep, as `serve` runs it
        ])

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            proc = self.procs.get("web")
            if proc is not None and proc.poll() is not None:
                raise RuntimeError(f"the web server exited ({proc.returncode}); see {self.log_dir / 'web.log'}")
            try:
                with urllib.request.urlopen(self.url + "/api/public/tournaments/", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"the web server did not answer within {timeout:.0f} s")

    def pids(self, name: str) -> list[int]:
        """The process and its children (e.g. the Celery pool processes)."""
        proc = self.procs[name]
        out = subprocess.run(["pgrep", "-g", str(proc.pid)], capture_output=True, text=True).stdout.split()
        return [int(p) for p in out] or [proc.pid]

    def stop(self, name: str | None = None, *, sig: int = signal.SIGTERM, grace: float = 15) -> None:
        names = [name] if name else list(self.procs)
        for n in names:
            proc = self.procs.get(n)
            if proc is not None and proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, sig)
        end = time.monotonic() + grace
        for n in names:
            proc = self.procs.pop(n, None)
            if proc is None:
                continue
            try:
                proc.wait(timeout=max(0.1, end - time.monotonic()))
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
            # the group may still hold children (pool processes) when only the leader ended
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)

    def supervise(self, name: str = "worker") -> bool:
        """Restart a process that died by itself (as ``manage.py serve`` or systemd would); True if restarted."""
        proc = self.procs.get(name)
        if proc is None or proc.poll() is None:
            return False
        self.procs.pop(name)
        {"worker": self.start_worker, "web": self.start_web}[name]()
        return True

    def kill9(self, name: str) -> None:
        """``kill -9`` of the whole process group (the worker and its pool), as a crash would."""
        proc = self.procs.pop(name)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


# -- phase 1: setup (runs inside Django with the load environment) -------------------------------------------


def setup_tournament(tablets: int, *, seconds_per_move: int, grace: int, lexicon_file: Path = SIM_LEXICON) -> dict:
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from rest_framework.authtoken.models import Token

    from lexicon import services as lexicon_services
    from tournament import services

    lexicon = lexicon_services.import_wordlist("sim-ru", "ru", lexicon_file)
    user = get_user_model().objects.create_user(ARBITER_NAME, password=uuid.uuid4().hex)
    token = Token.objects.create(user=user)
    t = services.create_tournament(user, name="Load test", slug=SLUG, ruleset="ru", lexicon=lexicon,
                                   arbiters=[user], seconds_per_move=seconds_per_move, grace_seconds=grace)
    codes = {}
    with transaction.atomic():
        for i in range(1, tablets + 1):
            _reg, code = services.register_player(user, t, name=f"Player {i:04d}", club=f"Club {i % 37}",
                                                  table_number=i)
            codes[i] = code
    game = services.create_game(user, t, seed=20240601)
    return {"token": token.key, "slug": t.slug, "game": game.number, "codes": codes,
            "seconds_per_move": seconds_per_move, "grace": grace}


# -- phase 3: check (runs inside Django with the load environment) -------------------------------------------


def check_run(client_log: dict) -> dict:
    """Compares what the tablets were told with what the database holds."""
    from tournament.models import Registration, Round, Slip, Verdict

    rnd = Round.objects.get(pk=client_log["round"])
    regs = {r.table_number: r for r in Registration.objects.filter(tournament__slug=client_log["slug"])}
    slips = list(Slip.objects.filter(round=rnd).values("id", "registration_id", "idempotency_key", "word",
                                                      "is_current", "late", "version"))
    by_key = defaultdict(list)
    for s in slips:
        by_key[s["idempotency_key"]].append(s)
    failures: list[str] = []
    sent_keys = set()
    lost = wrong = 0
    for table, entries in client_log["tablets"].items():
        reg = regs[int(table)]
        for e in entries:
            full = f"tablet:{reg.pk}:{e['key']}"
            sent_keys.add(full)
            rows = by_key.get(full, [])
            if e.get("slip_id") is None:
                continue  # never acknowledged: may or may not be stored
            if not rows:
                lost += 1
                failures.append(f"lost: table {table} key {e['key']} receipt {e['slip_id']} has no row")
            elif rows[0]["id"] != e["slip_id"] or rows[0]["word"] != e["word"]:
                wrong += 1
                failures.append(f"mismatch: table {table} key {e['key']} receipt {e['slip_id']} row {rows[0]['id']}")
    duplicated = sum(len(v) - 1 for v in by_key.values() if len(v) > 1)
    phantom = [s for s in slips if s["idempotency_key"] not in sent_keys]
    if duplicated:
        failures.append(f"{duplicated} duplicated rows for one idempotency key")
    if phantom:
        failures.append(f"{len(phantom)} slip rows with a key no tablet sent")
    # the counted slip is the last one acknowledged on time
    current = {s["registration_id"]: s for s in slips if s["is_current"]}
    replaced_wrong = 0
    for table, entries in client_log["tablets"].items():
        ontime = [e for e in entries if e.get("slip_id") is not None and not e.get("late")]
        if ontime:
            last = max(ontime, key=lambda e: e["acked_at"])
            cur = current.get(regs[int(table)].pk)
            if cur is None or cur["id"] != last["slip_id"]:
                # two acknowledged versions whose answers crossed: the later *stored* one counts
                if cur is None or cur["id"] not in {e["slip_id"] for e in ontime}:
                    replaced_wrong += 1
    if replaced_wrong:
        failures.append(f"{replaced_wrong} tablets whose current slip is not one they were acknowledged")
    verdicts = Verdict.objects.filter(round=rnd).count()
    if verdicts != len(regs):
        failures.append(f"verdicts: {verdicts} of {len(regs)} registrations")
    with_slip = Verdict.objects.filter(round=rnd, slip__isnull=False).count()
    judged_after = None
    if rnd.judged_at and rnd.deadline:
        judged_after = (rnd.judged_at - rnd.deadline).total_seconds()
    closed_to_judged = (rnd.judged_at - rnd.closed_at).total_seconds() if rnd.judged_at and rnd.closed_at else None
    return {
        "slips": len(slips), "keys": len(by_key), "acknowledged": sum(
            1 for es in client_log["tablets"].values() for e in es if e.get("slip_id") is not None),
        "lost": lost, "mismatched": wrong, "duplicated": duplicated, "phantom": len(phantom),
        "late_rows": sum(1 for s in slips if s["late"]), "verdicts": verdicts, "verdicts_with_slip": with_slip,
        "registrations": len(regs), "status": rnd.status, "deadline": rnd.deadline.isoformat() if rnd.deadline else None,
        "grace": rnd.grace_seconds, "closed_at": rnd.closed_at.isoformat() if rnd.closed_at else None,
        "judged_at": rnd.judged_at.isoformat() if rnd.judged_at else None,
        "deadline_to_verdicts": judged_after, "close_to_verdicts": closed_to_judged,
        "solver_status": rnd.solver_status, "failures": failures[:50], "failure_count": len(failures),
    }


# -- phase 2: drive (asyncio + aiohttp) ----------------------------------------------------------------------


@dataclass
class Recorder:
    samples: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    outcomes: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)

    def add(self, endpoint: str, started: float, outcome: str, ok: bool) -> None:
        now = time.monotonic()
        self.samples[endpoint].append(now - started)
        self.times[endpoint].append(now)
        self.outcomes[(endpoint, outcome)] += 1
        if not ok:
            self.errors[(endpoint, outcome)] += 1


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def parse_time(value: str) -> float:
    return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()


def split_move(move: str) -> tuple[str, str]:
    parts = move.split()
    return (parts[0], parts[1]) if len(parts) >= 2 else ("", parts[0] if parts else "")


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


class Drive:
    def __init__(self, opts: DriveOptions, setup: dict):
        self.o = opts
        self.setup = setup
        self.rec = Recorder()
        self.rng = random.Random(opts.seed)
        self.done = asyncio.Event()
        self.version_url: str | None = None
        self.round_id: int | None = None
        self.deadline: float | None = None  # epoch seconds
        self.moves: list[dict] = []
        self.log: dict[str, list[dict]] = defaultdict(list)
        self.tokens: dict[int, str] = {}
        self.state_seen: Counter = Counter()
        self.plans_done = 0
        self.open_sent: float | None = None  # epoch: the arbiter asked to open the round
        self.saw_open: dict[int, float] = {}  # table → epoch its state first showed the open round
        self.publish_sent: float | None = None
        self.saw_published: dict[int, float] = {}  # table → epoch its state first showed its result
        self.published_detected: dict[int, float] = {}  # table → epoch its poll saw the version of that state

    # -- HTTP with measurement --------------------------------------------------------------------------------
    async def request(self, session, endpoint: str, method: str, path: str, *, timeout: float = 30, **kw):
        import aiohttp

        t0 = time.monotonic()
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

    # -- the arbiter ----------------------------------------------------------------------------------------
    async def arbiter(self, session) -> None:
        auth = {"Authorization": f"Token {self.setup['token']}"}
        slug, game = self.setup["slug"], self.setup["game"]
        st, _h, body = await self.request(session, "arbiter", "POST",
                                          f"/api/arbiter/tournaments/{slug}/games/{game}/draw/", json={}, headers=auth)
        if st != 201:
            raise RuntimeError(f"draw failed: {st} {body[:300]!r}")
        rnd = json.loads(body)
        self.round_id = rnd["id"]
        t_draw = time.monotonic()
        while time.monotonic() - t_draw < 120:
            st, _h, body = await self.request(session, "arbiter", "GET", f"/api/arbiter/rounds/{self.round_id}/",
                                              headers=auth)
            if st == 200:
                rnd = json.loads(body)
                if rnd["solver_status"] in ("done", "no_move", "failed"):
                    break
            await asyncio.sleep(0.2)
        self.solve_seconds = time.monotonic() - t_draw
        self.moves = rnd.get("top_moves") or []
        await asyncio.sleep(max(0.0, self.o.announce - (time.monotonic() - t_draw)))
        self.open_sent = time.time()
        st, _h, body = await self.request(session, "arbiter", "POST", f"/api/arbiter/rounds/{self.round_id}/open/",
                                          json={}, headers=auth)
        if st != 200:
            raise RuntimeError(f"open failed: {st} {body[:300]!r}")
        rnd = json.loads(body)
        self.deadline = parse_time(rnd["deadline"])
        self.open_at = time.time()
        self.open_mono = time.monotonic()
        due = self.deadline + rnd["grace_seconds"]
        while time.time() < due + 120:
            st, _h, body = await self.request(session, "arbiter", "GET", f"/api/arbiter/rounds/{self.round_id}/",
                                              headers=auth)
            if st == 200 and json.loads(body)["status"] in ("judged", "reviewed", "published"):
                self.judged_seen = time.time()
                break
            await asyncio.sleep(0.25)
        else:
            self.judged_seen = None
        if self.judged_seen is not None and self.o.publish:
            await asyncio.sleep(self.o.review)  # the arbiter looks at the verdicts, then publishes
            self.publish_sent = time.time()
            st, _h, body = await self.request(session, "arbiter", "POST",
                                              f"/api/arbiter/rounds/{self.round_id}/publish/", json={}, headers=auth)
            if st != 200:
                raise RuntimeError(f"publish failed: {st} {body[:300]!r}")
            self.publish_seconds = time.time() - self.publish_sent
            t_pub = time.monotonic()
            while len(self.saw_published) < len(self.tokens) and time.monotonic() - t_pub < 30:
                await asyncio.sleep(0.1)
        await asyncio.sleep(2 * self.o.poll)  # the tablets see the last version change
        self.done.set()

    # -- a tablet -------------------------------------------------------------------------------------------
    async def login(self, session, table: int, code: str) -> None:
        for attempt in range(20):
            st, _h, body = await self.request(session, "login", "POST", "/api/tablet/login/", json={"code": code})
            if st == 200:
                self.tokens[table] = json.loads(body)["token"]
                return
            await asyncio.sleep(min(5, 0.5 * 2 ** attempt) * (0.8 + 0.4 * self.rng.random()))
        raise RuntimeError(f"table {table} could not log in")

    async def tablet(self, session, table: int) -> None:
        auth = {"Authorization": f"Tablet {self.tokens[table]}", "Accept": "application/json"}
        etag = None
        planned = False
        changed_at = 0.0
        shown: dict = {}  # the round as this tablet shows it
        await asyncio.sleep(self.rng.random() * self.o.poll)
        while not self.done.is_set():
            fetch = False
            if self.version_url:
                headers = {"If-None-Match": etag} if etag else {}
                st, h, raw = await self.request(session, "version", "GET", self.version_url, headers=headers)
                if st == 200 and h.get("ETag") != etag:
                    fetch, new_tag = True, h.get("ETag")
                    changed_at = time.time()
                    # as the tablet page: the open of the round it shows as drawn comes with the poll's answer
                    try:
                        opened = json.loads(raw).get("round") or {}
                    except (ValueError, AttributeError):
                        opened = {}
                    if (shown.get("id") == opened.get("id") == self.round_id and shown.get("status") == "drawn"
                            and opened.get("status") == "open" and opened.get("rack") and opened.get("deadline")):
                        fetch, etag, shown = False, new_tag, opened
                        self.saw_open.setdefault(table, time.time())
                        self.state_seen["open (from the poll)"] += 1
                        planned = True
                        asyncio.get_running_loop().create_task(
                            self.submit_plan(session, table, auth, parse_time(opened["deadline"])))
            else:
                fetch, new_tag = True, None
            if fetch:
                if self.version_url:
                    await asyncio.sleep(self.rng.random() * 0.2)  # as the tablet page spreads its state requests
                query = f"?v={new_tag.strip(chr(34))}" if self.version_url and new_tag else ""
                st, _h, body = await self.request(session, "state", "GET", "/api/tablet/state/" + query,
                                                  headers=auth)
                if st == 200:
                    state = json.loads(body)
                    etag = f'"{state["version"]}"' if state.get("version") else new_tag  # as the tablet page
                    rnd = state.get("round") or {}
                    shown = rnd
                    self.state_seen[rnd.get("status")] += 1
                    if rnd.get("status") == "open" and rnd.get("id") == self.round_id:
                        self.saw_open.setdefault(table, time.time())
                    if rnd.get("status") == "published" and rnd.get("id") == self.round_id and state.get("result"):
                        if table not in self.saw_published:
                            self.saw_published[table] = time.time()
                            self.published_detected[table] = changed_at
                    if not planned and rnd.get("status") == "open" and rnd.get("id") == self.round_id:
                        planned = True
                        deadline = parse_time(rnd["deadline"])
                        asyncio.get_running_loop().create_task(self.submit_plan(session, table, auth, deadline))
            await asyncio.sleep(self.o.poll + self.rng.random() * 0.15)

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

    def body(self) -> dict:
        r = self.rng.random()
        if self.moves and r < 0.7:
            m = self.moves[0] if r < 0.3 else self.rng.choice(self.moves)
            coords, word = split_move(m["move"])
            score = m["score"] if self.rng.random() < 0.8 else m["score"] + 2
        else:
            coords, word, score = "H8", self.rng.choice(["КОТ", "ДОМ", "ЁЖИК", "СЛОН"]), self.rng.randint(2, 30)
        return {"word": word, "coordinates": coords, "score": score, "round": self.round_id}

    async def submit_plan(self, session, table: int, auth: dict, deadline: float) -> None:
        for when, mode in self.plan(deadline):
            await asyncio.sleep(max(0, when - time.time()))
            await self.submit(session, table, auth, mode)
        self.plans_done += 1

    async def submit(self, session, table: int, auth: dict, mode: str) -> None:
        key = uuid.uuid4().hex
        body = self.body()
        entry = {"key": key, "word": body["word"], "mode": mode, "slip_id": None, "attempts": 0, "sent_at": time.time()}
        self.log[str(table)].append(entry)
        headers = {**auth, "Idempotency-Key": key}
        first_id = None
        for attempt in range(12):
            entry["attempts"] += 1
            timeout = 30
            if mode == "abort" and attempt == 0:
                timeout = 0.005  # the answer never comes back: the request may or may not have been stored
            endpoint = "slip(simulated abort)" if timeout < 1 else "slip"
            st, _h, raw = await self.request(session, endpoint, "POST", "/api/tablet/slip/", json=body,
                                             headers=headers, timeout=timeout)
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
    async def run(self) -> None:
        import aiohttp

        connector = aiohttp.TCPConnector(limit=self.o.connections, force_close=False, keepalive_timeout=4)
        async with aiohttp.ClientSession(connector=connector) as session:
            probe = f"/tablet/version/{self.setup['slug']}/"
            st, _h, _b = await self.request(session, "probe", "GET", probe)
            self.version_url = probe if st == 200 else None
            sem = asyncio.Semaphore(100)

            async def one(table, code):
                async with sem:
                    await self.login(session, table, code)

            t0 = time.monotonic()
            await asyncio.gather(*(one(int(t), c) for t, c in self.setup["codes"].items()))
            self.login_seconds = time.monotonic() - t0
            self.start = time.monotonic()
            tablets = [asyncio.create_task(self.tablet(session, t)) for t in self.tokens]
            await asyncio.sleep(3 + self.o.poll)  # steady polling before the round
            try:
                await asyncio.wait_for(self.arbiter(session), timeout=self.o.max_seconds)
            finally:
                self.done.set()
                self.end = time.monotonic()
                await asyncio.wait(tablets, timeout=30)
                pending = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
                await asyncio.wait(pending, timeout=30) if pending else None


# -- the report --------------------------------------------------------------------------------------------


def timeline(drive: Drive, step: float = 5) -> list[dict]:
    """Requests and p95 latency per ``step`` seconds of the round (0 = the open), per endpoint."""
    origin = getattr(drive, "open_mono", None)
    if origin is None:
        return []
    to_epoch = time.time() - time.monotonic()
    deadline = (drive.deadline - to_epoch - origin) if drive.deadline else None
    windows: dict[int, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for ep in ("version", "state", "slip"):
        for t, lat in zip(drive.rec.times.get(ep, []), drive.rec.samples.get(ep, []), strict=True):
            windows[int((t - origin) // step)][ep].append(lat)
    rows = []
    for w in sorted(windows):
        start = w * step
        row = {"from_s": start, "to_deadline_s": None if deadline is None else round(start - deadline)}
        for ep, lat in windows[w].items():
            row[ep] = {"n": len(lat), "p95_ms": round(1000 * pct(lat, 95))}
        rows.append(row)
    return rows


def summarize(drive: Drive) -> dict:
    rec = drive.rec
    span = max(1e-6, drive.end - drive.start)
    out: dict = {"span_seconds": round(span, 1), "endpoints": {}}
    for ep, lat in sorted(rec.samples.items()):
        times = rec.times[ep]
        inside = [t for t in times if drive.start <= t <= drive.end]
        peak = 0
        if times:
            per_second = Counter(int(t) for t in times)
            peak = max(per_second.values())
        out["endpoints"][ep] = {
            "requests": len(lat), "rps": round(len(inside) / span, 1), "peak_rps": peak,
            "p50_ms": round(1000 * pct(lat, 50), 1), "p95_ms": round(1000 * pct(lat, 95), 1),
            "p99_ms": round(1000 * pct(lat, 99), 1), "max_ms": round(1000 * max(lat), 1),
            "mean_ms": round(1000 * statistics.fmean(lat), 1),
        }
    out["outcomes"] = {f"{ep} {o}": n for (ep, o), n in sorted(rec.outcomes.items())}
    out["errors"] = {f"{ep} {o}": n for (ep, o), n in sorted(rec.errors.items())}
    entries = [e for es in drive.log.values() for e in es]
    out["slips_sent"] = len(entries)
    out["slips_acknowledged"] = sum(1 for e in entries if e.get("slip_id") is not None)
    out["slips_late"] = sum(1 for e in entries if e.get("late"))
    out["slips_unacknowledged"] = sum(1 for e in entries if e.get("slip_id") is None)
    out["modes"] = dict(Counter(e["mode"] for e in entries))
    out["in_burst"] = sum(1 for e in entries if drive.deadline and e["sent_at"] >= drive.deadline - drive.o.burst)
    out["login_seconds"] = round(getattr(drive, "login_seconds", 0), 1)
    out["solve_seconds"] = round(getattr(drive, "solve_seconds", 0), 2)
    out["timeline"] = timeline(drive)
    for key, sent, saw in (("open_to_tablets", drive.open_sent, drive.saw_open),
                           ("publish_to_tablets", drive.publish_sent, drive.saw_published)):
        if sent is not None:
            seen = [t - sent for t in saw.values()]
            out[key] = {"tablets": len(seen), "p50_s": round(pct(seen, 50), 2), "p95_s": round(pct(seen, 95), 2),
                        "max_s": round(max(seen), 2) if seen else None}
    if getattr(drive, "publish_seconds", None) is not None:
        out["publish_to_tablets"]["request_s"] = round(drive.publish_seconds, 2)
        seen = [t - drive.publish_sent for t in drive.published_detected.values()]
        out["publish_to_tablets"]["poll_saw_it_p50_s"] = round(pct(seen, 50), 2)
        out["publish_to_tablets"]["poll_saw_it_max_s"] = round(max(seen), 2) if seen else None
    out["polling"] = "version (ETag/304) + state on change" if drive.version_url else "plain GET /api/tablet/state/"
    return out
