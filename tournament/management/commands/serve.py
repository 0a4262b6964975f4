"""``manage.py serve``: the web server and a Celery worker, started and stopped together."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from tournament.management import nginx

RESTARTS_PER_MINUTE = 5


def env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


class Command(BaseCommand):
    help = "Run the web server (gunicorn) and a Celery worker together; Ctrl+C stops both."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default=os.environ.get("HOST", "0.0.0.0"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--web-workers", type=int, default=int(os.environ.get("WEB_WORKERS", "2")))
        parser.add_argument("--threads", type=int, default=int(os.environ.get("WEB_THREADS", "8")))
        parser.add_argument("--celery-concurrency", type=int, default=int(os.environ.get("CELERY_CONCURRENCY", "2")))
        parser.add_argument("--no-worker", action="store_true", help="start only the web server")
        parser.add_argument("--push", action="store_true", default=env_flag("LIVE_PUSH"),
                            help="serve the ASGI application (uvicorn): screens get their changes over a stream "
                                 "(Server-Sent Events) and poll only as a fallback (env LIVE_PUSH=1)")
        parser.add_argument("--nodes", type=int, default=int(os.environ.get("WEB_NODES", "0")),
                            help="N web nodes (each the ASGI application on its own port, PORT+1…PORT+N) behind "
                                 "nginx on PORT (Debian's nginx package); implies --push (env WEB_NODES)")

    @staticmethod
    def nodes(opts: dict[str, Any], env: dict[str, str], commands: dict[str, list[str]]) -> None:
        """N web nodes on PORT+1…PORT+N (the ASGI application, one process each) and nginx on PORT."""
        python = sys.executable
        env["LIVE_PUSH"] = "1"
        env.setdefault("STREAM_WSGI_THREADS", str(opts["threads"]))
        trusted = [p for p in env.get("DJANGO_TRUSTED_PROXIES", "").split(",") if p.strip()]
        env["DJANGO_TRUSTED_PROXIES"] = ",".join([*trusted, "127.0.0.1"])  # nginx's X-Forwarded-For
        ports = [opts["port"] + i for i in range(1, opts["nodes"] + 1)]
        for i, port in enumerate(ports, 1):
            commands[f"web node {i}"] = [
                python, "-m", "uvicorn", "tournament.asgi:application", "--host", "127.0.0.1", "--port", str(port),
                "--loop", "uvloop", "--http", "httptools", "--timeout-graceful-shutdown", "5", "--no-server-header",
                "--backlog", "4096"]
        prefix = Path(settings.VAR_DIR) / "nginx"
        nginx.write(prefix, listen=f"{opts['host']}:{opts['port']}", nodes=[f"127.0.0.1:{p}" for p in ports],
                    # nginx serves the static files when they were collected (collectstatic), else the nodes do
                    static_root=Path(settings.STATIC_ROOT) if (Path(settings.STATIC_ROOT) / "js").is_dir() else None,
                    workers=2)  # each stream is two sockets in nginx: two workers share the open-files limit
        nginx.check(prefix)
        commands["nginx"] = nginx.command(prefix)

    def handle(self, *args: Any, **opts: Any) -> None:
        python = sys.executable
        env = os.environ.copy()
        commands: dict[str, list[str]] = {}
        if not opts["no_worker"]:
            commands["celery worker"] = [
                python, "-m", "celery", "-A", "tournament", "worker",
                "--loglevel", "INFO", "--concurrency", str(opts["celery_concurrency"]),
                "--hostname", f"hall-worker-{os.getpid()}@%h",
                "--beat",  # the recovery sweep (settings.CELERY_BEAT_SCHEDULE)
            ]
        if opts["nodes"] > 0:
            self.nodes(opts, env, commands)
        elif opts["push"]:
            env["LIVE_PUSH"] = "1"
            env.setdefault("STREAM_WSGI_THREADS", str(opts["threads"]))
            commands["web server"] = [
                python, "-m", "uvicorn", "tournament.asgi:application", "--host", opts["host"],
                "--port", str(opts["port"]), "--workers", str(opts["web_workers"]), "--loop", "uvloop",
                "--http", "httptools", "--timeout-graceful-shutdown", "5", "--no-server-header",
            ]
        else:
            commands["web server"] = [
                python, "-m", "gunicorn", "tournament.wsgi:application",
                "--bind", f"{opts['host']}:{opts['port']}",
                "--workers", str(opts["web_workers"]), "--threads", str(opts["threads"]),
                "--worker-class", "gthread", "--timeout", "60", "--graceful-timeout", "10",
                "--access-logfile", "-",
            ]
        children = {name: subprocess.Popen(argv, cwd=settings.BASE_DIR, env=env) for name, argv in commands.items()}
        if opts["nodes"] > 0:
            opts["push"] = True
        self.stdout.write(
            (f"{opts['nodes']} web nodes behind nginx. " if opts["nodes"] > 0 else "") +
            ("Pushing changes to the screens (uvicorn, Server-Sent Events). " if opts["push"] else "") +
            f"Serving on http://{'localhost' if opts['host'] == '0.0.0.0' else opts['host']}:{opts['port']}/ "
            f"(broker: {settings.CELERY_BROKER_URL.split('@')[-1]}); Ctrl+C stops."
        )

        stopping = False

        def stop(signum: int, frame: FrameType | None) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        code = 0
        restarts: list[float] = []
        while not stopping:
            for name, proc in list(children.items()):
                if proc.poll() is None:
                    continue
                now = time.monotonic()
                restarts = [t for t in restarts if now - t < 60]
                if len(restarts) >= RESTARTS_PER_MINUTE:
                    self.stderr.write(f"{name} keeps exiting (status {proc.returncode}); stopping.")
                    code = proc.returncode or 1
                    stopping = True
                    break
                # A lost broker connection can end the worker; its tasks are idempotent and the
                # recovery sweep resends what was lost, so starting it again is safe.
                self.stderr.write(f"{name} exited with status {proc.returncode}; starting it again.")
                restarts.append(now)
                children[name] = subprocess.Popen(commands[name], cwd=settings.BASE_DIR, env=env)
            time.sleep(0.5)
        for proc in children.values():
            if proc.poll() is None:
                proc.terminate()
        deadline = time.time() + 15
        for proc in children.values():
            try:
                proc.wait(timeout=max(0.1, deadline - time.time()))
            except subprocess.TimeoutExpired:
                proc.kill()
        if code:
            raise SystemExit(code)
