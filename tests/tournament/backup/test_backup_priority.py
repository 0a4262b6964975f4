"""A backup task's work runs in a thread of the lowest CPU priority (``tournament.tasks._quietly``): its answer
and its error come back to the task, and its nice value is its own (Linux), not the worker's."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from tournament import tasks


def test_the_work_runs_in_a_thread_of_its_own_at_the_lowest_priority():
    seen: dict[str, int] = {}

    def work() -> str:
        seen["thread"] = threading.get_ident()
        if sys.platform.startswith("linux"):
            seen["nice"] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        return "written"

    mine = os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) if sys.platform.startswith("linux") else 0
    assert tasks._quietly(work) == "written"
    assert seen["thread"] != threading.get_ident()
    if sys.platform.startswith("linux"):
        assert seen["nice"] == 19
        assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == mine  # the caller's unchanged


def test_an_error_of_the_work_reaches_the_task():
    def work() -> str:
        raise OSError("the stick is full")

    with pytest.raises(OSError, match="the stick is full"):
        tasks._quietly(work)
