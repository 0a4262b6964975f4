"""Coordinates of a move (RULES §2).

Duplicate convention (default): rows are letters, columns numbers; ``H8`` is
horizontal (row H, from column 8) and ``8H`` vertical (column 8, from row H).
Row labels are Latin A–O; Cyrillic rule sets also take А Б В Г Д Е Ж З И К Л М Н О П.
English convention (option): columns are letters, rows numbers; ``8H`` is
horizontal (row 8, from column H) and ``H8`` vertical.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from .rules import SIZE

LATIN_ROWS = "ABCDEFGHIJKLMNO"
CYRILLIC_ROWS = "АБВГДЕЖЗИКЛМНОП"


class Convention(StrEnum):
    DUPLICATE = "duplicate"
    ENGLISH = "english"


class CoordError(ValueError):
    """Coordinates that cannot be read, with the reason."""

    def __init__(self, message: str, code: str = "bad_coordinates"):
        super().__init__(message)
        self.code = code


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


_COORD_RE = re.compile(r"^(?:(?P<l1>[^\W\d_])\s?(?P<n1>\d{1,2})|(?P<n2>\d{1,2})\s?(?P<l2>[^\W\d_]))$")


def row_label(index: int, cyrillic: bool = False) -> str:
    return (CYRILLIC_ROWS if cyrillic else LATIN_ROWS)[index]


def square_name(row: int, col: int, convention: Convention | str = Convention.DUPLICATE, cyrillic: bool = False) -> str:
    """A square's name: ``H10`` is row H, column 10 (duplicate convention)."""
    if Convention(convention) is Convention.ENGLISH:
        return f"{LATIN_ROWS[col]}{row + 1}"
    return f"{row_label(row, cyrillic)}{col + 1}"


def _letter_index(letter: str, allow_cyrillic: bool, what: str) -> int:
    up = letter.upper()
    if up in LATIN_ROWS:
        return LATIN_ROWS.index(up)
    if allow_cyrillic and up in CYRILLIC_ROWS:
        return CYRILLIC_ROWS.index(up)
    labels = "A–O" + (" or А–П (without Ё and Й)" if allow_cyrillic else "")
    raise CoordError(f"unknown {what} label «{letter}»: {what}s are {labels}", "unknown_row")


def parse_coord(
    text: str, *, cyrillic: bool = True, convention: Convention | str = Convention.DUPLICATE
) -> Coord:
    """Read ``H8``, ``8H``, ``h 8``, ``З8`` … into a :class:`Coord`.

    ``cyrillic`` allows the Cyrillic row labels (for Cyrillic rule sets).
    Raises :class:`CoordError` with a human message on anything else.
    """
    if not isinstance(text, str):
        raise CoordError("coordinates must be text such as H8 or 8H")
    cleaned = text.strip()
    if not cleaned:
        raise CoordError("coordinates are missing (for example H8 or 8H)", "missing_coordinates")
    m = _COORD_RE.match(cleaned)
    if not m:
        raise CoordError(
            f"«{cleaned}» is not a coordinate: write a row letter and a column number, "
            "H8 for a horizontal word, 8H for a vertical one"
        )
    letter_first = m.group("l1") is not None
    letter = m.group("l1") or m.group("l2")
    number = int(m.group("n1") or m.group("n2"))
    english = Convention(convention) is Convention.ENGLISH
    what = "column" if english else "row"
    index = _letter_index(letter, cyrillic and not english, what)
    if not 1 <= number <= SIZE:
        other = "row" if english else "column"
        raise CoordError(f"{other} {number} is off the board ({other}s are 1–{SIZE})", "off_board")
    if english:
        # 8H: row 8, column H, horizontal. H8: column H, row 8, vertical.
        return Coord(number - 1, index, vertical=letter_first)
    # H8: row H, column 8, horizontal. 8H: column 8, row H, vertical.
    return Coord(index, number - 1, vertical=not letter_first)


def format_coord(
    coord: Coord, *, convention: Convention | str = Convention.DUPLICATE, cyrillic: bool = False
) -> str:
    """The canonical text of a coordinate: ``H8`` / ``8H`` (or ``З8`` with Cyrillic labels)."""
    if Convention(convention) is Convention.ENGLISH:
        col, row = LATIN_ROWS[coord.col], str(coord.row + 1)
        return f"{col}{row}" if coord.vertical else f"{row}{col}"
    row, col = row_label(coord.row, cyrillic), str(coord.col + 1)
    return f"{col}{row}" if coord.vertical else f"{row}{col}"
