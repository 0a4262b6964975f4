"""``./hall run`` after a crash: from the command to the first 200, the whole stack killed with ``kill -9`` in
between (web server, worker, its pool and beat, and ``./hall run``'s own process: a power cut, an
out-of-memory kill).

    python -m tests.load.restart [--runs 5] [--dir DIR] [--command CMD] [--cwd DIR]

The first start sets the folder up (``DIR``, a var dir: migrations, the demo with its Russian lexicon) unless
it is set up already; each following start comes after a ``kill -9`` of everything the previous one started.
Prints each start's seconds to the first 200 of ``/api/public/tournaments/`` (a page through Django and the
database), the CPU its processes spent until then (user + system: what the start costs whatever else the
machine does), the cores the machine's other processes kept busy meanwhile, the set-up steps it ran (its
``Set-up:`` line) and the load average. ``--command`` and
``--cwd`` time another start command (e.g. the three set-up commands and ``manage.py serve`` one after the
other, as ``./hall run`` ran them before it skipped what has no work). ``tests/system/test_fault_restart.py``
runs it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import signal
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from tests.load.stack import RUN_VARIABLES, free_port
from tests.paths import ROOT

PATH = "/api/public/tournaments/"


@dataclass
class Start:
    """One ``./hall run``: its process (the leader of its own process group) and its output file."""

    proc: subprocess.Popen[bytes]
    log: Path
    began: float  # monotonic, before the command was started
    machine: float = 0.0  # the machine's busy CPU seconds (every process) when it was started
    own: float = 0.0  # this process's CPU seconds then (it polls: not one of the "other processes")

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def steps(self) -> str:
        found = re.findall(r"^Set-up: (.*) \(", self.output(), re.MULTILINE)
        return found[-1] if found else "?"


def env_for(var_dir: Path, port: int, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in RUN_VARIABLES}
    env.update({"DUPLICATE_VAR_DIR": str(var_dir), "PORT": str(port), "PYTHONUNBUFFERED": "1",
                "DJANGO_SETTINGS_MODULE": "tournament.settings", **(extra or {})})
    return env


def start(command: list[str], env: dict[str, str], cwd: Path, log: Path) -> Start:
    with open(log, "wb") as out:
        machine, own, began = machine_cpu(), time.process_time(), time.monotonic()
        proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    return Start(proc, log, began, machine, own)


@dataclass
class Figures:
    """One start: seconds from the command to its first 200, the set-up steps it ran, the CPU seconds its
    processes spent until then, and the cores the machine's other processes kept busy meanwhile."""

    seconds: float
    steps: str
    cpu: float
    others: float


def group_cpu(pgid: int) -> float:
    """CPU seconds (user + system) spent so far by a process group: its processes, and the children they
    waited for (the set-up commands)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid:  # field 5, pgrp; then utime, stime, cutime, cstime (fields 14-17)
            total += sum(int(f) for f in fields[11:15])
    return total / tick


def machine_cpu() -> float:
    """The busy CPU seconds of the whole machine so far (``/proc/stat``: all but idle and iowait)."""
    fields = [int(f) for f in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def first_200(run: Start, port: int, timeout: float) -> Figures:
    """The start's figures at its first 200 (raises when it exits or takes longer than ``timeout``)."""
    url = f"http://127.0.0.1:{port}{PATH}"
    while time.monotonic() - run.began < timeout:
        if run.proc.poll() is not None:
            raise RuntimeError(f"the start command exited ({run.proc.returncode}):\n{run.output()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    seconds, cpu = time.monotonic() - run.began, group_cpu(run.proc.pid)
                    mine = time.process_time() - run.own
                    others = max(0.0, machine_cpu() - run.machine - cpu - mine) / seconds
                    return Figures(seconds, run.steps(), cpu, others)
        except (OSError, urllib.error.HTTPError):
            pass
        time.sleep(0.02)
    raise RuntimeError(f"no 200 from {url} within {timeout:.0f} s:\n{run.output()[-3000:]}")


def worker_ready(run: Start, timeout: float = 120) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if " ready." in run.output():
            return True
        time.sleep(0.1)
    return False


def kill9(run: Start) -> None:
    """``kill -9`` of every process the start left: its process group (the servers are its children)."""
    try:
        os.killpg(run.proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    run.proc.wait(timeout=10)
    end = time.monotonic() + 10
    while time.monotonic() < end and group_alive(run.proc.pid):
        time.sleep(0.05)


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def stop(run: Start) -> None:
    """Ends a start as Ctrl+C does (the servers stop cleanly), then whatever is left."""
    if run.proc.poll() is None:
        try:
            os.killpg(run.proc.pid, signal.SIGINT)
            run.proc.wait(timeout=30)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
    kill9(run)


def restarts(var_dir: Path, runs: int, *, command: list[str] | None = None, cwd: Path = ROOT,
             extra: dict[str, str] | None = None, first_timeout: float = 900) -> list[Figures]:
    """The figures of a first start and of ``runs`` starts each after a kill -9 of the one before."""
    command = command or ["./hall", "run"]
    var_dir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    env = env_for(var_dir, port, extra)
    out: list[Figures] = []
    for i in range(runs + 1):
        run = start(command, env, cwd, var_dir / f"start-{i}.log")
        try:
            out.append(first_200(run, port, first_timeout if i == 0 else 120))
            worker_ready(run)  # everything up, as in a hall, before the next crash
        finally:
            (kill9 if i < runs else stop)(run)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.load.restart", description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=5, help="starts after a kill -9 (after the first start)")
    p.add_argument("--dir", type=Path, default=ROOT / "var" / "restart-bench", help="the var dir (kept)")
    p.add_argument("--command", default="./hall run", help="the start command (default: ./hall run)")
    p.add_argument("--cwd", type=Path, default=ROOT, help="where the command runs (default: this checkout)")
    o = p.parse_args(argv)
    results = restarts(o.dir, o.runs, command=shlex.split(o.command), cwd=o.cwd)
    for i, f in enumerate(results):
        print(f"{'first start' if i == 0 else f'after kill -9 #{i}'}: first 200 in {f.seconds:.2f} s, "
              f"{f.cpu:.2f} CPU-s, other processes {f.others:.1f} cores busy (set-up: {f.steps})")
    after = results[1:]
    if after:
        print(json.dumps({"command": o.command, "restarts": len(after),
                          "median_s": round(statistics.median(f.seconds for f in after), 2),
                          "max_s": round(max(f.seconds for f in after), 2),
                          "median_cpu_s": round(statistics.median(f.cpu for f in after), 2),
                          "load_average": [round(x, 1) for x in os.getloadavg()]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
