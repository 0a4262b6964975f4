"""The tournament: Django project and the duplicate tournament domain.

The Celery application (``tournament.celery``) is imported when first asked for (``celery -A tournament``
finds it there; Django imports it with the tasks when it starts), so that a process that needs only the
settings — ``./hall run``'s start, :mod:`tournament.management.start` — does not load Celery.
"""

from __future__ import annotations

from typing import Any

__all__ = ("celery_app",)


def __getattr__(name: str) -> Any:
    if name == "celery_app":
        from .celery import app  # noqa: PLC0415 (on first use: see the docstring)

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
