"""Fault test: one of two web nodes behind nginx killed with SIGKILL in the middle of a round (issue 16).

The stack: two web nodes (uvicorn, the ASGI application with ``LIVE_PUSH=1``: streams + Django) behind nginx
(``tournament/management/nginx.py``), the embedded SQLite database in the test's var dir, a redis-server of
the test's own (``own_redis``: the Celery broker, the cache and the pub/sub that carries each change to both
nodes' streams), a Celery worker apart. Twenty simulated tablets (:class:`tests.load.tablets.Drive` with
``push``) each hold a Server-Sent Events stream through nginx and hand in their slips with an idempotency
key; beside them the same twenty tablets' outboxes (:class:`tests.system.harness.OutboxTablet`) hand in a
slip after another. A few seconds after the open, node 1 is killed with SIGKILL: the tablets whose stream it
held open it again through nginx (on node 2) within seconds, every acknowledged slip is stored once, the round
closes and is judged once, and every tablet gets its result at the publication.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import time
from pathlib import Path

import pytest

from tests.load.stack import Stack, phase
from tests.load.tablets import Drive, DriveOptions, arbiter_token
from tests.system.harness import Hall, OutboxTablet, OwnRedis, answers_between, prepare

pytestmark = pytest.mark.faults

TABLETS = 20
SECONDS_PER_MOVE = 20
GRACE = 2
KILL_AFTER_OPEN = 5  # seconds
RECONNECT_WITHIN = 10  # seconds from the kill until every broken stream is up again (EventSource retry: 2 s)


class Fault:
    """What happens once the round is open (called by the drive in a thread): the outboxes start, node 1 dies."""

    def __init__(self, stack: Stack, hall: Hall):
        self.stack, self.hall = stack, hall
        self.killed_at: float | None = None  # epoch
        self.outboxes: list[OutboxTablet] = []

    def __call__(self, drive: Drive) -> None:
        assert drive.deadline is not None and drive.round_id is not None
        self.hall.tokens = dict(drive.tokens)  # the same tablets (a new login would be another session)
        self.outboxes = [OutboxTablet(self.hall, table, drive.round_id, until=drive.deadline - 2,
                                      give_up=drive.deadline + GRACE + 30, pause=0.8, seed=16)
                         for table in self.hall.tokens]
        for outbox in self.outboxes:
            outbox.start()
        time.sleep(KILL_AFTER_OPEN)
        self.killed_at = time.time()
        self.stack.kill9("node1")
        for outbox in self.outboxes:
            outbox.join(timeout=60)


def client_log(drive: Drive, outboxes: list[OutboxTablet]) -> dict:
    """What every tablet was told (the drive's slips and the outboxes'), as the check phase reads it."""
    tablets: dict[str, list[dict]] = {str(t): list(drive.log.get(str(t), [])) for t in drive.tokens}
    for outbox in outboxes:
        tablets[str(outbox.table)] += [s.as_log() for s in outbox.sent]
    return {"round": drive.round_id, "slug": drive.setup["slug"], "tablets": tablets}


def test_web_node_killed_mid_round_streams_move_to_the_other_node(tmp_path: Path, own_redis: OwnRedis):
    if not (Path("/usr/sbin/nginx").exists() or shutil.which("nginx")):
        pytest.skip("the test needs nginx (Debian's nginx package)")
    env, setup = prepare(tmp_path, broker_url=own_redis.url, redis_url=own_redis.url, tablets=TABLETS,
                         seconds_per_move=SECONDS_PER_MOVE, grace=GRACE)
    with Stack(env, tmp_path / "logs", threads=4, celery_concurrency=1) as stack:
        stack.start_worker()
        stack.start_nodes(2, push=True)
        setup["token"] = arbiter_token(stack.url, setup)
        hall = Hall(stack, setup, tmp_path / "db.sqlite3")
        fault = Fault(stack, hall)
        drive = Drive(DriveOptions(url=stack.url, tablets=TABLETS, burst=SECONDS_PER_MOVE - 4, announce=1,
                                   review=1, push=True, ramp=1, on_open=fault, max_seconds=120), setup)
        asyncio.run(drive.run())
        assert fault.killed_at is not None, "node 1 was never killed"
        assert stack.procs["node2"].poll() is None and stack.procs["nginx"].poll() is None

        # the streams node 1 held broke, and came back through nginx within seconds
        moved = [(table, up - fault.killed_at) for table, broke, up in drive.reconnects if broke >= fault.killed_at]
        broken = sum(n for kind, n in drive.events.items() if kind.startswith("broken") or kind == "ended by the server")
        answers = answers_between(fault.outboxes, 0, float("inf"))
        print(f"\nnode 1 killed: {len(moved)} streams reconnected through nginx after "
              f"{sorted(round(s, 2) for _t, s in moved)} s; stream events {dict(drive.events)}; the outboxes' "
              f"answers {dict(answers)}; the drive's slips {dict(drive.rec.outcomes)}")
        assert moved, f"no stream was on node 1: {dict(drive.events)}"
        assert broken >= len(moved)
        assert max(s for _t, s in moved) <= RECONNECT_WITHIN, moved
        assert drive.streams_up == TABLETS

        # every tablet saw the open and, after the kill, its own result at the publication
        assert len(drive.saw_open) == TABLETS
        assert len(drive.saw_published) == TABLETS, f"{len(drive.saw_published)} of {TABLETS} saw their result"

        # no slip lost or duplicated, every slip settled, the counted slip the last acknowledged
        sent = [e for es in drive.log.values() for e in es] + [s.as_log() for o in fault.outboxes for s in o.sent]
        unsettled = [{k: e.get(k) for k in ("mode", "attempts", "status", "sent_at")} for e in sent
                     if e["slip_id"] is None and not e.get("refused")]
        assert not unsettled, (f"slips never settled (node 1 killed at {fault.killed_at}): {unsettled}; "
                               f"the drive's errors {dict(drive.rec.errors)}")
        log = tmp_path / "client.json"
        log.write_text(json.dumps(client_log(drive, fault.outboxes)))
        phase(env, "check", "--io", str(log))
        result = json.loads(log.with_suffix(".result.json").read_text())
        assert result["failure_count"] == 0, result["failures"]
        assert (result["lost"], result["duplicated"], result["phantom"], result["mismatched"]) == (0, 0, 0, 0)
        assert result["acknowledged"] == result["slips"] > TABLETS * 5

        # the round closed and judged once, a verdict for every registration
        pk = drive.round_id
        assert hall.round(pk)["status"] == "published"
        assert hall.verdicts(pk) == (TABLETS, TABLETS)
        assert hall.audit_count("round.close", pk) == 1
        assert hall.audit_count("round.judge", pk) == 1
