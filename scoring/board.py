"""The 15×15 board and its FEN form (``shared/bench/README.md``).

FEN: the 15 rows from top to bottom joined by ``/``; in a row a number is a run
of empty squares, an upper-case letter a tile, a lower-case letter a blank
standing for that letter; ``*`` is a blank standing for the Ukrainian apostrophe.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .rules import BLANK_APOSTROPHE, SIZE, RuleSet

DIGITS = "0123456789"


class BoardError(ValueError):
    """A board that cannot be read, with the reason."""


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile on the board: its letter (upper case) and whether it is a blank."""

    letter: str
    blank: bool = False

    def fen(self) -> str:
        if not self.blank:
            return self.letter
        return BLANK_APOSTROPHE if self.letter == "'" else self.letter.lower()

    def __str__(self) -> str:
        return self.fen()


class Board:
    """A position: which square holds which tile."""

    __slots__ = ("ruleset", "_cells")

    def __init__(self, ruleset: RuleSet, cells: list[list[Tile | None]] | None = None):
        self.ruleset = ruleset
        self._cells: list[list[Tile | None]] = (
            [row[:] for row in cells] if cells is not None else [[None] * SIZE for _ in range(SIZE)]
        )

    # -- access ----------------------------------------------------------------
    def __getitem__(self, rc: tuple[int, int]) -> Tile | None:
        r, c = rc
        return self._cells[r][c]

    def __setitem__(self, rc: tuple[int, int], tile: Tile | None) -> None:
        r, c = rc
        self._cells[r][c] = tile

    def tile(self, row: int, col: int) -> Tile | None:
        if 0 <= row < SIZE and 0 <= col < SIZE:
            return self._cells[row][col]
        return None

    def occupied(self, row: int, col: int) -> bool:
        return 0 <= row < SIZE and 0 <= col < SIZE and self._cells[row][col] is not None

    def is_empty(self) -> bool:
        return all(cell is None for row in self._cells for cell in row)

    def tiles(self) -> Iterator[tuple[int, int, Tile]]:
        for r, row in enumerate(self._cells):
            for c, cell in enumerate(row):
                if cell is not None:
                    yield r, c, cell

    def tile_count(self) -> int:
        return sum(1 for _ in self.tiles())

    def copy(self) -> Board:
        return Board(self.ruleset, self._cells)

    def rows(self) -> list[list[Tile | None]]:
        return [row[:] for row in self._cells]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and other.ruleset.id == self.ruleset.id and other._cells == self._cells

    def __repr__(self) -> str:
        return f"Board({self.ruleset.id!r}, {self.to_fen()!r})"

    # -- FEN -------------------------------------------------------------------
    def to_fen(self) -> str:
        parts = []
        for row in self._cells:
            out, run = [], 0
            for cell in row:
                if cell is None:
                    run += 1
                    continue
                if run:
                    out.append(str(run))
                    run = 0
                out.append(cell.fen())
            if run:
                out.append(str(run))
            parts.append("".join(out))
        return "/".join(parts)

    @classmethod
    def from_fen(cls, ruleset: RuleSet, fen: str | None) -> Board:
        """Read a FEN; an empty string or None is the empty board."""
        board = cls(ruleset)
        if fen is None or not fen.strip():
            return board
        rows = fen.strip().split("/")
        if len(rows) != SIZE:
            raise BoardError(f"a board has {SIZE} rows separated by '/', this one has {len(rows)}")
        for r, text in enumerate(rows):
            c = 0
            i = 0
            while i < len(text):
                ch = text[i]
                if ch in DIGITS:
                    j = i
                    while j < len(text) and text[j] in DIGITS:
                        j += 1
                    run = int(text[i:j])
                    if run == 0:
                        raise BoardError(f"row {r + 1}: an empty run of 0 squares")
                    c += run
                    i = j
                    if c > SIZE:
                        raise BoardError(f"row {r + 1} is longer than {SIZE} squares")
                    continue
                if c >= SIZE:
                    raise BoardError(f"row {r + 1} is longer than {SIZE} squares")
                board._cells[r][c] = _tile_from_fen(ruleset, ch, r)
                c += 1
                i += 1
            if c != SIZE:
                raise BoardError(f"row {r + 1} has {c} squares instead of {SIZE}")
        return board


#: one shared (immutable) :class:`Tile` per letter and blank flag: boards read from FEN hold the same
#: objects, which the solver recognises by address without reading their fields (``_solver.c`` tile cache)
_SHARED_TILES: dict[tuple[str, bool], Tile] = {}


def shared_tile(letter: str, blank: bool = False) -> Tile:
    """The shared :class:`Tile` of ``letter`` (a blank if ``blank``): equal to ``Tile(letter, blank)``."""
    key = (letter, blank)
    tile = _SHARED_TILES.get(key)
    if tile is None:
        tile = _SHARED_TILES[key] = Tile(letter, blank)
    return tile


def _tile_from_fen(ruleset: RuleSet, ch: str, r: int) -> Tile:
    if ch == BLANK_APOSTROPHE:
        if ruleset.is_letter("'"):
            return shared_tile("'", True)
        raise BoardError(f"row {r + 1}: '*' (a blank apostrophe) does not exist in the {ruleset.id} set")
    if ruleset.is_letter(ch):
        return shared_tile(ch, False)
    up = ch.upper()
    if up != ch and ruleset.is_letter(up):
        return shared_tile(up, True)
    raise BoardError(f"row {r + 1}: «{ch}» is not a tile of the {ruleset.id} set")
