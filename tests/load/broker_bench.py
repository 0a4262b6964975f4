"""The embedded broker beside kombu's file-system transport: draw → solve started, and the worker's idle CPU.

    python -m tests.load.broker_bench [--broker URL …] [--draws 20] [--idle 60]

For each broker (default: the file-system transport of kombu, ``filesystem://``, then the embedded default),
a stack of its own as ``serve`` starts it (gunicorn, a Celery worker with 2 pool processes and the recovery
beat) in a var dir of its own; the arbiter draws a round through the API ``--draws`` times (each round
cancelled once solved, so that the next can be drawn) and the worker notes when the solve starts
(``tests.load.fault_worker``'s journal): the figure is from the draw request to that moment. Then nothing
happens for ``--idle`` seconds (but the recovery sweep every 5 s, as in a hall between rounds) and the
worker's CPU (its process and pool, user + system) is read over that window.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from tests.load.stack import Stack, manage, phase, stack_env
from tests.paths import ROOT
from tests.system.harness import Hall, call, wait_for

FILESYSTEM = "filesystem://"
DEFAULT = "default"
WORKER = [sys.executable, "-m", "tests.load.fault_worker"]


def solve_starts(path: Path) -> list[float]:
    if not path.exists():
        return []
    events = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [e["at"] for e in events if e["event"] == "start" and e["caller"] == "solve_round"]


def cancel(hall: Hall, pk: int) -> None:
    st, body = call(f"{hall.url}/api/arbiter/rounds/{pk}/cancel/", "POST", {"why": "benchmark"}, hall.arbiter)
    assert st == 200, body


def draws(hall: Hall, journal: Path, count: int) -> list[tuple[float, float]]:
    """Seconds from each draw request to its answer and to its solve's start."""
    out = []
    for _ in range(count):
        seen = len(solve_starts(journal))
        sent = time.time()
        pk = hall.draw()
        answered = time.time()
        started = wait_for(lambda seen=seen: (s := solve_starts(journal))[seen:] and s, 30, step=0.005)
        assert started, "the solve did not start"
        out.append((answered - sent, started[seen] - sent))
        assert hall.wait_solved(pk)
        cancel(hall, pk)
        time.sleep(0.5)  # the round's other tasks and the worker settle before the next draw
    return out


def measure(broker: str, folder: Path, count: int, idle: float) -> dict[str, Any]:
    var = folder / ("filesystem" if broker == FILESYSTEM else "embedded")
    journal = var / "journal.jsonl"
    env = stack_env(var, broker_url=None if broker == DEFAULT else broker,
                    extra={"FAULT_JOURNAL": str(journal), "BACKUP_SECONDS": "0"})
    manage(env, "migrate", "--no-input", "-v", "0")
    phase(env, "setup", "--io", str(var / "setup.json"), "--tablets", "2")
    setup = json.loads((var / "setup.json").read_text())
    with Stack(env, var / "logs", web_workers=2, threads=8, celery_concurrency=2, worker_argv=WORKER) as stack:
        stack.start_worker()
        stack.start_web()
        hall = Hall(stack, setup, var / "db.sqlite3")
        log = var / "logs" / "worker.log"
        assert wait_for(lambda: log.exists() and " ready." in log.read_text(), 120), "the worker did not start"
        latencies = draws(hall, journal, count)
        time.sleep(5)
        cpu0, t0 = stack.cpu_seconds(["worker"]), time.monotonic()
        time.sleep(idle)
        cpu = (stack.cpu_seconds(["worker"]) - cpu0) / (time.monotonic() - t0)
    return {"broker": broker if broker != DEFAULT else "embedded (sqlite)", "draws": count,
            "draw_answered_ms": spread([a for a, _s in latencies]),
            "draw_to_solve_started_ms": spread([s for _a, s in latencies]),
            "idle_worker_cpu_pct": round(100 * cpu, 2), "idle_s": idle}


def spread(seconds: list[float]) -> dict[str, float]:
    ms = sorted(1000 * s for s in seconds)
    return {"median": round(statistics.median(ms), 1), "p90": round(ms[int(0.9 * (len(ms) - 1))], 1),
            "max": round(ms[-1], 1)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.load.broker_bench", description=__doc__.split("\n\n")[0])
    p.add_argument("--broker", nargs="+", default=[FILESYSTEM, DEFAULT],
                   help=f"CELERY_BROKER_URL values to measure ('{DEFAULT}': the embedded default)")
    p.add_argument("--draws", type=int, default=20)
    p.add_argument("--idle", type=float, default=60.0, help="seconds of the idle window")
    p.add_argument("--dir", type=Path, default=ROOT / "var" / "broker-bench")
    o = p.parse_args(argv)
    import shutil  # noqa: PLC0415 (the command only)

    for broker in o.broker:
        shutil.rmtree(o.dir, ignore_errors=True)
        print(json.dumps(measure(broker, o.dir, o.draws, o.idle)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
