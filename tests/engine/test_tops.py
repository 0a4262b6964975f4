"""One top and one tie order: the game, the ``solve`` command and the ranking the tournament stores agree.

Whole games are played with the compiled solver over the fixture word lists; at every round the game's proposed
top (the engine with its real bag), :func:`scoring.tops.ranked_moves` over every legal move with the bag it works
out from the board (what the round's solver task stores and the publication plays) and ``manage.py solve --top``
name the same move, and the moves of top score come in the same order.
"""

from __future__ import annotations

import io
import json
from collections import Counter

import pytest
from django.core.management import call_command

from lexicon.graph import WordGraph, build
from scoring.board import Board
from scoring.game import DuplicateGame
from scoring.rules import get_ruleset
from scoring.solver import solver_for
from scoring.tops import bag_left, rank_tops, ranked_moves
from tests.paths import LEXICONS


@pytest.fixture(scope="module")
def graphs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tops")
    out = {}
    for rs_id in ("ru", "uk", "en", "fr"):
        words = (LEXICONS / f"sim-{rs_id}.txt").read_text(encoding="utf-8").split()
        path = folder / f"{rs_id}.kwg"
        build(words, get_ruleset(rs_id).alphabet, path)
        out[rs_id] = (path, WordGraph.load(path))
    return out


def command_tops(path, board: Board, rack: list[str], n: int) -> list[str]:
    out = io.StringIO()
    call_command("solve", "--ruleset", board.ruleset.id, "--lexicon", str(path), "--board", board.to_fen(),
                 "--rack", "".join(rack), "--top", str(n), "--json", stdout=out)
    return [m["move"] for m in json.loads(out.getvalue())["moves"]]


@pytest.mark.parametrize("rs_id, seed", [("ru", 3), ("uk", 5), ("en", 8), ("fr", 2)])
def test_game_command_and_stored_ranking_agree_on_every_round(graphs, rs_id, seed):
    path, graph = graphs[rs_id]
    rs = get_ruleset(rs_id)
    solver = solver_for(rs, graph)
    game = DuplicateGame(rs, seed)
    rounds = ties_seen = 0
    while not game.over and rounds < 25:
        if game.phase == "draw":
            game.draw()
        everything = solver.solve(game.board, game.rack).moves
        if not game.legal_moves(lambda b, r, moves=everything: moves):
            game.no_move()
            continue
        assert sorted(bag_left(game.board, game.rack)) == sorted(game.bag.tiles())
        engine = [m.notation() for m in game.tops(everything)]
        stored = [m.notation() for m in ranked_moves(game.board, game.rack, everything, limit=50)[:len(engine)]]
        shown = command_tops(path, game.board, game.rack, len(engine))
        assert engine == stored == shown, (rounds, game.board.to_fen(), game.rack)
        ties_seen += len(engine) > 1
        game.play(game.tops(everything)[0])
        rounds += 1
    assert rounds >= 5 and ties_seen, "the games should meet ties among equal scores"


def test_ranked_moves_keeps_whole_groups_of_equal_score(graphs):
    _path, graph = graphs["ru"]
    rs = get_ruleset("ru")
    board = Board(rs)
    moves = solver_for(rs, graph).solve(board, list("ОЕТВРАК")).moves
    scores = [m.score for m in ranked_moves(board, list("ОЕТВРАК"), moves)]
    assert scores == sorted(scores, reverse=True)
    limited = ranked_moves(board, list("ОЕТВРАК"), moves, limit=3)
    assert len(limited) >= 3 and Counter(m.score for m in limited)[limited[-1].score] == scores.count(limited[-1].score)
    tops = rank_tops(board, list("ОЕТВРАК"), moves)
    assert all(m.score == scores[0] for m in tops) and not any(m.coord.vertical for m in tops)
