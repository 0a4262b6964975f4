"""Shared fixtures and hooks. The test tools live in tests/tools/ (world: users, lexicon, tournament, players; browser: Chromium and a live hall)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.paths import BENCH, ROOT, SHARED  # noqa: F401  (imported by tests)

#: Fixtures every test may ask for: the test world (users, lexicon, tournament, players, eager Celery) and
#: the browser's (Chromium, a live hall).
pytest_plugins = ["tests.tools.world", "tests.tools.browser"]


def run_manage(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``manage.py`` in a subprocess, as a user would (real exit status, stdout, stderr)."""
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        capture_output=True, text=True, timeout=timeout, cwd=ROOT, env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


@pytest.fixture
def manage():
    return run_manage


#: Modules whose tests need the message broker although they use no test database.
BROKER_MODULES = {"test_worker.py", "test_faults.py", "test_fault_database.py", "test_fault_crash.py",
                  "test_fault_broker.py", "test_fault_restart.py"}


def pytest_collection_modifyitems(config, items):
    """Tests that touch neither the database nor the broker are marked ``engine``: the CI run against
    PostgreSQL and Redis leaves them out (they ran already in the embedded run). Tests that drive Chromium
    (the ``chromium`` fixture) are marked ``browser``: ``./hall test`` runs them in a pytest of their own."""
    for item in items:
        if item.get_closest_marker("django_db") is None and item.path.name not in BROKER_MODULES:
            item.add_marker(pytest.mark.engine)
        if "chromium" in getattr(item, "fixturenames", ()) and item.get_closest_marker("browser") is None:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(autouse=True)
def _fresh_live_memos():
    """Each test starts with this process's live memos empty (versions, slugs, tablet states, judged halls):
    a test's tournament may get the id, slug and version string of an earlier test's, which the memos
    would still answer for (the live server runs in this process)."""
    from tournament import live

    live.reset()
    yield
    live.reset()


@pytest.fixture(autouse=True)
def _fresh_code_keys():
    """Each test reads the code keys of its own database (a key cached by a test rolled back is gone)."""
    from tournament.models import forget_code_keys

    forget_code_keys()
    yield
    forget_code_keys()


@pytest.fixture
def lexdir(settings, tmp_path):
    """LEXICON_DIR in a folder of the test's own, the word graphs opened before forgotten on the way in and out."""
    from lexicon.models import forget_graphs  # noqa: PLC0415 (Django's models: only once pytest-django set it up)

    settings.LEXICON_DIR = tmp_path / "lexicons"
    settings.LEXICON_DIR.mkdir()
    forget_graphs()
    yield settings.LEXICON_DIR
    forget_graphs()
