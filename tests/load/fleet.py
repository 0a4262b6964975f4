"""Several load generator processes for one run (``python -m tests.load --generators N``).

A process holds no more sockets than its open-files limit — RLIMIT_NOFILE's hard limit, which only a process with
CAP_SYS_RESOURCE may raise (20,000 on the machine of docs/en/developer/performance.md) — and with ``--push`` each tablet's
stream is a socket of its own: 20,000 tablets do not fit in one process. :func:`drive` then deals the tablets
out between the run's process (:class:`Lead`: the arbiter and a share of the tablets) and N − 1 helpers
(``python -m tests.load.fleet FILE``, :class:`Helper`), each running its share as
:class:`~tests.load.tablets.Drive` does (login, polls, stream, slips). They speak in JSON lines, the lead on a
helper's stdin, the helper on its stdout:

- the helper: ``{"ready": true}`` once its tablets' streams are up (the lead waits for it before the quiet
  window and the draw);
- the lead, the round drawn and before he opens it: ``{"round": ID, "moves": [...]}``; the helper:
  ``{"round": ID}`` (its tablets know the round before they see it open);
- the lead, after the publication: ``{"done": true, "published": BOOL}``; the helper, once its tablets show their
  result (30 s at most): ``{"finished": true}`` — the lead reads the round's CPU after it, the helpers still
  running; the helper writes what it measured to its file and says ``{"written": true}``;
- the lead closes the helper's stdin and the helper exits; the lead merges the helpers' figures into its own.

The generator's CPU (``generator`` among the processes of the run) is the lead's and every helper's.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import sys
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from tests.paths import ROOT
from tournament import collector  # no Django: the garbage collector's settings only

from .tablets import Drive, DriveOptions

try:
    import uvloop
except ImportError:  # optional: the asyncio loop does the same, with more of the machine's CPU
    uvloop = None  # type: ignore[assignment]

Message = dict[str, Any]
#: Seconds the lead waits for a helper's word (its tablets logging in and their streams up take minutes).
PATIENCE = 900.0


def run_client(coro: Coroutine[Any, Any, None]) -> None:
    """Runs the simulated tablets on uvloop when it is installed: the load generator shares the machine's
    cores with the server, the less of them it takes the more the figures are the server's. Its garbage
    collector as a web node's (:mod:`tournament.collector`): a generator holding 5,000 streams spent a
    quarter of its CPU in the interpreter's default collections."""
    collector.settle()
    if uvloop is None:
        asyncio.run(coro)
    else:
        uvloop.run(coro)


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of those processes so far (``/proc/<pid>/stat``; 0 for one that is gone)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


def shares(codes: dict[str, str], n: int) -> list[dict[str, str]]:
    """The tables and their codes dealt out to ``n`` processes in turn."""
    tables = sorted(codes, key=int)
    return [{t: codes[t] for t in tables[i::n]} for i in range(n)]


def measured(d: Drive) -> Message:
    """What a helper measured, as JSON (:meth:`Lead.merge` reads it)."""
    return {
        "samples": d.rec.samples, "times": d.rec.times,
        "outcomes": [[ep, o, n] for (ep, o), n in d.rec.outcomes.items()],
        "errors": [[ep, o, n] for (ep, o), n in d.rec.errors.items()],
        "log": d.log, "tokens": d.tokens, "saw_open": d.saw_open, "saw_published": d.saw_published,
        "published_detected": d.published_detected, "events": d.events, "streams_up": d.streams_up,
        "reconnects": d.reconnects, "state_seen": {str(k): v for k, v in d.state_seen.items()},
        "plans_done": d.plans_done,
    }


def say(word: Message) -> None:
    sys.stdout.write(json.dumps(word) + "\n")
    sys.stdout.flush()


class Helper(Drive):
    """A helper's tablets: a :class:`Drive` whose arbiter is the lead, heard on stdin."""

    async def hear(self) -> Message:
        line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        return dict(json.loads(line)) if line.strip() else {"done": True}  # the lead is gone: end

    async def arbiter(self) -> None:
        say({"ready": True})
        word = await self.hear()
        if "round" in word:
            self.round_id, self.moves = word["round"], word.get("moves") or []
            say({"round": self.round_id})
            word = await self.hear()
        if word.get("published"):
            t0 = time.monotonic()
            while len(self.saw_published) < len(self.tokens) and time.monotonic() - t0 < 30:
                await asyncio.sleep(0.1)
        say({"finished": True})
        self.done.set()


class Lead(Drive):
    """The run's own generator with ``helpers`` helper processes: the arbiter and the first share of the tablets;
    after the run, every helper's figures merged into its own (the report reads one :class:`Drive`)."""

    def __init__(self, opts: DriveOptions, setup: dict[str, Any], helpers: int, work_dir: Path) -> None:
        codes = shares(setup["codes"], helpers + 1)
        opts = dataclasses.replace(opts, connections=max(1, opts.connections // (helpers + 1)))
        plain = {f.name: getattr(opts, f.name) for f in dataclasses.fields(opts) if f.name not in ("cpu", "on_open")}
        self.specs = [{"options": {**plain, "quiet": 0.0, "seed": opts.seed + i}, "setup": {"slug": setup["slug"],
                                                                                           "codes": codes[i]}}
                      for i in range(1, helpers + 1)]
        self.work_dir = work_dir
        self.procs: list[asyncio.subprocess.Process] = []
        self.heard_ready = self.told_done = False
        self.round_start = 0.0
        self.quiet_window = (0.0, 0.0)
        cpu = opts.cpu
        if cpu is not None:
            opts = dataclasses.replace(opts, cpu=lambda: self.with_helpers(cpu()))
        super().__init__(opts, {**setup, "codes": codes[0]})

    def with_helpers(self, cpu: dict[str, float]) -> dict[str, float]:
        return {**cpu, "generator": cpu.get("generator", 0.0) + cpu_seconds([p.pid for p in self.procs])}

    def path(self, i: int, suffix: str) -> Path:
        return self.work_dir / f"generator-{i}{suffix}"

    async def start_helpers(self) -> None:
        for i, spec in enumerate(self.specs, 2):
            self.path(i, ".json").write_text(json.dumps({**spec, "result": str(self.path(i, ".result.json"))}))
            with open(self.path(i, ".log"), "ab") as log:
                self.procs.append(await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "tests.load.fleet", str(self.path(i, ".json")), cwd=ROOT,
                    stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=log))

    async def tell(self, word: Message) -> None:
        for proc in self.procs:
            assert proc.stdin is not None
            with contextlib.suppress(ConnectionError):
                proc.stdin.write((json.dumps(word) + "\n").encode())
                await proc.stdin.drain()

    async def hear(self, key: str, timeout: float = PATIENCE) -> None:
        """Every helper's word ``key`` (the words before it passed over); raises when one ended or kept silent."""
        for i, proc in enumerate(self.procs, 2):
            assert proc.stdout is not None
            while True:
                line = await asyncio.wait_for(proc.stdout.readline(), timeout)
                if not line:
                    raise RuntimeError(f"load generator {i} ended: see {self.path(i, '.log')}")
                if key in json.loads(line):
                    break

    async def all_ready(self) -> None:
        if not self.heard_ready:
            await self.hear("ready")
            self.heard_ready = True

    async def login_all(self) -> None:
        await self.start_helpers()
        await super().login_all()

    async def settle(self) -> None:
        await super().settle()
        await self.all_ready()

    async def measure_quiet(self) -> None:
        m0 = time.monotonic()
        await super().measure_quiet()
        self.quiet_window = (m0, time.monotonic())

    async def open(self) -> float:
        await self.tell({"round": self.round_id, "moves": self.moves})
        await self.hear("round")
        return await super().open()

    async def arbiter(self) -> None:
        await self.all_ready()
        self.round_start = time.monotonic()
        await super().arbiter()
        self.told_done = True
        await self.tell({"done": True, "published": self.publish_sent is not None})
        await self.hear("finished", timeout=60)

    async def run(self) -> None:
        try:
            await super().run()
        finally:
            await self.gather()

    async def gather(self) -> None:
        """Ends the helpers (their word "written", then stdin closed) and merges what each measured."""
        if not self.told_done:
            await self.tell({"done": True})
        for i, proc in enumerate(self.procs, 2):
            with contextlib.suppress(TimeoutError, RuntimeError, ValueError):
                await self.hear_one(proc, i)
            assert proc.stdin is not None
            proc.stdin.close()
            try:
                await asyncio.wait_for(proc.wait(), 30)
            except TimeoutError:
                proc.kill()
                await proc.wait()
            result = self.path(i, ".result.json")
            if result.exists():
                self.merge(json.loads(result.read_text()))

    async def hear_one(self, proc: asyncio.subprocess.Process, i: int) -> None:
        assert proc.stdout is not None
        while line := await asyncio.wait_for(proc.stdout.readline(), 120):
            if "written" in json.loads(line):
                return
        raise RuntimeError(f"load generator {i} ended before writing its figures: see {self.path(i, '.log')}")

    def merge(self, m: Message) -> None:
        """A helper's figures added to the lead's (its requests in the quiet and round windows counted too)."""
        q0, q1 = self.quiet_window
        for ep, times in m["times"].items():
            self.rec.times[ep].extend(times)
            self.rec.samples[ep].extend(m["samples"][ep])
            if self.round_cpu:
                self.round_requests[ep] += sum(1 for t in times if self.round_start <= t <= self.end)
            if self.quiet_cpu:
                self.quiet_requests[ep] += sum(1 for t in times if q0 <= t <= q1)
        for ep, o, n in m["outcomes"]:
            self.rec.outcomes[(ep, o)] += n
        for ep, o, n in m["errors"]:
            self.rec.errors[(ep, o)] += n
        self.log.update(m["log"])
        self.tokens.update({int(t): token for t, token in m["tokens"].items()})
        for mine, theirs in ((self.saw_open, m["saw_open"]), (self.saw_published, m["saw_published"]),
                             (self.published_detected, m["published_detected"])):
            mine.update({int(t): when for t, when in theirs.items()})
        self.events.update(m["events"])
        self.streams_up += m["streams_up"]
        self.reconnects.extend((int(t), broke, up) for t, broke, up in m["reconnects"])
        self.state_seen.update(m["state_seen"])
        self.plans_done += m["plans_done"]


def drive(opts: DriveOptions, setup: dict[str, Any], *, generators: int, work_dir: Path) -> Drive:
    """The run's clients: one :class:`Drive`, or a :class:`Lead` with ``generators - 1`` helpers."""
    return Drive(opts, setup) if generators <= 1 else Lead(opts, setup, generators - 1, work_dir)


def main(argv: list[str]) -> None:
    spec = json.loads(Path(argv[0]).read_text())
    helper = Helper(DriveOptions(**spec["options"]), spec["setup"])
    try:
        run_client(helper.run())
    finally:
        Path(spec["result"]).write_text(json.dumps(measured(helper)))
        say({"written": True})
    sys.stdin.read()  # until the lead closes it: the lead reads this process's CPU while it runs


if __name__ == "__main__":
    main(sys.argv[1:])
