"""The server side of a run: its environment, its processes (gunicorn, Celery worker), its database and Redis.

Used by the load test (``python -m tests.load``) and by the fault tests (``tests/system/test_faults.py``).
Nothing here imports Django: every process that needs it (migrations, the setup and check phases, the
servers) runs as a subprocess with the run's environment (:func:`stack_env`).
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path
from types import TracebackType

import psycopg
import redis
from psycopg import conninfo, sql

from tests.paths import ROOT

#: The variables of the caller's environment a run replaces by its own.
RUN_VARIABLES = ("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL", "DUPLICATE_VAR_DIR", "LEXICON_DIR",
                 "CELERY_TASK_ALWAYS_EAGER", "DUPLICATE_SQLITE_SYNCHRONOUS")

Env = dict[str, str]

#: A PostgreSQL backend's process title: "postgres: [CLUSTER: ]USER DATABASE HOST(PORT) STATE".
BACKEND_TITLE = re.compile(r"postgres: (?:\S+: )?\S+ (\S+) (?:\[local\]|\S+\(\d+\))")


def backend_database(cmdline: Path) -> str | None:
    """The database a PostgreSQL backend serves (from ``/proc/<pid>/cmdline``, its process title); None for the
    server's own processes (checkpointer, WAL writer, autovacuum…)."""
    match = BACKEND_TITLE.match(cmdline.read_bytes().replace(b"\0", b" ").decode(errors="replace"))
    return match.group(1) if match else None


def nginx_workers(streams: int) -> int:
    """nginx's worker processes for ``streams`` streams: each is two sockets in nginx (the screen's and the
    node's), and a worker holds no more than the open-files limit it inherits (nginx's own
    ``worker_rlimit_nofile`` cannot raise it above the hard limit without CAP_SYS_RESOURCE); 2000 a worker are
    left for the requests. Two at least (the set-up the 10,000-tablet figures were measured on)."""
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY or soft <= 4000:
        return 2
    return max(2, math.ceil(2 * streams / (soft - 2000)))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def filesystem(path: Path) -> str:
    """The type of the file system holding ``path`` (e.g. ext4, tmpfs), from /proc/self/mounts; "?" elsewhere."""
    best, kind = "", "?"
    try:
        mounts = Path("/proc/self/mounts").read_text().splitlines()
    except OSError:
        return kind
    target = str(Path(path).resolve())
    for line in mounts:
        fields = line.split()
        if len(fields) > 2 and (target == fields[1] or target.startswith(fields[1].rstrip("/") + "/")) \
                and len(fields[1]) >= len(best):
            best, kind = fields[1], fields[2]
    return kind


def run(env: Env, argv: list[str], *, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """``python ARGV`` in a subprocess of the checkout with ``env``; raises with its output when it fails."""
    proc = subprocess.run([sys.executable, *argv], cwd=ROOT, env=env, text=True, capture_output=True,
                          timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc


def manage(env: Env, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """``manage.py ARGS`` (e.g. ``migrate``) in the run's environment."""
    return run(env, [str(ROOT / "manage.py"), *args], timeout=timeout)


def phase(env: Env, name: str, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """A phase of :mod:`tests.load.phases` (``setup``, ``check``) in the run's environment."""
    return run(env, ["-m", "tests.load.phases", name, *args], timeout=timeout)


def stack_env(var_dir: Path, *, database_url: str | None = None, broker_url: str | None = None,
              redis_url: str | None = None, extra: Env | None = None) -> Env:
    """The environment of every process of a run: its own var dir, database, broker and cache."""
    env = {k: v for k, v in os.environ.items() if k not in RUN_VARIABLES}
    env.update({"DUPLICATE_VAR_DIR": str(var_dir), "DJANGO_DEBUG": "0",
                "LOG_LEVEL": os.environ.get("LOAD_LOG_LEVEL", "WARNING"),  # INFO: each node's stream lines
                "PYTHONUNBUFFERED": "1", "DJANGO_SETTINGS_MODULE": "tournament.settings"})
    if database_url:
        env["DATABASE_URL"] = database_url
    if broker_url:
        env["CELERY_BROKER_URL"] = broker_url
    if redis_url:
        env["REDIS_URL"] = redis_url
    env.update(extra or {})
    return env


class Stack:
    """The server processes of a run (gunicorn, Celery worker), each in its own process group.

    ``stop()`` ends every process it started (TERM, then KILL after ``grace`` seconds); use it as a
    context manager so that errors and Ctrl+C stop them too.
    """

    def __init__(self, env: Env, log_dir: Path, *, port: int | None = None, web_workers: int = 2,
                 threads: int = 8, celery_concurrency: int = 1, worker_pool: str = "prefork",
                 worker_argv: list[str] | None = None, root: Path = ROOT):
        self.env = env
        self.root = root  # the checkout the processes run from (another clone: a restore test)
        self.log_dir = Path(log_dir)
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.web_workers, self.threads = web_workers, threads
        self.celery_concurrency, self.worker_pool = celery_concurrency, worker_pool
        self.worker_argv = worker_argv
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.node_ports: dict[str, int] = {}  # the web nodes of start_nodes and their ports

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _spawn(self, name: str, argv: list[str], env: Env | None = None) -> subprocess.Popen[bytes]:
        log = open(self.log_dir / f"{name}.log", "ab")  # noqa: SIM115 (kept open for the child)
        # a process group of its own (stopped with its children by one signal), in the harness's session as
        # `./hall run` starts them: Linux schedules each session as one group (autogroup), so a process in a
        # session of its own would take a core's share whatever the nice value of its threads (a backup's thread
        # of nice 19 would take a core from the nodes sending a publication)
        proc = subprocess.Popen(argv, cwd=self.root, env=env or self.env, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, process_group=0)
        log.close()
        self.procs[name] = proc
        return proc

    def start_web(self, wait: float = 60) -> subprocess.Popen[bytes]:
        proc = self._spawn("web", [
            sys.executable, "-m", "gunicorn", "tournament.wsgi:application", "--bind", f"127.0.0.1:{self.port}",
            "--workers", str(self.web_workers), "--threads", str(self.threads), "--worker-class", "gthread",
            "--worker-connections", "2000", "--backlog", "4096", "--keep-alive", "5", "--timeout", "60",
            "--graceful-timeout", "10", "--preload",  # as serve: the application loaded once, the workers forked
            "--config", "python:tournament.management.webconf",
        ])
        self.wait_ready(wait)
        return proc

    def start_nodes(self, nodes: int, *, push: bool = True, backlog: int = 16384, wait: float = 60,
                    streams: int = 0) -> list[str]:
        """The ASGI application (``tournament.asgi``: streams + Django) under uvicorn: one process on the stack's
        port when ``nodes`` is 0, else ``nodes`` processes on ports of their own behind nginx on the stack's port
        (``tournament/management/nginx.py``; the nodes trust nginx's X-Forwarded-For; nginx's workers enough for
        ``streams`` streams, :func:`nginx_workers`). The nodes' names (``node1``…, or ``web``)."""
        env = {**self.env, "LIVE_PUSH": "1" if push else "0", "STREAM_WSGI_THREADS": str(self.threads)}
        if nodes > 0:
            env["DJANGO_TRUSTED_PROXIES"] = "127.0.0.1"
        ports = [free_port() for _ in range(nodes)] if nodes > 0 else [self.port]
        names = [f"node{i}" for i in range(1, nodes + 1)] if nodes > 0 else ["web"]
        for name, port in zip(names, ports, strict=True):
            self._spawn(name, [
                sys.executable, "-m", "uvicorn", "tournament.asgi:application", "--host", "127.0.0.1",
                "--port", str(port), "--loop", "uvloop", "--http", "httptools", "--backlog", str(backlog),
                "--timeout-graceful-shutdown", "3", "--no-server-header", "--no-access-log",
            ], env=env)
        for name, port in zip(names, ports, strict=True):
            self.wait_ready(wait, name=name, url=f"http://127.0.0.1:{port}")
        if nodes > 0:
            from tournament.management import nginx  # noqa: PLC0415 (it imports no Django; the package does)

            prefix = self.log_dir / "nginx"
            # a stream is 2 sockets in nginx, a worker has 20,000 files here: 2 workers for 10,000, 3 for 20,000
            nginx.write(prefix, listen=f"127.0.0.1:{self.port}", nodes=[f"127.0.0.1:{p}" for p in ports],
                        workers=nginx_workers(streams))
            nginx.check(prefix)
            self._spawn("nginx", nginx.command(prefix))
            self.wait_ready(wait, name="nginx")
        self.node_ports = dict(zip(names, ports, strict=True))
        return names

    def start_worker(self) -> subprocess.Popen[bytes]:
        argv = self.worker_argv or [sys.executable, "-m", "celery", "-A", "tournament", "worker"]
        return self._spawn("worker", [
            *argv, "--loglevel", "INFO", "--pool", self.worker_pool, "--concurrency", str(self.celery_concurrency),
            "--hostname", f"load-{uuid.uuid4().hex[:8]}@%h", "--without-gossip", "--without-mingle",
            "--beat",  # the recovery sweep, as `serve` runs it
        ])

    def wait_ready(self, timeout: float = 60, *, name: str = "web", url: str | None = None) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            proc = self.procs.get(name)
            if proc is not None and proc.poll() is not None:
                raise RuntimeError(f"{name} exited ({proc.returncode}); see {self.log_dir / (name + '.log')}")
            try:
                with urllib.request.urlopen((url or self.url) + "/api/public/tournaments/", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"the web server did not answer within {timeout:.0f} s")

    def cpu_seconds(self, names: list[str]) -> float:
        """User + system CPU seconds of those processes and their children so far (``/proc/<pid>/stat``)."""
        tick = os.sysconf("SC_CLK_TCK")
        total = 0
        for name in names:
            for pid in self.pids(name):
                with contextlib.suppress(OSError):
                    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                    total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15)
        return total / tick

    def beside_cpu_seconds(self, database: str | None = None) -> dict[str, float]:
        """CPU seconds so far of what shares the machine with the nodes: the Celery worker, the PostgreSQL and
        Redis servers (every process of theirs: the whole server, other databases included — with ``database``,
        PostgreSQL's backends serving another database are left out, its own processes such as the WAL writer
        and the checkpointer kept) and this load generator itself (every thread of this process)."""
        tick = os.sysconf("SC_CLK_TCK")
        out = {"worker": self.cpu_seconds(["worker"]) if "worker" in self.procs else 0.0, "postgres": 0.0,
               "redis": 0.0}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, IndexError, ValueError):
                text = stat.read_text()
                comm = text[text.index("(") + 1:text.rindex(")")]
                key = "postgres" if comm == "postgres" else "redis" if comm.startswith("redis-server") else None
                if key == "postgres" and database and backend_database(stat.with_name("cmdline")) not in (
                        None, database):
                    continue
                if key:
                    fields = text.rsplit(")", 1)[1].split()
                    out[key] += (int(fields[11]) + int(fields[12])) / tick
        mine = os.times()
        out["generator"] = mine.user + mine.system
        return out

    def pids(self, name: str) -> list[int]:
        """The process and its children (e.g. the Celery pool processes)."""
        proc = self.procs[name]
        out = subprocess.run(["pgrep", "-g", str(proc.pid)], capture_output=True, text=True).stdout.split()
        return [int(p) for p in out] or [proc.pid]

    def stop(self, name: str | None = None, *, sig: int = signal.SIGTERM, grace: float = 15) -> None:
        names = [name] if name else list(self.procs)
        for n in names:
            proc = self.procs.get(n)
            if proc is not None and proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, sig)
        end = time.monotonic() + grace
        for n in names:
            proc = self.procs.pop(n, None)
            if proc is not None:
                self._reap(proc, max(0.1, end - time.monotonic()))

    @staticmethod
    def _reap(proc: subprocess.Popen[bytes], grace: float) -> None:
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        # the group may still hold children (pool processes) when only the leader ended
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)

    def supervise(self, name: str = "worker") -> bool:
        """Restart a process that died by itself (as ``manage.py serve`` or systemd would); True if restarted."""
        proc = self.procs.get(name)
        if proc is None or proc.poll() is None:
            return False
        self.procs.pop(name)
        if name == "web":
            self.start_web()
        else:
            self.start_worker()
        return True

    def kill9(self, name: str) -> None:
        """``kill -9`` of the whole process group (the worker and its pool), as a crash would."""
        proc = self.procs.pop(name)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)

    def kill9_all(self) -> list[int]:
        """``kill -9`` of every process group at once (web master and workers, Celery worker, its pool and
        beat), as a power cut would leave them; the pids killed."""
        procs = list(self.procs.values())
        pids = [pid for name in self.procs for pid in self.pids(name)]
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
        for proc in procs:
            proc.wait(timeout=10)
        self.procs.clear()
        return pids

    def __enter__(self) -> Stack:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


# -- the database and the Redis database of a run ---------------------------------------------------------


def _admin_conn(db_url: str) -> tuple[psycopg.Connection, str]:
    """A connection to the server's ``postgres`` database, and the name of the run's database."""
    url = db_url.replace("postgres://", "postgresql://", 1)
    name = str(conninfo.conninfo_to_dict(url)["dbname"])
    return psycopg.connect(conninfo.make_conninfo(url, dbname="postgres"), autocommit=True), name


def recreate_database(db_url: str) -> None:
    conn, name = _admin_conn(db_url)
    with conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def drop_database(db_url: str) -> None:
    conn, name = _admin_conn(db_url)
    with conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def flush_redis(url: str) -> None:
    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()
