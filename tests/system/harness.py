"""What the fault tests share: a small HTTP client, a tournament on a running stack (:class:`Hall`), the
tablets' outbox as a client (:class:`OutboxTablet`), and the private servers a test may stop and start
(:class:`OwnRedis`, :class:`OwnPostgres`: never the machine's shared ones).

Nothing here imports Django: the stack's processes run with their own environment
(:func:`tests.load.stack.stack_env`); the test reads their database directly (SQLite file or PostgreSQL).
"""

from __future__ import annotations

import http.client
import json
import os
import pwd
import random
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import psycopg

from tests.load.stack import Env, Stack, free_port, manage, phase, stack_env
from tests.load.tablets import arbiter_token

#: Players of a fault test's tournament, unless the test asks for another number.
TABLETS = 6
Answer = tuple[int | None, dict[str, Any]]
T = TypeVar("T")


# -- a small HTTP client --------------------------------------------------------------------------------------


def call(url: str, method: str = "GET", body: dict | None = None, headers: dict | None = None,
         timeout: float = 10) -> Answer:
    """(status, JSON body) of one request; (None, {}) when nobody answered."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method, headers={
        "Content-Type": "application/json", "Accept": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            raw = r.read()
            return r.status, json.loads(raw) if raw else {}
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        try:
            return exc.code, json.loads(raw)
        except ValueError:
            return exc.code, {"raw": raw[:200].decode(errors="replace")}
    except (OSError, http.client.HTTPException):  # nobody answered, or the server died mid-answer
        return None, {}


def wait_for(predicate: Callable[[], T], timeout: float, step: float = 0.2) -> T:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    return predicate()


# -- a tournament on a running stack ----------------------------------------------------------------------------


class Hall:
    """A tournament on a running stack: the arbiter's token (asked for at once), the tablets' tokens, and its
    database read directly (``db``: the SQLite file, or a PostgreSQL URL)."""

    def __init__(self, stack: Stack, setup: dict, db: Path | str):
        self.stack, self.setup, self.db = stack, setup, db
        self.arbiter = {"Authorization": f"Token {arbiter_token(stack.url, setup)}"}
        self.tokens: dict[int, str] = {}

    @property
    def url(self) -> str:
        return self.stack.url

    def sql(self, query: str, *args: Any) -> list[tuple]:
        """A query with ``?`` placeholders, on either database."""
        if isinstance(self.db, Path):
            with sqlite3.connect(self.db, timeout=30) as conn:
                return conn.execute(query, args).fetchall()
        with psycopg.connect(self.db.replace("postgres://", "postgresql://", 1), connect_timeout=5) as conn:
            return conn.execute(query.replace("?", "%s"), args).fetchall()  # type: ignore[arg-type]

    def round(self, pk: int) -> dict:
        st, body = call(f"{self.url}/api/arbiter/rounds/{pk}/", headers=self.arbiter)
        assert st == 200, body
        return body

    def draw(self) -> int:
        st, body = call(f"{self.url}/api/arbiter/tournaments/{self.setup['slug']}/games/{self.setup['game']}/draw/",
                        "POST", {}, self.arbiter)
        assert st == 201, body
        return int(body["id"])

    def wait_solved(self, pk: int, timeout: float = 60) -> dict:
        return wait_for(lambda: (r := self.round(pk))["solver_status"] in ("done", "no_move") and r, timeout)

    def open(self, pk: int) -> dict:
        st, body = call(f"{self.url}/api/arbiter/rounds/{pk}/open/", "POST", {}, self.arbiter)
        assert st == 200, body
        return body

    def publish(self, pk: int) -> dict:
        st, body = call(f"{self.url}/api/arbiter/rounds/{pk}/publish/", "POST", {}, self.arbiter)
        assert st == 200, body
        return body

    def login_all(self) -> None:
        for table, code in self.setup["codes"].items():
            st, body = call(f"{self.url}/api/tablet/login/", "POST", {"code": code})
            assert st == 200, body
            self.tokens[int(table)] = body["token"]

    def slip(self, table: int, key: str, word: str, rnd: int, timeout: float = 10) -> Answer:
        return call(f"{self.url}/api/tablet/slip/", "POST", {"word": word, "coordinates": "H8", "score": 10,
                                                            "round": rnd},
                    {"Authorization": f"Tablet {self.tokens[table]}", "Idempotency-Key": key}, timeout)

    def state(self, table: int) -> Answer:
        return call(f"{self.url}/api/tablet/state/", headers={"Authorization": f"Tablet {self.tokens[table]}"})

    def slip_rows(self, rnd: int) -> list[tuple]:
        return self.sql("SELECT s.idempotency_key, s.id, r.table_number, s.is_current, s.late FROM tournament_slip s "
                        "JOIN tournament_registration r ON r.id = s.registration_id WHERE s.round_id = ?", rnd)

    def registrations(self) -> dict[int, int]:
        """table → registration id."""
        return {int(t): int(pk) for t, pk in self.sql("SELECT table_number, id FROM tournament_registration")}

    def audit_count(self, action: str, pk: int) -> int:
        return int(self.sql("SELECT COUNT(*) FROM tournament_auditlog WHERE action = ? AND object_id = ?",
                            action, str(pk))[0][0])

    def verdicts(self, pk: int) -> tuple[int, int]:
        """(verdicts of the round, distinct registrations among them)."""
        row = self.sql("SELECT COUNT(*), COUNT(DISTINCT registration_id) FROM tournament_verdict WHERE round_id = ?",
                       pk)[0]
        return int(row[0]), int(row[1])


def prepare(tmp_path: Path, env_extra: dict | None = None, *, broker_url: str | None = None,
            redis_url: str | None = None, database_url: str | None = None, tablets: int = TABLETS,
            seconds_per_move: int = 60, grace: int = 2) -> tuple[Env, dict]:
    """The stack's environment (private var dir ``tmp_path``), its database migrated and a tournament set up."""
    env = stack_env(tmp_path, database_url=database_url, broker_url=broker_url, redis_url=redis_url,
                    extra=env_extra)
    manage(env, "migrate", "--no-input", "-v", "0")
    out = tmp_path / "setup.json"
    phase(env, "setup", "--io", str(out), "--tablets", str(tablets), "--seconds-per-move", str(seconds_per_move),
          "--grace", str(grace))
    return env, json.loads(out.read_text())


def check_receipts(env: Env, tmp_path: Path, hall: Hall, rnd: int, tablets: list[OutboxTablet]) -> dict[str, Any]:
    """The load test's check phase (:func:`tests.load.phases.check_run`) on what the tablets were told: every
    acknowledged slip stored once with its id, no row no tablet sent, the counted slip the last acknowledged,
    a verdict for every registration."""
    log = {"round": rnd, "slug": hall.setup["slug"],
           "tablets": {str(t.table): [s.as_log() for s in t.sent] for t in tablets}}
    path = tmp_path / "client-log.json"
    path.write_text(json.dumps(log))
    phase(env, "check", "--io", str(path))
    return dict(json.loads(path.with_suffix(".result.json").read_text()))


# -- the tablet's outbox as a client ------------------------------------------------------------------------------


@dataclass
class Attempt:
    at: float  # monotonic, when the answer (or its absence) came
    status: int | None
    code: str = ""
    detail: str = ""


@dataclass
class Sent:
    """One slip as the outbox holds it: its key, every try, and how the server settled it."""

    key: str
    word: str
    attempts: list[Attempt] = field(default_factory=list)
    slip_id: int | None = None
    late: bool = False
    acked_at: float | None = None  # epoch
    acked_mono: float | None = None
    refused: str | None = None

    def as_log(self) -> dict[str, Any]:
        """The entry :mod:`tests.load.phases` checks."""
        return {"key": self.key, "word": self.word, "slip_id": self.slip_id, "late": self.late,
                "acked_at": self.acked_at, "attempts": len(self.attempts), "refused": self.refused}


WORDS = ("КОТ", "ДОМ", "СОН", "ЛЕС", "ТОК", "НОС")


class OutboxTablet(threading.Thread):
    """A tablet handing in slips one after another until ``until`` (epoch), each kept until the server settles
    it, as ``static/js/outbox.js`` does: the same Idempotency-Key on every try; settled by 200/201 (received),
    409 ``time_over`` (late, stored), another 4xx but 408/429 (refused); anything else or no answer → tried
    again after 1, 2, 4 … 30 s (±20 %), or at once when a version poll goes through while the next try is more
    than 2 s away (the outbox's ``nudge``). Stops trying at ``give_up`` (epoch)."""

    def __init__(self, hall: Hall, table: int, rnd: int, *, until: float, give_up: float, pause: float = 0.6,
                 seed: int = 0):
        super().__init__(name=f"tablet-{table}", daemon=True)
        self.hall, self.table, self.rnd = hall, table, rnd
        self.until, self.give_up, self.pause = until, give_up, pause
        self.rng = random.Random(seed * 1000 + table)
        self.sent: list[Sent] = []
        self.polls: list[Attempt] = []
        self.version_url = f"{hall.url}/tablet/version/{hall.setup['slug']}/"

    def run(self) -> None:
        while time.time() < self.until:
            sent = Sent(uuid.uuid4().hex, self.rng.choice(WORDS))
            self.sent.append(sent)
            self.deliver(sent)
            time.sleep(self.pause * (0.5 + self.rng.random()))

    def deliver(self, sent: Sent) -> None:
        failures = 0
        while time.time() < self.give_up:
            st, body = self.hall.slip(self.table, sent.key, sent.word, self.rnd, timeout=10)
            sent.attempts.append(Attempt(time.monotonic(), st, str(body.get("code", "")),
                                         str(body.get("detail") or body.get("raw") or "")[:160]))
            if st in (200, 201) or (st == 409 and body.get("code") == "time_over"):
                slip = body if st != 409 else body.get("slip") or {}
                sent.slip_id, sent.late = slip.get("id"), bool(slip.get("late"))
                sent.acked_at, sent.acked_mono = time.time(), time.monotonic()
                return
            if st is not None and 400 <= st < 500 and st not in (408, 429):
                sent.refused = f"{st} {body.get('code', '')}"
                return
            failures += 1
            self.wait(min(30.0, 2.0 ** (failures - 1)) * (0.8 + 0.4 * self.rng.random()))

    def wait(self, delay: float) -> None:
        """Until the next try; a version poll every second sends it at once when it goes through (``nudge``)."""
        due = time.monotonic() + delay
        while (left := due - time.monotonic()) > 0:
            time.sleep(min(1.0, left))
            st, _body = call(self.version_url, timeout=2)
            self.polls.append(Attempt(time.monotonic(), st))
            if due - time.monotonic() > 2 and st in (200, 304):
                return

    def attempts(self) -> list[Attempt]:
        return [a for s in self.sent for a in s.attempts]


def answers_between(tablets: list[OutboxTablet], start: float, end: float, *, polls: bool = False) -> Counter[str]:
    """What the tablets' slip requests (or version polls) got between two monotonic times: ``"503 unavailable"``,
    ``"no answer"``…"""
    return Counter("no answer" if a.status is None else f"{a.status} {a.code}".strip()
                   for t in tablets for a in (t.polls if polls else t.attempts()) if start <= a.at <= end)


def details_between(tablets: list[OutboxTablet], start: float, end: float) -> set[str]:
    return {a.detail for t in tablets for a in t.attempts() if start <= a.at <= end and a.detail}


# -- private servers: redis-server and PostgreSQL of one test ----------------------------------------------------


class OwnRedis:
    """A redis-server of this test on a spare port, with an append-only file so that a restart keeps the queue."""

    def __init__(self, data: Path):
        binary = shutil.which("redis-server")
        if binary is None or shutil.which("redis-cli") is None:
            raise FileNotFoundError("redis-server and redis-cli are needed")
        self.binary, self.data, self.port = binary, data, free_port()
        data.mkdir(parents=True, exist_ok=True)
        self.procs: list[subprocess.Popen[bytes]] = []

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen([self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.data),
                                 "--appendonly", "yes", "--appendfsync", "always", "--save", ""],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.procs.append(proc)
        if not wait_for(lambda: subprocess.run(["redis-cli", "-p", str(self.port), "ping"], capture_output=True,
                                               text=True).stdout.strip() == "PONG", 10):
            raise RuntimeError(f"redis-server did not start on port {self.port}")
        return proc

    def stop(self) -> None:
        proc = self.procs[-1]
        proc.send_signal(signal.SIGTERM)  # SHUTDOWN: the append-only file is flushed
        proc.wait(timeout=15)

    def close(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)


def user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL's ``bin`` directory (Debian's layout)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/postgres"), key=lambda p: int(p.parent.parent.name)
                   if p.parent.parent.name.isdigit() else 0)
    return found[-1].parent if found else None


class OwnPostgres:
    """A throwaway PostgreSQL server of this test: ``initdb`` into a temporary directory, ``postgres`` on a spare
    port with its socket in that directory. Run as the ``postgres`` user when the test runs as root (the
    server refuses root). The machine's shared server (5432) is never touched."""

    def __init__(self) -> None:
        binary = postgres_bin()
        if binary is None:
            raise FileNotFoundError("PostgreSQL's server binaries (/usr/lib/postgresql/*/bin) are not installed")
        self.bin = binary
        self.port = free_port()
        self.user: str | None = "postgres" if os.geteuid() == 0 else None
        if self.user and (shutil.which("setpriv") is None or not user_exists(self.user)):
            raise FileNotFoundError("running as root: PostgreSQL needs the postgres user and setpriv (util-linux)")
        # not under pytest's tmp_path: the postgres user must be able to reach it (pytest's is 0700 root)
        self.dir = Path(tempfile.mkdtemp(prefix="faults-pg-"))
        if self.user:
            shutil.chown(self.dir, self.user, self.user)
        self.data = self.dir / "data"
        self.log = self.dir / "server.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.as_user(["initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8",
                      "--locale=C.UTF-8", "--no-sync"], check=True)

    def argv(self, program: str, *args: str) -> list[str]:
        argv = [str(self.bin / program), *args]
        if self.user:  # setpriv execs the program itself: the pid we get is the server's
            argv = ["setpriv", f"--reuid={self.user}", f"--regid={self.user}", "--init-groups", *argv]
        return argv

    def as_user(self, argv: list[str], *, check: bool = False) -> subprocess.CompletedProcess[str]:
        return subprocess.run(self.argv(*argv), cwd=self.dir, capture_output=True, text=True, check=check,
                              timeout=120)

    def url(self, database: str = "faults") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def start(self, timeout: float = 30) -> float:
        """Starts the server; the seconds until it accepts connections."""
        t0 = time.monotonic()
        log = open(self.log, "ab")  # noqa: SIM115 (kept open for the child)
        self.proc = subprocess.Popen(
            self.argv("postgres", "-D", str(self.data), "-p", str(self.port), "-k", str(self.dir),
                      "-c", "listen_addresses=127.0.0.1", "-c", "max_connections=100", "-c", "shared_buffers=32MB"),
            cwd=self.dir, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        log.close()
        if not wait_for(self.ready, timeout, step=0.05):
            raise RuntimeError(f"PostgreSQL did not start on port {self.port}: see {self.log}")
        return time.monotonic() - t0

    def ready(self) -> bool:
        try:
            with psycopg.connect(f"postgresql://postgres@127.0.0.1:{self.port}/postgres", connect_timeout=2):
                return True
        except psycopg.Error:
            return False

    def stop(self, mode: str = "fast", timeout: float = 30) -> float:
        """Stops the server: ``fast`` (SIGINT: running transactions rolled back, a clean shutdown) or
        ``immediate`` (SIGQUIT: no shutdown checkpoint, crash recovery at the next start); the seconds it took."""
        assert self.proc is not None
        t0 = time.monotonic()
        self.proc.send_signal(signal.SIGINT if mode == "fast" else signal.SIGQUIT)
        self.proc.wait(timeout=timeout)
        return time.monotonic() - t0

    def create_database(self, name: str = "faults") -> str:
        with psycopg.connect(f"postgresql://postgres@127.0.0.1:{self.port}/postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')  # type: ignore[arg-type]
        return self.url(name)

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)
