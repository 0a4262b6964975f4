"""``manage.py serve``: the web server and a Celery worker, started and stopped together
(:mod:`tournament.management.servers`)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from tournament.management import nginx, servers


class Command(BaseCommand):
    help = "Run the web server (gunicorn) and a Celery worker together; Ctrl+C stops both."

    def add_arguments(self, parser: CommandParser) -> None:
        servers.add_arguments(parser)

    @staticmethod
    def nodes(opts: dict[str, Any], env: dict[str, str]) -> servers.Commands:
        """N web nodes on PORT+1…PORT+N (the ASGI application, one process each) and nginx on PORT."""
        commands: servers.Commands = {}
        env["LIVE_PUSH"] = "1"
        env.setdefault("STREAM_WSGI_THREADS", str(opts["threads"]))
        trusted = [p for p in env.get("DJANGO_TRUSTED_PROXIES", "").split(",") if p.strip()]
        env["DJANGO_TRUSTED_PROXIES"] = ",".join([*trusted, "127.0.0.1"])  # nginx's X-Forwarded-For
        ports = [opts["port"] + i for i in range(1, opts["nodes"] + 1)]
        for i, port in enumerate(ports, 1):
            commands[f"web node {i}"] = [
                sys.executable, "-m", "uvicorn", "tournament.asgi:application", "--host", "127.0.0.1",
                "--port", str(port), "--loop", "uvloop", "--http", "httptools", "--timeout-graceful-shutdown", "5",
                "--no-server-header", "--backlog", "4096"]
        prefix = Path(settings.VAR_DIR) / "nginx"
        nginx.write(prefix, listen=f"{opts['host']}:{opts['port']}", nodes=[f"127.0.0.1:{p}" for p in ports],
                    # nginx serves the static files when they were collected (collectstatic), else the nodes do
                    static_root=Path(settings.STATIC_ROOT) if (Path(settings.STATIC_ROOT) / "js").is_dir() else None,
                    workers=2)  # each stream is two sockets in nginx: two workers share the open-files limit
        nginx.check(prefix)
        commands["nginx"] = nginx.command(prefix)
        return commands

    def handle(self, *args: Any, **opts: Any) -> None:
        env = os.environ.copy()
        extra = self.nodes(opts, env) if opts["nodes"] > 0 else None
        code = servers.serve(opts, cwd=Path(settings.BASE_DIR), say=self.stdout.write, warn=self.stderr.write,
                             broker=settings.CELERY_BROKER_URL, extra=extra, env=env)
        if code:
            raise SystemExit(code)
