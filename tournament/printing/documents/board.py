"""The board as a diagram (premium squares in colour, tiles with their values) and its legend."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from reportlab.lib import colors
from reportlab.platypus import Flowable, Paragraph

from scoring.board import Board, Tile
from scoring.rules import SIZE, get_ruleset

from ...labels import CoordStyle
from ..layout import INK, MUTED, Fonts, escape
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


class BoardDiagram(Flowable):
    """The 15×15 board: premium squares in colour, tiles with their values, blanks in red without value.

    Rows are labelled on the left and columns on top as the coordinate style says
    (:meth:`tournament.labels.CoordStyle.rows` / :meth:`~tournament.labels.CoordStyle.columns`):
    A–O (or А–П on Cyrillic papers) and 1–15; the English convention the other way round.
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

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return self.width, self.height

    def fill(self, code: str) -> Any:
        if self.ruleset.letter_colours and code in LITERAKI_WORD_FILL:
            return LITERAKI_WORD_FILL[code]
        return PREMIUM_FILL.get(code, SQUARE_FILL)

    def draw(self) -> None:
        cv, s, f = self.canv, self.cell, self.fonts
        layout = self.ruleset.layout
        top = self.height
        cv.saveState()
        cv.setFont(f.bold, s * 0.42)
        cv.setFillColor(MUTED)
        for i in range(SIZE):
            cv.drawCentredString(s * (i + 1.5), top - s * 0.68, self.column_names[i])
            cv.drawCentredString(s * 0.5, top - s * (i + 1) - s * 0.66, self.row_names[i])
        for r in range(SIZE):
            for c in range(SIZE):
                x, y = s * (c + 1), top - s * (r + 2)
                code = layout.premium_code(r, c)
                tile = self.board.tile(r, c)
                cv.setFillColor(self.fill(code) if tile is None else SQUARE_FILL)  # a covered premium is spent
                cv.setStrokeColor(colors.white)
                cv.setLineWidth(0.8)
                cv.rect(x, y, s, s, stroke=1, fill=1)
                if tile is None:
                    self._empty_label(x, y, code, (r, c) == (SIZE // 2, SIZE // 2))
                else:
                    self._tile(x, y, tile, (r, c) in self.highlight)
        cv.setStrokeColor(MUTED)
        cv.setLineWidth(0.8)
        cv.rect(s, 0, s * SIZE, s * SIZE, stroke=1, fill=0)
        cv.restoreState()

    def _empty_label(self, x: float, y: float, code: str, centre: bool) -> None:
        cv, s, f = self.canv, self.cell, self.fonts
        if centre:
            cv.setFillColor(colors.white if code in ("TW", "R", "TL") else INK)
            cv.setFont(f.regular, s * 0.62)
            cv.drawCentredString(x + s / 2, y + s * 0.27, "\u2605")
            return
        if not code:
            return
        text = {"TW": "×3", "DW": "×2", "TL": "×3", "DL": "×2"}.get(code, "×3")
        dark = code in ("TW", "TL", "R", "B")
        cv.setFillColor(colors.white if dark else INK)
        cv.setFont(f.bold if code in ("TW", "DW") else f.regular, s * 0.34)
        cv.drawCentredString(x + s / 2, y + s * 0.36, text)

    def _tile(self, x: float, y: float, tile: Tile, highlight: bool) -> None:
        cv, s, f = self.canv, self.cell, self.fonts
        pad = s * 0.06
        colour = self.ruleset.tile_colour(tile.letter) if not tile.blank else None
        fill = colors.white if tile.blank else colors.HexColor(TILE_TINT[colour]) if colour else TILE_FILL
        cv.setFillColor(fill)
        cv.setStrokeColor(BLANK_INK if tile.blank else (INK if highlight else TILE_EDGE))
        cv.setLineWidth(1.2 if highlight else 0.6)
        if tile.blank:
            cv.setDash(1.2, 1)
        cv.roundRect(x + pad, y + pad, s - 2 * pad, s - 2 * pad, s * 0.12, stroke=1, fill=1)
        cv.setDash()
        cv.setFillColor(BLANK_INK if tile.blank else INK)
        cv.setFont(f.bold, s * 0.56)
        if tile.blank:
            cv.drawCentredString(x + s / 2, y + s * 0.28, tile.letter)
            return
        cv.drawCentredString(x + s * 0.44, y + s * 0.28, tile.letter)
        value = self.ruleset.value(tile.letter)
        cv.setFont(f.regular, s * 0.26)
        cv.drawRightString(x + s - pad * 2.2, y + pad * 2.0, str(value))


def board_legend(ruleset_id: str, styles: dict[str, Any]) -> Paragraph:
    ruleset = get_ruleset(ruleset_id)

    def swatch(colour: Any, text: str) -> str:
        return f'<font color="{colour.hexval().replace("0x", "#")}">\u25a0</font>&nbsp;{escape(text)}'

    words = LITERAKI_WORD_FILL if ruleset.letter_colours else PREMIUM_FILL
    items = [swatch(words["TW"], _("triple word")), swatch(words["DW"], _("double word"))]
    if ruleset.letter_colours:
        items.append(" ".join(swatch(PREMIUM_FILL[k], "") for k in "YGBR") + escape(
            _("letter ×3 for a tile of the square's colour")))
    else:
        items += [swatch(PREMIUM_FILL["TL"], _("triple letter")), swatch(PREMIUM_FILL["DL"], _("double letter"))]
    items.append(f'<font color="{BLANK_INK.hexval().replace("0x", "#")}"><b>A</b></font>&nbsp;'
                 + escape(_("blank (no value)")))
    return Paragraph(" &nbsp;&nbsp; ".join(items), styles["small"])



__all__ = ["BoardDiagram", "board_legend"]
