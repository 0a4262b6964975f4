"""Celery tasks sent by the services, after their transaction commits.

The services name the task (``tournament.solve_round``…) rather than import the task module: the tasks
call the services, so an import the other way would make a cycle. The task object is looked up in the
Celery app's registry when it is sent (the app imports ``tournament.tasks`` when it is first used), so
eager mode in the tests and retries behave exactly as with the task object itself.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction

from ..celery import app

SOLVE_ROUND = "tournament.solve_round"
CLOSE_ROUND = "tournament.close_round"
JUDGE_ROUND = "tournament.judge_round"
BUILD_PDF = "tournament.build_pdf"
BACKUP_TOURNAMENT = "tournament.backup_tournament"


def send(name: str, *args: Any, eta: datetime | None = None) -> None:
    """Sends the task now (outside a transaction) or when the current transaction commits."""
    task = app.tasks[name]
    # eta only when given: the stubs (celery-types) do not take eta=None, Celery does (the same as no eta)
    options: dict[str, Any] = {} if eta is None else {"eta": eta}
    transaction.on_commit(lambda: task.apply_async(args, **options))


def send_now(name: str, *args: Any, **kwargs: Any) -> None:
    """Sends the task at once (the broker's error, if any, goes to the caller)."""
    app.tasks[name].delay(*args, **kwargs)


__all__ = ["BACKUP_TOURNAMENT", "BUILD_PDF", "CLOSE_ROUND", "JUDGE_ROUND", "SOLVE_ROUND", "send", "send_now"]
