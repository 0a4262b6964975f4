"""Issue 35 item 6, measured: a 30,000-line CSV import run by the worker (a process of its own, as in the hall)
while another tournament's tablets hand in slips. Each batch holds the database's write lock a few
milliseconds, so the slips' p95 stays near the p95 of the same slips measured just before in the same test
(a generous factor: the 2-core machine is shared), no slip gets a 5xx and none is lost.

``-s`` prints the figures."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from tests.paths import ROOT
from tests.tools.api import Hall, ok
from tests.tools.world import PREPARED
from tournament import services
from tournament.models import Slip
from tournament.services import playerimport

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("local_cache")]
ROWS = 30_000
WORDS = ["H8 CAT 10", "H8 CATS 12", "H8 COAT 12", "H8 ACT 10"]


def database_url() -> str:
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}:{db.get('PASSWORD') or ''}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def send_slips(hall: Hall, count: int, start: int, statuses: list[int]) -> list[float]:
    took = []
    for n in range(start, start + count):
        began = time.perf_counter()
        answer = hall.send(n % 30, WORDS[n % len(WORDS)], key=f"slip-{n}")
        took.append(time.perf_counter() - began)
        statuses.append(answer.status_code)
    return took


def test_slips_keep_their_p95_during_a_30000_line_import(alice, tournament, eager, settings):
    hall = Hall(alice, tournament)
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    other = services.tournaments.create_tournament(alice, name="Other hall", slug="other-hall", ruleset="en",
                                                   lexicon=tournament.lexicon, arbiters=[alice])
    rows = [playerimport.Row(name=f"Imported {i:05d}", club=f"Club {i % 50}", category="", series="", licence="")
            for i in range(ROWS)]
    job = playerimport.start(alice, other, rows)

    statuses: list[int] = []
    send_slips(hall, 30, 0, statuses)  # warm up: every tablet's first slip
    baseline = send_slips(hall, 120, 30, statuses)

    env = {**os.environ, "DATABASE_URL": database_url(), "DJANGO_SETTINGS_MODULE": "tournament.settings"}
    script = ("import django; django.setup(); from tournament.services import playerimport;"
              f"print(playerimport.run({job!r})['status'])")
    started = time.perf_counter()
    worker = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    during: list[float] = []
    sent = 150
    while worker.poll() is None:
        during += send_slips(hall, 10, sent, statuses)
        sent += 10
    import_seconds = time.perf_counter() - started
    out, err = worker.communicate()
    assert worker.returncode == 0 and out.strip().endswith("done"), err[-2000:]
    assert other.registrations.count() == ROWS

    base95, during95 = p95(baseline), p95(during)
    print(f"\nslips p95 {base95 * 1000:.0f} ms before, {during95 * 1000:.0f} ms during the import "
          f"({len(during)} slips; max {max(during) * 1000:.0f} ms); import of {ROWS:,} lines: {import_seconds:.1f} s")
    assert len(during) >= 20, "the import ended before the slips could be measured beside it"
    assert all(200 <= s < 300 for s in statuses), sorted(set(statuses))
    assert during95 <= max(4 * base95, base95 + 0.25), (base95, during95)
    # no slip lost: every tablet's last slip is the one stored
    stored = {s.registration.table_number: s.word for s in Slip.objects.filter(round=rnd).select_related("registration")}
    assert len(stored) == 30
    ok(hall.tablets[0].get("/api/tablet/state/"))
    (Path(settings.VAR_DIR) / "imports" / f"{job}.state.json").unlink()  # the job's state, kept for its page
