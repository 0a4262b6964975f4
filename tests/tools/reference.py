"""A reference move generator in plain Python: slow, and simple enough to trust by reading.

It is the oracle of the compiled solver's tests (``tests/engine/test_solver.py``):
for every row and column, every span of squares (start, end), every way to
fill the span's empty squares from the rack (each blank as every letter), the
written move is checked and scored by :func:`scoring.placement.evaluate` and
kept when every word it forms is in the word set. Two shortcuts keep it usable
on small lexicons, both plain necessary conditions:

* a span is skipped when it cannot be legal at all: on the empty board it must
  cover the centre, later it must touch a tile or go through one
  (RULES §3; ``evaluate`` checks the same again);
* a filling stops as soon as the letters written so far are not the beginning
  of any word of the set.

The rule set is the board's: a 7-among-8 board (``scoring.variants``) takes racks of 8, and
``evaluate`` refuses a move of more than 7 tiles and gives the bonus to a move of 7.

Only for small word sets and tests: a position takes from a fraction of a
second to a few seconds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator

from scoring.board import Board, Tile
from scoring.coords import Coord
from scoring.notation import MoveText, parse_rack
from scoring.placement import IllegalMove, evaluate
from scoring.rules import CENTRE, SIZE


def reference_moves(
    board: Board,
    rack: str | Iterable[str],
    words: Iterable[str],
    *,
    first_vertical: bool = True,
) -> dict[str, int]:
    """Every legal move of ``rack`` on ``board``: its notation (``H8 WORD``) → its score.

    ``words``: the lexicon, upper-case words. ``first_vertical``: on the empty
    board, also the vertical moves.
    """
    ruleset = board.ruleset
    tiles = parse_rack(rack, ruleset) if isinstance(rack, str) else list(rack)
    lexicon = set(words)
    prefixes = {w[:i] for w in lexicon for i in range(1, len(w) + 1)}
    empty_board = board.is_empty()
    found: dict[str, int] = {}
    for vertical in (False, True):
        if vertical and empty_board and not first_vertical:
            continue
        for line in range(SIZE):
            for start in range(SIZE):
                for end in range(start + 1, SIZE):
                    coord = Coord(line, start, False) if not vertical else Coord(start, line, True)
                    squares = [coord.square(i) for i in range(end - start + 1)]
                    if not _may_be_legal(board, squares, empty_board):
                        continue
                    empties = sum(1 for sq in squares if board[sq] is None)
                    if empties == 0 or empties > min(len(tiles), ruleset.move_tiles):
                        continue
                    for word in _fillings(board, squares, Counter(tiles), ruleset.letters, prefixes):
                        move = MoveText(coord, tuple(word))
                        try:
                            play = evaluate(board, move, rack=tiles, lexicon=lexicon)
                        except IllegalMove:
                            continue
                        if play.invalid_words:
                            continue
                        found[play.notation()] = play.score
    return found


def _may_be_legal(board: Board, squares: list[tuple[int, int]], empty_board: bool) -> bool:
    """A necessary condition: covers the centre (empty board) or touches / contains a tile."""
    if empty_board:
        return CENTRE in squares
    for r, c in squares:
        if board[r, c] is not None:
            return True
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if board.occupied(r + dr, c + dc):
                return True
    return False


def _fillings(
    board: Board,
    squares: list[tuple[int, int]],
    rack: Counter,
    letters: tuple[str, ...],
    prefixes: set[str],
    done: tuple[Tile, ...] = (),
) -> Iterator[list[Tile]]:
    """Every way to write the span's word: board tiles as they are, empty squares from the rack."""
    if len(done) == len(squares):
        yield list(done)
        return
    written = "".join(t.letter for t in done)
    on_board = board[squares[len(done)]]
    if on_board is not None:
        choices = [(on_board, None)]
    else:
        choices = [(Tile(t), t) for t in sorted(rack) if t != "?" and rack[t] > 0]
        if rack["?"] > 0:
            choices += [(Tile(letter, True), "?") for letter in letters]
    for tile, used in choices:
        if written + tile.letter not in prefixes:
            continue
        if used is not None:
            rack[used] -= 1
        yield from _fillings(board, squares, rack, letters, prefixes, done + (tile,))
        if used is not None:
            rack[used] += 1
