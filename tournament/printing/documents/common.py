"""What the documents share: the tournament's header, the table look, numbers, racks and moves as printed."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.utils.formats import date_format, number_format
from reportlab.lib import colors
from reportlab.platypus import Paragraph, TableStyle

from ... import labels
from ...services.reading import TournamentInfo
from ..layout import (
    HEAD_BG,
    INK,
    LINE,
    MUTED,
    ZEBRA,
    CellParagraph,
    Document,
    Fonts,
    escape,
    minus,
    text_width,
)
from .board import LETTER_FILL, LETTER_INK

FLAG = "\u2691"  # ⚑
#: How many shared cell paragraphs a document keeps (:meth:`SheetDocument.p`) before starting again.
SHARED_CELLS = 2000


def coord_style(info: TournamentInfo) -> labels.CoordStyle:
    """The coordinates of the papers: the tournament's."""
    return labels.tournament_style(info)


def move_markup(text: str, info: TournamentInfo, fonts: Fonts) -> str:
    """A stored move as paragraph markup, in the tournament's coordinates, the letter of the coordinate
    underlined in the sans face so that a row З is never read as the digit 3 on paper (as on the screens)."""
    return written_markup(coord_style(info).move(text), fonts)


def written_markup(text: str, fonts: Fonts) -> str:
    """A move or slip already written in the tournament's rows ("З8 WORD 24") as markup, its coordinate's letter
    underlined."""
    before, letter, after = labels.letter_parts(text)
    if not letter:
        return f'<font name="{fonts.mono}">{escape(text)}</font>'
    return (f'<font name="{fonts.mono}">{escape(before)}</font>{letter_markup(letter, fonts)}'
            f'<font name="{fonts.mono}">{escape(after)}</font>')


def letter_markup(letter: str, fonts: Fonts) -> str:
    """The letter of a coordinate on paper: in the sans face, underlined, on the tint of the boxed letters of the
    board's labels and the screens (З never read as 3)."""
    return (f'<u><font name="{fonts.bold}" color="{LETTER_INK.hexval().replace("0x", "#")}" '
            f'backColor="{LETTER_FILL.hexval().replace("0x", "#")}">{escape(letter)}</font></u>')


def coordinate_markup(written: str, fonts: Fonts) -> str:
    """A coordinate inside a text (an explanation) with its letter underlined."""
    parts = labels.split_coordinate(written)
    if parts is None:
        return escape(written)
    before, letter, after = parts
    return escape(before) + letter_markup(letter, fonts) + escape(after)


def tournament_dates(info: TournamentInfo) -> str:
    if info.starts_on and info.ends_on and info.ends_on != info.starts_on:
        return f"{date_format(info.starts_on, labels.DATE_FORMAT)} – {date_format(info.ends_on, labels.DATE_FORMAT)}"
    day = info.starts_on or info.ends_on
    return date_format(day, labels.DATE_FORMAT) if day else ""


def tournament_subtitle(info: TournamentInfo) -> str:
    return " · ".join(p for p in (tournament_dates(info), info.venue) if p)


def percent(value: float) -> str:
    return number_format(value, 2)


def signed(n: int) -> str:
    return minus(n) if n < 0 else ("+" + str(n) if n > 0 else "0")


def rack_markup(kept: str, drawn: str, fonts: Fonts) -> str:
    """``ОЕТ+ВРАК``: the tiles kept from the previous rack (grey) + the new ones (bold)."""
    kept_s = f'<font color="#6b7582">{escape(kept)}</font>' if kept else ""
    drawn_s = f"<b>{escape(drawn)}</b>" if drawn else ""
    body = f"{kept_s}+{drawn_s}" if kept and drawn else (kept_s or drawn_s)
    return f'<font name="{fonts.mono}">{body}</font>'


def marks_markup(marks: Sequence[str]) -> str:
    """The small orange notes under a cell (warning, overridden, solo, late…), or ""."""
    return f'<br/><font size="7" color="#b5651d">{escape(" · ".join(marks))}</font>' if marks else ""


def table_style(*extra: Any, header_rows: int = 1, zebra: bool = True, font: str = "", bold: str = "",
                size: float = 8.5) -> TableStyle:
    """The common table look: a shaded header, light rules, zebra rows."""
    cmds: list[Any] = [
        ("FONT", (0, 0), (-1, -1), font, size),
        ("TEXTCOLOR", (0, 0), (-1, -1), INK),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 2.2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.6),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ("LINEBELOW", (0, header_rows), (-1, -1), 0.25, LINE),
    ]
    if header_rows:
        cmds += [
            ("FONT", (0, 0), (-1, header_rows - 1), bold, size - 0.5),
            ("BACKGROUND", (0, 0), (-1, header_rows - 1), HEAD_BG),
            ("LINEBELOW", (0, header_rows - 1), (-1, header_rows - 1), 0.8, MUTED),
        ]
    if zebra:
        cmds.append(("ROWBACKGROUNDS", (0, header_rows), (-1, -1), [colors.white, ZEBRA]))
    return TableStyle(cmds + list(extra))


class SheetDocument(Document):
    """A document of one tournament (its name and dates in the header)."""

    def __init__(self, info: TournamentInfo, **kwargs: Any):
        kwargs.setdefault("zone_of", info)  # dates in the tournament's time zone (layout.local_datetime)
        super().__init__(heading=info.name, subtitle=tournament_subtitle(info), **kwargs)
        self.tournament = info
        self._shared_cells: dict[tuple[str, str], Paragraph] = {}

    def p(self, text: str, style: str = "cell", *, shared: bool = False) -> Paragraph:
        """A cell's paragraph; ``shared``: a text many cells show (a round's top, a verdict), made once."""
        if not shared:
            return CellParagraph(text, self.styles[style])
        if len(self._shared_cells) > SHARED_CELLS:
            self._shared_cells.clear()
        key = (text, style)
        if key not in self._shared_cells:
            self._shared_cells[key] = CellParagraph(text, self.styles[style])
        return self._shared_cells[key]

    def col(self, label: str, minimum: float) -> float:
        """A column width: at least ``minimum``, and wide enough for the longest word of its header."""
        longest = max((text_width(w, self.fonts.bold, 7.8) for w in label.split()), default=0)
        return max(minimum, longest + 8)

    def header_row(self, labels: Sequence[str], right: Iterable[int] = (), center: Iterable[int] = ()) -> list:
        """Header cells that wrap when a translated label is longer than its column."""
        right, center = set(right), set(center)
        return [Paragraph(escape(label), self.styles["head_right" if i in right else
                                                     "head_center" if i in center else "head"])
                for i, label in enumerate(labels)]


__all__ = ["FLAG", "SheetDocument", "coord_style", "marks_markup", "move_markup", "written_markup", "coordinate_markup", "letter_markup", "percent", "rack_markup", "signed",
           "table_style", "tournament_dates", "tournament_subtitle"]
