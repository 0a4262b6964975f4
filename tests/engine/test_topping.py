"""The topping variant's results (scoring.topping) and its place among the variants."""

from __future__ import annotations

import pytest

from scoring.game import DuplicateGame
from scoring.records import game_to_gcg, game_to_json
from scoring.rules import get_ruleset
from scoring.topping import (
    Attempt,
    add_lines,
    elapsed_seconds,
    format_seconds,
    rank_lines,
    round_seconds,
    time_lines,
)
from scoring.variants import TOPPING, get_variant


def test_the_variant_is_data() -> None:
    v = get_variant("topping")
    assert v is TOPPING and v.timed and not v.classic
    assert not v.blank_on_rack and not v.blank_replaced  # racks drawn as classic
    assert v.timeout_penalty == 60


def test_racks_are_drawn_as_classic() -> None:
    rs = get_ruleset("fr")
    for seed in range(20):
        classic, topping = DuplicateGame(rs, seed=seed), DuplicateGame(rs, seed=seed, variant="topping")
        classic.draw()
        topping.draw()
        assert classic.rack == topping.rack
    assert topping.to_json()["variant"] == "topping"
    assert DuplicateGame.from_json(topping.to_json()).variant is TOPPING
    assert game_to_json(topping)["variant"] == "topping"
    assert "#note variant topping: Topping; each player's time to find the top counts" in game_to_gcg(topping)
    assert "variant" not in classic.to_json()


def test_elapsed_whole_seconds() -> None:
    assert elapsed_seconds(1_000, 43_999) == 42
    assert elapsed_seconds(5_000, 4_000) == 0  # a clock step back never gives a negative time


@pytest.mark.parametrize(("topped", "expected"), [(42, 42), (0, 0), (180, 180), (None, 240), (181, 240)])
def test_round_seconds(topped: int | None, expected: int) -> None:
    assert round_seconds(topped, 180, 60) == expected


def test_round_seconds_refuses_negative_settings() -> None:
    with pytest.raises(ValueError):
        round_seconds(10, -1, 60)


def test_lines_totals_ranks_and_ties() -> None:
    limits = {1: 180, 2: 180}
    attempts = [
        Attempt(1, 1, 42, 2), Attempt(1, 2, 30, 1),      # 72
        Attempt(2, 1, 10, 1),                            # 10 + 240 = 250
        Attempt(3, 1, 100, 3), Attempt(3, 2, 150, 1),    # 250, two tops: before player 2
        Attempt(4, 1, None, 5),                          # 480
        Attempt(5, 1, 100, 1), Attempt(5, 2, 150, 1),    # 250, two tops: shares player 3's rank
    ]
    lines = time_lines([5, 4, 3, 2, 1], [1, 2], attempts, limits, 60)
    assert [(x.player, x.total, x.topped, x.rank) for x in lines] == [
        (1, 72, 2, 1), (3, 250, 2, 2), (5, 250, 2, 2), (2, 250, 1, 4), (4, 480, 0, 5)]
    assert lines[0].rounds == {1: 42, 2: 30} and lines[0].attempts == 3
    assert next(x for x in lines if x.player == 4).attempts == 5


def test_tournament_adds_games() -> None:
    g1 = time_lines([1, 2], [1], [Attempt(1, 1, 50), Attempt(2, 1, 20)], {1: 60}, 60)
    g2 = time_lines([1, 2], [2], [Attempt(1, 2, 5)], {2: 60}, 60)
    lines = add_lines([g1, g2])
    assert [(x.player, x.total, x.rank) for x in lines] == [(1, 55, 1), (2, 140, 2)]


def test_rank_lines_empty_and_names() -> None:
    assert rank_lines([]) == []
    lines = time_lines(["b", "a"], [1], [], {1: 60}, 0)
    assert [(x.player, x.rank) for x in lines] == [("a", 1), ("b", 1)]


@pytest.mark.parametrize(("s", "text"), [(0, "0:00"), (42, "0:42"), (725, "12:05"), (3723, "1:02:03"), (-3, "0:00")])
def test_format_seconds(s: int, text: str) -> None:
    assert format_seconds(s) == text


@pytest.fixture(scope="module")
def en_solver(tmp_path_factory):
    """The compiled move generator on the small English list of ``fixtures/lexicons``."""
    from lexicon.graph import WordGraph, build  # noqa: PLC0415 (the graph only for the whole-game tests)
    from scoring.solver import graph_solver  # noqa: PLC0415 (idem)
    from tests.paths import LEXICONS  # noqa: PLC0415 (idem)

    rs = get_ruleset("en")
    path = tmp_path_factory.mktemp("topping") / "en.kwg"
    build((LEXICONS / "sim-en.txt").read_text(encoding="utf-8").split(), rs.alphabet, path)
    return graph_solver(rs, WordGraph.load(path))


@pytest.mark.parametrize("block", range(4))
def test_topping_games_200_seeds_conserve_tiles_and_play_the_classic_racks(en_solver, block: int) -> None:
    """200 whole topping games: the tile invariant every round (bag + rack + board), racks valid (the draw checks
    them), and the same racks, tops and board as the classic game of the same seed (only the results differ)."""
    for seed in range(block * 50, block * 50 + 50):
        topping = DuplicateGame("en", seed, variant="topping").play_out(en_solver, check=True)
        classic = DuplicateGame("en", seed).play_out(en_solver)
        assert [(r.rack, r.move, r.score) for r in topping.rounds] == [
            (r.rack, r.move, r.score) for r in classic.rounds], seed
        assert topping.board.to_fen() == classic.board.to_fen()
        state = topping.to_json()
        assert state["variant"] == "topping" and DuplicateGame.from_json(state).to_json() == state
