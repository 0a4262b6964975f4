"""Fault test: the whole-day soak (``python -m tests.load --day``, :mod:`tests.load.day`) in small, on the embedded
default: 20 players, 2 games × 3 rounds of 3 s, tablets and paper slips, a correction, every PDF after each game,
automatic backups, a 2-s laptop sleep (SIGSTOP of the web server and the worker). Nothing is lost, duplicated
or logged as an error, memory and sizes stay flat from the first game to the last, and it did all it says it
does. Its latencies are not judged: 60-odd slips a game make a p95 that a shared machine's other jobs decide
alone (209 → 792 ms in one run at load 10).
1.5 minutes on a quiet machine (2:48 beside two whole-day runs at load ≈ 6); the whole day (1,000 players, 4 × 20 rounds of 20 s, a 60-s sleep) is a benchmark, run by
hand (docs/en/operator/commands.md, "A whole day")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.load import day as day_module
from tests.paths import ROOT

pytestmark = pytest.mark.faults

#: The growth lines of the latencies (tests.load.dayreport.growth).
LATENCIES = ("slips_p95_ms:", "open_to_rack_max_s:", "publication_to_result_max_s:")


def test_a_short_day_on_the_embedded_default_stays_flat_and_loses_nothing(tmp_path: Path):
    figures = tmp_path / "day.json"
    proc = subprocess.run([sys.executable, "-m", "tests.load", "--day", "--embedded", "--players", "20", "--games", "2",
                           "--rounds", "3", "--seconds", "3", "--grace", "2", "--sleep", "2", "--correct-every", "2",
                           "--dir", str(tmp_path), "--json", str(figures)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    print(proc.stdout[-3000:], proc.stderr[-3000:])
    assert figures.exists(), proc.stdout[-3000:] + proc.stderr[-3000:]
    day = json.loads(figures.read_text())
    assert [f for f in day["failures"] if not f.startswith(LATENCIES)] == []
    assert [g["rounds"] for g in day["games"]] == [3, 3]
    checks = day["checks"]
    assert checks["lost"] == checks["duplicated"] == 0
    assert checks["paper"] == 6  # table 20 of 20 on paper, 6 rounds
    assert checks["acknowledged"] > 0 and day["corrections"] == 2
    assert [[p["kind"] for p in g["pdfs"]] for g in day["games"]] == [list(day_module.DOCUMENTS)] * 2
    assert day["slept"]["answered"] and day["slept"]["game"] == 1
    assert all(g["backups"]["archives"] >= 3 and g["backups"]["lexicons"] == 1 for g in day["games"])

