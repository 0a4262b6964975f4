"""The tournament: Django project and the duplicate tournament domain."""

from .celery import app as celery_app

__all__ = ("celery_app",)
