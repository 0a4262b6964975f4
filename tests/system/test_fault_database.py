"""Fault test: PostgreSQL stopped and started again in the middle of a round while 20 tablets hand in slips.

The test runs its own throwaway PostgreSQL (``initdb`` into a temporary directory, a spare port; as the
``postgres`` user when run as root) and its own redis-server (broker and cache), never the machine's shared
ones. The tablets behave as the tablet page's outbox (:class:`tests.system.harness.OutboxTablet`). The server
is stopped twice: a fast shutdown early in the round, then an immediate one (no shutdown checkpoint: crash
recovery at the start) over the deadline, so that the round's scheduled close comes due while the database
is down. ``-s`` prints what the tablets got and how long each recovery took.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.load.stack import Stack
from tests.load.tablets import parse_time
from tests.system.harness import (
    Hall,
    OutboxTablet,
    OwnPostgres,
    OwnRedis,
    answers_between,
    check_receipts,
    details_between,
    prepare,
    wait_for,
)

pytestmark = pytest.mark.faults

TABLETS = 20
SECONDS_PER_MOVE = 24
GRACE = 2


def sleep_until(epoch: float) -> None:
    time.sleep(max(0.0, epoch - time.time()))


def outage(server: OwnPostgres, mode: str, *, until: float) -> dict[str, Any]:
    """Stops the server (``mode``) now and starts it again at ``until`` (epoch); monotonic times of each step."""
    stop = time.monotonic()
    stopped_in = server.stop(mode)
    sleep_until(until)
    start = time.monotonic()
    ready_in = server.start()
    return {"mode": mode, "stop": stop, "stopped_in": stopped_in, "start": start, "ready": time.monotonic(),
            "ready_in": ready_in}


def recovery(o: dict[str, Any], tablets: list[OutboxTablet]) -> dict[str, Any]:
    """What the tablets got while the database was down, and how long until slips were stored again: the first
    receipt after the start, and the receipt of every slip that failed during the outage."""
    held = [s for t in tablets for s in t.sent
            if any(o["stop"] <= a.at <= o["ready"] and a.status not in (200, 201) for a in s.attempts)]
    first = min((s.acked_mono for t in tablets for s in t.sent if s.acked_mono and s.acked_mono > o["start"]),
                default=None)
    last_held = max((s.acked_mono for s in held if s.acked_mono), default=None)
    return {
        "mode": o["mode"], "down_s": round(o["start"] - o["stop"], 1), "stopped_in_s": round(o["stopped_in"], 2),
        "ready_in_s": round(o["ready_in"], 2),
        "answers_while_down": dict(answers_between(tablets, o["stop"], o["ready"])),
        "details": sorted(details_between(tablets, o["stop"], o["ready"])),
        "polls_while_down": dict(answers_between(tablets, o["stop"], o["ready"], polls=True)),
        "answers_first_5s_after": dict(answers_between(tablets, o["ready"], o["ready"] + 5)),
        "slips_held": len(held), "held_refused": dict(Counter(s.refused for s in held if s.refused)),
        "start_to_first_receipt_s": round(first - o["start"], 2) if first else None,
        "ready_to_all_held_received_s": round(last_held - o["ready"], 2) if last_held else None,
    }


def test_postgresql_restarted_mid_round_loses_no_slip_and_judges_once(tmp_path: Path, own_postgres: OwnPostgres,
                                                                      own_redis: OwnRedis):
    db = own_postgres.url()
    env, setup = prepare(tmp_path, database_url=db, broker_url=own_redis.url, redis_url=own_redis.url,
                         tablets=TABLETS, seconds_per_move=SECONDS_PER_MOVE, grace=GRACE)
    with Stack(env, tmp_path / "logs", web_workers=2, threads=4, celery_concurrency=2) as stack:
        stack.start_worker()
        stack.start_web()
        web_pid, worker_pid = stack.procs["web"].pid, stack.procs["worker"].pid
        hall = Hall(stack, setup, db)
        hall.login_all()
        pk = hall.draw()
        assert hall.wait_solved(pk)
        opened = hall.open(pk)
        deadline = parse_time(opened["deadline"])
        due = deadline + GRACE
        tablets = [OutboxTablet(hall, table, pk, until=deadline - 1, give_up=due + 45) for table in hall.tokens]
        for tablet in tablets:
            tablet.start()

        sleep_until(deadline - SECONDS_PER_MOVE + 4)
        fast = outage(own_postgres, "fast", until=time.time() + 4)
        # the second outage spans the deadline and deadline + grace: the scheduled close runs while it is down
        sleep_until(deadline - 4)
        immediate = outage(own_postgres, "immediate", until=due + 2)
        for tablet in tablets:
            tablet.join(timeout=60)
        assert not any(t.is_alive() for t in tablets)

        rnd = wait_for(lambda: (r := hall.round(pk))["status"] == "judged" and r, 45, step=0.25)
        judged_seen = time.time()
        assert rnd, f"the round was not closed and judged after the restart: {hall.round(pk)['status']}"
        figures = {"fast": recovery(fast, tablets), "immediate": recovery(immediate, tablets),
                   "db_start_to_judged_s": round(judged_seen - (due + 2), 1),
                   "due_to_judged_s": round(judged_seen - due, 1)}
        print("\nPostgreSQL restarted mid-round:", figures)

        # the stack carried on by itself: the same web server and worker, no restart
        assert stack.procs["web"].poll() is None and stack.procs["web"].pid == web_pid
        assert stack.procs["worker"].poll() is None and stack.procs["worker"].pid == worker_pid
        for name in ("fast", "immediate"):
            seen = figures[name]["answers_while_down"]
            assert any(not k.startswith("20") for k in seen), f"the {name} outage was not felt: {seen}"

        sent = [s for t in tablets for s in t.sent]
        assert all(s.slip_id is not None or s.refused for s in sent), "a slip was never settled"
        # a slip held by the outage before the deadline is stored once it is back, on time
        held = [s for s in sent if any(fast["stop"] <= a.at <= fast["ready"] and a.status not in (200, 201)
                                       for a in s.attempts)]
        assert held and all(s.slip_id is not None and not s.late for s in held), held
        # over the deadline: stored late (409 time_over), also once the round is judged (until the publication)
        assert not [s for s in sent if s.refused], [s.refused for s in sent if s.refused]
        result = check_receipts(env, tmp_path, hall, pk, tablets)
        assert result["failure_count"] == 0, result["failures"]
        assert (result["lost"], result["duplicated"], result["phantom"]) == (0, 0, 0)
        keys = {k: n for k, n in hall.sql("SELECT idempotency_key, COUNT(*) FROM tournament_slip WHERE round_id = ? "
                                          "GROUP BY idempotency_key", pk)}
        assert set(keys.values()) == {1}
        regs = hall.registrations()
        for t in tablets:
            for s in t.sent:
                stored = keys.get(f"tablet:{regs[t.table]}:{s.key}", 0)
                assert stored == (1 if s.slip_id is not None else 0), (t.table, s)
        assert result["acknowledged"] == len(keys) and result["acknowledged"] > TABLETS * 5
        # closed and judged exactly once, a verdict for every registration
        assert hall.verdicts(pk) == (TABLETS, TABLETS)
        assert hall.audit_count("round.close", pk) == 1
        assert hall.audit_count("round.judge", pk) == 1
        assert rnd["deadline"] == opened["deadline"]
        assert parse_time(rnd["closed_at"]) >= due
