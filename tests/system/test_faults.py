"""Fault tests: the real server processes (gunicorn, Celery worker) killed or cut off in the middle of a round.

Each test starts its own stack with a private var dir (embedded SQLite + the embedded broker, or its own
redis-server on a spare port) via :class:`tests.load.stack.Stack`, sets the tournament up with the load
test's setup phase (``python -m tests.load.phases setup``) and then speaks HTTP to it like the arbiter and
the tablets do (:mod:`tests.system.harness`). The database error test runs in-process (Django test client + a
fault injected into the slip INSERT). The other fault tests of this folder: PostgreSQL restarted mid-round
(``test_fault_database.py``), the whole embedded stack killed with SIGKILL (``test_fault_crash.py``).

Run: ``DUPLICATE_VAR_DIR=/tmp/loadvar .venv/bin/python -m pytest -m faults tests/system/``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.db import OperationalError, connection
from django.test import Client

from tests.load.stack import Stack
from tests.load.tablets import parse_time
from tests.system.harness import TABLETS, Hall, OwnRedis, call, prepare, wait_for
from tournament import services
from tournament.models import Slip

pytestmark = pytest.mark.faults


def journal(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def solve_events(path: Path, event: str) -> list[dict]:
    return [e for e in journal(path) if e["event"] == event and e["caller"] == "solve_round"]


SLOW_WORKER = [sys.executable, "-m", "tests.load.fault_worker"]


# -- the Celery worker dies in the middle of a solve ------------------------------------------------------------


def test_pool_process_killed_while_solving_is_redelivered_and_solved_once(tmp_path):
    """kill -9 of the pool process that runs the solve: the message is rejected, redelivered, solved once."""
    log = tmp_path / "journal.jsonl"
    env, setup = prepare(tmp_path, {"FAULT_SOLVE_DELAY": "4", "FAULT_JOURNAL": str(log)})
    with Stack(env, tmp_path / "logs", web_workers=1, threads=4, worker_argv=SLOW_WORKER) as stack:
        stack.start_worker()
        stack.start_web()
        hall = Hall(stack, setup, tmp_path / "db.sqlite3")
        pk = hall.draw()
        started = wait_for(lambda: solve_events(log, "start"), 60)
        assert started, "the solve never started"
        subprocess.run(["kill", "-9", str(started[0]["pid"])], check=True)
        rnd = hall.wait_solved(pk, timeout=60)
        assert rnd and rnd["solver_status"] == "done", rnd
        assert rnd["top_moves"] and rnd["move_count"]
        starts, ends = solve_events(log, "start"), solve_events(log, "end")
        assert len(starts) == 2, starts  # killed once, run again once
        assert len(ends) == 1, ends  # the top was computed exactly once
        solver_key = hall.sql("SELECT solver_key FROM tournament_round WHERE id = ?", pk)[0][0]
        assert solver_key
        # a second delivery of the same task (e.g. a visibility-timeout redelivery) is a no-op
        time.sleep(1)
        assert len(solve_events(log, "end")) == 1


def test_whole_worker_killed_while_solving_then_restarted_solves_the_round(tmp_path):
    log = tmp_path / "journal.jsonl"
    env, setup = prepare(tmp_path, {"FAULT_SOLVE_DELAY": "4", "FAULT_JOURNAL": str(log)})
    with Stack(env, tmp_path / "logs", web_workers=1, threads=4, worker_argv=SLOW_WORKER) as stack:
        stack.start_worker()
        stack.start_web()
        hall = Hall(stack, setup, tmp_path / "db.sqlite3")
        pk = hall.draw()
        assert wait_for(lambda: solve_events(log, "start"), 60), "the solve never started"
        stack.kill9("worker")
        assert hall.round(pk)["solver_status"] == "running"
        stack.start_worker()
        rnd = wait_for(lambda: (r := hall.round(pk))["solver_status"] == "done" and r, 30)
        assert rnd, "the round was not solved after the worker restarted"
        assert len(solve_events(log, "end")) == 1


# -- the web process restarts in the middle of a round -----------------------------------------------------------


def test_web_restart_mid_round_loses_no_slip_and_keeps_the_deadline(tmp_path):
    env, setup = prepare(tmp_path, seconds_per_move=12, grace=2)
    with Stack(env, tmp_path / "logs", web_workers=2, threads=4) as stack:
        stack.start_worker()
        stack.start_web()
        hall = Hall(stack, setup, tmp_path / "db.sqlite3")
        hall.login_all()
        pk = hall.draw()
        assert hall.wait_solved(pk)
        opened = hall.open(pk)
        receipts: dict[str, int] = {}
        for table in (1, 2, 3):
            key = uuid.uuid4().hex
            st, body = hall.slip(table, key, "КОТ", pk)
            assert st == 201, body
            receipts[f"tablet:{table}:{key}"] = body["id"]

        stack.kill9("web")  # a crash: no graceful shutdown
        pending = {table: uuid.uuid4().hex for table in (4, 5)}
        for table, key in pending.items():
            st, _ = hall.slip(table, key, "ДОМ", pk, timeout=2)
            assert st is None  # nobody answers: the tablet keeps the slip and retries with the same key
        stack.start_web()
        for table, key in pending.items():
            st, body = hall.slip(table, key, "ДОМ", pk)
            assert st == 201, body
            receipts[f"tablet:{table}:{key}"] = body["id"]
        # the tokens survived the restart (stored hashed in the database)
        st, state = call(f"{hall.url}/api/tablet/state/", headers={"Authorization": f"Tablet {hall.tokens[6]}"})
        assert st == 200 and parse_time(state["round"]["deadline"]) == parse_time(opened["deadline"])

        rnd = wait_for(lambda: (r := hall.round(pk))["status"] == "judged" and r, 12 + 2 + 30, step=0.5)
        assert rnd, "the round was not closed and judged at deadline + grace"
        assert rnd["deadline"] == opened["deadline"]
        rows = hall.slip_rows(pk)
        assert len(rows) == len(receipts)
        reg_of = dict(hall.sql("SELECT table_number, id FROM tournament_registration"))
        stored = {k: i for k, i, *_ in rows}
        for key, slip_id in receipts.items():
            _, table_text, raw = key.split(":")
            assert stored.get(f"tablet:{reg_of[int(table_text)]}:{raw}") == slip_id
        assert hall.sql("SELECT COUNT(*) FROM tournament_verdict WHERE round_id = ?", pk)[0][0] == TABLETS
        closed = hall.sql("SELECT closed_at, deadline FROM tournament_round WHERE id = ?", pk)[0]
        assert closed[0] >= closed[1]


# -- Redis (broker + cache) restarts ---------------------------------------------------------------------------------


def test_redis_restart_keeps_queued_tasks_and_tablets_carry_on(tmp_path, own_redis: OwnRedis):
    env, setup = prepare(tmp_path, broker_url=own_redis.url, redis_url=own_redis.url,
                         seconds_per_move=15, grace=2)
    with Stack(env, tmp_path / "logs", web_workers=2, threads=4) as stack:
        stack.start_web()
        hall = Hall(stack, setup, tmp_path / "db.sqlite3")
        hall.login_all()
        pk = hall.draw()  # no worker yet: the solve task waits in Redis
        own_redis.stop()
        own_redis.start()
        stack.start_worker()
        assert hall.wait_solved(pk, timeout=60), "the task queued before the Redis restart did not run"

        opened = hall.open(pk)  # the close task (eta = deadline + grace) is now held by the worker
        key1 = uuid.uuid4().hex
        st, body = hall.slip(1, key1, "КОТ", pk)
        assert st == 201, body

        own_redis.stop()
        # Redis is down: slips don't need it (database only) and the state keeps answering
        key2 = uuid.uuid4().hex
        st2, body2 = hall.slip(2, key2, "ДОМ", pk)
        st_state, _ = call(f"{hall.url}/api/tablet/state/", headers={"Authorization": f"Tablet {hall.tokens[3]}"})
        own_redis.start()
        if st2 != 201:  # a tablet retries with the same key
            st2, body2 = wait_for(lambda: (a := hall.slip(2, key2, "ДОМ", pk))[0] == 201 and a, 20, step=1)
        assert st2 == 201, body2
        assert st_state == 200
        st3, body3 = hall.slip(3, uuid.uuid4().hex, "ЁЖ", pk)
        assert st3 == 201, body3

        # kombu may end the worker on the lost connection ("Unrecoverable error"): its supervisor
        # (manage.py serve, systemd) starts it again; the recovery sweep then closes and judges the round.
        rnd = wait_for(lambda: (stack.supervise("worker"), (r := hall.round(pk))["status"] == "judged" and r)[1],
                       15 + 2 + 45, step=0.5)
        assert rnd, f"the round was not closed and judged after the Redis restart: {hall.round(pk)['status']}"
        assert rnd["deadline"] == opened["deadline"]
        assert len(hall.slip_rows(pk)) == 3
        assert hall.sql("SELECT COUNT(*) FROM tournament_verdict WHERE round_id = ?", pk)[0][0] == TABLETS


# -- a database error during a submission (in-process) -------------------------------------------------------------


@pytest.fixture
def open_round(tournament, alice, eager):
    reg, code = services.players.register_player(alice, tournament, name="Tablet under fault")
    token = services.players.issue_tablet_token(reg, code)
    game = services.games.create_game(alice, tournament, prepared_racks=["CATSROE", "SOR+DEZ?"])
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    assert rnd is not None
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    return rnd, reg, token


def fail_first_slip_insert(calls: list):
    def wrapper(execute, sql, params, many, context):
        if sql.lstrip().upper().startswith('INSERT INTO "TOURNAMENT_SLIP"') and not calls:
            calls.append(sql)
            raise OperationalError("simulated: the database connection was lost during the INSERT")
        return execute(sql, params, many, context)

    return wrapper


def post_slip(client, token: str, key: str, rnd):
    return client.post("/api/tablet/slip/", {"word": "CATS", "coordinates": "H8", "score": 12, "round": rnd.pk},
                       content_type="application/json", HTTP_AUTHORIZATION=f"Tablet {token}",
                       HTTP_IDEMPOTENCY_KEY=key)


def test_database_error_gives_no_receipt_and_the_retry_is_stored_once(open_round):
    rnd, reg, token = open_round
    client = Client(raise_request_exception=False)
    key = uuid.uuid4().hex
    calls: list[str] = []
    with connection.execute_wrapper(fail_first_slip_insert(calls)):
        first = post_slip(client, token, key, rnd)
        assert calls, "the fault was not injected"
        assert first.status_code >= 500  # no receipt: the tablet keeps the slip in its outbox
        assert Slip.objects.filter(registration=reg, round=rnd).count() == 0
        second = post_slip(client, token, key, rnd)
    assert second.status_code == 201, second.content
    third = post_slip(client, token, key, rnd)  # the answer to the retry was lost too
    assert third.status_code == 200 and third.json()["id"] == second.json()["id"]
    assert Slip.objects.filter(idempotency_key=f"tablet:{reg.pk}:{key}").count() == 1
    assert Slip.objects.filter(registration=reg, round=rnd).count() == 1


def test_database_error_answer_is_a_clear_503(open_round):
    rnd, _reg, token = open_round
    client = Client(raise_request_exception=False)
    with connection.execute_wrapper(fail_first_slip_insert([])):
        first = post_slip(client, token, uuid.uuid4().hex, rnd)
    assert first.status_code == 503
    assert first["Content-Type"].startswith("application/json")
    assert first.json()["code"] == "unavailable" and first.json()["detail"]  # in the request's language
    assert first.has_header("Retry-After")
