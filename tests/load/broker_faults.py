"""The broker under ``kill -9``: a publisher and a Celery worker killed again and again while tasks flow.

A publisher process sends a small task (``faults.record``) after another, as fast as it can, through the
product's Celery app and settings (the path of the web process's ``apply_async``), noting each number before
and after it is sent; a worker (prefork, 2 pool processes, as ``serve`` starts it) runs them, each run noting
the number and the worker that ran it. The driver kills the publisher every few tenths of a second and the
worker (its whole process group) a moment after it took a message or ran a task, starts each again at once,
and at the end checks what the broker did:

* no worker stopped by itself (``Unrecoverable error`` or any exit that was not a kill);
* every task the publisher was told was sent ran at least once; one that ran twice had its first run in a
  worker that was killed afterwards (the acknowledgement died with it: delivered again, as ``acks_late``
  wants); a task whose publisher died while sending ran at most once, or not at all;
* the broker holds nothing at the end (every message acknowledged, no claim left).

``python -m tests.load.broker_faults [--broker URL] [--worker-kills 5] [--publisher-kills 20] [--dir DIR]``
(killing stops when both counts are reached, or after ``--max-seconds``) prints the figures and the
failures (exit 1 on a failure); ``--broker filesystem://`` runs it on kombu's file-system transport.
``--eta`` runs the other scenario instead: three tasks with an ETA held by a worker killed before their time,
then another worker (each must run once, at its time). ``tests/system/test_fault_broker.py`` runs both on the
default. Internal: ``… publish JOURNAL FIRST [COUNT
COUNTDOWN]`` and ``… worker [celery worker options]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.paths import ROOT

RECORD = "faults.record"
FATAL = ("Unrecoverable error", "CRITICAL")


def note(path: str | os.PathLike[str], **entry: Any) -> None:
    """One JSON line appended to ``path`` (one write: lines of processes killed mid-way are never mixed)."""
    line = json.dumps({**entry, "at": time.time()}) + "\n"
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line.encode())
    finally:
        os.close(fd)


def journal(path: Path) -> list[dict[str, Any]]:
    """The lines of a journal (a line cut short by a kill is skipped)."""
    out = []
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                out.append(json.loads(line))
            except ValueError:
                continue
    return out


# -- the processes: publisher and worker (python -m tests.load.broker_faults publish|worker) ---------------------


def publish(journal_path: str, start: int, count: int | None = None, countdown: float | None = None) -> None:
    """Sends ``faults.record(n)`` for n = start, start + 1, … until killed (or ``count`` of them, each to run
    ``countdown`` seconds later: an ETA, as a round's close)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    from tournament.celery import app  # noqa: PLC0415 (the settings of this process's environment)

    pause = float(os.environ.get("FAULT_PUBLISH_PAUSE", "0"))
    n = start
    while count is None or n < start + count:
        note(journal_path, event="intent", n=n)
        app.send_task(RECORD, (n,), countdown=countdown)
        note(journal_path, event="sent", n=n)
        n += 1
        time.sleep(pause)


def worker(argv: list[str]) -> None:
    """The product's worker with one more task, ``faults.record``, that notes each run in ``FAULT_RUNS``."""
    import django  # noqa: PLC0415 (set up in this process only)

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    django.setup()
    from tournament.celery import app  # noqa: PLC0415 (after the set-up)

    runs = os.environ["FAULT_RUNS"]

    seconds = float(os.environ.get("FAULT_TASK_SECONDS", "0.02"))

    @app.task(name=RECORD, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
    def record(n: int) -> None:
        time.sleep(seconds)  # a task takes a moment: a kill may fall while it runs
        note(runs, event="run", n=n, pid=os.getpid(), worker=os.getppid())

    app.worker_main(["worker", *argv])


# -- the driver --------------------------------------------------------------------------------------------------


@dataclass
class Proc:
    """A process of the run in its own process group, its output in a log file."""

    name: str
    argv: list[str]
    env: dict[str, str]
    log: Path
    proc: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    kills: list[tuple[float, int]] = field(default_factory=list)  # (when, pid)
    died: list[tuple[int, int | None]] = field(default_factory=list)  # (pid, status): ended by itself

    def start(self) -> None:
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(self.argv, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True)
        self.started = time.time()

    def check(self) -> None:
        """Notes a process that ended without being killed, and starts it again (as ``serve`` does)."""
        if self.proc is not None and self.proc.poll() is not None:
            self.died.append((self.proc.pid, self.proc.returncode))
            self.start()

    def kill9(self) -> None:
        assert self.proc is not None
        self.check()
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.kills.append((time.time(), self.proc.pid))
        self.proc.wait(timeout=10)

    def stop(self, sig: int = signal.SIGKILL) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, sig)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        if self.proc is not None:
            try:  # what the group may still hold (pool processes)
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


@dataclass
class Run:
    """What a run did and saw."""

    seconds: float
    publisher_kills: int
    worker_kills: int
    sent: int
    intent_only: int
    ran: int
    runs: int
    redelivered: int
    given_back: int
    left_in_broker: int
    failures: list[str]

    def figures(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "failures"}


def env_for(var_dir: Path, broker: str | None, runs: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL",
                                                             "CELERY_TASK_ALWAYS_EAGER")}
    env.update({"DUPLICATE_VAR_DIR": str(var_dir), "DJANGO_SETTINGS_MODULE": "tournament.settings",
                "PYTHONUNBUFFERED": "1", "FAULT_RUNS": str(runs), "BACKUP_SECONDS": "0"})
    if broker:
        env["CELERY_BROKER_URL"] = broker
    return env


def tail(path: Path, size: int = 16384) -> list[dict[str, Any]]:
    """The last lines of a journal (its last ``size`` bytes)."""
    try:
        with open(path, "rb") as f:
            f.seek(max(0, f.seek(0, os.SEEK_END) - size))
            text = f.read().decode(errors="replace")
    except FileNotFoundError:
        return []
    out = []
    for line in text.splitlines()[1:]:
        try:
            out.append(json.loads(line))
        except ValueError:
            continue
    return out


def worker_ran_since(runs: Path, pid: int, since: float) -> bool:
    return any(e["worker"] == pid and e["at"] >= since for e in tail(runs))


def holds(var_dir: Path, broker: str | None, pid: int) -> bool:
    """Whether the worker ``pid`` holds a message it claimed (the embedded broker's file says so)."""
    path = var_dir / "broker.sqlite3"
    if broker or not path.exists():
        return False
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1)
        try:
            return conn.execute("SELECT 1 FROM message WHERE owner LIKE ? LIMIT 1", (f"{pid}:%",)).fetchone() is not None
        finally:
            conn.close()
    except sqlite3.Error:
        return False


def drive(var_dir: Path, *, broker: str | None = None, worker_kills: int = 5, publisher_kills: int = 20,
          max_seconds: float = 300, seed: int = 1) -> Run:
    """Kills the publisher and the worker until each was killed that many times (or for ``max_seconds``),
    then lets the tasks sent drain and checks them."""
    var_dir.mkdir(parents=True, exist_ok=True)
    sent_path, runs = var_dir / "published.jsonl", var_dir / "runs.jsonl"
    env = env_for(var_dir, broker, runs)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    me = [sys.executable, "-m", "tests.load.broker_faults"]
    wrk = worker_proc(var_dir, env)
    pub = Proc("publisher", [*me, "publish", str(sent_path), "0"], env, var_dir / "publisher.log")
    rng = random.Random(seed)
    wrk.start()
    pub.start()
    t0 = time.monotonic()
    pub_due: float | None = None
    worker_due: float | None = None
    try:
        while time.monotonic() - t0 < max_seconds and (len(wrk.kills) < worker_kills
                                                        or len(pub.kills) < publisher_kills):
            time.sleep(0.02)
            wrk.check()
            pub.check()
            now = time.monotonic()
            assert wrk.proc is not None and pub.proc is not None
            # each is killed a moment after it is seen at work: the publisher sending, the worker running tasks
            if pub_due is None and len(pub.kills) < publisher_kills \
                    and any(e["at"] >= pub.started for e in tail(sent_path, 2048)):
                pub_due = now + rng.uniform(0.0, 1.0)
            if pub_due is not None and now >= pub_due:
                pub.kill9()
                if len(pub.kills) == publisher_kills:  # killed enough: it sends slowly while the worker's kills go on
                    pub.env = {**pub.env, "FAULT_PUBLISH_PAUSE": "0.05"}
                pub.argv[-1] = str(1 + max((e["n"] for e in journal(sent_path)), default=-1))
                pub.start()
                pub_due = None
            if worker_due is None and len(wrk.kills) < worker_kills \
                    and (holds(var_dir, broker, wrk.proc.pid) or worker_ran_since(runs, wrk.proc.pid, wrk.started)):
                worker_due = now + rng.uniform(0.0, 0.3)
            if worker_due is not None and now >= worker_due:
                wrk.kill9()
                wrk.start()
                worker_due = None
        pub.stop(signal.SIGKILL)
        wrk.check()
        return settle(var_dir, broker, wrk, pub, sent_path, runs, time.monotonic() - t0)
    finally:
        pub.stop()
        wrk.stop(signal.SIGTERM)


def settle(var_dir: Path, broker: str | None, wrk: Proc, pub: Proc, sent_path: Path, runs: Path,
           seconds: float) -> Run:
    """Waits until every task sent ran (or nothing more ran for 30 s), then checks the run."""
    published = journal(sent_path)
    sent = {e["n"] for e in published if e["event"] == "sent"}
    count, moved = -1, time.monotonic()
    while time.monotonic() - moved < 30:
        ran = journal(runs)
        if sent <= {e["n"] for e in ran}:
            break
        if len(ran) != count:
            count, moved = len(ran), time.monotonic()
        wrk.check()
        time.sleep(0.5)
    time.sleep(2)  # a late duplicate would show here
    wrk.check()
    return check(var_dir, broker, wrk, pub, published, journal(runs), seconds)


def check(var_dir: Path, broker: str | None, wrk: Proc, pub: Proc, published: list[dict[str, Any]],
          ran: list[dict[str, Any]], seconds: float) -> Run:
    sent = {e["n"] for e in published if e["event"] == "sent"}
    intended = {e["n"] for e in published if e["event"] == "intent"}
    by_n: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for e in sorted(ran, key=lambda e: e["at"]):
        by_n[e["n"]].append(e)
    killed = {pid for _at, pid in wrk.kills}
    failures = [f"the {p.name} ended by itself (pid {pid}, status {status})" for p in (wrk, pub)
                for pid, status in p.died]
    text = wrk.log.read_text(errors="replace")
    failures += [f"the worker's log says {word!r}" for word in FATAL if word in text]
    lost = sorted(sent - by_n.keys())
    if lost:
        failures.append(f"{len(lost)} tasks sent never ran: {lost[:10]}")
    twice = {n: rs for n, rs in by_n.items() if len(rs) > 1}
    unexplained = sorted(n for n, rs in twice.items() if any(r["worker"] not in killed for r in rs[:-1]))
    if unexplained:
        failures.append(f"{len(unexplained)} tasks ran twice without their worker being killed: {unexplained[:10]}")
    phantom = sorted(by_n.keys() - intended)
    if phantom:
        failures.append(f"tasks ran that were never sent: {phantom[:10]}")
    left = broker_left(var_dir, broker)
    if left:
        failures.append(f"{left} messages left in the broker (unacknowledged or never delivered)")
    return Run(seconds=round(seconds, 1), publisher_kills=len(pub.kills), worker_kills=len(wrk.kills), sent=len(sent),
               intent_only=len(intended - sent), ran=len(by_n), runs=len(ran), redelivered=len(twice),
               given_back=text.count("given back to the queue"), left_in_broker=left, failures=failures)


def broker_left(var_dir: Path, broker: str | None) -> int:
    """The run's tasks still in the broker: rows of the embedded broker's file (claimed or waiting), message
    files of the file system's. The worker's own messages (its start-up sweep) are not counted."""
    path, query = var_dir / "broker.sqlite3", "SELECT payload FROM message"
    if broker and broker.startswith("sqla+sqlite:///"):  # kombu's SQLAlchemy transport: the messages not taken
        path, query = Path(broker[len("sqla+sqlite:///"):]), "SELECT payload FROM kombu_message WHERE visible"
    elif not path.exists():  # kombu's file-system transport
        return sum(1 for p in (var_dir / "broker" / "queue").glob("*.msg"))
    conn = sqlite3.connect(path, timeout=30)
    try:
        payloads = [json.loads(text) for (text,) in conn.execute(query)]
    finally:
        conn.close()
    return sum(1 for p in payloads if p.get("headers", {}).get("task") == RECORD)


def worker_proc(var_dir: Path, env: dict[str, str]) -> Proc:
    return Proc("worker", [sys.executable, "-m", "tests.load.broker_faults", "worker", "--loglevel", "INFO",
                           "--concurrency", "2", "--without-gossip", "--without-mingle",
                           "--hostname", f"faults-{os.getpid()}@%h"], env, var_dir / "worker.log")


def held_until_eta(var_dir: Path, *, broker: str | None = None, countdown: float = 8.0) -> list[str]:
    """Three tasks due ``countdown`` seconds after they are sent (as a round's close at deadline + grace),
    taken by a worker that is killed (``kill -9``) before their time, then another worker: what went wrong
    (nothing: each ran once, at its time, on the new worker, and nothing of them is left in the broker)."""
    var_dir.mkdir(parents=True, exist_ok=True)
    runs, sent = var_dir / "runs.jsonl", var_dir / "published.jsonl"
    env = env_for(var_dir, broker, runs)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    wrk = worker_proc(var_dir, env)
    wrk.start()
    try:
        if not wait(lambda: " ready." in wrk.log.read_text(), 120):
            return ["the worker did not start"]
        subprocess.run([sys.executable, "-m", "tests.load.broker_faults", "publish", str(sent), "0", "3",
                        str(countdown)], cwd=ROOT, env=env, check=True, timeout=60)
        due = max(e["at"] for e in journal(sent)) + countdown
        if not wait(lambda: wrk.log.read_text().count(f"Task {RECORD}[") >= 3, 30):
            return ["the worker did not take the three tasks"]
        wrk.kill9()  # it holds them, unacknowledged, until their ETA
        if time.time() >= due or journal(runs):
            return ["the machine is too slow for this ETA: the tasks were due before the worker was killed"]
        wrk.start()
        wait(lambda: len(journal(runs)) >= 3, 60)
        time.sleep(2)  # a second run would show here
        return eta_failures(var_dir, broker, wrk, journal(runs), due)
    finally:
        wrk.stop()


def eta_failures(var_dir: Path, broker: str | None, wrk: Proc, ran: list[dict[str, Any]], due: float) -> list[str]:
    failures = [f"the worker ended by itself (pid {pid}, status {status})" for pid, status in wrk.died]
    if sorted(e["n"] for e in ran) != [0, 1, 2]:
        failures.append(f"the three tasks held by the killed worker did not run once each: {sorted(e['n'] for e in ran)}")
    assert wrk.proc is not None
    if any(e["worker"] != wrk.proc.pid for e in ran):
        failures.append("a task ran on another worker than the new one")
    if any(e["at"] < due - 0.5 for e in ran):
        failures.append("a task ran before its ETA")
    if broker_left(var_dir, broker):
        failures.append("messages of the tasks are left in the broker")
    return failures


def wait(predicate: Callable[[], bool], timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.2)
    return predicate()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["publish"]:
        publish(args[1], int(args[2]), *(int(args[3]), float(args[4])) if len(args) > 3 else ())
        return 0
    if args[:1] == ["worker"]:
        worker(args[1:])
        return 0
    p = argparse.ArgumentParser(prog="python -m tests.load.broker_faults", description=__doc__.split("\n\n")[0])
    p.add_argument("--broker", default=None, help="CELERY_BROKER_URL (default: the embedded default)")
    p.add_argument("--worker-kills", type=int, default=5)
    p.add_argument("--publisher-kills", type=int, default=20)
    p.add_argument("--max-seconds", type=float, default=300)
    p.add_argument("--dir", type=Path, default=ROOT / "var" / "broker-faults")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--eta", action="store_true", help="instead: three tasks with an ETA held by a worker killed "
                                                       "before their time, then another worker")
    o = p.parse_args(args)
    import shutil  # noqa: PLC0415 (the command only)

    shutil.rmtree(o.dir, ignore_errors=True)
    if o.eta:
        failures = held_until_eta(o.dir, broker=o.broker)
        for failure in failures:
            print(f"FAIL {failure}")
        print("PASS" if not failures else f"{len(failures)} failures")
        return 1 if failures else 0
    run = drive(o.dir, broker=o.broker, worker_kills=o.worker_kills, publisher_kills=o.publisher_kills,
                max_seconds=o.max_seconds, seed=o.seed)
    print(f"broker {o.broker or 'embedded default'}: {json.dumps(run.figures())}")
    for failure in run.failures:
        print(f"FAIL {failure}")
    print("PASS" if not run.failures else f"{len(run.failures)} failures")
    return 1 if run.failures else 0


if __name__ == "__main__":
    sys.exit(main())
