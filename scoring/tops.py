"""The top of a round and its tie order (RULES §4): the one place where moves are ranked.

The top is a legal move of the highest score; on the empty board only
horizontal moves are offered (the first move is placed horizontally; the board
is symmetric, so nothing is lost). Among moves of equal top score the system
proposes, in this order:

1. a move after which the game is over (:func:`end_reason` of the tiles left:
   rack leftover + bag; "no legal move" cannot be known in advance and is not
   counted);
2. fewer blanks played (so a move without blank comes first);
3. the better leftover balance: the smaller *imbalance* of the tiles left on
   the rack, ``max(0, |vowels − consonants| − blanks)`` (a blank can even the
   balance either way; the Ukrainian apostrophe counts as neither);
4. the word, alphabetically in the rule set's letter order;
5. the coordinates: row, then column, then horizontal before vertical
   (and, last, blanks placed later in the word first, so the order is total).

The bag needs no telling: in duplicate play the board, the rack and the bag
always make the full tile set, so the bag is what the board and the rack leave
(:func:`bag_left`). The ``solve`` command, the solver task of a round and the
publication therefore rank the same moves the same way on every position.

The end of the game (:func:`end_reason`) is checked on the tiles left (rack
leftover + bag) after each move: ``bag_and_rack_empty``; ``one_tile_left``;
``no_vowel`` / ``no_consonant`` — unless a blank is among 2 or more tiles left.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TypeVar

from .board import Board
from .draw import BLANK, Makeup
from .moves import Move, blanks_of, used_tiles
from .rules import RuleSet

END_REASONS = {
    "bag_and_rack_empty": "the bag and the rack are empty",
    "one_tile_left": "one tile is left",
    "no_vowel": "the tiles left contain no vowel",
    "no_consonant": "the tiles left contain no consonant",
    "no_move": "no legal move and no other rack can be drawn",
}

TopKey = tuple[bool, int, int, tuple[int, ...], tuple[int, int, bool], tuple[bool, ...]]
M = TypeVar("M", bound=Move)


def subtract(rack: Iterable[str], used: Iterable[str]) -> list[str]:
    """The rack without the used tiles, in rack order."""
    left = list(rack)
    for t in used:
        left.remove(t)
    return left


def bag_left(board: Board, rack: Sequence[str]) -> list[str]:
    """The tiles in the bag: the full set without the board's tiles and the rack."""
    on_board = Counter(BLANK if t.blank else t.letter for _, _, t in board.tiles())
    left = Counter(board.ruleset.full_bag()) - on_board - Counter(rack)
    return sorted(left.elements())


def end_reason(ruleset: RuleSet, tiles_left: Iterable[str]) -> str | None:
    """Why the game is over with these tiles left (rack + bag), or None to go on."""
    tiles = list(tiles_left)
    if not tiles:
        return "bag_and_rack_empty"
    if len(tiles) == 1:
        return "one_tile_left"
    if BLANK in tiles:
        return None
    if not any(ruleset.is_vowel(t) for t in tiles):
        return "no_vowel"
    if not any(ruleset.is_consonant(t) for t in tiles):
        return "no_consonant"
    return None


def leftover_imbalance(ruleset: RuleSet, leftover: Iterable[str]) -> int:
    """``max(0, |vowels − consonants| − blanks)`` of the tiles kept on the rack (0 is best)."""
    mk = Makeup.of(ruleset, leftover)
    return max(0, abs(mk.vowels - mk.consonants) - mk.blanks)


def top_key(ruleset: RuleSet, rack: Sequence[str], bag_tiles: Sequence[str], move: Move) -> TopKey:
    """Sort key of a move among moves of equal score (see the module doc)."""
    leftover = subtract(rack, used_tiles(move))
    ends = end_reason(ruleset, leftover + list(bag_tiles)) is not None
    word = tuple(ruleset.code(t.letter) for t in move.tiles)
    coord = move.coord
    return (
        not ends,
        blanks_of(move),
        leftover_imbalance(ruleset, leftover),
        word,
        (coord.row, coord.col, coord.vertical),
        tuple(t.blank for t in move.tiles),
    )


def offered_moves(board: Board, moves: Iterable[M]) -> list[M]:
    """The moves the game offers: on the empty board only horizontal ones."""
    if board.is_empty():
        return [m for m in moves if not m.coord.vertical]
    return list(moves)


def ranked_moves(
    board: Board,
    rack: Sequence[str],
    moves: Iterable[M],
    bag_tiles: Sequence[str] | None = None,
    *,
    limit: int | None = None,
) -> list[M]:
    """The offered moves, best first: by score, and moves of equal score in the order of the top
    (the first move is the proposed top, the other moves of top score follow in their order).

    ``limit``: at least this many moves (whole groups of equal score), so that ranking the
    best 50 of 100,000 moves orders only the groups it keeps.
    """
    offered = sorted(offered_moves(board, moves), key=lambda m: -m.score)
    bag = bag_left(board, rack) if bag_tiles is None else list(bag_tiles)
    ruleset = board.ruleset
    out: list[M] = []
    i = 0
    while i < len(offered) and (limit is None or len(out) < limit):
        j = i
        while j < len(offered) and offered[j].score == offered[i].score:
            j += 1
        out.extend(sorted(offered[i:j], key=lambda m: top_key(ruleset, rack, bag, m)))
        i = j
    return out


def rank_tops(
    board: Board, rack: Sequence[str], moves: Iterable[M], bag_tiles: Sequence[str] | None = None
) -> list[M]:
    """The moves of top score, the proposed top first (empty when no move is offered)."""
    return ranked_moves(board, rack, moves, bag_tiles, limit=1)


__all__ = [
    "END_REASONS",
    "bag_left",
    "end_reason",
    "leftover_imbalance",
    "offered_moves",
    "rank_tops",
    "ranked_moves",
    "subtract",
    "top_key",
]
