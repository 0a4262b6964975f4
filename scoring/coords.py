"""Reading the coordinates of a move (RULES §2); naming squares is :mod:`scoring.squares`.

Duplicate convention (default): rows are letters, columns numbers; ``H8`` is
horizontal (row H, from column 8) and ``8H`` vertical (column 8, from row H).
Row labels are Latin A–O; Cyrillic rule sets also take А Б В Г Д Е Ж З И К Л М Н О П.
English convention (option): columns are letters, rows numbers; ``8H`` is
horizontal (row 8, from column H) and ``H8`` vertical.
"""

from __future__ import annotations

import re

from .messages import Message, msg
from .rules import SIZE
from .squares import CYRILLIC_ROWS, LATIN_ROWS, Convention, Coord, format_coord, row_label, square_name


class CoordError(ValueError):
    """Coordinates that cannot be read: ``code`` for programs, ``message`` (a :class:`Message`) for people."""

    def __init__(self, message: Message, code: str = "bad_coordinates"):
        super().__init__(str(message))
        self.message = message
        self.code = code


_COORD_RE = re.compile(r"^(?:(?P<l1>[^\W\d_])\s?(?P<n1>\d{1,2})|(?P<n2>\d{1,2})\s?(?P<l2>[^\W\d_]))$")


def _letter_index(letter: str, allow_cyrillic: bool, english: bool) -> int:
    up = letter.upper()
    if up in LATIN_ROWS:
        return LATIN_ROWS.index(up)
    if allow_cyrillic and up in CYRILLIC_ROWS:
        return CYRILLIC_ROWS.index(up)
    code = "unknown_column" if english else "unknown_row_cyrillic" if allow_cyrillic else "unknown_row"
    raise CoordError(msg(code, text=letter), "unknown_row")


def parse_coord(
    text: str, *, cyrillic: bool = True, convention: Convention | str = Convention.DUPLICATE
) -> Coord:
    """Read ``H8``, ``8H``, ``h 8``, ``З8`` … into a :class:`Coord`.

    ``cyrillic`` allows the Cyrillic row labels too (Latin ones are always read).
    Raises :class:`CoordError` with a message naming the fault on anything else.
    """
    if not isinstance(text, str):
        raise CoordError(msg("coord_not_text"))
    cleaned = text.strip()
    if not cleaned:
        raise CoordError(msg("coord_missing"), "missing_coordinates")
    m = _COORD_RE.match(cleaned)
    if not m:
        raise CoordError(msg("coord_unreadable", text=cleaned))
    letter_first = m.group("l1") is not None
    letter = m.group("l1") or m.group("l2")
    number = int(m.group("n1") or m.group("n2"))
    english = Convention(convention) is Convention.ENGLISH
    index = _letter_index(letter, cyrillic and not english, english)
    if not 1 <= number <= SIZE:
        raise CoordError(msg("row_off_board" if english else "column_off_board", number=number), "off_board")
    if english:
        # 8H: row 8, column H, horizontal. H8: column H, row 8, vertical.
        return Coord(number - 1, index, vertical=letter_first)
    # H8: row H, column 8, horizontal. 8H: column 8, row H, vertical.
    return Coord(index, number - 1, vertical=not letter_first)


__all__ = ["CYRILLIC_ROWS", "LATIN_ROWS", "Convention", "Coord", "CoordError", "format_coord", "parse_coord", "row_label",
           "square_name"]
