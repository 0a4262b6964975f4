"""A real Celery worker starts and runs tasks (the embedded broker, or Redis when configured)."""

import os
import subprocess
import sys

from tests.conftest import ROOT, run_manage


def test_a_real_worker_runs_a_task(tmp_path, monkeypatch):
    env = {**os.environ}
    if not env.get("CELERY_BROKER_URL", "").startswith("redis"):
        env["DUPLICATE_VAR_DIR"] = str(tmp_path)  # a private embedded broker for this test
        monkeypatch.setenv("DUPLICATE_VAR_DIR", str(tmp_path))
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "tournament", "worker", "--pool", "solo", "--loglevel", "WARNING",
         "--hostname", f"test-{os.getpid()}@%h"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        result = run_manage("worker_check", "--timeout", "60")
        assert result.returncode == 0, result.stderr
        assert "worker answered" in result.stdout
    finally:
        worker.terminate()
        out, _ = worker.communicate(timeout=30)
    assert "Traceback" not in out, out
