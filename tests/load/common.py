"""What a simulated tablet needs beside its drive (:mod:`tests.load.tablets`): the API's times and versions read as
tablet.js reads them, the arbiter's token, and the record of every request's latency and outcome."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


def parse_time(value: str) -> float:
    """An API timestamp as epoch seconds."""
    return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()


def older_tag(tag: str | None, than: str | None) -> bool:
    """tablet.js ``T.olderTag``: the version in ``tag`` is below the one in ``than`` (both numbered)."""
    a, b = (re.search(r"\d+", t or "") for t in (tag, than))
    return a is not None and b is not None and int(a.group()) < int(b.group())


def split_move(move: str) -> tuple[str, str]:
    """``"H8 WORD"`` → (coordinates, word)."""
    parts = move.split()
    return (parts[0], parts[1]) if len(parts) >= 2 else ("", parts[0] if parts else "")


def arbiter_token(url: str, setup: dict[str, Any], timeout: float = 30) -> str:
    """The arbiter's API token, from his user name and password (``POST /api/arbiter/token/``)."""
    body = json.dumps(setup["arbiter"]).encode()
    req = urllib.request.Request(url + "/api/arbiter/token/", data=body, method="POST",
                                 headers={"Content-Type": "application/json", "Accept": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return str(json.loads(r.read())["token"])


@dataclass
class Recorder:
    """Latency (s) and completion time (monotonic) of every request, per endpoint; outcomes and errors."""

    samples: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    outcomes: Counter[tuple[str, str]] = field(default_factory=Counter)
    errors: Counter[tuple[str, str]] = field(default_factory=Counter)

    def add(self, endpoint: str, started: float, outcome: str, ok: bool) -> None:
        now = time.monotonic()
        self.samples[endpoint].append(now - started)
        self.times[endpoint].append(now)
        self.outcomes[(endpoint, outcome)] += 1
        if not ok:
            self.errors[(endpoint, outcome)] += 1


__all__ = ["Recorder", "arbiter_token", "older_tag", "parse_time", "split_move"]
