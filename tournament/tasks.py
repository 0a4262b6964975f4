"""Celery tasks of the tournament app. Tasks take primary keys and are sent after commit."""

from __future__ import annotations

import time

from celery import shared_task
from django.core.cache import cache

HEARTBEAT_KEY = "worker-heartbeat:{token}"


@shared_task(name="tournament.worker_heartbeat", ignore_result=True)
def worker_heartbeat(token: str) -> None:
    """Proof of life: the arbiter console shows whether a worker answers (and the tests use it)."""
    cache.set(HEARTBEAT_KEY.format(token=token), time.time(), timeout=3600)


def heartbeat_seen(token: str) -> float | None:
    return cache.get(HEARTBEAT_KEY.format(token=token))


# The round tasks live in their own module; importing them here registers them with the worker.
from .pdf_tasks import build_pdf  # noqa: E402,F401
from .solver_tasks import close_round, judge_round, solve_round  # noqa: E402,F401
