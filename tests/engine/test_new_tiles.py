"""How many tiles a written word puts on a board: at its place, and the fewest wherever it lies (a slip placing
more than a move may is refused before it is stored, docs/en/rules/7among8.md)."""

from __future__ import annotations

from scoring.board import Board
from scoring.coords import Coord
from scoring.notation import parse_move
from scoring.placement import apply, evaluate, fewest_new_tiles, new_tiles_at
from scoring.rules import get_ruleset

EN = get_ruleset("en")


def board_with(*moves: str) -> Board:
    board = Board(EN)
    for text in moves:
        board = apply(board, evaluate(board, parse_move(text, EN)))
    return board


def test_on_an_empty_board_every_letter_is_a_tile():
    assert fewest_new_tiles(Board(EN), list("STAINERS")) == 8
    assert new_tiles_at(Board(EN), Coord(7, 3, False), list("STAINERS")) == 8


def test_letters_already_on_the_board_are_not_tiles_placed():
    board = board_with("H8 CAT")  # C H8, A H9, T H10
    # RATTLERS down from F10: its first T is the board's (H10), 7 tiles placed
    assert new_tiles_at(board, Coord(5, 9, True), list("RATTLERS")) == 7
    # the same word across row A: every letter a tile
    assert new_tiles_at(board, Coord(0, 0, False), list("RATTLERS")) == 8
    # where a board letter differs, or off the board, the word does not lie
    assert new_tiles_at(board, Coord(6, 9, True), list("RATTLERS")) is None  # its A on the board's T
    assert new_tiles_at(board, Coord(0, 10, False), list("RATTLERS")) is None  # off the board
    assert fewest_new_tiles(board, list("RATTLERS")) == 7
    # a word that meets none of the board's letters places all of them wherever it goes
    assert fewest_new_tiles(board, list("BOOMBOXY")) == 8
