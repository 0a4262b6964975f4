"""``manage.py worker_check``: send a heartbeat task and wait until a Celery worker has run it."""

from __future__ import annotations

import time
import uuid
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.tasks import heartbeat_seen, worker_heartbeat


class Command(BaseCommand):
    help = "Check that a Celery worker is running: exit 0 when it answered, 1 when not within --timeout."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--timeout", type=float, default=15.0)

    def handle(self, *args: Any, **opts: Any) -> None:
        token = uuid.uuid4().hex
        start = time.monotonic()
        worker_heartbeat.delay(token)
        while time.monotonic() - start < opts["timeout"]:
            if heartbeat_seen(token):
                self.stdout.write(f"worker answered in {time.monotonic() - start:.2f} s")
                return
            time.sleep(0.1)
        raise CommandError(f"no Celery worker answered within {opts['timeout']:.0f} s", returncode=1)
