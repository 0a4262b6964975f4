"""A complete but slow move generator over a small word set: every word tried at every place.

The move generator of the tournament tests (a few dozen words, no compiled graph to build) and a
second opinion for the judge's tests. Words are written in tile letters (upper case, ``'`` for the
Ukrainian apostrophe).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence

from scoring.board import Board, Tile
from scoring.coords import Coord
from scoring.draw import BLANK
from scoring.notation import MoveText
from scoring.placement import Play, evaluate
from scoring.rules import CENTRE, SIZE, RuleSet


class WordListSolver:
    """Every legal move over a (small) set of words, by trying each word at each place.

    Slow but complete (all blank assignments too); for tests and checks. Words
    are written in tile letters (upper case, ``'`` for the Ukrainian apostrophe).
    """

    def __init__(self, ruleset: RuleSet, words: Iterable[str]):
        self.ruleset = ruleset
        self.words = frozenset(w for w in words if len(w) >= 2)
        self._sorted = sorted(self.words)
        self._counts = {w: Counter(w) for w in self._sorted}

    def __call__(self, board: Board, rack: Sequence[str]) -> list[Play]:
        return self.solve(board, rack)

    def solve(self, board: Board, rack: Sequence[str]) -> list[Play]:
        have = Counter(rack)
        blanks = have.pop(BLANK, 0)
        empty = board.is_empty()
        moves: list[Play] = []
        for vertical in (False, True):
            for line in range(SIZE):
                squares = [(i, line) if vertical else (line, i) for i in range(SIZE)]
                cells = [board[sq] for sq in squares]
                letters = [c.letter if c else None for c in cells]
                if empty:
                    if line != CENTRE[0]:
                        continue
                    touch = [False] * SIZE
                else:
                    touch = [
                        cells[i] is None and any(board.occupied(r + dr, c + dc) for dr, dc in
                                                 (((0, -1), (0, 1)) if vertical else ((-1, 0), (1, 0))))
                        for i, (r, c) in enumerate(squares)
                    ]
                    if not any(touch) and all(x is None for x in letters):
                        continue
                on_line = Counter(x for x in letters if x)
                for word in self._sorted:
                    n = len(word)
                    if (self._counts[word] - have - on_line).total() > blanks:
                        continue
                    for s in range(SIZE - n + 1):
                        moves.extend(self._fit(board, word, s, line, vertical, letters, touch, have, blanks, empty))
        return moves

    def _fit(self, board, word, s, line, vertical, letters, touch, have, blanks, empty) -> list[Play]:
        n = len(word)
        if s > 0 and letters[s - 1] is not None:
            return []
        if s + n < SIZE and letters[s + n] is not None:
            return []
        new: list[int] = []
        connected = False
        for i, ch in enumerate(word):
            on = letters[s + i]
            if on is None:
                new.append(i)
                connected = connected or touch[s + i]
            elif on != ch:
                return []
            else:
                connected = True
        if not new or len(new) > self.ruleset.rack_size:
            return []
        if empty:
            if not (s <= CENTRE[1] < s + n) or len(new) < 2:
                return []
        elif not connected:
            return []
        need = Counter(word[i] for i in new)
        deficit = sum(max(0, k - have[ch]) for ch, k in need.items())
        if deficit > blanks:
            return []
        coord = Coord(s, line, True) if vertical else Coord(line, s, False)
        out = []
        for k in range(deficit, min(blanks, len(new)) + 1):
            for chosen in itertools.combinations(new, k):
                as_blank = set(chosen)
                real = Counter(word[i] for i in new if i not in as_blank)
                if real - have:
                    continue
                tiles = tuple(
                    board[coord.square(i)] or Tile(ch, i in as_blank) for i, ch in enumerate(word)
                )
                play = evaluate(board, MoveText(coord, tiles), lexicon=self.words)
                if not play.invalid_words:
                    out.append(play)
        return out
