"""Fault test: the whole embedded stack (SQLite + the embedded broker, everything under the test's var dir) killed
with SIGKILL in the middle of a round, left down past the round's deadline + grace, and started again.

Every process at once — the gunicorn master and its workers, the Celery worker, its pool and its embedded beat —
as a power cut or an out-of-memory kill of the machine would leave them. The close task the worker held until
deadline + grace was claimed by the killed worker: the next worker's broker gives it back and runs it (and the
worker's start-up sweep and beat's sweep would close and judge the overdue round anyway); closed and judged
once. Publication stays the arbiter's act.
``-s`` prints what the tablets got and how long until each thing was back.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.load.stack import Stack
from tests.load.tablets import parse_time
from tests.system.harness import (
    Hall,
    OutboxTablet,
    answers_between,
    check_receipts,
    prepare,
    wait_for,
)

pytestmark = pytest.mark.faults

TABLETS = 6
SECONDS_PER_MOVE = 10
GRACE = 2


def test_whole_stack_killed_mid_round_and_started_after_the_deadline(tmp_path: Path):
    env, setup = prepare(tmp_path, tablets=TABLETS, seconds_per_move=SECONDS_PER_MOVE, grace=GRACE)
    with Stack(env, tmp_path / "logs", web_workers=2, threads=4, celery_concurrency=2) as stack:
        stack.start_worker()
        stack.start_web()
        hall = Hall(stack, setup, tmp_path / "db.sqlite3")
        hall.login_all()
        pk = hall.draw()
        assert hall.wait_solved(pk)
        opened = hall.open(pk)
        deadline = parse_time(opened["deadline"])
        due = deadline + GRACE
        tablets = [OutboxTablet(hall, table, pk, until=deadline - 1, give_up=due + 60, pause=0.3)
                   for table in hall.tokens]
        for tablet in tablets:
            tablet.start()

        time.sleep(4)
        killed_at = time.monotonic()
        killed = stack.kill9_all()
        assert len(killed) >= 5  # gunicorn master + 2 workers, Celery worker + pool (+ beat)
        time.sleep(max(0.0, due + 1 - time.time()))  # the deadline and the close fall while everything is down
        assert hall.sql("PRAGMA integrity_check")[0][0] == "ok"
        assert hall.sql("SELECT status FROM tournament_round WHERE id = ?", pk)[0][0] == "open"

        started = time.monotonic()
        stack.start_worker()
        stack.start_web()
        web_back = time.monotonic() - started
        rnd = wait_for(lambda: (r := hall.round(pk))["status"] == "judged" and r, 45, step=0.25)
        judged_in = time.monotonic() - started
        assert rnd, f"the overdue round was not closed and judged after the restart: {hall.round(pk)['status']}"
        for tablet in tablets:
            tablet.join(timeout=60)
        assert not any(t.is_alive() for t in tablets)
        first = min((s.acked_mono for t in tablets for s in t.sent if s.acked_mono and s.acked_mono > started),
                    default=None)
        figures = {
            "processes_killed": len(killed), "down_s": round(started - killed_at, 1),
            "answers_while_down": dict(answers_between(tablets, killed_at, started + web_back)),
            "answers_after_start": dict(answers_between(tablets, started + web_back, time.monotonic())),
            "start_to_web_answering_s": round(web_back, 2),
            "start_to_first_receipt_s": round(first - started, 2) if first else None,
            "start_to_judged_s": round(judged_in, 1),
        }
        print("\nwhole stack killed -9 mid-round:", figures)

        # every acknowledged slip is there once, nothing else; closed and judged exactly once
        result = check_receipts(env, tmp_path, hall, pk, tablets)
        assert result["failure_count"] == 0, result["failures"]
        assert (result["lost"], result["duplicated"], result["phantom"]) == (0, 0, 0)
        regs = hall.registrations()
        stored = {k for k, *_ in hall.slip_rows(pk)}
        for t in tablets:
            for s in t.sent:
                assert (f"tablet:{regs[t.table]}:{s.key}" in stored) == (s.slip_id is not None), (t.table, s)
        # a slip kept by a tablet over the crash reaches the server after the deadline: stored late (409
        # time_over), also once the round is judged — the arbiter sees it in the review; none is lost
        assert all(s.slip_id is not None for t in tablets for s in t.sent)
        assert hall.verdicts(pk) == (TABLETS, TABLETS)
        assert hall.audit_count("round.close", pk) == 1
        assert hall.audit_count("round.judge", pk) == 1
        assert rnd["deadline"] == opened["deadline"] and parse_time(rnd["closed_at"]) >= due

        # publication is the arbiter's act (review first): nothing publishes by itself after a restart
        time.sleep(1)
        assert hall.round(pk)["status"] == "judged"
        hall.publish(pk)
        # the tablets carry on with the tokens they held before the crash: their result, then the next round
        for table in hall.tokens:
            st, state = hall.state(table)
            assert st == 200 and state["round"]["status"] == "published" and state["result"], state
        nxt = hall.draw()
        assert hall.wait_solved(nxt)
        hall.open(nxt)
        for table in hall.tokens:
            st, body = hall.slip(table, f"after-crash-{table}", "КОТ", nxt)
            assert st == 201, body
        assert hall.audit_count("round.judge", pk) == 1
