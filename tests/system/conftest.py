"""The fault tests' private servers: a redis-server and a PostgreSQL of their own, stopped and started by the test
(never the machine's shared ones); the restart's timing test last."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.system.harness import OwnPostgres, OwnRedis

#: Measures a start's wall-clock time: it runs after every other test of its pytest.
TIMED_LAST = "test_fault_restart.py"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The restart's timing test after the others: in ``./hall test`` the fault tests' pytest is the longest of
    the three that share the cores, so by then the others are usually done and the start finds the cores as a
    hall's laptop after a crash does (free), not in the other tests' busiest minutes."""
    items.sort(key=lambda item: item.path.name == TIMED_LAST)


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
