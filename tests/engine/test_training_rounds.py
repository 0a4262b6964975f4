"""Training rounds of a played game (the board before each round) and duplicate GCG records read back."""

from __future__ import annotations

import pytest

from scoring.board import Board
from scoring.game import DuplicateGame
from scoring.records import ReplayError, game_to_gcg
from scoring.training import board_after, read_gcg, training_rounds
from scoring.variants import get_variant
from tests.tools.wordlist_solver import WordListSolver
from tests.tools.world import EN, WORDS

SOLVER = WordListSolver(EN, WORDS)


def _game(seed: int, rounds: int = 5, variant: str | None = None) -> DuplicateGame:
    game = DuplicateGame(EN, seed, variant=get_variant(variant))
    for _ in range(rounds):
        if game.play_round(SOLVER) is None:
            break
    return game


@pytest.mark.parametrize("seed", [1, 2, 7])
def test_each_round_is_played_on_the_board_the_tops_before_it_made(seed):
    game = _game(seed)
    rounds = training_rounds(game)
    assert [r["round"] for r in rounds] == [r.round for r in game.rounds]
    assert rounds[0]["board_before"] == Board(EN).to_fen()
    last = Board.from_fen(EN, rounds[-1]["board_before"])
    assert board_after(last, rounds[-1]["top"]) == game.board  # the rounds lead to the game's board


@pytest.mark.parametrize("seed", [1, 4])
def test_a_duplicate_gcg_reads_back_as_the_same_game(seed):
    game = _game(seed)
    again = read_gcg(game_to_gcg(game))
    assert again.total == game.total and again.board == game.board
    assert [(r.move, r.score, sorted(r.rack)) for r in again.rounds] == [
        (r.move, r.score, sorted(r.rack)) for r in game.rounds
    ]


def test_a_joker_game_puts_the_replaced_letters_on_the_board():
    game = _game(3, rounds=12, variant="joker")
    replaced = [r for r in game.rounds if r.replaced]
    if not replaced:  # pragma: no cover (seed 3 replaces a blank with the small word list)
        pytest.skip("no blank replaced in this game")
    rounds = training_rounds(game)
    last = Board.from_fen(EN, rounds[-1]["board_before"])
    assert board_after(last, rounds[-1]["top"], game.rounds[-1].replaced) == game.board


def test_a_gcg_with_a_wrong_score_names_its_round():
    text = game_to_gcg(_game(2, rounds=3))
    lines = text.splitlines()
    second = [i for i, line in enumerate(lines) if line.startswith(">")][1]
    parts = lines[second].split()
    parts[4] = "+" + str(int(parts[4][1:]) + 1)
    lines[second] = " ".join(parts)
    with pytest.raises(ReplayError) as exc:
        read_gcg("\n".join(lines))
    assert (exc.value.code, exc.value.round) == ("score", 2)


def test_a_gcg_rack_that_the_bag_cannot_give_is_refused():
    text = "#description Duplicate tops; rule set en (English)\n>Top: ZZZZZZZ 8H ZZZ +30 30\n"
    with pytest.raises(ReplayError) as exc:
        read_gcg(text)
    assert exc.value.round == 1
