"""The embedded broker: Celery's messages in a SQLite file of their own (``var/broker.sqlite3``).

The laptop default (``CELERY_BROKER_URL`` unset, docs/en/operator/settings.md) needs no server, and must neither
crash a worker nor lose a task when a process is killed at any instant:

* **A message is a row**, written in one transaction (``INSERT``; WAL, ``synchronous=FULL``): a publisher
  killed while it writes leaves the message whole or absent, never a part of it for a worker to choke on.
* **A worker claims a message** (one ``UPDATE … RETURNING``: the row gets the claimer's identity, its
  process id and start time and a token of its channel) and **deletes it when the task is acknowledged**
  (``acks_late``: after the task ran). A task rejected with ``requeue`` (its pool process died:
  ``reject_on_worker_lost``), and every claim of a worker that stops, go back to the queue.
* **A claim whose owner is gone goes back to the queue**: each consumer looks every
  :data:`RECLAIM_SECONDS` (and as soon as it starts) for claims of processes that no longer run (the
  process id gone, or another process under it: its start time differs) or of channels of its own process
  that were closed, and gives their messages back (logged). A worker killed with ``kill -9`` in the middle of
  a task, or while it held a task with an ETA (a round's close at deadline + grace), leaves it to the next
  worker: the task runs once more, and the tasks are idempotent (``tournament/tasks.py``).
* **No server and no lock while idle**: a consumer polls with a read (WAL readers take no lock) every
  ``polling_interval`` seconds (:data:`POLLING_INTERVAL`) and takes the write lock only to claim a message
  it saw. The broker's file is apart from the application's database, so the polls never wait on a slip.

All processes of one machine share the file (a claim's owner is a process of this machine). Production
uses Redis (``CELERY_BROKER_URL=redis://…``), which this module does not touch.

URL: ``sqlite:///PATH`` (an absolute path has four slashes, as for ``DATABASE_URL``); the settings name
this transport (``CELERY_BROKER_TRANSPORT``) when the URL is a ``sqlite`` one.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
import uuid
import weakref
from pathlib import Path
from queue import Empty
from typing import Any

from kombu.transport import virtual

log = logging.getLogger(__name__)

#: Seconds a consumer sleeps after a poll that found no message.
POLLING_INTERVAL = 0.1
#: Seconds between two looks for claims whose owner is gone.
RECLAIM_SECONDS = 1.0
#: Seconds a statement waits for the write lock before it fails (a publisher's INSERT, a claim, an ack).
BUSY_TIMEOUT = 15.0

SCHEMA = """
CREATE TABLE IF NOT EXISTS message (
    id INTEGER PRIMARY KEY AUTOINCREMENT,   -- never reused: an acknowledgement cannot delete a newer message
    queue TEXT NOT NULL,
    payload TEXT NOT NULL,
    owner TEXT,                             -- the claim: 'pid:start:channel', NULL while the message waits
    deliveries INTEGER NOT NULL DEFAULT 0,
    sent_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS message_waiting ON message (queue, id) WHERE owner IS NULL;
CREATE INDEX IF NOT EXISTS message_claimed ON message (owner) WHERE owner IS NOT NULL;
"""


def database_path(url: str) -> Path:
    """The file of a ``sqlite:///PATH`` URL (``sqlite:////abs/path`` for an absolute path)."""
    prefix = "sqlite:///"
    if not url.startswith(prefix) or len(url) == len(prefix):
        raise ValueError(f"the embedded broker's URL is sqlite:///PATH, not {url!r}")
    return Path(url[len(prefix):])


def process_start(pid: int) -> str:
    """When the process started (clock ticks since boot, from ``/proc``): with the pid, a process's identity
    (a pid is reused, a pid and a start time are not); "" where ``/proc`` does not say."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    return stat.rsplit(")", 1)[1].split()[19]  # field 22, starttime


def process_runs(pid: int, start: str) -> bool:
    """Whether the process ``pid`` that started at ``start`` still runs."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: it exists
        pass
    return not start or process_start(pid) in ("", start)


class Store:
    """The broker's file, one SQLite connection per thread (and per process: a forked child opens its own)."""

    def __init__(self, path: Path):
        self.path = path
        self._local = threading.local()

    def connect(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None and self._local.pid == os.getpid():
            return conn
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        # FULL: a message whose publisher was told "sent" (a round's close, its judging) survives a power cut
        conn.execute("PRAGMA synchronous=FULL")
        conn.executescript(SCHEMA)
        self._local.conn, self._local.pid = conn, os.getpid()
        return conn

    def put(self, queue: str, payload: str) -> None:
        self.connect().execute("INSERT INTO message (queue, payload, sent_at) VALUES (?, ?, ?)",
                               (queue, payload, time.time()))

    def claim(self, queue: str, owner: str) -> tuple[int, str, int] | None:
        """The oldest waiting message of ``queue``, claimed for ``owner``: (id, payload, deliveries); None if
        none waits. An empty queue costs one read (no write lock)."""
        conn = self.connect()
        if conn.execute("SELECT 1 FROM message WHERE queue = ? AND owner IS NULL LIMIT 1", (queue,)).fetchone() is None:
            return None
        rows = conn.execute(
            "UPDATE message SET owner = ?, deliveries = deliveries + 1 WHERE id = "
            "(SELECT id FROM message WHERE queue = ? AND owner IS NULL ORDER BY id LIMIT 1) "
            "RETURNING id, payload, deliveries", (owner, queue)).fetchall()  # fetchall: the statement commits
        return (int(rows[0][0]), str(rows[0][1]), int(rows[0][2])) if rows else None

    def delete(self, row: int, owner: str) -> None:
        """Drops an acknowledged message (only while ``owner`` still holds it)."""
        self.connect().execute("DELETE FROM message WHERE id = ? AND owner = ?", (row, owner))

    def release(self, rows: list[int], owner: str) -> int:
        """Gives claimed messages back to their queue (only while ``owner`` still holds them)."""
        if not rows:
            return 0
        marks = ",".join("?" * len(rows))
        cur = self.connect().execute(f"UPDATE message SET owner = NULL WHERE owner = ? AND id IN ({marks})",
                                     (owner, *rows))
        return cur.rowcount

    def owners(self) -> list[str]:
        return [str(r[0]) for r in self.connect().execute(
            "SELECT DISTINCT owner FROM message WHERE owner IS NOT NULL")]

    def release_owner(self, owner: str) -> int:
        return self.connect().execute("UPDATE message SET owner = NULL WHERE owner = ?", (owner,)).rowcount

    def size(self, queue: str) -> int:
        return int(self.connect().execute(
            "SELECT COUNT(*) FROM message WHERE queue = ? AND owner IS NULL", (queue,)).fetchone()[0])

    def purge(self, queue: str) -> int:
        return self.connect().execute("DELETE FROM message WHERE queue = ? AND owner IS NULL", (queue,)).rowcount


#: This process's open channels that consume, by token: a claim of this process whose token is not here
#: belongs to a channel that was closed, and goes back to the queue.
_CHANNELS: weakref.WeakValueDictionary[str, Channel] = weakref.WeakValueDictionary()
_STORES: dict[Path, Store] = {}
_STORES_LOCK = threading.Lock()


def store_for(path: Path) -> Store:
    with _STORES_LOCK:
        if path not in _STORES:
            _STORES[path] = Store(path)
        return _STORES[path]


def orphaned(owner: str) -> bool:
    """Whether a claim's owner (``pid:start:token``) is gone: its process no longer runs, or it is this
    process and the channel was closed."""
    pid_text, start, token = (owner.split(":") + ["", ""])[:3]
    if not pid_text.isdigit():
        return True
    pid = int(pid_text)
    if pid == os.getpid() and start == process_start(pid):
        return token not in _CHANNELS
    return not process_runs(pid, start)


class QoS(virtual.QoS):
    """Acknowledged: the message's row is deleted. Rejected with requeue, or left unacknowledged when the
    channel closes: the claim is released, the same row waits again (no copy)."""

    channel: Channel

    def ack(self, delivery_tag: str) -> None:
        self.channel.settle(delivery_tag, requeue=False)
        super().ack(delivery_tag)

    def reject(self, delivery_tag: str, requeue: bool = False) -> None:
        self.channel.settle(delivery_tag, requeue=requeue)
        self._quick_ack(delivery_tag)  # type: ignore[attr-defined]  # kombu's: forget it without restoring a copy

    def restore_unacked(self) -> list[tuple[BaseException, Any]]:  # type: ignore[override]
        self._flush()  # type: ignore[attr-defined]
        delivered = self._delivered
        errors: list[tuple[BaseException, Any]] = []
        while delivered:
            tag, message = delivered.popitem()
            try:
                self.channel.settle(tag, requeue=True)
            except sqlite3.Error as exc:  # the claim stays: the next consumer's look releases it
                errors.append((exc, message))
        return errors


class Channel(virtual.Channel):
    QoS = QoS
    connection: Transport

    def __init__(self, connection: Transport, **kwargs: Any) -> None:
        super().__init__(connection, **kwargs)
        client = self.connection.client
        self.store = store_for(database_path((client.hostname if client is not None else None) or ""))
        self.token = uuid.uuid4().hex[:12]
        pid = os.getpid()
        self.owner = f"{pid}:{process_start(pid)}:{self.token}"
        self._rows: dict[str, int] = {}  # delivery tag → the claimed row
        self._next_reclaim = 0.0

    def _put(self, queue: str, message: Any, **kwargs: Any) -> None:
        self.store.put(queue, json.dumps(message))

    def _get(self, queue: str, timeout: float | None = None) -> Any:
        _CHANNELS[self.token] = self
        now = time.monotonic()
        if now >= self._next_reclaim:
            self._next_reclaim = now + RECLAIM_SECONDS
            self.reclaim()
        claimed = self.store.claim(queue, self.owner)
        if claimed is None:
            raise Empty()
        row, text, deliveries = claimed
        payload = json.loads(text)
        properties = payload.setdefault("properties", {})
        properties.setdefault("delivery_info", {})["redelivered"] = deliveries > 1
        self._rows[properties["delivery_tag"]] = row
        return payload

    def reclaim(self) -> int:
        """Gives back the messages claimed by owners that are gone (see :func:`orphaned`)."""
        given = 0
        for owner in self.store.owners():
            if owner != self.owner and orphaned(owner):
                n = self.store.release_owner(owner)
                if n:
                    log.warning("embedded broker: %d message(s) claimed by a stopped worker (%s) given back to "
                                "the queue", n, owner.split(":")[0])
                given += n
        return given

    def settle(self, delivery_tag: str, *, requeue: bool) -> None:
        row = self._rows.pop(delivery_tag, None)
        if row is None:
            return
        if requeue:
            self.store.release([row], self.owner)
        else:
            self.store.delete(row, self.owner)

    def _size(self, queue: str) -> int:
        return self.store.size(queue)

    def _purge(self, queue: str) -> int:
        return self.store.purge(queue)

    def _delete(self, queue: str, *args: Any, **kwargs: Any) -> None:
        self.store.purge(queue)

    def close(self) -> None:
        super().close()  # gives back what is unacknowledged (QoS.restore_unacked)
        _CHANNELS.pop(self.token, None)


class Transport(virtual.Transport):
    """kombu's transport class for ``sqlite:///PATH`` (the settings' ``CELERY_BROKER_TRANSPORT``)."""

    Channel = Channel
    can_parse_url = True
    default_port = 0
    driver_type = "sqlite"
    driver_name = "sqlite3"
    polling_interval = POLLING_INTERVAL
    connection_errors = (sqlite3.OperationalError,)
    channel_errors = (sqlite3.OperationalError,)

    def driver_version(self) -> str:
        return sqlite3.sqlite_version


def messages(path: Path) -> list[tuple[int, str, str | None, int]]:
    """(id, queue, owner, deliveries) of every message in the broker's file (for the tests)."""
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT)
    try:
        return [(int(i), str(q), o, int(n)) for i, q, o, n in conn.execute(
            "SELECT id, queue, owner, deliveries FROM message ORDER BY id")]
    finally:
        conn.close()


__all__ = ["POLLING_INTERVAL", "RECLAIM_SECONDS", "Channel", "QoS", "Store", "Transport", "database_path",
           "messages", "orphaned", "process_runs", "process_start"]
