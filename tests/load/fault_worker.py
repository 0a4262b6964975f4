"""A Celery worker whose solver is slow enough to be killed in the middle of a solve (fault tests only).

``python -m tests.load.fault_worker [celery worker options]``. Environment:

* ``FAULT_SOLVE_DELAY``: seconds the solve of a round's top (:func:`tournament.services.solving.solve_round`)
  sleeps before solving;
* ``FAULT_JOURNAL``: a file that gets one JSON line per solve started / finished (with the pid and the
  service that asked: ``solve_round``, ``judge_round``, …).

It wraps :func:`tournament.services.solving.round_tools` in this process only; the code under test is unchanged.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Sequence
from types import FrameType

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
django.setup()

from scoring.board import Board  # noqa: E402
from scoring.moves import Move  # noqa: E402
from tournament.celery import app  # noqa: E402
from tournament.models import Tournament  # noqa: E402
from tournament.services import solving  # noqa: E402

DELAY = float(os.environ.get("FAULT_SOLVE_DELAY", "0"))
JOURNAL = os.environ.get("FAULT_JOURNAL")
#: The services that solve a rack, nearest first on the stack.
CALLERS = ("solve_round", "judge_round", "checked_top")
_original = solving.round_tools


def note(event: str, caller: str) -> None:
    if JOURNAL:
        line = json.dumps({"event": event, "caller": caller, "pid": os.getpid(), "at": time.time()}) + "\n"
        fd = os.open(JOURNAL, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)


def caller(frame: FrameType | None) -> str:
    """The nearest service of :data:`CALLERS` on the stack (the solve runs inside ``round_moves``)."""
    while frame is not None:
        if frame.f_code.co_name in CALLERS and frame.f_globals.get("__name__", "").startswith("tournament.services"):
            return frame.f_code.co_name
        frame = frame.f_back
    return "?"


def slow_round_tools(tournament: Tournament) -> solving.Tools:
    solve_fn, lexicon = _original(tournament)

    def solve(board: Board, rack: list[str]) -> Sequence[Move]:
        who = caller(sys._getframe(1))
        note("start", who)
        if who == "solve_round":
            time.sleep(DELAY)
        moves = solve_fn(board, rack)
        note("end", who)
        return moves

    return solve, lexicon


solving.round_tools = slow_round_tools

if __name__ == "__main__":
    app.worker_main(["worker", *sys.argv[1:]])
