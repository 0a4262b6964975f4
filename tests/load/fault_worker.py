"""A Celery worker whose solver is slow enough to be killed in the middle of a solve (fault tests only).

``python -m tests.load.fault_worker [celery worker options]``. Environment:

* ``FAULT_SOLVE_DELAY``: seconds the solve of ``tournament.solve_round`` sleeps before solving;
* ``FAULT_JOURNAL``: a file that gets one JSON line per solve started / finished (with the pid).

It wraps :func:`tournament.services.round_tools` in this process only; the code under test is unchanged.
"""

from __future__ import annotations

import json
import os
import sys
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")

import django  # noqa: E402

django.setup()

from tournament import services  # noqa: E402
from tournament.celery import app  # noqa: E402

DELAY = float(os.environ.get("FAULT_SOLVE_DELAY", "0"))
JOURNAL = os.environ.get("FAULT_JOURNAL")
_original = services.round_tools


def note(event: str, caller: str) -> None:
    if JOURNAL:
        line = json.dumps({"event": event, "caller": caller, "pid": os.getpid(), "at": time.time()}) + "\n"
        fd = os.open(JOURNAL, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)


def slow_round_tools(tournament):
    solve_fn, lexicon = _original(tournament)

    def solve(board, rack):
        caller = sys._getframe(1).f_code.co_name
        note("start", caller)
        if caller == "solve_round":
            time.sleep(DELAY)
        moves = solve_fn(board, rack)
        note("end", caller)
        return moves

    return solve, lexicon


services.round_tools = slow_round_tools

if __name__ == "__main__":
    app.worker_main(["worker", *sys.argv[1:]])
