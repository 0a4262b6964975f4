"""Table columns sized to what they print, and cells that never break a word.

A column is measured with reportlab's ``stringWidth``: a short value ("Серия1", "senior", a total) gets the
width it needs, so it is cut with "…" only when the page has no room for it; the columns of names, clubs and
halls (``grow``) share what is left, each at least as wide as its longest word when the page allows it. Their
cells wrap between words only — a club "Казань-Скрэббл" is never split inside — and a word wider than its
column prints smaller (down to :data:`SMALLEST` points), or with "…" as the last resort.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph

from .layout import escape, fit_text, text_width

#: Left + right padding of a table cell (``documents.common.table_style``: 3 points each side).
PADDING = 6.0
#: A header label's font and size (the ``head`` styles of :class:`~tournament.printing.layout.Document`).
HEAD_SIZE = 7.8
#: The smallest size a word too wide for its column is printed at before it is cut.
SMALLEST = 6.0
#: What a width measured once may differ by when measured again (floating point): a value sized for its column fits.
EPSILON = 0.01
#: The narrowest a column of names gets when the page has no room for every value whole.
GROW_FLOOR = 18 * mm


@dataclass(frozen=True)
class Column:
    """A column of a printed table.

    ``texts``: what its cells print (one value each); ``minimum``: its narrowest width in points; ``grow``: 0 for
    a column as wide as its widest value, else its share of the room left over (names, clubs: they wrap
    between words)."""

    header: str
    align: str = "LEFT"
    texts: Sequence[str] = ()
    minimum: float = 0.0
    grow: float = 0.0


def longest_word(text: str, font: str, size: float) -> float:
    return max((text_width(word, font, size) for word in (text or "").split()), default=0.0)


def header_width(label: str, bold: str) -> float:
    """The width a header needs: its longest word on one line (a header wraps between its words)."""
    return longest_word(label, bold, HEAD_SIZE) + 8


def _needs(col: Column, font: str, bold: str, size: float) -> tuple[float, float, float]:
    """(the least width at :data:`SMALLEST` points, the least at ``size``, the width of its widest value on one
    line) of a column; a fixed column needs its widest value in all three."""
    widest = max((text_width(t or "", font, size) for t in col.texts), default=0.0) + PADDING
    least = max(col.minimum, header_width(col.header, bold))
    if not col.grow:
        return max(least, widest), max(least, widest), max(least, widest)
    small = max((longest_word(t, font, SMALLEST) for t in col.texts), default=0.0) + PADDING
    word = max((longest_word(t, font, size) for t in col.texts), default=0.0) + PADDING
    return max(least, small), max(least, word), max(least, word, widest)


def _fill(widths: list[float], targets: list[float], columns: Sequence[Column], room: float) -> float:
    """Gives ``room`` to the growing columns below their target, by share, none past its target; what is left."""
    short = [i for i, c in enumerate(columns) if c.grow and widths[i] < targets[i] - 1e-6]
    while room > 1e-6 and short:
        total = sum(columns[i].grow for i in short)
        given = 0.0
        for i in short:
            add = min(room * columns[i].grow / total, targets[i] - widths[i])
            widths[i] += add
            given += add
        room -= given
        short = [i for i in short if widths[i] < targets[i] - 1e-6]
    return room


def fits(columns: Sequence[Column], width: float, *, font: str, bold: str, size: float) -> bool:
    """Whether ``columns`` fit ``width`` points with every value whole (the growing ones' words at
    :data:`SMALLEST` points at worst): else a document turns its page (landscape) when it can."""
    return sum(small for small, _least, _natural in (_needs(c, font, bold, size) for c in columns)) <= width + 1e-6


def _squeezed(columns: Sequence[Column], widths: list[float], width: float, bold: str) -> list[float]:
    """No room for every value whole: the growing columns share what the fixed ones leave (their words smaller,
    or cut with "…"), each at least :data:`GROW_FLOOR` wide while a fixed text column can give way to it."""
    growing = [i for i, c in enumerate(columns) if c.grow]
    floor = sum(max(GROW_FLOOR, columns[i].minimum, header_width(columns[i].header, bold)) for i in growing)
    lack = floor - (width - sum(w for i, w in enumerate(widths) if i not in growing))
    for i, c in enumerate(columns):
        if lack > 0 and not c.grow and c.align == "LEFT":
            give = min(widths[i] - max(c.minimum, header_width(c.header, bold)), lack)
            widths[i] -= give
            lack -= give
    left = width - sum(w for i, w in enumerate(widths) if i not in growing)
    total = sum(columns[i].grow for i in growing)
    for i in growing:
        widths[i] = max(0.0, left * columns[i].grow / total)
    return widths


def column_widths(columns: Sequence[Column], width: float, *, font: str, bold: str, size: float) -> list[float]:
    """The widths of ``columns`` on ``width`` points: each fixed column as wide as its widest value (or its header's
    longest word, or its minimum); the growing ones share the rest by their ``grow``: first their longest word at
    :data:`SMALLEST` points, then at ``size``, then their widest value on one line, then what is left. When even
    the smallest words do not fit (:func:`fits`), see :func:`_squeezed`."""
    needs = [_needs(c, font, bold, size) for c in columns]
    widths = [small for small, _least, _natural in needs]
    room = width - sum(widths)
    if room < 0:
        return _squeezed(columns, widths, width, bold)
    for level in (1, 2):  # the longest words at full size, then every value on one line
        room = _fill(widths, [need[level] for need in needs], columns, room)
    if room > 1e-6:  # the rest of the line: to the growing columns by share, else to the last text column
        total = sum(c.grow for c in columns)
        if total:
            for i, c in enumerate(columns):
                widths[i] += room * c.grow / total
        else:
            last = max((i for i, c in enumerate(columns) if c.align == "LEFT"), default=len(columns) - 1)
            widths[last] += room
    return widths


def one_line(text: str, width: float, font: str, size: float) -> str:
    """A short value in its column: whole when it fits (the column was sized for it), else cut with "…"."""
    return fit_text(text or "", font, size, width - PADDING + EPSILON)


def word_lines(text: str, font: str, size: float, width: float) -> list[str]:
    """``text`` broken into lines at spaces only: a word is never split (a word wider than ``width`` has a line
    of its own)."""
    lines: list[str] = []
    for word in (text or "").split():
        trial = f"{lines[-1]} {word}" if lines else word
        if lines and text_width(trial, font, size) <= width:
            lines[-1] = trial
        else:
            lines.append(word)
    return lines or [""]


def words_cell(text: str, width: float, font: str, style: ParagraphStyle) -> str | Paragraph:
    """A name or a club in its column: on one line when it fits; else on lines broken between words, smaller when
    its longest word is wider than the column (down to :data:`SMALLEST` points, then that word cut with "…")."""
    text = " ".join((text or "").split())
    room = width - PADDING + EPSILON
    size = float(style.fontSize)
    if text_width(text, font, size) <= room:
        return text
    while size > SMALLEST and longest_word(text, font, size) > room:
        size = max(SMALLEST, size - 0.5)
    lines = [fit_text(line, font, size, room) for line in word_lines(text, font, size, room)]
    small = ParagraphStyle(f"{style.name}-{size}", parent=style, fontName=font, fontSize=size,
                           leading=size * 1.2, splitLongWords=0)
    return Paragraph("<br/>".join(escape(line) for line in lines), small)


__all__ = ["GROW_FLOOR", "PADDING", "SMALLEST", "Column", "column_widths", "fits", "header_width", "longest_word", "one_line",
           "word_lines", "words_cell"]
