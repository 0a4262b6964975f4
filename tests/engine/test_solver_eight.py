"""The compiled solver on racks of 8 (the 7-among-8 variant: a move places at most 7 tiles, the bonus
is for 7) against the plain-Python reference generator (``tests/tools/reference.py``).

Two sets of positions: random small lexicons with long words (so that moves of 7 tiles out of 8
exist) compared move by move, and 24 positions (``EIGHT_POSITIONS``) of 7-among-8 games over the fixtures' ``sim-en``
list (3,000 English words; the reference is far too slow for a whole list) compared on the top.
"""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path

import pytest

from lexicon.graph import WordGraph, build
from scoring.board import Board
from scoring.game import DuplicateGame
from scoring.notation import parse_move
from scoring.placement import apply, evaluate
from scoring.solver import SolverError, solve, solver_for
from scoring.variants import variant_ruleset
from tests.paths import LEXICONS
from tests.tools.reference import reference_moves

_TMP = tempfile.TemporaryDirectory(prefix="solver-eight-")
LETTERS = {"en": "AEST", "ru": "АОЁЩ"}


def _graph(words: list[str], rs_id: str, name: str) -> WordGraph:
    path = Path(_TMP.name) / f"{name}.kwg"
    build(sorted(set(words)), variant_ruleset(rs_id, "7among8").alphabet, path)
    return WordGraph.load(path)


def _ordered(found: dict[str, int]) -> list[tuple[str, int]]:
    return sorted(found.items(), key=lambda kv: (-kv[1], kv[0]))


@pytest.mark.parametrize("rs_id", sorted(LETTERS))
@pytest.mark.parametrize("seed", range(6))
def test_racks_of_eight_equal_the_reference(rs_id: str, seed: int) -> None:
    rnd = random.Random(seed)
    letters = LETTERS[rs_id]
    rs = variant_ruleset(rs_id, "7among8")
    words = sorted(
        {"".join(rnd.choice(letters) for _ in range(rnd.randint(2, 9))) for _ in range(rnd.randint(60, 120))}
    )
    graph = _graph(words, rs_id, f"{rs_id}{seed}")
    board = Board(rs)
    for _ in range(rnd.randint(0, 4)):
        moves = solve(board, "".join(rnd.choice(letters) for _ in range(8)), graph).moves
        if moves:
            board = apply(board, evaluate(board, parse_move(rnd.choice(moves).notation(), rs)))
    blanks = rnd.choice((0, 0, 1, 2))
    rack = "?" * blanks + "".join(rnd.choice(letters) for _ in range(8 - blanks))
    expected = reference_moves(board, rack, words)
    result = solve(board, rack, graph, count_all=True)
    found = {m.notation(): m.score for m in result.moves}
    assert found == expected, (board.to_fen(), rack)
    assert all(m.tiles_placed <= 7 for m in result.moves)
    for n in (1, 5):
        top = solve(board, rack, graph, top=n, first_vertical=True)
        assert [(m.notation(), m.score) for m in top.moves] == _ordered(expected)[:n], (board.to_fen(), rack)


def test_some_random_positions_have_bonus_moves() -> None:
    """The random positions above do reach moves of 7 tiles (else they would not test the bonus)."""
    rs = variant_ruleset("en", "7among8")
    words = ["SEATEST", "TEASETS", "EASTS", "SATES"]
    graph = _graph(words, "en", "bonus")
    moves = solve(Board(rs), "SEATESTA", graph, count_all=True).moves
    sevens = [m for m in moves if m.tiles_placed == 7]
    assert sevens and all(m.score == evaluate(Board(rs), parse_move(m.notation(), rs)).score for m in sevens)
    assert all(m.score >= 50 for m in sevens) and not any(m.tiles_placed == 8 for m in moves)


#: Game positions compared with the reference: 24 in CI (the reference tries every filling of a blank: about 3 s a
#: position); ``EIGHT_POSITIONS=120`` for a longer run (about 6 minutes).
POSITIONS = int(os.environ.get("EIGHT_POSITIONS", "24"))


@pytest.mark.slow
def test_tops_of_game_positions_equal_the_reference() -> None:
    words = (LEXICONS / "sim-en.txt").read_text(encoding="utf-8").split()
    rs = variant_ruleset("en", "7among8")
    graph = _graph(words, "en", "real")
    solver = solver_for(rs, graph)
    rnd = random.Random(8)
    positions: list[tuple[Board, list[str]]] = []
    seed = 0
    while len(positions) < POSITIONS:
        game = DuplicateGame("en", seed, variant="7among8")
        seed += 1
        pick = set(rnd.sample(range(1, 25), 6))
        while not game.over and len(positions) < POSITIONS:
            if game.phase == "draw":
                game.draw()
            rack = list(game.on_stand())
            if game.round_no in pick and len(rack) == 8:
                positions.append((game.board.copy(), rack))
            moves = game.legal_moves(lambda b, r: solver.solve(b, r, top=1, ties=True).moves)
            if not moves:
                game.no_move()
            else:
                game.play(game.tops(moves)[0])
    lexicon = [w for w in words if len(w) <= 15]
    for board, rack in positions:
        expected = reference_moves(board, rack, lexicon, first_vertical=False)
        best = max(expected.values(), default=None)
        tops = solver.solve(board, rack, top=1, ties=True).moves
        got = {m.notation(): m.score for m in tops}
        want = {k: v for k, v in expected.items() if v == best}
        assert got == want, (board.to_fen(), "".join(rack))
    assert len(positions) == POSITIONS


def test_a_classic_solver_refuses_a_board_of_eight() -> None:
    words = ["SEATEST"]
    graph = _graph(words, "en", "refuse")
    classic = solver_for(variant_ruleset("en", None), graph)
    with pytest.raises(SolverError):
        classic.solve(Board(variant_ruleset("en", "7among8")), "SEATESTA")
