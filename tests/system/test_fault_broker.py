"""Fault tests of the embedded broker with real processes: a publisher and a Celery worker killed with
``kill -9`` again and again while tasks flow (``tests.load.broker_faults``), a worker killed while it holds
tasks until their ETA, as it holds a round's close until deadline + grace, and the web server killed in the
middle of draws.

``-s`` prints the figures of the kill run."""

from __future__ import annotations

import json
import os
import random
import threading
from pathlib import Path

import pytest

from tests.load import broker_faults as bf
from tests.load.stack import Stack
from tests.system.harness import Hall, call, prepare

pytestmark = pytest.mark.faults

#: Kills of each: a worker's life is its start-up (Django, the pool: seconds) and a moment of work.
WORKER_KILLS, PUBLISHER_KILLS = 4, 14


def test_publisher_and_worker_killed_again_and_again_lose_and_crash_nothing(tmp_path: Path):
    run = bf.drive(tmp_path, worker_kills=WORKER_KILLS, publisher_kills=PUBLISHER_KILLS, max_seconds=300,
                   seed=int(os.environ.get("FAULT_SEED", "1")))
    print("\nbroker under kill -9:", json.dumps(run.figures()))
    assert not run.failures, run.failures
    # the run did what it is for: many kills of each while tasks flowed
    assert (run.worker_kills, run.publisher_kills) == (WORKER_KILLS, PUBLISHER_KILLS), run.figures()
    assert run.sent >= 100 and run.intent_only >= PUBLISHER_KILLS // 2, run.figures()


def test_tasks_held_until_their_eta_by_a_killed_worker_run_once_on_the_next(tmp_path: Path):
    """As a round's close, held by the worker until deadline + grace: the worker killed before their time, the
    next one runs each once, at its time (kombu's file-system and SQLAlchemy transports: never)."""
    failures = bf.held_until_eta(tmp_path)
    assert not failures, failures
    assert "given back to the queue" in (tmp_path / "worker.log").read_text()


#: Draws during which the web server is killed (its whole process group), at a random moment of the request.
DRAWS = 6


def test_web_server_killed_while_it_sends_a_solve_every_round_is_solved(tmp_path: Path):
    """The arbiter draws and the web server is killed somewhere in the request: before the round is stored, while
    the solve is being sent, or after. Every round stored gets its top — from its task, or, when the web server
    died before the task was stored, from the recovery sweep (logged) — and no worker stops."""
    env, setup = prepare(tmp_path, tablets=2)
    rng = random.Random(int(os.environ.get("FAULT_SEED", "1")))
    with Stack(env, tmp_path / "logs", web_workers=1, threads=4) as stack:
        stack.start_worker()
        stack.start_web()
        hall = Hall(stack, setup, tmp_path / "db.sqlite3")
        url = f"{hall.url}/api/arbiter/tournaments/{setup['slug']}/games/{setup['game']}/draw/"
        answers = []
        for _ in range(DRAWS):
            known = {pk for (pk,) in hall.sql("SELECT id FROM tournament_round")}
            killer = threading.Timer(rng.uniform(0.0, 0.3), stack.kill9, ("web",))
            killer.start()
            answers.append(call(url, "POST", {}, hall.arbiter, timeout=10)[0])
            killer.join()
            stack.start_web()
            new = [pk for (pk,) in hall.sql("SELECT id FROM tournament_round") if pk not in known]
            assert len(new) <= 1, new
            for pk in new:  # stored: solved by its task or by the sweep, then cancelled for the next draw
                assert hall.wait_solved(pk, timeout=45), f"round {pk} was never solved"
                st, body = call(f"{hall.url}/api/arbiter/rounds/{pk}/cancel/", "POST", {"why": "fault test"},
                                hall.arbiter)
                assert st == 200, body
        worker = stack.procs["worker"]
        assert worker.poll() is None, "the worker stopped"
        log = (tmp_path / "logs" / "worker.log").read_text(errors="replace")
        solved = hall.sql("SELECT COUNT(*) FROM tournament_round WHERE solver_status = 'done'")[0][0]
        swept = sum("recovery sweep:" in line and " solve " in line for line in log.splitlines())
        print(f"\nweb killed during {DRAWS} draws: answers {answers}, rounds solved {solved}, "
              f"sweeps that sent a solve: {swept}")
        assert "Unrecoverable error" not in log
        assert solved == len(hall.sql("SELECT id FROM tournament_round"))
