"""The solver on the real word lists: every dev position of shared/bench gets its reference top.

The word lists are made by ``shared/bench/wordlists/make_wordlist.py`` (en, ru, uk,
pl; pl-literaki uses pl) into the directory named by ``BENCH_WORDLIST_DIR``; the
test skips a list that is absent. Compiled graphs are cached in the temporary
directory under the list's sha256 (building ru, uk or pl takes seconds).

For each position: the best move's score equals ``top_score`` of
``<rs>.dev.tops.tsv``, and the listed ``top_move`` is among our moves of that
score, and top=1 without ties gives the first of them. The best-N search is also checked against the exhaustive one
(the 3 and the 10 best moves are the first of every legal move), blanks included: with blanks a search keeps to the
spans whose own exact bound reaches the N-th best score, and a span mapped one square wrong fails here.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from scoring.board import Board
from scoring.rules import get_ruleset
from scoring.solver import solver_for
from tests.conftest import BENCH
from tests.tools.solver_baseline import cached_graph

RULESETS = {"en": "en", "ru": "ru", "uk": "uk", "pl": "pl", "pl-literaki": "pl"}


def wordlist(name: str) -> Path:
    folder = os.environ.get("BENCH_WORDLIST_DIR")
    if not folder:
        pytest.skip("set BENCH_WORDLIST_DIR to the directory of the word lists (shared/bench/wordlists/make_wordlist.py)")
    path = Path(folder) / f"{name}.txt"
    if not path.is_file():
        pytest.skip(f"{path} is absent: make it with shared/bench/wordlists/make_wordlist.py {name}")
    return path


def dev_set(ruleset_id: str) -> list[tuple[str, str, int, str]]:
    positions = (BENCH / f"{ruleset_id}.dev.txt").read_text(encoding="utf-8").splitlines()
    tops = (BENCH / f"{ruleset_id}.dev.tops.tsv").read_text(encoding="utf-8").splitlines()
    expected = {}
    for line in tops:
        idx, score, move = line.split("\t")
        expected[int(idx)] = (int(score), move)
    out = []
    for i, line in enumerate(positions):
        fen, rack = line.split()
        out.append((fen, rack, *expected[i]))
    return out


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_dev_positions_get_the_reference_top(ruleset_id):
    path = wordlist(RULESETS[ruleset_id])
    ruleset = get_ruleset(ruleset_id)
    graph = cached_graph(path, ruleset.alphabet)
    solver = solver_for(ruleset, graph)
    wrong = []
    for i, (fen, rack, top_score, top_move) in enumerate(dev_set(ruleset_id)):
        board = Board.from_fen(ruleset, fen)
        result = solver.solve(board, rack, top=1, ties=True, first_vertical=board.is_empty())
        best = result.moves[0] if result.moves else None
        if best is None or best.score != top_score:
            wrong.append(f"#{i} {rack}: ours {best and best.notation()} {best and best.score}, expected {top_score}")
            continue
        if top_move not in {m.notation() for m in result.moves}:
            wrong.append(f"#{i} {rack}: {top_move} ({top_score}) is not among our top moves")
        # top=1 without ties may leave out searches that could only tie the best: the same first move
        one = solver.solve(board, rack, top=1, first_vertical=board.is_empty()).moves
        if [m.notation() for m in one] != [best.notation()]:
            wrong.append(f"#{i} {rack}: top=1 gives {[m.notation() for m in one]}, the first of the ties "
                         f"{best.notation()}")
        every = solver.solve(board, rack).moves
        if board.is_empty():
            every = [m for m in every if not m.coord.vertical]
        for n in (3, 10):
            best_n = [(m.notation(), m.score) for m in solver.solve(board, rack, top=n).moves]
            if best_n != [(m.notation(), m.score) for m in every[:n]]:
                wrong.append(f"#{i} {rack}: the {n} best differ from the exhaustive search")
    assert not wrong, "\n".join(wrong)
