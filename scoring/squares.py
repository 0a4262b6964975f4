"""Naming the squares and coordinates of the board (RULES §2): rows, columns, conventions.

Duplicate convention (default): rows are letters, columns numbers; ``H8`` is horizontal (row H, from
column 8) and ``8H`` vertical (column 8, from row H). Row labels are Latin A–O, or Cyrillic
А Б В Г Д Е Ж З И К Л М Н О П. English convention (option): columns are letters, rows numbers; ``8H``
is horizontal (row 8, from column H) and ``H8`` vertical. Reading coordinates is :mod:`scoring.coords`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

LATIN_ROWS = "ABCDEFGHIJKLMNO"
CYRILLIC_ROWS = "АБВГДЕЖЗИКЛМНОП"


class Convention(StrEnum):
    DUPLICATE = "duplicate"
    ENGLISH = "english"


@dataclass(frozen=True, slots=True, order=True)
class Coord:
    """The first square of a word and its direction (0-based row and column)."""

    row: int
    col: int
    vertical: bool

    def step(self) -> tuple[int, int]:
        return (1, 0) if self.vertical else (0, 1)

    def square(self, i: int) -> tuple[int, int]:
        """The i-th square of the word (0-based)."""
        return (self.row + i, self.col) if self.vertical else (self.row, self.col + i)

    def flipped(self) -> Coord:
        """Same square, other direction."""
        return Coord(self.row, self.col, not self.vertical)

    def transposed(self) -> Coord:
        """Row and column swapped, same direction label."""
        return Coord(self.col, self.row, self.vertical)


def row_label(index: int, cyrillic: bool = False) -> str:
    return (CYRILLIC_ROWS if cyrillic else LATIN_ROWS)[index]


def square_name(row: int, col: int, convention: Convention | str = Convention.DUPLICATE, cyrillic: bool = False) -> str:
    """A square's name: ``H10`` is row H, column 10 (duplicate convention)."""
    if Convention(convention) is Convention.ENGLISH:
        return f"{LATIN_ROWS[col]}{row + 1}"
    return f"{row_label(row, cyrillic)}{col + 1}"


def format_coord(
    coord: Coord, *, convention: Convention | str = Convention.DUPLICATE, cyrillic: bool = False
) -> str:
    """The canonical text of a coordinate: ``H8`` / ``8H`` (or ``З8`` with Cyrillic labels)."""
    if Convention(convention) is Convention.ENGLISH:
        col, row = LATIN_ROWS[coord.col], str(coord.row + 1)
        return f"{col}{row}" if coord.vertical else f"{row}{col}"
    row, col = row_label(coord.row, cyrillic), str(coord.col + 1)
    return f"{col}{row}" if coord.vertical else f"{row}{col}"
