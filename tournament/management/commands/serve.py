"""``manage.py serve``: the web server and a Celery worker, started and stopped together."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Run the web server (gunicorn) and a Celery worker together; Ctrl+C stops both."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("HOST", "0.0.0.0"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--web-workers", type=int, default=int(os.environ.get("WEB_WORKERS", "2")))
        parser.add_argument("--threads", type=int, default=int(os.environ.get("WEB_THREADS", "8")))
        parser.add_argument("--celery-concurrency", type=int, default=int(os.environ.get("CELERY_CONCURRENCY", "2")))
        parser.add_argument("--no-worker", action="store_true", help="start only the web server")

    def handle(self, *args, **opts):
        python = sys.executable
        env = os.environ.copy()
        children: list[tuple[str, subprocess.Popen]] = []
        if not opts["no_worker"]:
            worker = [
                python, "-m", "celery", "-A", "tournament", "worker",
                "--loglevel", "INFO", "--concurrency", str(opts["celery_concurrency"]),
                "--hostname", f"hall-worker-{os.getpid()}@%h",
                "--beat",  # the recovery sweep (settings.CELERY_BEAT_SCHEDULE)
            ]
            children.append(("celery worker", subprocess.Popen(worker, cwd=settings.BASE_DIR, env=env)))
        web = [
            python, "-m", "gunicorn", "tournament.wsgi:application",
            "--bind", f"{opts['host']}:{opts['port']}",
            "--workers", str(opts["web_workers"]), "--threads", str(opts["threads"]),
            "--worker-class", "gthread", "--timeout", "60", "--graceful-timeout", "10",
            "--access-logfile", "-",
        ]
        children.append(("web server", subprocess.Popen(web, cwd=settings.BASE_DIR, env=env)))
        self.stdout.write(
            f"Serving on http://{'localhost' if opts['host'] == '0.0.0.0' else opts['host']}:{opts['port']}/ "
            f"(broker: {settings.CELERY_BROKER_URL.split('@')[-1]}); Ctrl+C stops."
        )

        stopping = False

        def stop(*_):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        code = 0
        while not stopping:
            for name, proc in children:
                if proc.poll() is not None:
                    self.stderr.write(f"{name} exited with status {proc.returncode}; stopping.")
                    code = proc.returncode or 1
                    stopping = True
                    break
            time.sleep(0.5)
        for _, proc in children:
            if proc.poll() is None:
                proc.terminate()
        deadline = time.time() + 15
        for _, proc in children:
            try:
                proc.wait(timeout=max(0.1, deadline - time.time()))
            except subprocess.TimeoutExpired:
                proc.kill()
        if code:
            raise SystemExit(code)
