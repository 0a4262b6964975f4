"""``python -m tests.load``: N simulated tablets against the production stack on this machine.

Creates a fresh PostgreSQL database, migrates it, starts gunicorn and a Celery worker (Redis broker and
cache, a temporary var dir), sets up a tournament with N players (:mod:`tests.load.phases`), draws and
opens a round through the arbiter API, runs the tablets (:mod:`tests.load.tablets`), waits for the close
and the verdicts, checks the database and prints the figures (:mod:`tests.load.report`). Exit status 1
when a check or a target fails. Every process it starts is stopped at the end, also on errors and Ctrl+C.

``--embedded`` runs the same against the embedded default instead — SQLite (WAL) in the run's var dir, the
Celery broker in a SQLite file of its own (``tournament/broker.py``) and the cache on the file system, no
server but gunicorn and the worker ``manage.py serve`` starts (2 web workers by default, as ``serve``). ``--sqlite-synchronous NORMAL FULL NORMAL FULL`` runs it
once per level (``DUPLICATE_SQLITE_SYNCHRONOUS``), each on a fresh var dir, and ends with one line per run.

``--day`` plays a whole tournament day instead, game after game, and checks it stays flat
(:mod:`tests.load.day`, its own options).

``--push`` serves the ASGI application instead (uvicorn ``tournament.asgi``, ``LIVE_PUSH=1``): each tablet
holds one Server-Sent Events stream and polls only as a check (:mod:`tests.load.tablets`); the CPU of the web
nodes is measured over a quiet window before the draw (``/proc/<pid>/stat``). ``--nodes N`` starts N web nodes
(uvicorn, one process each) behind nginx (``tournament/management/nginx.py``), with or without ``--push``.
The client raises its open-files limit to the hard limit, so that one event loop holds 10,000 streams; where the
tablets' streams do not fit under that limit in one process (20,000 tablets: the hard limit is 20,000 here),
``--generators N`` (by default as many as they need) splits them between N processes (:mod:`tests.load.fleet`).

Every run prints the CPU of its processes from the draw to the end, the CPU per slip of the whole stack and
of each process, and the most slips the server stored in one second (:mod:`tests.load.limits`).
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

from . import fleet, limits, report, stack
from .fleet import run_client
from .tablets import DriveOptions, arbiter_token

#: The options written with the figures (``--json``).
RUN_OPTIONS = ("tablets", "burst", "poll", "announce", "seconds_per_move", "grace", "web_workers", "threads",
               "celery_concurrency", "embedded", "synchronous", "push", "nodes", "check_poll", "quiet", "lean",
               "generators")
#: SQLite's synchronous levels the settings accept (tournament.settings.SQLITE_SYNCHRONOUS_LEVELS).
SYNCHRONOUS = ("NORMAL", "FULL", "EXTRA")
#: Web workers of a run: the production set-up's, and ``manage.py serve``'s default for the embedded one.
WEB_WORKERS, SERVE_WEB_WORKERS = 3, 2


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m tests.load", description=__doc__.split("\n\n")[0].split(": ", 1)[1])
    p.add_argument("--tablets", type=int, default=1500)
    p.add_argument("--burst", type=float, default=20, help="seconds before the deadline with most slips")
    p.add_argument("--poll", type=float, default=1.0, help="poll interval of a tablet (s)")
    p.add_argument("--announce", type=float, default=5.0,
                   help="seconds from the draw to the open (the arbiter reads the rack out)")
    p.add_argument("--seconds-per-move", type=int, default=60)
    p.add_argument("--grace", type=int, default=10, help="grace after the deadline (s)")
    p.add_argument("--keep", action="store_true", help="keep the database and the var dir")
    p.add_argument("--database-url", default="postgresql://postgres@127.0.0.1:5432/duplicate_load",
                   help="database to (re)create: it is dropped first")
    p.add_argument("--redis-url", default="redis://127.0.0.1:6379/13",
                   help="a Redis database this run owns (broker + cache; flushed first)")
    p.add_argument("--embedded", action="store_true",
                   help="the embedded default instead: SQLite in the run's var dir, the embedded broker, file cache")
    p.add_argument("--sqlite-synchronous", nargs="+", type=str.upper, choices=SYNCHRONOUS, metavar="LEVEL",
                   help="with --embedded: SQLite's synchronous level (DUPLICATE_SQLITE_SYNCHRONOUS, default FULL); "
                        "several levels run one after another, each on a fresh var dir")
    p.add_argument("--dir", type=Path, default=None,
                   help="where the run's var dir is made (default: the temporary folder); with --embedded the "
                        "database is there, so put it on the disk the hall's server writes to")
    p.add_argument("--web-workers", type=int, default=None,
                   help=f"default {WEB_WORKERS}; {SERVE_WEB_WORKERS} with --embedded (as manage.py serve)")
    p.add_argument("--threads", type=int, default=8)
    p.add_argument("--celery-concurrency", type=int, default=2)
    p.add_argument("--connections", type=int, default=1000, help="client connection pool size (requests; "
                   "the streams have a connection each)")
    p.add_argument("--push", action="store_true",
                   help="the ASGI application (uvicorn, LIVE_PUSH=1): every tablet holds a Server-Sent Events "
                        "stream and polls only as a check")
    p.add_argument("--nodes", type=int, default=0,
                   help="N web nodes (uvicorn, one process each) behind nginx; 0: one process, no nginx")
    p.add_argument("--check-poll", type=float, default=120.0, help="with --push: poll interval while the stream "
                   "is up (s)")
    p.add_argument("--lean", action="store_true",
                   help="with --push: a tablet fetches its own state only for a publication and applies every "
                        "other change from the event (a proposal; tablet.js fetches on every change)")
    p.add_argument("--ramp", type=float, default=None,
                   help="seconds over which the tablets connect (default: poll, or tablets/500 with --push)")
    p.add_argument("--quiet", type=float, default=20.0,
                   help="with --push or --nodes: seconds of the quiet window whose CPU is measured (0: none)")
    p.add_argument("--generators", type=int, default=None,
                   help="load generator processes (default: as many as the tablets' streams need, each under the "
                        "open-files limit; 1 without --push)")
    p.add_argument("--timeline", action="store_true", help="also print requests and p95 per 5 s of the round")
    p.add_argument("--json", help="also write the figures to this file (a list with several runs)")
    p.add_argument("--settings-module", default="tournament.settings",
                   help="DJANGO_SETTINGS_MODULE of the server processes")
    return p


def say(text: str) -> None:
    print(text, flush=True)


def prepare(o: dict[str, Any], env: stack.Env, var_dir: Path) -> dict[str, Any]:
    """The run's database (recreated, migrated, set up) and Redis database (flushed); embedded, the SQLite
    database is new in the run's new var dir."""
    if not o["embedded"]:
        stack.recreate_database(o["database_url"])
        stack.flush_redis(o["redis_url"])
    t0 = time.monotonic()
    stack.manage(env, "migrate", "--no-input", "-v", "0")
    setup_file = var_dir / "setup.json"
    stack.phase(env, "setup", "--io", str(setup_file), "--tablets", str(o["tablets"]),
                "--seconds-per-move", str(o["seconds_per_move"]), "--grace", str(o["grace"]))
    say(f"database ready: {o['tablets']} players ({time.monotonic() - t0:.1f} s)")
    return dict(json.loads(setup_file.read_text()))


def drive_and_check(o: dict[str, Any], env: stack.Env, servers: stack.Stack, var_dir: Path,
                    setup: dict[str, Any]) -> report.Figures:
    """Starts the servers, runs the clients, checks the database, prints the report; the run's figures."""
    servers.start_worker()
    asgi = o["push"] or o["nodes"] > 0
    if asgi:
        names = servers.start_nodes(o["nodes"], push=o["push"], streams=o["tablets"] if o["push"] else 0)
        say(f"uvicorn (tournament.asgi, LIVE_PUSH={int(o['push'])}, {o['threads']} WSGI threads): "
            + (f"{o['nodes']} nodes behind nginx on {servers.url}" if o["nodes"] else f"one process on {servers.url}")
            + f", Celery worker ×{o['celery_concurrency']}")
        names += ["nginx"] if o["nodes"] else []
    else:
        servers.start_web()
        say(f"gunicorn {o['web_workers']}×{o['threads']} threads on {servers.url}, "
            f"Celery worker ×{o['celery_concurrency']}")
    setup["token"] = arbiter_token(servers.url, setup)
    ramp = o["ramp"] if o["ramp"] is not None else (o["tablets"] / 500 if o["push"] else 0.0)
    drive = fleet.drive(DriveOptions(
        url=servers.url, tablets=o["tablets"], burst=o["burst"], poll=o["poll"], announce=o["announce"],
        connections=o["connections"], push=o["push"], lean=o["lean"], check_poll=o["check_poll"], ramp=ramp,
        quiet=o["quiet"] if asgi else 0.0, cpu=cpu_reader(o, servers, ["web"] if not asgi else names)), setup,
        generators=o["generators"], work_dir=var_dir)
    if o["generators"] > 1:
        say(f"{o['generators']} load generator processes, {o['tablets'] // o['generators']:,}+ tablets each")
    run_client(drive.run())
    summary = report.summarize(drive)
    log_file = var_dir / "client.json"
    log_file.write_text(json.dumps({"round": drive.round_id, "slug": setup["slug"], "tablets": drive.log}))
    stack.phase(env, "check", "--io", str(log_file))
    check = json.loads(log_file.with_suffix(".result.json").read_text())
    limits.complete(summary, drive, check, o["burst"])
    ok = report.report(say, o, summary, check)
    return {"options": {k: o[k] for k in RUN_OPTIONS}, "summary": summary, "check": check, "passed": ok}


def cpu_reader(o: dict[str, Any], servers: stack.Stack, names: list[str]) -> Callable[[], dict[str, float]]:
    """CPU seconds so far of every process of the run's stack, by name: the web server or nodes (and nginx),
    the Celery worker, the load generator, and PostgreSQL (its backends of the run's database and its own
    processes) and Redis — not on the embedded default, which has neither (SQLite is in the web processes)."""
    database = None if o["embedded"] else o["database_url"].rsplit("/", 1)[-1].split("?", 1)[0]

    def read() -> dict[str, float]:
        beside = servers.beside_cpu_seconds(database)
        if o["embedded"]:
            beside = {k: v for k, v in beside.items() if k not in ("postgres", "redis")}
        return {**{n: servers.cpu_seconds([n]) for n in names}, **beside}

    return read


def generators(o: dict[str, Any], files: int) -> int:
    """Load generator processes: as asked, else as many as keep each one's streams and pool of connections
    (and 500 files more) under the open-files limit."""
    if o["generators"] is not None:
        return max(1, o["generators"])
    return max(1, math.ceil((o["tablets"] + o["connections"] + 500) / files)) if o["push"] else 1


def clean_up(o: dict[str, Any], var_dir: Path) -> None:
    db_url = o["database_url"]
    if o["keep"]:
        say(f"kept: {var_dir}" + ("" if o["embedded"] else f" and {db_url.rsplit('/', 1)[-1]}"))
        return
    shutil.rmtree(var_dir, ignore_errors=True)
    if o["embedded"]:
        return
    try:
        stack.drop_database(db_url)
    except Exception as exc:  # noqa: BLE001 (best effort)
        print(f"could not drop the database: {exc}", file=sys.stderr)


def raise_open_files() -> int:
    """The open-files limit of this process (and of the servers it starts) raised to the hard limit: 10,000
    streams are 10,000 sockets here, as many in the web node and twice as many in nginx (which raises its
    own, ``worker_rlimit_nofile``). The new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return soft


def on_term(_signum: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def run_env(o: dict[str, Any], var_dir: Path) -> stack.Env:
    """The environment of the run's processes: PostgreSQL + Redis, or the embedded default (nothing but the
    var dir, and the SQLite synchronous level when one is asked)."""
    extra = {"DJANGO_SETTINGS_MODULE": o["settings_module"]}
    if o["embedded"]:
        if o["synchronous"]:
            extra["DUPLICATE_SQLITE_SYNCHRONOUS"] = o["synchronous"]
        return stack.stack_env(var_dir, extra=extra)
    db_url, redis_url = o["database_url"], o["redis_url"]
    return stack.stack_env(var_dir, database_url=db_url, broker_url=redis_url, redis_url=redis_url,
                           extra={"DB_CONN_MAX_AGE": "600", **extra})


def describe(o: dict[str, Any], var_dir: Path) -> str:
    if o["embedded"]:
        return (f"var dir {var_dir} ({stack.filesystem(var_dir)}); embedded: SQLite synchronous="
                f"{o['synchronous'] or 'FULL (default)'}, the embedded broker (SQLite), file cache")
    return (f"var dir {var_dir}; database {o['database_url'].rsplit('@', 1)[-1]}; "
            f"redis {o['redis_url'].rsplit('@', 1)[-1]}")


def run_once(o: dict[str, Any]) -> report.Figures | None:
    """One run on a new var dir (and database); its figures, None when it broke before the report."""
    if o["dir"] is not None:
        o["dir"].mkdir(parents=True, exist_ok=True)
    var_dir = Path(tempfile.mkdtemp(prefix="duplicate-load-", dir=o["dir"]))
    env = run_env(o, var_dir)
    servers = stack.Stack(env, var_dir / "logs", web_workers=o["web_workers"], threads=o["threads"],
                          celery_concurrency=o["celery_concurrency"])
    try:
        say(describe(o, var_dir))
        setup = prepare(o, env, var_dir)
        return drive_and_check(o, env, servers, var_dir, setup)
    finally:
        servers.stop()
        clean_up(o, var_dir)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if "--day" in args:
        from . import day  # noqa: PLC0415 (the day's own options and clients; it imports this module)

        return day.main(args)
    p = parser()
    o = vars(p.parse_args(argv))
    if o["sqlite_synchronous"] and not o["embedded"]:
        p.error("--sqlite-synchronous needs --embedded")
    if o["nodes"] < 0:
        p.error("--nodes must be 0 or more")
    if o["web_workers"] is None:
        o["web_workers"] = SERVE_WEB_WORKERS if o["embedded"] else WEB_WORKERS
    signal.signal(signal.SIGTERM, on_term)
    files = raise_open_files()
    o["generators"] = generators(o, files)
    if o["push"] and files < (o["tablets"] + o["connections"]) / o["generators"] + 500:
        say(f"warning: {files} open files at most (RLIMIT_NOFILE's hard limit): too few for {o['tablets']} streams "
            f"in {o['generators']} load generator process(es)")
    levels = o.pop("sqlite_synchronous") or [None]
    runs: list[tuple[str | None, report.Figures | None]] = []
    try:
        for i, level in enumerate(levels, 1):
            if len(levels) > 1:
                say(f"\n=== run {i}/{len(levels)}: SQLite synchronous={level} ===")
            runs.append((level, run_once({**o, "synchronous": level})))
    except KeyboardInterrupt:
        print("interrupted: stopping the processes", file=sys.stderr)
        return 1
    if o["json"]:
        figures = [f for _, f in runs]
        Path(o["json"]).write_text(json.dumps(figures[0] if len(figures) == 1 else figures, indent=2))
    if len(levels) > 1:
        report.compare(say, runs)
    return 0 if all(f is not None and f["passed"] for _, f in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
