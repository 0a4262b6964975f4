"""The embedded broker (``tournament/broker.py``) through kombu, in this process and in processes killed on
purpose: a message is a row, a claim is given back when its owner is gone, an idle poll takes no lock.

The fault tests with a real worker and publisher killed again and again: ``test_fault_broker.py``."""

from __future__ import annotations

import logging
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from kombu import Connection
from kombu.simple import SimpleQueue

from tests.paths import ROOT
from tournament import broker

TRANSPORT = "tournament.broker:Transport"


def connect(path: Path) -> Connection:
    return Connection(f"sqlite:///{path}", transport=TRANSPORT)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "broker.sqlite3"


@pytest.fixture
def queue(path: Path) -> Iterator[SimpleQueue]:
    with connect(path) as conn:
        q = conn.SimpleQueue("celery")
        yield q
        q.close()


def rows(path: Path) -> list[tuple[int, str, str | None, int]]:
    return list(broker.messages(path))


def test_the_url_names_the_file():
    assert broker.database_path("sqlite:////srv/hall/var/broker.sqlite3") == Path("/srv/hall/var/broker.sqlite3")
    assert broker.database_path("sqlite:///var/broker.sqlite3") == Path("var/broker.sqlite3")
    for bad in ("sqlite://", "sqlite:///", "redis://localhost/0"):
        with pytest.raises(ValueError):
            broker.database_path(bad)


def test_a_message_is_a_row_until_it_is_acknowledged(path: Path, queue: SimpleQueue):
    queue.put({"n": 1})
    assert [(q, owner, n) for _id, q, owner, n in rows(path)] == [("celery", None, 0)]
    message = queue.get(timeout=2)
    assert message.payload == {"n": 1}
    [(_id, _q, owner, deliveries)] = rows(path)
    assert owner is not None and owner.startswith(f"{os.getpid()}:") and deliveries == 1  # claimed, not gone
    message.ack()
    assert rows(path) == []


def test_a_rejected_message_waits_again_and_says_it_was_delivered_before(path: Path, queue: SimpleQueue):
    queue.put({"n": 1})
    first = queue.get(timeout=2)
    assert not first.delivery_info["redelivered"]
    first.requeue()
    assert [owner for _id, _q, owner, _n in rows(path)] == [None]
    again = queue.get(timeout=2)
    assert again.payload == {"n": 1} and again.delivery_info["redelivered"]
    again.reject()  # without requeue: dropped
    assert rows(path) == []


def test_what_a_closing_channel_holds_goes_back(path: Path):
    with connect(path) as conn:
        q = conn.SimpleQueue("celery")
        q.put({"n": 1})
        q.put({"n": 2})
        held = q.get(timeout=2)
        assert held.payload == {"n": 1}
        q.close()  # a worker's warm shutdown: unacknowledged messages are given back, not copied
    assert [(owner, n) for _id, _q, owner, n in rows(path)] == [(None, 1), (None, 0)]
    with connect(path) as conn:
        q = conn.SimpleQueue("celery")
        got = [q.get(timeout=2) for _ in range(2)]
        assert [m.payload["n"] for m in got] == [1, 2]
        for m in got:
            m.ack()
        q.close()
    assert rows(path) == []


CLAIM_AND_DIE = """
import os, sys
from kombu import Connection
with Connection("sqlite:///" + sys.argv[1], transport="tournament.broker:Transport") as conn:
    message = conn.SimpleQueue("celery").get(timeout=10)
    print(message.payload["n"], flush=True)
    os.kill(os.getpid(), 9)  # kill -9 while it holds the message
"""


def test_a_message_held_by_a_killed_process_is_delivered_to_the_next(path: Path, queue: SimpleQueue, caplog):
    queue.put({"n": 7})
    child = subprocess.Popen([sys.executable, "-c", CLAIM_AND_DIE, str(path)], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    out, err = child.communicate(timeout=60)
    assert child.returncode == -signal.SIGKILL and out.strip() == "7", err
    [(_id, _q, owner, _n)] = rows(path)
    assert owner is not None and owner.startswith(f"{child.pid}:")  # still claimed by the dead child
    with caplog.at_level(logging.WARNING, logger="tournament.broker"):
        message = queue.get(timeout=5)
    assert message.payload == {"n": 7} and message.delivery_info["redelivered"]
    assert "given back to the queue" in caplog.text
    message.ack()
    assert rows(path) == []


def test_a_claim_of_a_running_process_stays_and_one_of_a_reused_pid_does_not(path: Path, queue: SimpleQueue):
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        start = broker.process_start(sleeper.pid)
        assert broker.process_runs(sleeper.pid, start)
        queue.put({"n": 1})
        queue.put({"n": 2})
        with sqlite3.connect(path) as conn:
            conn.execute("UPDATE message SET owner = ? WHERE id = 1", (f"{sleeper.pid}:{start}:abc",))
            # the same pid under another start time: another process took the pid of the one that claimed
            conn.execute("UPDATE message SET owner = ? WHERE id = 2", (f"{sleeper.pid}:{start}1:abc",))
        message = queue.get(timeout=5)
        assert message.payload == {"n": 2}
        message.ack()
        with pytest.raises(SimpleQueue.Empty):
            queue.get(timeout=1.5)  # the running process's claim is its own
        assert [owner for _id, _q, owner, _n in rows(path)] == [f"{sleeper.pid}:{start}:abc"]
    finally:
        sleeper.kill()
        sleeper.wait()
    message = queue.get(timeout=5)  # ...until it ends
    assert message.payload == {"n": 1}
    message.ack()


def test_a_claim_of_a_closed_channel_of_this_process_goes_back(path: Path, queue: SimpleQueue):
    queue.put({"n": 1})
    me = f"{os.getpid()}:{broker.process_start(os.getpid())}"
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE message SET owner = ? WHERE id = 1", (f"{me}:closedchannel",))
    assert broker.orphaned(f"{me}:closedchannel")
    message = queue.get(timeout=5)
    assert message.payload == {"n": 1}
    message.ack()


def test_an_idle_poll_takes_no_lock(path: Path, queue: SimpleQueue):
    """A consumer polling an empty queue reads only: a writer holding the lock does not make it wait (the
    file's busy timeout is 15 s) nor fail."""
    queue.put({"n": 1})
    queue.get(timeout=2).ack()
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    try:
        t0 = time.monotonic()
        with pytest.raises(SimpleQueue.Empty):
            queue.get(timeout=0.5)
        assert time.monotonic() - t0 < 2
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_messages_come_in_the_order_they_were_sent(path: Path, queue: SimpleQueue):
    for n in range(5):
        queue.put({"n": n})
    got = []
    for _ in range(5):
        m = queue.get(timeout=2)
        got.append(m.payload["n"])
        m.ack()
    assert got == [0, 1, 2, 3, 4]
    assert queue.qsize() == 0
