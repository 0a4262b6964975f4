"""Shared fixtures. Named test users live in tests/users.py (when the tournament app needs them)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("SHARED_DIR", ROOT.parent / "shared"))
BENCH = SHARED / "bench"


def run_manage(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``manage.py`` in a subprocess, as a user would (real exit status, stdout, stderr)."""
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        capture_output=True, text=True, timeout=timeout, cwd=ROOT, env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


@pytest.fixture
def manage():
    return run_manage
