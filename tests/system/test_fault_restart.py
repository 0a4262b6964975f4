"""Fault test: ``./hall run`` after the whole stack was killed with ``kill -9`` serves again within 3 s.

The first ``./hall run`` sets a fresh folder up (migrations, the demo with its Russian lexicon); then, again
and again, everything it started — web server, worker, its pool and beat, ``./hall run``'s own process — is
killed at once and ``./hall run`` runs again on the same folder: nothing is set up again (its ``Set-up:``
line), its processes spend at most :data:`CPU_BUDGET_S` of CPU until the first 200, and that comes within
:data:`TARGET_S` of the command (the median of the restarts that found a core free — :data:`FREE_CORE` of
it at least, left by the machine's other processes: the web server loads its application on one core, so a
start on a machine whose other processes keep every core busy waits for them; when fewer than three restarts
found one, the time is not judged and the test says so). It runs after the other
tests of its pytest (``tests/system/conftest.py``), when the cores are usually free. ``-s`` prints the figures.
``python -m tests.load.restart`` prints the same figures from the command line.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from tests.load import restart
from tests.paths import ROOT

pytestmark = pytest.mark.faults

TARGET_S = 3.0
#: CPU seconds a start may spend until its first 200 (1.4-2.2 measured; the set-up commands and serve one after
#: the other: over 8)
CPU_BUDGET_S = 3.0
#: Of a core, what the machine's other processes must leave free for a start's time to be judged.
FREE_CORE = 0.8
RESTARTS = 5


def test_hall_run_after_a_crash_serves_within_3_s_and_sets_nothing_up_again(tmp_path: Path):
    extra = {"BACKUP_SECONDS": "0", "DEMO_ARBITER_PASSWORD": "restart-test"}
    results = restart.restarts(tmp_path, RESTARTS, extra=extra)
    first, after = results[0], results[1:]
    figures = {"first_start_s": round(first.seconds, 1), "restarts_s": [round(f.seconds, 2) for f in after],
               "restarts_cpu_s": [round(f.cpu, 2) for f in after],
               "other_processes_cores": [round(f.others, 1) for f in after],
               "load_average": [round(x, 1) for x in os.getloadavg()]}
    print("\n./hall run after kill -9:", json.dumps(figures))
    assert "migrate" in first.steps and "load_demo" in first.steps, first
    assert [f.steps for f in after] == ["nothing to do"] * RESTARTS
    assert statistics.median(f.cpu for f in after) <= CPU_BUDGET_S, figures
    # every start brought the worker up; after the last crash tasks run again
    logs = [(tmp_path / f"start-{i}.log").read_text(errors="replace") for i in range(RESTARTS + 1)]
    assert all(" ready." in log for log in logs)
    assert not any("Unrecoverable error" in log or "Traceback" in log for log in logs)
    env = restart.env_for(tmp_path, 0, extra)
    with subprocess.Popen(["./hall", "run"], cwd=ROOT, env={**env, "PORT": str(restart.free_port())},
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True) as proc:
        run = restart.Start(proc, tmp_path / "unused.log", 0.0)
        try:
            check = subprocess.run([sys.executable, "manage.py", "worker_check", "--timeout", "120"], cwd=ROOT,
                                   env=env, capture_output=True, text=True, timeout=180)
        finally:
            restart.kill9(run)
    assert check.returncode == 0 and "worker answered" in check.stdout, check.stdout + check.stderr
    # the time: the start's web server loads on one core, so it is judged when the machine's other processes
    # left (most of) one free
    free = [f.seconds for f in after if f.others <= (os.cpu_count() or 1) - FREE_CORE]
    if len(free) < 3:
        pytest.skip(f"other processes kept this machine's cores busy during the restarts ({figures}): 3 s needs "
                    "a free core, only the CPU budget and the set-up were checked")
    assert statistics.median(free) <= TARGET_S, figures
