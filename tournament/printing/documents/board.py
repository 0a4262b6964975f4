"""The board as a diagram (premium squares in colour, told apart in black and white too: word premiums solid and
framed with ×N, letter premiums hatched with N; tiles with their values inside) and its legend."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Flowable, Paragraph, Table, TableStyle

from scoring.board import Board, Tile
from scoring.rules import SIZE, get_ruleset

from ... import labels
from ...labels import CoordStyle
from ..layout import INK, MUTED, Fonts, escape, register_fonts
from ..layout import tr as _

PREMIUM_FILL = {
    "TW": colors.HexColor("#e2554b"),
    "DW": colors.HexColor("#f5b5ae"),
    "TL": colors.HexColor("#3f7fc4"),
    "DL": colors.HexColor("#b3d6f2"),
    # Literaki letter squares, by colour initial
    "Y": colors.HexColor("#f2d24b"),
    "G": colors.HexColor("#79c073"),
    "B": colors.HexColor("#6aa6e0"),
    "R": colors.HexColor("#e36a5f"),
}
#: Word squares of the Literaki board (its red letter squares would look like the standard ×3 word squares).
LITERAKI_WORD_FILL = {"TW": colors.HexColor("#7b4fa0"), "DW": colors.HexColor("#d3bfe6")}
TILE_TINT = {"yellow": "#fbf0bf", "green": "#d7efd3", "blue": "#d4e6f8", "red": "#f8d6d2"}
TILE_FILL = colors.HexColor("#f6e3ac")
TILE_EDGE = colors.HexColor("#a8843a")
SQUARE_FILL = colors.HexColor("#f4f6f2")
BLANK_INK = colors.HexColor("#c0392b")
HATCH_INK = colors.HexColor("#3d5f86")
#: The letter of a coordinate and a letter label of the board: ink, box and edge (as ``.coord-letter`` on screens).
LETTER_INK = colors.HexColor("#173a8a")
LETTER_FILL = colors.HexColor("#e2e9fb")
LETTER_EDGE = colors.HexColor("#7f97d3")


#: What an empty premium square shows, as on the screens (:data:`tournament.labels.PREMIUM_TEXT`): a word
#: premium ×N, a letter premium the bare figure N (a Literaki colour square: 3, for a tile of its colour).
def premium_text(code: str) -> str:
    return labels.PREMIUM_TEXT.get(labels.PREMIUM_CLASS.get(code, ""), "3" if code in LITERAKI_COLOURS else "")


WORD_CODES = ("TW", "DW")
LITERAKI_COLOURS = ("Y", "G", "B", "R")


def _hatch(cv: Any, x: float, y: float, s: float, step: float) -> None:
    """Diagonal hatching of the square (x, y, s): how a letter premium tells itself apart without colour."""
    k = -s + step / 2
    while k < s:
        x0, x1 = max(0.0, k), min(s, s + k)
        cv.line(x + x0, y + x0 - k, x + x1, y + x1 - k)
        k += step


def colour_values(ruleset: Any) -> dict[str, str]:
    """Literaki: the value of the tiles of each colour square's colour ({"Y": "1", …}; one value a colour):
    what the square shows, so that it is told in black and white by the figure printed on those tiles."""
    values: dict[str, set[int]] = {}
    for letter, colour in ruleset.letter_colours.items():
        values.setdefault(colour[:1].upper(), set()).add(ruleset.value(letter))
    return {code: "/".join(str(v) for v in sorted(vs)) for code, vs in values.items()}


def draw_square(cv: Any, x: float, y: float, s: float, code: str, fonts: Fonts, *, literaki: bool = False,
                centre: bool = False, text: str | None = None) -> None:
    """An empty square: its colour, and what tells it in black and white — a word premium is a solid square
    with an inner frame and ×N in bold, a letter premium is hatched with the figure N on a plain patch."""
    fill = (LITERAKI_WORD_FILL if literaki and code in LITERAKI_WORD_FILL else PREMIUM_FILL).get(code, SQUARE_FILL)
    cv.saveState()
    cv.setFillColor(fill)
    cv.setStrokeColor(colors.white)
    cv.setLineWidth(0.8)
    cv.rect(x, y, s, s, stroke=1, fill=1)
    dark = code in ("TW", "TL", "R", "B")
    ink = colors.white if dark else INK
    if code in WORD_CODES:
        inset = s * 0.1
        cv.setStrokeColor(ink)
        cv.setLineWidth(max(0.6, s * 0.05) if code == "TW" else max(0.4, s * 0.03))
        cv.rect(x + inset, y + inset, s - 2 * inset, s - 2 * inset, stroke=1, fill=0)
    elif code:
        cv.setStrokeColor(colors.white if dark else HATCH_INK)
        cv.setLineWidth(max(0.3, s * 0.025))
        _hatch(cv, x + 0.4, y + 0.4, s - 0.8, s * (0.16 if code == "TL" or code in LITERAKI_COLOURS else 0.28))
    text = "\u2605" if centre else (text if text is not None else premium_text(code))
    if text:
        size = s * (0.6 if centre else 0.36)
        font = fonts.regular if centre else fonts.bold
        if code and code not in WORD_CODES and not centre:  # a plain patch under the figure
            w = pdfmetrics.stringWidth(text, font, size) + s * 0.18
            cv.setFillColor(fill)
            cv.rect(x + (s - w) / 2, y + s * 0.27, w, s * 0.15 + size * 0.73, stroke=0, fill=1)
        cv.setFillColor(ink)
        cv.setFont(font, size)
        cv.drawCentredString(x + s / 2, y + s * (0.27 if centre else 0.36), text)
    cv.restoreState()


class BoardDiagram(Flowable):
    """The 15×15 board: premium squares in colour and told apart in black and white (:func:`draw_square`),
    tiles with their values inside the tile, blanks in red without value.

    Rows are labelled on the left and columns on top as the coordinate style says
    (:meth:`tournament.labels.CoordStyle.rows` / :meth:`~tournament.labels.CoordStyle.columns`):
    A–O (or А–П on Cyrillic papers), each letter in a box, and 1–15; the English convention the other way round.
    """

    def __init__(self, ruleset_id: str, fen: str, *, width: float, fonts: Fonts, style: CoordStyle,
                 highlight: Iterable[tuple[int, int]] = ()):
        super().__init__()
        self.ruleset = get_ruleset(ruleset_id)
        self.board = Board.from_fen(self.ruleset, fen or None)
        self.fonts = fonts
        self.row_names, self.column_names = style.rows(), style.columns()
        self.cell = width / (SIZE + 1)
        self.width = self.height = self.cell * (SIZE + 1)
        self.highlight = set(highlight)
        self.colour_values = colour_values(self.ruleset)

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        cv, s, f = self.canv, self.cell, self.fonts
        layout = self.ruleset.layout
        top = self.height
        cv.saveState()
        for i in range(SIZE):
            self._label(s * (i + 1.5), top - s * 0.68, self.column_names[i])
            self._label(s * 0.5, top - s * (i + 1) - s * 0.66, self.row_names[i])
        for r in range(SIZE):
            for c in range(SIZE):
                x, y = s * (c + 1), top - s * (r + 2)
                tile = self.board.tile(r, c)
                if tile is None:
                    code = layout.premium_code(r, c)
                    draw_square(cv, x, y, s, code, f, literaki=bool(self.ruleset.letter_colours),
                                centre=(r, c) == (SIZE // 2, SIZE // 2), text=self.colour_values.get(code))
                else:  # a covered premium is spent
                    draw_square(cv, x, y, s, "", f)
                    self._tile(x, y, tile, (r, c) in self.highlight)
        cv.setStrokeColor(MUTED)
        cv.setLineWidth(0.8)
        cv.rect(s, 0, s * SIZE, s * SIZE, stroke=1, fill=0)
        cv.restoreState()

    def _label(self, x: float, baseline: float, text: str) -> None:
        """A row or column label centred on ``x``: a letter in a box, as on the screens (З never read as the
        digit 3, О as 0, Б as 6), a number plain."""
        cv, s, f = self.canv, self.cell, self.fonts
        size = s * 0.42
        cv.setFont(f.bold, size)
        if text.isdigit():
            cv.setFillColor(MUTED)
            cv.drawCentredString(x, baseline, text)
            return
        width = max(pdfmetrics.stringWidth(text, f.bold, size) + s * 0.2, s * 0.52)
        cv.setFillColor(LETTER_FILL)
        cv.setStrokeColor(LETTER_EDGE)
        cv.setLineWidth(max(0.5, s * 0.035))
        cv.roundRect(x - width / 2, baseline - s * 0.13, width, s * 0.56, s * 0.08, stroke=1, fill=1)
        cv.setFillColor(LETTER_INK)
        cv.drawCentredString(x, baseline, text)

    def _tile(self, x: float, y: float, tile: Tile, highlight: bool) -> None:
        """A tile: the letter, and its value small in the tile's lower right corner, inside its edge."""
        cv, s, f = self.canv, self.cell, self.fonts
        pad = s * 0.06
        inner = s - 2 * pad
        colour = self.ruleset.tile_colour(tile.letter) if not tile.blank else None
        fill = colors.white if tile.blank else colors.HexColor(TILE_TINT[colour]) if colour else TILE_FILL
        cv.setFillColor(fill)
        cv.setStrokeColor(BLANK_INK if tile.blank else (INK if highlight else TILE_EDGE))
        cv.setLineWidth(1.2 if highlight else 0.6)
        if tile.blank:
            cv.setDash(1.2, 1)
        cv.roundRect(x + pad, y + pad, inner, inner, s * 0.12, stroke=1, fill=1)
        cv.setDash()
        cv.setFillColor(BLANK_INK if tile.blank else INK)
        value = "" if tile.blank else str(self.ruleset.value(tile.letter))
        value_size = s * 0.24
        value_w = pdfmetrics.stringWidth(value, f.regular, value_size) if value else 0.0
        right = x + s - pad - s * 0.07  # the value's right edge, inside the tile's
        # the letter: centred in what the value leaves, smaller when it is wide (Ш, Щ, Ж, W, M)
        room = (right - value_w - s * 0.02) - (x + pad + s * 0.04) if value else inner - s * 0.08
        size = s * 0.56
        while size > s * 0.3 and pdfmetrics.stringWidth(tile.letter, f.bold, size) > room:
            size -= s * 0.02
        cv.setFont(f.bold, size)
        centre = x + pad + s * 0.04 + room / 2
        cv.drawCentredString(centre, y + s * 0.28, tile.letter)
        if value:
            cv.setFont(f.regular, value_size)
            cv.drawRightString(right, y + pad + s * 0.06, value)


class PremiumSample(Flowable):
    """One square of the legend, drawn as on the board."""

    def __init__(self, code: str, size: float, fonts: Fonts, literaki: bool, text: str | None = None):
        super().__init__()
        self.code, self.size, self.fonts, self.literaki, self.text = code, size, fonts, literaki, text
        self.width = self.height = size

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return self.size, self.size

    def draw(self) -> None:
        draw_square(self.canv, 0, 0, self.size, self.code, self.fonts, literaki=self.literaki, text=self.text)


def board_legend(ruleset_id: str, styles: dict[str, Any], fonts: Fonts | None = None, *, width: float = 0,
                 cell: float = 0) -> Table:
    """What the squares mean, each beside a square drawn as on the board (readable in black and white)."""
    ruleset = get_ruleset(ruleset_id)
    fonts = fonts or register_fonts()
    literaki = bool(ruleset.letter_colours)
    cell = cell or 6.5 * mm
    items: list[tuple[str, str]] = [("TW", _("triple word")), ("DW", _("double word"))]
    if literaki:
        items.append(("Y", _("letter ×3 for a tile of the square's colour: the figure is those tiles' value")))
    else:
        items += [("TL", _("triple letter")), ("DL", _("double letter"))]
    cells: list[Any] = []
    for code, text in items:
        sample = PremiumSample(code, cell, fonts, literaki, colour_values(ruleset).get(code) if literaki else None)
        cells += [sample, Paragraph(escape(text), styles["small"])]
    blank = f'<font color="{BLANK_INK.hexval().replace("0x", "#")}"><b>A</b></font>&nbsp;' + escape(
        _("blank (no value)"))
    cells.append(Paragraph(blank, styles["small"]))
    width = width or 180 * mm
    text_w = (width - cell * len(items) - 30 * mm) / len(items)
    table = Table([cells], colWidths=[cell, text_w] * len(items) + [30 * mm], hAlign="CENTER")
    table.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "MIDDLE"), ("LEFTPADDING", (0, 0), (-1, -1), 5),
                               ("RIGHTPADDING", (0, 0), (-1, -1), 2), ("TOPPADDING", (0, 0), (-1, -1), 1),
                               ("BOTTOMPADDING", (0, 0), (-1, -1), 1)]))
    return table


__all__ = ["LETTER_EDGE", "LETTER_FILL", "LETTER_INK", "BoardDiagram", "PremiumSample", "board_legend", "colour_values", "draw_square", "premium_text"]
