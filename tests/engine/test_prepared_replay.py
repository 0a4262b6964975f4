"""A game played by the engine, replayed as a prepared game from its racks (what a hall of a simultaneous game
does): the same racks, tops, scores and final board — redrawn rounds included, whose leftover goes back into the
bag before the prepared rack (``-`` before the rack, :data:`scoring.game.PREPARED_REDRAW`)."""

from __future__ import annotations

import pytest

from lexicon.graph import WordGraph, build
from scoring.draw import DrawError
from scoring.game import PREPARED_REDRAW, DuplicateGame
from scoring.records import prepared_text
from scoring.rules import get_ruleset
from scoring.solver import graph_solver
from tests.paths import LEXICONS

EN = get_ruleset("en")


@pytest.fixture(scope="module")
def solve(tmp_path_factory):
    path = tmp_path_factory.mktemp("graph") / "sim-en.kwg"
    build((LEXICONS / "sim-en.txt").read_text().split(), EN.alphabet, path)
    return graph_solver(EN, WordGraph.load(path))


@pytest.mark.parametrize(("seed", "variant"), [(7, "classic"), (1, "joker")])
def test_a_game_replays_from_its_prepared_racks(solve, seed, variant):
    played = DuplicateGame(EN, seed, variant=variant).play_out(solve, check=True)
    racks = [prepared_text(r) for r in played.rounds]
    if variant == "classic":  # seed 7: round 4's rack UEEU+… is redrawn, its leftover goes back
        assert any(t.startswith(PREPARED_REDRAW) for t in racks), racks
    replay = DuplicateGame(EN, 12345, prepared=racks, variant=variant)
    while not replay.over:
        replay.play_round(solve)
        replay.check_invariant()
    assert [(r.rack, r.move, r.score) for r in replay.rounds] == [(r.rack, r.move, r.score) for r in played.rounds]
    assert replay.board.to_fen() == played.board.to_fen() and replay.end_reason == played.end_reason


def test_without_the_mark_a_redrawn_rack_is_refused(solve):
    played = DuplicateGame(EN, 7).play_out(solve)
    racks = [prepared_text(r) for r in played.rounds]
    first = next(i for i, t in enumerate(racks) if t.startswith(PREPARED_REDRAW))
    racks[first] = racks[first][len(PREPARED_REDRAW):]
    replay = DuplicateGame(EN, 7, prepared=racks)
    with pytest.raises(DrawError) as refused:
        for _ in range(first + 1):
            replay.play_round(solve)
    assert refused.value.code == "leftover_missing"
