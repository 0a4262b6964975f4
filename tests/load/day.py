"""``python -m tests.load --day``: a whole tournament day on one stack, game after game, and whether it stays flat.

The stack of the load test (:mod:`tests.load.stack`: gunicorn and a Celery worker with beat, on the embedded
default with ``--embedded`` or on PostgreSQL + Redis, each in a database of its own: ``soak_<pid>`` created on
the server of ``--database-url`` and dropped after, the Redis database of ``--redis-url`` flushed) plays
``--games`` games of ``--rounds`` rounds for ``--players`` players at an accelerated clock (``--seconds`` a move):

- every player has a tablet (:class:`tests.load.tablets.Drive`: polls, slips with an ``Idempotency-Key``,
  retries after a lost answer, replaced slips) except one table in ``--paper-every``, whose slips the arbiter
  types through the arbiter API (``POST /api/arbiter/rounds/<id>/slips/``, a key per slip, one in ten sent
  twice as after a lost answer) while the round is open;
- the arbiter draws, opens, publishes through the API; every ``--correct-every`` rounds he overrides a verdict
  of the round just published (a correction, ``POST /api/arbiter/verdicts/<id>/override/``);
- after each game he ends it and prints every PDF through the console's print pages (the same requests and
  Celery task as the console: standings, game sheet, every player sheet, the game's slips, access cards),
  each downloaded and checked to be a PDF;
- automatic backups are on as in a hall (the worker writes one after every publication and every
  ``BACKUP_SECONDS``; its folder is the var dir's ``backups``);
- in the middle of the day (after the middle round of the middle game) the laptop "sleeps": the web server and
  the worker — every process of theirs — get SIGSTOP for ``--sleep`` seconds, then SIGCONT (:func:`sleeper`).
  That is what a suspended laptop does to them: frozen without warning, sockets and files left open, the wall
  clock jumped on resume; stop/start would be a restart instead (:mod:`tests.load.restart` measures that). The tablets keep
  polling meanwhile (their requests time out, as on a hall's Wi-Fi). The shared PostgreSQL and Redis are not
  stopped (other engineers use them; nobody talks to them during the sleep).

Per game it prints: slips p95 (ms), open → rack max (s: the open sent → the last tablet showing the rack),
publication → result max (s), the RSS of every process (MB), the database's size (SQLite: the file and its WAL,
the broker's file; PostgreSQL: ``pg_database_size``) and the backup folder's, the errors in the servers' logs
(lines with ERROR, CRITICAL or a traceback) and in the clients' answers (5xx, timeouts). Then the day's checks;
exit status 1 when one fails:

- *no slip lost or duplicated*: the database against every receipt a tablet or the arbiter got, round by round
  (:func:`tests.load.phases.check_run`), and a verdict for every player in every round;
- *no error logged* by a server, and no client error outside the sleep's game (during the sleep the tablets'
  requests time out by design);
- *flat from the first game to the last* (:func:`growth`): nothing may grow more than 20 %. Sizes and memory are
  compared strictly — the RSS of each group of processes at the end of a game (after its PDFs, when everything
  a game uses has been used once), the database's and the newest archive's growth *per game* (they hold the
  day so far, so their totals grow by design: what must stay flat is what one game adds; a floor of 64 KiB
  absorbs the page-sized steps a file grows by). SQLite's WAL files are printed, not compared: their size
  follows the checkpoints (reused from the start, about 4 MB at most by SQLite's default), not the data. Latencies are compared with a floor, so that a busy moment of
  a shared machine does not decide alone: slips p95 only when it also grew by 100 ms, open → rack and
  publication → result only by a second (the tablets' poll interval, which alone spreads them that much).
  The game of the sleep is reported, not compared unless it is the first or the last.

    python -m tests.load --day [--embedded] [--players 1000] [--games 4] [--rounds 20] [--seconds 20] [--sleep 60]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import aiohttp

from . import report, stack
from .dayreport import day_failures, game_line
from .tablets import Drive, DriveOptions, Screen, arbiter_token

try:
    import uvloop
except ImportError:  # optional, as in the load test: the asyncio loop does the same with more CPU
    uvloop = None  # type: ignore[assignment]

#: The documents printed after each game (the console's print form's kinds, all of them but arbitration).
DOCUMENTS = ("standings", "game-sheet", "player-sheet", "slips", "cards")
ERROR_LINE = re.compile(r"\b(ERROR|CRITICAL)\b|^Traceback", re.MULTILINE)
SEED = 20240601

Row = dict[str, Any]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m tests.load --day", description=__doc__.split("\n\n")[0].split(": ", 1)[1])
    p.add_argument("--day", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--players", type=int, default=1000)
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--rounds", type=int, default=20)
    p.add_argument("--seconds", type=int, default=20, help="seconds per move")
    p.add_argument("--grace", type=int, default=5)
    p.add_argument("--announce", type=float, default=2.0, help="seconds from the draw to the open")
    p.add_argument("--review", type=float, default=2.0, help="seconds from the verdicts to the publication")
    p.add_argument("--paper-every", type=int, default=20, help="one table in N hands in paper slips")
    p.add_argument("--correct-every", type=int, default=3, help="a correction every N rounds")
    p.add_argument("--sleep", type=float, default=60.0, help="seconds of the laptop's sleep (0: none)")
    p.add_argument("--no-pdfs", dest="pdfs", action="store_false", help="print no PDFs after the games")
    p.add_argument("--embedded", action="store_true", help="the embedded default (SQLite, the embedded broker)")
    p.add_argument("--database-url", default="postgresql://postgres@127.0.0.1:5432/postgres",
                   help="the PostgreSQL server: the run creates soak_<pid> there and drops it after")
    p.add_argument("--redis-url", default="redis://127.0.0.1:6379/12", help="a Redis database this run owns (flushed)")
    p.add_argument("--dir", type=Path, default=None, help="where the run's var dir is made")
    p.add_argument("--keep", action="store_true", help="keep the var dir (and the database)")
    p.add_argument("--json", help="also write the figures to this file")
    return p


# -- what the processes use: memory, files, logs ------------------------------------------------------------


def rss_mb(pid: int) -> float:
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def memory(servers: stack.Stack) -> dict[str, list[float]]:
    """RSS (MB) of every process of each group (its leader first, then its children by pid)."""
    out = {}
    for name, proc in servers.procs.items():
        pids = sorted(servers.pids(name), key=lambda p: (p != proc.pid, p))
        out[name] = [round(rss_mb(p), 1) for p in pids]
    return out


def folder_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.exists() else 0


def database_bytes(o: dict[str, Any], var_dir: Path) -> dict[str, int]:
    """The database's size: SQLite's file and WAL and the broker's file, or PostgreSQL's database."""
    if o["embedded"]:
        def size(name: str) -> int:
            return (var_dir / name).stat().st_size if (var_dir / name).exists() else 0
        return {"db": size("db.sqlite3"), "wal": size("db.sqlite3-wal"), "broker": size("broker.sqlite3"),
                "broker wal": size("broker.sqlite3-wal")}
    import psycopg  # noqa: PLC0415 (only the PostgreSQL runs need it here)

    with psycopg.connect(o["database_url"], autocommit=True) as conn:
        row = conn.execute("SELECT pg_database_size(current_database())").fetchone()
    return {"db": int(row[0]) if row else 0}


def backup_figures(var_dir: Path) -> dict[str, Any]:
    folder = var_dir / "backups"
    archives = sorted(folder.glob("*.zip"), key=lambda f: f.name) if folder.exists() else []
    return {"bytes": folder_bytes(folder), "archives": len(archives),
            "lexicons": len(list(folder.glob("lexicon-*"))) if folder.exists() else 0,
            "newest": archives[-1].stat().st_size if archives else 0}


class Logs:
    """The servers' log files, read from where the previous call stopped: the lines with an error since."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.offsets: dict[Path, int] = {}

    def new_errors(self) -> list[str]:
        found = []
        for path in sorted(self.folder.glob("*.log")):
            with path.open("rb") as f:
                f.seek(self.offsets.get(path, 0))
                text = f.read().decode(errors="replace")
                self.offsets[path] = f.tell()
            found += [f"{path.stem}: {line.strip()[:300]}" for line in text.splitlines() if ERROR_LINE.search(line)]
        return found


# -- the day's clients --------------------------------------------------------------------------------------


class DayDrive(Drive):
    """The tablets of :class:`Drive` through a whole day: the arbiter plays every game, round after round; the
    figures of each round are kept in :attr:`rounds`, each game's in :attr:`games`."""

    def __init__(self, opts: DriveOptions, setup: dict[str, Any], day: dict[str, Any], probe: Any,
                 sleeper: Any) -> None:
        super().__init__(opts, setup)
        self.day = day
        self.probe, self.sleeper = probe, sleeper  # called in a thread: the game's figures; the sleep (seconds)
        self.paper_tables = {int(t) for t in setup["codes"] if int(t) % day["paper_every"] == 0}
        self.planned_round: dict[int, int | None] = {}
        self.paper: list[Row] = []
        self.rounds: list[Row] = []
        self.games: list[Row] = []
        self.slept: Row | None = None
        self.cookies: aiohttp.ClientSession | None = None

    def start_plan(self, screen: Screen, deadline: float) -> None:
        """A tablet hands in its slips once per round; a paper table's player writes his on paper."""
        if screen.table in self.paper_tables or self.planned_round.get(screen.table) == self.round_id:
            return
        self.planned_round[screen.table] = self.round_id
        asyncio.get_running_loop().create_task(self.submit_plan(screen, deadline))

    async def arbiter(self) -> None:
        game = int(self.setup["game"])
        middle = ((self.day["games"] + 1) // 2, (self.day["rounds"] + 1) // 2)
        for g in range(1, self.day["games"] + 1):
            if g > 1:
                game = await self.new_game()
            self.setup["game"] = game
            mark = (len(self.rec.samples.get("slip", [])), sum(self.rec.errors.values()), len(self.rounds))
            for r in range(1, self.day["rounds"] + 1):
                if not await self.playing(game) or not await self.play_round(g, r):
                    break
                if (g, r) == middle and self.day["sleep"] > 0:
                    await self.sleep()
            await self.finish(game)
            printed = await self.print_all(game) if self.day["pdfs"] else []
            await self.end_of_game(g, mark, printed)
        if self.cookies is not None:
            await self.cookies.close()
        self.done.set()

    async def end_of_game(self, g: int, mark: tuple[int, int, int], printed: list[Row]) -> None:
        slips = self.rec.samples.get("slip", [])[mark[0]:]
        rounds = self.rounds[mark[2]:]
        figures = await asyncio.get_running_loop().run_in_executor(None, self.probe)
        self.games.append({
            "game": g, "rounds": len(rounds), "slips_p95_ms": round(1000 * report.pct(slips, 95), 1),
            "slip_requests": len(slips),
            "open_to_rack_max_s": max((r["open_max_s"] for r in rounds if r["open_max_s"] is not None), default=None),
            "publication_to_result_max_s": max((r["result_max_s"] for r in rounds if r["result_max_s"] is not None),
                                               default=None),
            "client_errors": sum(self.rec.errors.values()) - mark[1], "pdfs": printed,
            "slept": self.slept is not None and self.slept["game"] == g, **figures})
        say(game_line(self.games[-1]))

    async def playing(self, game: int) -> bool:
        st, _h, body = await self.request("arbiter", "GET", f"/api/arbiter/tournaments/{self.setup['slug']}/games/"
                                          f"{game}/", headers=self.arbiter_auth)
        return st == 200 and json.loads(body).get("status") == "playing"

    async def new_game(self) -> int:
        st, _h, body = await self.request("arbiter", "POST", f"/api/arbiter/tournaments/{self.setup['slug']}/games/",
                                          json={"seed": SEED}, headers=self.arbiter_auth)
        if st != 201:
            raise RuntimeError(f"new game: {st} {body[:300]!r}")
        return int(json.loads(body)["number"])

    async def finish(self, game: int) -> None:
        if await self.playing(game):
            await self.arbiter_post(f"/api/arbiter/tournaments/{self.setup['slug']}/games/{game}/finish/",
                                    body={"why": "Soak: the day's rounds are played"})

    async def arbiter_post(self, path: str, expected: int = 200, body: Row | None = None) -> Row:
        st, _h, raw = await self.request("arbiter", "POST", path, json=body or {}, headers=self.arbiter_auth)
        if st != expected:
            raise RuntimeError(f"{path} failed: {st} {raw[:300]!r}")
        return dict(json.loads(raw))

    async def play_round(self, g: int, r: int) -> bool:
        """One round: draw, open, the paper slips typed, the verdicts, the publication, maybe a correction."""
        self.saw_open, self.saw_published, self.published_detected = {}, {}, {}
        self.log, self.paper = defaultdict(list), []
        self.open_sent = self.publish_sent = self.judged_seen = None
        await self.draw()
        due = await self.open()
        typing = asyncio.get_running_loop().create_task(self.type_paper())
        await self.wait_judged(due)
        await typing
        if self.judged_seen is None:
            raise RuntimeError(f"game {g} round {r}: no verdicts within 2 minutes of the deadline")
        await self.publish()
        corrected = r % self.day["correct_every"] == 0 and await self.correct()
        self.rounds.append({
            "game": g, "round": r, "id": self.round_id, "log": self.log, "paper": self.paper, "corrected": corrected,
            "open_max_s": round(max(self.saw_open.values()) - self.open_sent, 2) if self.saw_open and self.open_sent
            else None,
            "result_max_s": round(max(self.saw_published.values()) - self.publish_sent, 2)
            if self.saw_published and self.publish_sent else None,
            "seen_open": len(self.saw_open), "seen_result": len(self.saw_published)})
        return True

    async def type_paper(self) -> None:
        """The arbiter types the paper slips while the round is open, four at a time (several arbiters)."""
        assert self.deadline is not None
        tables = sorted(self.paper_tables)
        span = max(0.5, self.deadline - time.time() - 2.5)
        sem = asyncio.Semaphore(4)

        async def one(i: int, table: int) -> None:
            await asyncio.sleep(1 + span * i / max(1, len(tables)))
            async with sem:
                await self.type_one(table)

        await asyncio.gather(*(one(i, t) for i, t in enumerate(tables)))

    async def type_one(self, table: int) -> None:
        body = {**self.body(), "table": table}
        body.pop("round", None)
        key = os.urandom(8).hex()
        entry: Row = {"table": table, "key": key, "word": body["word"], "slip_id": None}
        self.paper.append(entry)
        twice = self.rng.random() < 0.1  # the answer lost: typed again with the same key
        for attempt in range(8):
            st, _h, raw = await self.request("paper", "POST", f"/api/arbiter/rounds/{self.round_id}/slips/", json=body,
                                             headers={**self.arbiter_auth, "Idempotency-Key": key})
            if st in (200, 201):
                slip_id = json.loads(raw)["id"]
                if entry["slip_id"] is not None and entry["slip_id"] != slip_id:
                    self.rec.errors[("paper", "retry returned another slip")] += 1
                entry["slip_id"] = slip_id
                if twice and attempt == 0:
                    continue
                return
            if st is not None and 400 <= st < 500:
                entry["refused"] = st
                return
            await asyncio.sleep(0.5 * 2 ** attempt)

    async def correct(self) -> bool:
        """A correction of the round just published: one verdict overridden (one point more)."""
        st, _h, raw = await self.request("arbiter", "GET", f"/api/arbiter/rounds/{self.round_id}/verdicts/",
                                         headers=self.arbiter_auth)
        verdicts = json.loads(raw) if st == 200 else []
        if not verdicts:
            return False
        v = self.rng.choice(verdicts)
        await self.arbiter_post(f"/api/arbiter/verdicts/{v['id']}/override/", body={
            "awarded": int(v["awarded"]) + 1, "warning": False, "why": "Soak: a correction after the publication"})
        return True

    async def sleep(self) -> None:
        """The laptop sleeps: every server process stopped, then resumed; how long until the web answers again."""
        loop = asyncio.get_running_loop()
        errors0 = sum(self.rec.errors.values())
        await loop.run_in_executor(None, self.sleeper, self.day["sleep"])
        resumed = time.monotonic()
        while True:
            st, _h, _b = await self.request("arbiter", "GET", f"/api/arbiter/tournaments/{self.setup['slug']}/",
                                            headers=self.arbiter_auth)
            if st == 200 or time.monotonic() - resumed > 120:
                break
            await asyncio.sleep(0.2)
        self.slept = {"game": len(self.games) + 1, "seconds": self.day["sleep"],
                      "answer_after_s": round(time.monotonic() - resumed, 2), "answered": st == 200,
                      "client_errors_meanwhile": sum(self.rec.errors.values()) - errors0}
        say(f"slept {self.day['sleep']:.0f} s (SIGSTOP of the web server and the worker): the web answered "
            f"{self.slept['answer_after_s']} s after SIGCONT")

    # -- the PDFs, through the console's print pages --------------------------------------------------------
    async def console_login(self) -> aiohttp.ClientSession:
        if self.cookies is None:
            self.cookies = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
            async with self.cookies.get(self.o.url + "/arbiter/login/") as r:
                page = await r.text()
            token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
            assert token is not None, "no CSRF token on the login page"
            form = {**self.setup["arbiter"], "csrfmiddlewaretoken": token.group(1)}
            async with self.cookies.post(self.o.url + "/arbiter/login/", data=form,
                                         headers={"Referer": self.o.url + "/arbiter/login/"}) as r:
                if "sessionid" not in {c.key for c in self.cookies.cookie_jar}:
                    raise RuntimeError(f"the arbiter could not log in to the console ({r.status})")
        return self.cookies

    async def print_all(self, game: int) -> list[Row]:
        session = await self.console_login()
        csrf = next(c.value for c in session.cookie_jar if c.key == "csrftoken")
        base = f"{self.o.url}/arbiter/pdf/t/{self.setup['slug']}/"
        forms: dict[str, dict[str, Any]] = {"standings": {"game": game}, "game-sheet": {"game": game}, "player-sheet": {"player": "all"},
                 # the next game's slips, as a hall prints them before it
                 "slips": {"game": game + 1}, "cards": {"confirm": "1", "base_url": self.o.url}}
        printed = []
        for kind in DOCUMENTS:
            t0 = time.monotonic()
            async with session.post(base + "request/", data={"kind": kind, "format": "json", **forms[kind]},
                                    headers={"X-CSRFToken": csrf, "Referer": base}) as r:
                job = await r.json(content_type=None)
                if r.status not in (200, 202):
                    raise RuntimeError(f"printing {kind}: {r.status} {job}")
            job = await self.wait_job(session, job)
            async with session.get(self.o.url + job["download_url"]) as r:
                data = await r.read()
            if not data.startswith(b"%PDF"):
                raise RuntimeError(f"printing {kind}: the file is not a PDF ({r.status})")
            printed.append({"kind": kind, "seconds": round(time.monotonic() - t0, 1), "pages": job.get("pages"),
                            "bytes": len(data)})
        return printed

    async def wait_job(self, session: aiohttp.ClientSession, job: Row) -> Row:
        end = time.monotonic() + 900
        while job.get("state") not in ("done", "failed") and time.monotonic() < end:
            await asyncio.sleep(0.5)
            async with session.get(self.o.url + job["status_url"]) as r:
                job = await r.json(content_type=None)
        if job.get("state") != "done":
            raise RuntimeError(f"printing {job.get('kind')}: {job.get('state')} {job.get('error')}")
        return job


def say(text: str) -> None:
    print(text, flush=True)


# -- the run --------------------------------------------------------------------------------------------------


def own_database(url: str) -> str:
    """``--database-url`` with the run's own database, ``soak_<pid>``."""
    return url.rsplit("/", 1)[0] + f"/soak_{os.getpid()}"


def sleeper(servers: stack.Stack) -> Any:
    """The laptop's sleep: SIGSTOP of every process group (web server, worker); at the end SIGCONT of the
    children first, of the group leaders (gunicorn's master, Celery's main process) 2 s later.

    A real suspend stops CLOCK_MONOTONIC (Linux; macOS's clock likewise); SIGSTOP cannot. Gunicorn's master
    compares its workers' heartbeats with that clock: resumed together after 60 s, it finds them 60 s old and
    kills both web workers (WORKER TIMEOUT, then SIGKILL), which a real sleep does not do. Resumed first, the
    workers beat again before the master looks, as after a real sleep."""
    def sleep(seconds: float) -> None:
        leaders = [proc.pid for proc in servers.procs.values()]
        children = [pid for name in servers.procs for pid in servers.pids(name) if pid not in leaders]
        for pid in leaders:
            os.killpg(pid, signal.SIGSTOP)
        try:
            time.sleep(seconds)
        finally:
            for pid in children:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGCONT)
            time.sleep(2)
            for pid in leaders:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pid, signal.SIGCONT)
    return sleep


async def run_day(drive: DayDrive) -> None:
    """The drive, cancelled by SIGTERM or Ctrl+C (raised inside the event loop's callbacks, an exception would
    be swallowed by the transport that was reading)."""
    loop, task = asyncio.get_running_loop(), asyncio.current_task()
    assert task is not None
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, task.cancel)
    await drive.run()


def prepare(o: dict[str, Any], env: stack.Env, var_dir: Path) -> Row:
    """The run's database (created, migrated) and Redis database (flushed), the tournament and its players
    (:func:`tests.load.phases.setup_tournament`)."""
    if not o["embedded"]:
        stack.recreate_database(o["database_url"])
        stack.flush_redis(o["redis_url"])
    t0 = time.monotonic()
    stack.manage(env, "migrate", "--no-input", "-v", "0")
    setup_file = var_dir / "setup.json"
    stack.phase(env, "setup", "--io", str(setup_file), "--tablets", str(o["players"]), "--seconds-per-move",
                str(o["seconds"]), "--grace", str(o["grace"]))
    say(f"database ready: {o['players']} players ({time.monotonic() - t0:.1f} s)")
    return dict(json.loads(setup_file.read_text()))


def on_term(_signum: int, _frame: Any) -> None:
    raise KeyboardInterrupt


def play(o: dict[str, Any], env: stack.Env, servers: stack.Stack, var_dir: Path) -> int:
    setup = prepare(o, env, var_dir)
    servers.start_worker()
    servers.start_web()
    setup["token"] = arbiter_token(servers.url, setup)
    logs = Logs(var_dir / "logs")
    logs.new_errors()  # the start-up's lines are not the day's

    def probe() -> Row:
        return {"memory": memory(servers), "database": database_bytes(o, var_dir), "backups": backup_figures(var_dir),
                "errors": logs.new_errors(), "load": [round(x, 2) for x in os.getloadavg()]}

    before = probe()
    say(f"{o['players']} players, {o['games']} games × {o['rounds']} rounds, {o['seconds']} s a move; gunicorn "
        f"{servers.web_workers}×{servers.threads} on {servers.url}; load average {before['load']}")
    drive = DayDrive(DriveOptions(url=servers.url, tablets=o["players"], burst=o["seconds"] / 2, announce=o["announce"],
                                  review=o["review"], max_seconds=24 * 3600), setup,
                     {k: o[k] for k in ("games", "rounds", "paper_every", "correct_every", "sleep", "pdfs")},
                     probe, sleeper(servers))
    started = time.monotonic()
    if uvloop is None:
        asyncio.run(run_day(drive))
    else:
        uvloop.run(run_day(drive))
    logs_file = var_dir / "day.json"
    logs_file.write_text(json.dumps([{"round": r["id"], "slug": setup["slug"], "tablets": r["log"],
                                      "paper": r["paper"]} for r in drive.rounds]))
    stack.phase(env, "check-day", "--io", str(logs_file), timeout=1800)
    checks = json.loads(logs_file.with_suffix(".result.json").read_text())
    limit = int(env.get("BACKUP_KEEP", "20"))
    failures = day_failures(drive.games, before, checks, drive.slept, limit)
    summary = {"options": {k: v for k, v in o.items() if k != "dir"}, "before": before, "games": drive.games,
               "slept": drive.slept, "hours": round((time.monotonic() - started) / 3600, 2),
               "checks": {k: sum(c[k] for c in checks) for k in ("slips", "acknowledged", "paper", "lost",
                                                                 "duplicated", "late_rows")},
               "corrections": sum(1 for r in drive.rounds if r["corrected"]), "failures": failures,
               "load_after": [round(x, 2) for x in os.getloadavg()]}
    say(f"day: {summary['hours']} h, {len(drive.rounds)} rounds, {summary['corrections']} corrections; slips "
        f"{summary['checks']}; load average {summary['load_after']}")
    if o["json"]:
        Path(o["json"]).write_text(json.dumps(summary, indent=2))
    for f in failures:
        say(f"FAIL {f}")
    say("PASS: flat from the first game to the last, no slip lost or duplicated, no error" if not failures else
        f"FAIL: {len(failures)} problems")
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    o = vars(parser().parse_args(argv))
    if o["dir"] is not None:
        o["dir"].mkdir(parents=True, exist_ok=True)
    var_dir = Path(tempfile.mkdtemp(prefix="duplicate-soak-", dir=o["dir"]))
    extra = {"DJANGO_SETTINGS_MODULE": "tournament.settings"}
    if o["embedded"]:
        env = stack.stack_env(var_dir, extra=extra)
    else:  # created, and the Redis database flushed, by prepare()
        o["database_url"] = own_database(o["database_url"])
        env = stack.stack_env(var_dir, database_url=o["database_url"], broker_url=o["redis_url"],
                              redis_url=o["redis_url"], extra={"DB_CONN_MAX_AGE": "600", **extra})
    o["embedded"] = bool(o["embedded"])
    servers = stack.Stack(env, var_dir / "logs", web_workers=2, threads=8, celery_concurrency=2)
    signal.signal(signal.SIGTERM, on_term)  # before the drive's event loop, which cancels it instead
    say(f"var dir {var_dir}" + ("; embedded: SQLite + the embedded broker" if o["embedded"] else
                                f"; database {o['database_url'].rsplit('/', 1)[-1]}, redis {o['redis_url']}"))
    try:
        return play(o, env, servers, var_dir)
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("interrupted: stopping the processes", file=sys.stderr)
        return 1
    finally:
        servers.stop()
        if o["keep"]:
            say(f"kept: {var_dir}")
        else:
            shutil.rmtree(var_dir, ignore_errors=True)
            if not o["embedded"]:
                with contextlib.suppress(Exception):
                    stack.drop_database(o["database_url"])

