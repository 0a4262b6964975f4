"""The fault tests' private servers: a redis-server and a PostgreSQL of their own, stopped and started by the test
(never the machine's shared ones)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.system.harness import OwnPostgres, OwnRedis


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    """A started redis-server on a spare port (append-only file: a restart keeps the queue)."""
    try:
        server = OwnRedis(tmp_path / "redis")
    except FileNotFoundError as exc:
        pytest.skip(f"the test needs its own Redis: {exc}")
    try:
        server.start()
    except RuntimeError as exc:
        server.close()
        pytest.skip(str(exc))
    yield server
    server.close()


@pytest.fixture
def own_postgres() -> Iterator[OwnPostgres]:
    """A started throwaway PostgreSQL on a spare port, with an empty database ``faults``."""
    try:
        server = OwnPostgres()
    except FileNotFoundError as exc:
        pytest.skip(f"the test needs its own PostgreSQL: {exc}")
    try:
        server.start()
        server.create_database()
        yield server
    finally:
        server.close()
