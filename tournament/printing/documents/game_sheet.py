"""2. The game sheet: every round of a game (rack, top, score, cumulative top) and the board as a diagram."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, LongTable, Paragraph, Spacer, Table

from ... import labels
from ...services import reading
from ...services.reading import GameSheet, SheetRound, TournamentInfo
from ..layout import escape
from ..layout import tr as _
from .board import BoardDiagram, board_legend
from .common import SheetDocument, coord_style, move_markup, rack_markup, table_style

if TYPE_CHECKING:
    from ...models import Game


class GameSheetDocument(SheetDocument):
    def __init__(self, info: TournamentInfo, sheet: GameSheet, **kwargs: Any):
        self.sheet = sheet
        super().__init__(info, **kwargs)

    def document_title(self) -> str:
        return _("Game sheet") + " · " + _("Game %(n)s") % {"n": self.sheet.number}

    def estimated_pages(self) -> int:
        return 2 + len(self.sheet.rounds) // 40

    def rack_cell(self, r: SheetRound) -> Paragraph:
        """The rack, and under it the redraws with (up to three of) the racks drawn again."""
        rack = rack_markup(r.kept, r.drawn, self.fonts)
        if r.redraws:
            note = _("redraw ×%(n)s") % {"n": r.redraws}
            rejected = ", ".join(r.rejected[:3]) + (" …" if len(r.rejected) > 3 else "")
            rack += f'<br/><font size="7" color="#b5651d">\u21bb {escape(note)}</font>'
            if rejected:
                rack += f'<font size="6.5" color="#6b7582">: {escape(rejected)}</font>'
        return Paragraph(rack, self.styles["cell"])

    def top_cell(self, r: SheetRound) -> Paragraph:
        if r.score is None:
            not_played = _("not played yet")
            return Paragraph(f'<font color="#6b7582">{escape(not_played)}</font>', self.styles["cell"])
        move = move_markup(r.move, self.tournament, self.fonts)
        if r.replaced:  # the Joker variant: the blank played went back into the bag, its letter's tile on the board
            tiles = ", ".join(f"? \u2192 {letter}" for letter in r.replaced)
            move += f'<br/><font size="7" color="#6a1b9a">{escape(tiles)}</font>'
        return Paragraph(move, self.styles["cell"])

    def rounds_table(self) -> list:
        f = self.fonts
        header = self.header_row(["#", _("Rack"), _("Top"), _("Points"), _("Total"), _("Bag")], right=[0, 3, 4, 5])
        widths = [10 * mm, 64 * mm, 0, self.col(_("Points"), 14 * mm), self.col(_("Total"), 15 * mm),
                  self.col(_("Bag"), 14 * mm)]
        widths[2] = self.frame_width - sum(widths)
        rows: list[list] = [header]
        for r in self.sheet.rounds:
            rows.append([str(r.number), self.rack_cell(r), self.top_cell(r),
                         "" if r.score is None else str(r.score),
                         "" if r.cumulative is None else str(r.cumulative),
                         "" if r.bag_after is None else str(r.bag_after)])
        if len(rows) == 1:
            return [Paragraph(escape(_("No round published yet.")), self.styles["body"])]
        style = table_style(("ALIGN", (0, 0), (0, -1), "RIGHT"), ("ALIGN", (3, 0), (-1, -1), "RIGHT"),
                            ("FONT", (4, 1), (4, -1), f.bold, 8.5), font=f.regular, bold=f.bold)
        return [LongTable(rows, colWidths=widths, repeatRows=1, style=style)]

    def board(self, played: list[SheetRound]) -> KeepTogether:
        t = self.tournament
        title = _("Final board") if self.sheet.finished else (
            _("Board after round %(n)s") % {"n": played[-1].number} if played else _("Board"))
        size = min(self.frame_width, 150 * mm)
        diagram = BoardDiagram(t.ruleset, self.sheet.board, width=size, fonts=self.fonts, style=coord_style(t))
        return KeepTogether([
            Paragraph(escape(title), self.styles["h2"]),
            Table([[diagram]], colWidths=[self.frame_width], style=[("ALIGN", (0, 0), (-1, -1), "CENTER"),
                                                                   ("LEFTPADDING", (0, 0), (-1, -1), 0)]),
            Spacer(1, 2 * mm),
            board_legend(t.ruleset, self.styles, self.fonts, width=self.frame_width, cell=size / 16 * 0.85),
        ])

    def joker_note(self) -> str:
        """The Joker rule in a sentence, and what "? → S" under a top means (with the sheet's first replacement)."""
        note = _("Joker game: every rack holds a blank while one is left.")
        letter = next((r.replaced[0] for r in self.sheet.rounds if r.replaced), "")
        if letter:
            note += " " + _("%(example)s: the blank the top played was replaced on the board by the tile %(letter)s "
                            "from the bag and came back on the next rack.") % {
                "example": f"? \u2192 {letter}", "letter": letter}
        return note

    def status_text(self) -> str:
        """Where the game is: playing, cancelled, or over and why (the arbiter's own words when he ended it)."""
        sheet = self.sheet
        if not sheet.finished:
            return _("Game: %(status)s") % {"status": sheet.status_label}
        if not sheet.end_reason:
            return _("Game over")
        return _("Game over (%(reason)s)") % {"reason": labels.end_text(sheet.end_reason, sheet.end_note)}

    def story(self) -> list:
        played = [r for r in self.sheet.rounds if r.score is not None]
        top_total = played[-1].cumulative if played else 0
        facts = [
            escape(_("Game %(n)s") % {"n": self.sheet.number}),
            escape(_("Rounds: %(n)s") % {"n": len(played)}),
            escape(_("Top total") + f": {top_total}"),
            escape(self.status_text()),
        ]
        if self.sheet.variant != "classic":
            facts.insert(1, escape(_("Variant: %(name)s") % {"name": self.sheet.variant_label}))
        story = self.title_block(_("Game sheet"), facts)
        story += self.rounds_table()
        story.append(Paragraph(escape(_("Rack: tiles kept from the previous round + new tiles (bold); "
                                         "a blank is ?; in a move a blank is a lower-case letter.")),
                               self.styles["small"]))
        if self.sheet.variant == "joker":
            story.append(Paragraph(escape(self.joker_note()), self.styles["small"]))
        if self.sheet.variant == "7among8":
            story.append(Paragraph(escape(_("7-among-8 game: racks of 8 tiles; a move places at most 7 of them, "
                                             "and a move of 7 tiles earns the 50-point bonus.")),
                                   self.styles["small"]))
        story.append(self.board(played))
        return story


def game_sheet_document(game: Game, **kwargs: Any) -> GameSheetDocument:
    """Every round of a game (rack, top, score, cumulative top) and the board as a diagram."""
    return GameSheetDocument(reading.tournament_info(game.tournament), reading.game_sheet(game), **kwargs)


__all__ = ["GameSheetDocument", "game_sheet_document"]
