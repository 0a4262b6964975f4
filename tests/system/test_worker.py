"""A real Celery worker starts and runs tasks (the embedded broker, or Redis when configured)."""

import os
import re
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


def test_a_pool_process_past_its_memory_limit_is_replaced_after_its_task(tmp_path, monkeypatch):
    """CELERY_WORKER_MAX_MEMORY_PER_CHILD (env WORKER_MAX_MEMORY_MB): a process that grew past it (the player
    sheets of a big hall) is replaced once its task is done, and the next task runs in the new one."""
    from tournament import settings

    assert settings.CELERY_WORKER_MAX_MEMORY_PER_CHILD == 400 * 1024
    env = {**os.environ, "WORKER_MAX_MEMORY_MB": "1"}  # every process is past 1 MB: replaced after each task
    if not env.get("CELERY_BROKER_URL", "").startswith("redis"):
        env["DUPLICATE_VAR_DIR"] = str(tmp_path)
        monkeypatch.setenv("DUPLICATE_VAR_DIR", str(tmp_path))
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "tournament", "worker", "--pool", "prefork", "--concurrency", "1",
         "--loglevel", "INFO", "--hostname", f"test-mem-{os.getpid()}@%h"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        for _ in range(2):
            result = run_manage("worker_check", "--timeout", "60")
            assert result.returncode == 0, result.stderr
    finally:
        worker.terminate()
        out, _ = worker.communicate(timeout=30)
    ran_in = set(re.findall(r"ForkPoolWorker-(\d+)\] Task tournament\.worker_heartbeat\[[^]]+\] succeeded", out))
    assert len(ran_in) == 2, out  # the second heartbeat ran in a new process (one process at a time)
    assert "Traceback" not in out, out
