"""The hall's server processes — the web server (gunicorn) and a Celery worker — started, watched and stopped
together: what ``manage.py serve`` and ``./hall run`` (:mod:`tournament.management.start`) run.

Nothing here imports Django: ``./hall run`` starts the servers without setting Django up in its own process
(the web server and the worker each do). The web server comes first and the worker once the web server
answers (or after :data:`WORKER_WAIT` seconds): on a laptop's two cores their start-ups would otherwise share
the cores and the tablets would wait for both. gunicorn loads the application once (``--preload``, the
URL configuration with it: ``tournament/wsgi.py``) and forks its workers from it.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

#: A process that exits this many times within a minute stops everything.
RESTARTS_PER_MINUTE = 5
#: Seconds the worker waits for the web server's first answer before it starts anyway.
WORKER_WAIT = 15.0

Commands = dict[str, list[str]]


def env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``serve`` (and of ``./hall run``), their defaults from the environment."""
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


def worker_command(opts: dict[str, Any]) -> list[str]:
    return [sys.executable, "-m", "celery", "-A", "tournament", "worker",
            "--loglevel", "INFO", "--concurrency", str(opts["celery_concurrency"]),
            "--hostname", f"hall-worker-{os.getpid()}@%h",
            "--beat"]  # the recovery sweep (settings.CELERY_BEAT_SCHEDULE)


def gunicorn_command(opts: dict[str, Any]) -> list[str]:
    return [sys.executable, "-m", "gunicorn", "tournament.wsgi:application",
            "--bind", f"{opts['host']}:{opts['port']}",
            "--workers", str(opts["web_workers"]), "--threads", str(opts["threads"]),
            "--worker-class", "gthread", "--timeout", "60", "--graceful-timeout", "10",
            "--preload",  # the application loaded once, its workers forked from it
            "--config", "python:tournament.management.webconf",
            "--access-logfile", "-"]


def uvicorn_command(opts: dict[str, Any]) -> list[str]:
    return [sys.executable, "-m", "uvicorn", "tournament.asgi:application", "--host", opts["host"],
            "--port", str(opts["port"]), "--workers", str(opts["web_workers"]), "--loop", "uvloop",
            "--http", "httptools", "--timeout-graceful-shutdown", "5", "--no-server-header"]


#: What the supervisor asks the web server until it answers (a page through Django and the database).
READY_PATH = "/api/public/tournaments/"


def answers(host: str, port: int) -> bool:
    """Whether the web server answers a request (any status: it serves). Asked only once its port takes a
    connection (a refused connection costs next to nothing while it loads)."""
    target = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
    try:
        socket.create_connection((target, port), timeout=0.5).close()
        with urllib.request.urlopen(f"http://{target}:{port}{READY_PATH}", timeout=2):
            return True
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False


class Supervisor:
    """Starts the processes (the worker once ``ready()`` says the web server answers), starts again one that
    exits (at most :data:`RESTARTS_PER_MINUTE` times a minute) and stops them all on SIGINT or SIGTERM."""

    def __init__(self, commands: Commands, *, env: dict[str, str], cwd: Path, say: Callable[[str], object],
                 ready: Callable[[], bool] | None = None, later: tuple[str, ...] = ("celery worker",)):
        self.commands, self.env, self.cwd, self.say = commands, env, cwd, say
        self.ready = ready or (lambda: True)
        self.later = [name for name in later if name in commands]
        self.children: dict[str, subprocess.Popen[bytes]] = {}
        self.stopping = False

    def spawn(self, name: str) -> None:
        self.children[name] = subprocess.Popen(self.commands[name], cwd=self.cwd, env=self.env)

    def stop(self, signum: int, frame: FrameType | None) -> None:
        self.stopping = True

    def run(self) -> int:
        signal.signal(signal.SIGINT, self.stop)
        signal.signal(signal.SIGTERM, self.stop)
        for name in self.commands:
            if name not in self.later:
                self.spawn(name)
        due = time.monotonic() + WORKER_WAIT
        code = 0
        restarts: list[float] = []
        while not self.stopping:
            if self.later and (time.monotonic() >= due or self.ready()):
                for name in self.later:
                    self.spawn(name)
                self.later = []
            code = self.restart_exited(restarts)
            time.sleep(0.1 if self.later else 0.5)
        self.shut_down()
        return code

    def restart_exited(self, restarts: list[float]) -> int:
        for name, proc in list(self.children.items()):
            if proc.poll() is None:
                continue
            now = time.monotonic()
            restarts[:] = [t for t in restarts if now - t < 60]
            if len(restarts) >= RESTARTS_PER_MINUTE:
                self.say(f"{name} keeps exiting (status {proc.returncode}); stopping.")
                self.stopping = True
                return proc.returncode or 1
            # A lost broker connection can end the worker; its tasks are idempotent, the broker gives back what
            # it held and the recovery sweep resends what was lost, so starting it again is safe.
            self.say(f"{name} exited with status {proc.returncode}; starting it again.")
            restarts.append(now)
            self.spawn(name)
        return 0

    def shut_down(self) -> None:
        for proc in self.children.values():
            if proc.poll() is None:
                proc.terminate()
        deadline = time.time() + 15
        for proc in self.children.values():
            try:
                proc.wait(timeout=max(0.1, deadline - time.time()))
            except subprocess.TimeoutExpired:
                proc.kill()


def serve(opts: dict[str, Any], *, cwd: Path, say: Callable[[str], object], warn: Callable[[str], object],
          broker: str, extra: Commands | None = None, env: dict[str, str] | None = None) -> int:
    """The web server (gunicorn, or uvicorn with ``push``; or the ``extra`` commands: web nodes and nginx)
    and the worker, until stopped; the exit status. ``say`` gets the address, ``warn`` a process that exits."""
    env = dict(os.environ) if env is None else env
    commands: Commands = dict(extra or {})
    if not extra:
        if opts["push"]:
            env["LIVE_PUSH"] = "1"
            env.setdefault("STREAM_WSGI_THREADS", str(opts["threads"]))
        commands["web server"] = uvicorn_command(opts) if opts["push"] else gunicorn_command(opts)
    if not opts["no_worker"]:
        commands["celery worker"] = worker_command(opts)
    shown = "localhost" if opts["host"] == "0.0.0.0" else opts["host"]
    say((f"{opts['nodes']} web nodes behind nginx. " if opts["nodes"] > 0 else "") +
        ("Pushing changes to the screens (uvicorn, Server-Sent Events). " if opts["push"] or opts["nodes"] else "")
        + f"Serving on http://{shown}:{opts['port']}/ (broker: {broker.split('@')[-1]}); Ctrl+C stops.")
    supervisor = Supervisor(commands, env=env, cwd=cwd, say=warn, ready=lambda: answers(opts["host"], opts["port"]))
    return supervisor.run()
