"""``manage.py loadtest``: N simulated tablets against the production stack on this machine.

Creates a fresh PostgreSQL database, migrates it, starts gunicorn and a Celery worker (Redis broker and
cache, a temporary var dir), sets up a tournament with N players, draws and opens a round through the
arbiter API, runs the tablets (asyncio + aiohttp), waits for the close and the verdicts, prints the
figures and checks the database. Exit status 1 when a check or a target fails. Every process it starts
is stopped at the end, also on errors and Ctrl+C. See tournament/loadtest.py.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import signal
import tempfile
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournament import loadtest as lt

TARGET_SUBMIT_P95_MS = 300
TARGET_VERDICTS_SECONDS = 5
TARGET_REAL_TIME_SECONDS = 2  # an arbiter's change on every screen (issue 7): measured on the round's open


class Command(BaseCommand):
    help = "Load test: N tablets poll and hand in slips against gunicorn + Celery + PostgreSQL + Redis."

    def add_arguments(self, parser):
        parser.add_argument("--tablets", type=int, default=1500)
        parser.add_argument("--burst", type=float, default=20, help="seconds before the deadline with most slips")
        parser.add_argument("--poll", type=float, default=1.0, help="poll interval of a tablet (s)")
        parser.add_argument("--announce", type=float, default=5.0,
                            help="seconds from the draw to the open (the arbiter reads the rack out)")
        parser.add_argument("--seconds-per-move", type=int, default=60)
        parser.add_argument("--grace", type=int, default=10, help="grace after the deadline (s)")
        parser.add_argument("--keep", action="store_true", help="keep the database and the var dir")
        parser.add_argument("--database-url", default="postgresql://postgres@127.0.0.1:5432/duplicate_load",
                            help="database to (re)create: it is dropped first")
        parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/13",
                            help="a Redis database this run owns (broker + cache; flushed first)")
        parser.add_argument("--web-workers", type=int, default=3)
        parser.add_argument("--threads", type=int, default=8)
        parser.add_argument("--celery-concurrency", type=int, default=2)
        parser.add_argument("--connections", type=int, default=1000, help="client connection pool size")
        parser.add_argument("--timeline", action="store_true",
                            help="also print requests and p95 per 5 s of the round")
        parser.add_argument("--json", help="also write the figures to this file")
        parser.add_argument("--settings-module", default="tournament.settings",
                            help="DJANGO_SETTINGS_MODULE of the server processes")
        parser.add_argument("--phase", choices=["setup", "check"], help="internal: a phase run in the load environment")
        parser.add_argument("--io", help="internal: the phase's JSON file")

    def handle(self, *args, **o):
        if o["phase"] == "setup":
            data = lt.setup_tournament(o["tablets"], seconds_per_move=o["seconds_per_move"], grace=o["grace"])
            Path(o["io"]).write_text(json.dumps(data))
            return
        if o["phase"] == "check":
            io = Path(o["io"])
            result = lt.check_run(json.loads(io.read_text()))
            io.with_suffix(".result.json").write_text(json.dumps(result))
            return
        self.run(o)

    # -- the orchestration -------------------------------------------------------------------------------------
    def run(self, o):
        try:
            import aiohttp  # noqa: F401
        except ImportError:
            raise CommandError("the load test needs aiohttp: pip install aiohttp") from None

        def on_term(*_):
            raise KeyboardInterrupt

        signal.signal(signal.SIGTERM, on_term)
        var_dir = Path(tempfile.mkdtemp(prefix="duplicate-load-"))
        db_url, redis_url = o["database_url"], o["redis_url"]
        env = lt.stack_env(var_dir, database_url=db_url, broker_url=redis_url, redis_url=redis_url,
                           extra={"DB_CONN_MAX_AGE": "600", "DJANGO_SETTINGS_MODULE": o["settings_module"]})
        stack = lt.Stack(env, var_dir / "logs", web_workers=o["web_workers"], threads=o["threads"],
                         celery_concurrency=o["celery_concurrency"])
        ok = False
        try:
            self.say(f"var dir {var_dir}; database {db_url.rsplit('@', 1)[-1]}; redis {redis_url.rsplit('@', 1)[-1]}")
            recreate_database(db_url)
            flush_redis(redis_url)
            t0 = time.monotonic()
            lt.manage(env, "migrate", "--no-input", "-v", "0")
            setup_file = var_dir / "setup.json"
            lt.manage(env, "loadtest", "--phase", "setup", "--io", str(setup_file), "--tablets", str(o["tablets"]),
                      "--seconds-per-move", str(o["seconds_per_move"]), "--grace", str(o["grace"]))
            setup = json.loads(setup_file.read_text())
            self.say(f"database ready: {o['tablets']} players ({time.monotonic() - t0:.1f} s)")
            stack.start_worker()
            stack.start_web()
            self.say(f"gunicorn {o['web_workers']}×{o['threads']} threads on {stack.url}, "
                     f"Celery worker ×{o['celery_concurrency']}")
            drive = lt.Drive(lt.DriveOptions(url=stack.url, tablets=o["tablets"], burst=o["burst"], poll=o["poll"],
                                             announce=o["announce"],
                                             connections=o["connections"]), setup)
            run_client(drive.run())
            summary = lt.summarize(drive)
            log_file = var_dir / "client.json"
            log_file.write_text(json.dumps({"round": drive.round_id, "slug": setup["slug"], "tablets": drive.log}))
            lt.manage(env, "loadtest", "--phase", "check", "--io", str(log_file))
            check = json.loads(log_file.with_suffix(".result.json").read_text())
            ok = self.report(o, summary, check)
            if o["json"]:
                Path(o["json"]).write_text(json.dumps({"options": {k: o[k] for k in (
                    "tablets", "burst", "poll", "announce", "seconds_per_move", "grace", "web_workers", "threads",
                    "celery_concurrency")}, "summary": summary, "check": check}, indent=2))
        except KeyboardInterrupt:
            self.stderr.write("interrupted: stopping the processes")
        finally:
            stack.stop()
            if o["keep"]:
                self.say(f"kept: {var_dir} and {db_url.rsplit('/', 1)[-1]}")
            else:
                shutil.rmtree(var_dir, ignore_errors=True)
                try:
                    drop_database(db_url)
                except Exception as exc:  # noqa: BLE001 (best effort)
                    self.stderr.write(f"could not drop the database: {exc}")
        if not ok:
            raise SystemExit(1)

    def say(self, text: str) -> None:
        self.stdout.write(text)
        self.stdout.flush()

    def report(self, o, summary: dict, check: dict) -> bool:
        w = self.stdout.write
        w("")
        w(f"Load test: {o['tablets']} tablets, poll {o['poll']} s, draw → open {o['announce']} s, "
          f"{o['seconds_per_move']} s per move, "
          f"burst {o['burst']} s; polling: {summary['polling']}")
        w(f"logins took {summary['login_seconds']} s; solver {summary['solve_seconds']} s; "
          f"measured span {summary['span_seconds']} s")
        w(f"{'endpoint':<24}{'requests':>9}{'req/s':>9}{'peak/s':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}"
          f"{'max ms':>9}")
        for ep, s in summary["endpoints"].items():
            w(f"{ep:<24}{s['requests']:>9}{s['rps']:>9}{s['peak_rps']:>8}{s['p50_ms']:>9}{s['p95_ms']:>9}"
              f"{s['p99_ms']:>9}{s['max_ms']:>9}")
        if o.get("timeline"):
            w("timeline (s from the open; s to the deadline): requests / p95 ms per endpoint")
            for row in summary["timeline"]:
                parts = [f"{ep} {row[ep]['n']}/{row[ep]['p95_ms']}" for ep in ("version", "state", "slip")
                         if ep in row]
                w(f"  {row['from_s']:>6.0f} ({row['to_deadline_s']:>+4}) " + "  ".join(parts))
        for key, what in (("open_to_tablets", "open → the rack on the tablets"),
                          ("publish_to_tablets", "publication → each player's result on his tablet")):
            seen = summary.get(key)
            if seen:
                w(f"{what}: {seen['tablets']} tablets, p50 {seen['p50_s']} s, p95 {seen['p95_s']} s, "
                  f"max {seen['max_s']} s" + (f" (the arbiter's request itself: {seen['request_s']} s; the "
                                             f"polls saw the new version after p50 {seen['poll_saw_it_p50_s']} s, "
                                             f"max {seen['poll_saw_it_max_s']} s)" if "request_s" in seen else ""))
        w("outcomes: " + ", ".join(f"{k}: {v}" for k, v in summary["outcomes"].items()))
        w("errors: " + (", ".join(f"{k}: {v}" for k, v in summary["errors"].items()) or "none"))
        w(f"slips: {summary['slips_sent']} sent ({summary['in_burst']} in the last {o['burst']} s; "
          f"modes {summary['modes']}), {summary['slips_acknowledged']} acknowledged "
          f"({summary['slips_late']} late), {summary['slips_unacknowledged']} never acknowledged")
        w(f"database: {check['slips']} slip rows, {check['lost']} lost, {check['duplicated']} duplicated, "
          f"{check['mismatched']} mismatched, {check['phantom']} phantom, {check['late_rows']} late rows; "
          f"verdicts {check['verdicts']}/{check['registrations']} ({check['verdicts_with_slip']} with a slip); "
          f"round {check['status']}")
        d2v, c2v = check["deadline_to_verdicts"], check["close_to_verdicts"]
        w(f"deadline → all verdicts: {d2v if d2v is None else round(d2v, 2)} s (grace {check['grace']} s); "
          f"close → all verdicts: {c2v if c2v is None else round(c2v, 2)} s")
        for line in check["failures"]:
            w("  ! " + line)
        slip = summary["endpoints"].get("slip", {})
        targets = [
            ("0 lost", check["lost"] == 0),
            ("0 duplicated", check["duplicated"] == 0 and check["phantom"] == 0 and check["mismatched"] == 0),
            ("every slip acknowledged", summary["slips_unacknowledged"] == 0),
            ("verdicts for every registration", check["verdicts"] == check["registrations"]),
            (f"p95 submissions ≤ {TARGET_SUBMIT_P95_MS} ms", slip.get("p95_ms", 1e9) <= TARGET_SUBMIT_P95_MS),
            (f"verdicts ≤ {TARGET_VERDICTS_SECONDS} s after the close",
             c2v is not None and c2v <= TARGET_VERDICTS_SECONDS),
            ("no check failure", check["failure_count"] == 0),
            *[(f"the {what} reaches every tablet ≤ {TARGET_REAL_TIME_SECONDS} s", reached(summary, key, o["tablets"]))
              for key, what in (("open_to_tablets", "open"), ("publish_to_tablets", "publication"))],
        ]
        for name, passed in targets:
            w(f"[{'PASS' if passed else 'FAIL'}] {name}")
        return all(p for _, p in targets)


def reached(summary: dict, key: str, tablets: int) -> bool:
    seen = summary.get(key)
    return bool(seen) and seen["tablets"] == tablets and seen["max_s"] <= TARGET_REAL_TIME_SECONDS


def run_client(coro) -> None:
    """Runs the simulated tablets on uvloop when it is installed: the load generator shares the machine's
    cores with the server, the less of them it takes the more the figures are the server's."""
    try:
        import uvloop
    except ImportError:
        asyncio.run(coro)
    else:
        uvloop.run(coro)


# -- database and Redis of the run ---------------------------------------------------------------------------


def _admin_conn(db_url: str):
    import psycopg
    from psycopg import conninfo

    info = conninfo.conninfo_to_dict(db_url.replace("postgresql://", "postgres://", 1).replace(
        "postgres://", "postgresql://", 1))
    name = info.pop("dbname")
    info["dbname"] = "postgres"
    return psycopg.connect(**info, autocommit=True), name


def recreate_database(db_url: str) -> None:
    from psycopg import sql

    conn, name = _admin_conn(db_url)
    with conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def drop_database(db_url: str) -> None:
    from psycopg import sql

    conn, name = _admin_conn(db_url)
    with conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def flush_redis(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()
