"""The solver's instruction counts (``bench_solver --instructions``, valgrind's callgrind).

The baseline tests/bench/solver_instructions.tsv holds, per dev position of shared/bench,
the instructions of one best-move search (scoring/_solver.c ``run_search``) of the code
it was saved with. The slow test counts the first positions of the English set again
and fails when their total grew by more than 5 %; it needs valgrind and the en word
list (``BENCH_WORDLIST_DIR``), and is skipped without them. Counts depend on the
compiler and its flags: a baseline saved on another machine may differ by a few %.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import BENCH, ROOT, run_manage
from tournament.management import callgrind

BASELINE = ROOT / "tests" / "bench" / "solver_instructions.tsv"


def test_the_baseline_holds_every_dev_set():
    rows = callgrind.read_baseline(BASELINE)
    for name in ("en", "ru", "uk", "pl", "pl-literaki"):
        mine = [r for r in rows if r[0] == name]
        assert len(mine) == len((BENCH / f"{name}.dev.txt").read_text(encoding="utf-8").splitlines()), name
        assert all(count > 0 for *_, count in mine)


def test_baseline_rows_are_replaced_per_set_and_compared_on_common_positions(tmp_path):
    path = tmp_path / "b.tsv"
    callgrind.write_baseline(path, "en", [("en", 0, 0, 100), ("en", 1, 2, 300)], "header")
    callgrind.write_baseline(path, "ru", [("ru", 0, 1, 50)], "header")
    callgrind.write_baseline(path, "en", [("en", 0, 0, 110), ("en", 1, 2, 290)], "header")
    rows = callgrind.read_baseline(path)
    assert rows == [("en", 0, 0, 110), ("en", 1, 2, 290), ("ru", 0, 1, 50)]
    assert callgrind.compare(rows, "en", {0: 121}) == (110, 121)
    assert callgrind.compare(rows, "uk", {0: 1}) is None


def bench_english(*args: str):
    """``bench_solver --ruleset en --instructions`` on the English dev positions (skips without valgrind or
    the English list)."""
    if not callgrind.callgrind_available():
        pytest.skip("valgrind is not installed")
    wordlist = Path(os.environ.get("BENCH_WORDLIST_DIR", "/nonexistent")) / "en.txt"
    if not wordlist.is_file():
        pytest.skip("set BENCH_WORDLIST_DIR to the directory holding en.txt (shared/bench/wordlists)")
    result = run_manage("bench_solver", "--ruleset", "en", "--lexicon", str(wordlist), "--positions",
                        str(BENCH / "en.dev.txt"), "--instructions", *args, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return result


@pytest.mark.slow
def test_the_english_dev_positions_cost_no_more_instructions_than_the_baseline():
    result = bench_english("--check", str(BENCH / "en.dev.tops.tsv"), "--limit", "40", "--baseline", str(BASELINE))
    assert "# check: 40/40 top scores right" in result.stdout
    assert " ok" in result.stdout.splitlines()[-2]


@pytest.mark.slow
def test_a_call_costs_few_instructions_outside_the_search():
    """``--call-instructions``: what ``Solver.solve`` costs around the compiled search (Python side and C glue),
    about 6k instructions a call here since tied moves that the answer cuts are ordered in C without being
    made (7k before; 11k with a Python ``solve`` calling the compiled one, 36k before the compiled call made,
    ordered and cut the moves, 45k before the tiles were shared and the notation made lazy)."""
    result = bench_english("--call-instructions", "--limit", "10")
    line = next(x for x in result.stdout.splitlines() if "call_overhead_instr" in x)
    outside = int(line.split("per_call_outside_search=")[1].split()[0])
    assert 1_000 < outside < 8_500, line
