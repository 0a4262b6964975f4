"""4. The arbitration sheet: every table's slip and verdict in a round, with the verdict's explanation; the ones to
look at are flagged, and the sheet may list only those (``flagged_only``)."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, Any

from django.utils.translation import ngettext
from reportlab.lib.units import mm
from reportlab.platypus import LongTable, Paragraph, Spacer

from ... import labels
from ...services import reading
from ...services.reading import ArbitrationLine, ArbitrationSheet, TournamentInfo, VerdictLine
from ..columns import words_cell
from ..layout import ACCENT, FLAG_BG, Fonts, escape
from ..layout import tr as _
from .common import (
    FLAG,
    SheetDocument,
    coordinate_markup,
    marks_markup,
    move_markup,
    rack_markup,
    table_style,
    written_markup,
)

if TYPE_CHECKING:
    from ...models import Round


#: The longest explanation printed in its column (longer ones are shortened at a word, with "…").
EXPLANATION_CHARS = 160


def _explanation(verdict_row: VerdictLine | None, info: TournamentInfo | None = None,
                 fonts: Fonts | None = None) -> str:
    """The explanation of a verdict as the sheet prints it (paragraph markup): the judge's explanation in the
    document's language and the tournament's coordinates (their letters underlined when ``fonts`` are given),
    shortened when long, or the reason's label when the verdict has none. The one place that says what the
    column shows."""
    if verdict_row is None:
        return ""
    text = verdict_row.message or ""
    style = labels.tournament_style(info) if info is not None else None
    if style is not None and verdict_row.explanation:
        text = labels.explain(verdict_row.explanation, style, text)
    message = " ".join(text.split())
    if not message:
        return escape(labels.reason_label(verdict_row.reason))
    if len(message) > EXPLANATION_CHARS:
        return escape(textwrap.shorten(message, EXPLANATION_CHARS, placeholder=" …"))
    if style is not None and fonts is not None and verdict_row.explanation:
        return labels.explain(verdict_row.explanation, style, escape(message), text=escape,
                              coordinate=lambda c: coordinate_markup(c, fonts))
    return escape(message)


class ArbitrationDocument(SheetDocument):
    landscape = True  # room for the explanations

    def __init__(self, info: TournamentInfo, sheet: ArbitrationSheet, *, flagged_only: bool = False,
                 **kwargs: Any):
        self.sheet = sheet
        self.flagged_only = flagged_only
        #: the lines printed: every table's, or only those to look at again
        self.lines = [line for line in sheet.lines if line.flagged or not flagged_only]
        self.name_width = 44 * mm  # the player's column (names wrap between words)
        super().__init__(info, **kwargs)

    def document_title(self) -> str:
        title = (_("Arbitration sheet") + " · " + _("Game %(n)s") % {"n": self.sheet.game} + " · "
                 + _("Round %(n)s") % {"n": self.sheet.number})
        return title + (" · " + _("flagged only") if self.flagged_only else "")

    def estimated_pages(self) -> int:
        return 1 + len(self.lines) // 25

    def facts(self) -> list[str]:
        f, sheet = self.fonts, self.sheet
        received = sum(1 for line in sheet.lines if line.slip)
        flagged = sum(1 for line in sheet.lines if line.flagged)
        top = move_markup(sheet.top_move, self.tournament, f) if sheet.top_move else ""
        return [
            escape(_("Rack")) + ": " + rack_markup(sheet.kept, sheet.drawn, f),
            escape(_("Top")) + (f": {top} {sheet.top_score}" if top else ": —"),
            escape(str(sheet.status_label)),
            escape(ngettext("%(n)s of %(total)s slip received.", "%(n)s of %(total)s slips received.", len(sheet.lines))
                   % {"n": received, "total": len(sheet.lines)}),
            f'<font color="#b5651d">{FLAG}</font> ' + escape(_("To look at: %(n)s") % {"n": flagged}),
        ]

    def row(self, line: ArbitrationLine) -> list:
        f, v = self.fonts, line.verdict
        slip = written_markup(line.slip, f) if line.slip else \
            '<font color="#6b7582">—</font>'
        notes = []
        if line.versions > 1:
            notes.append(_("Versions: %(n)s") % {"n": line.versions})
        if line.late:
            notes.append(_("late"))
        if notes:
            slip += f'<br/><font size="7" color="#b5651d">{escape(", ".join(notes))}</font>'
        if v is None:
            not_judged = _("not judged yet")
            verdict = f'<font color="#6b7582">{escape(not_judged)}</font>'
        else:
            marks = []
            if v.warning:
                marks.append(_("warning"))
            if not v.automatic:
                marks.append(_("overridden") + (f": {v.override_reason}" if v.override_reason else ""))
            if line.solo:
                marks.append(_("solo") + f" +{line.solo}")
            verdict = escape(labels.reason_label(v.reason)) + marks_markup(marks)
        explanation = f'<font size="7.5">{_explanation(v, self.tournament, f)}</font>'
        return [
            FLAG if line.flagged else "", str(line.table),
            words_cell(line.name, self.name_width, f.regular, self.styles["cell"]), self.p(slip), str(line.source), self.p(verdict), self.p(explanation),
            "" if v is None or v.true_score is None else str(v.true_score),
            "" if v is None else str(v.awarded),
        ]

    def story(self) -> list:
        f = self.fonts
        story = self.title_block(None, self.facts())
        header = self.header_row([FLAG, _("Table"), _("Player"), _("Slip"), _("Source"), _("Verdict"),
                                  _("Explanation"), _("True score"), _("Awarded")], right=[1, 7, 8], center=[0])
        widths = [6 * mm, self.col(_("Table"), 10 * mm), 44 * mm, 37 * mm, self.col(_("Source"), 15 * mm), 37 * mm,
                  0, self.col(_("True score"), 13 * mm), self.col(_("Awarded"), 14 * mm)]
        widths[6] = self.frame_width - sum(widths)
        self.name_width = widths[2]
        rows: list[list] = [header]
        extra = []
        for i, line in enumerate(self.lines, start=1):
            rows.append(self.row(line))
            if line.flagged:
                extra += [("BACKGROUND", (0, i), (-1, i), FLAG_BG), ("TEXTCOLOR", (0, i), (0, i), ACCENT)]
        if len(rows) == 1:
            empty = _("Nothing to look at again.") if self.sheet.lines else _("No player yet.")
            story.append(Paragraph(escape(empty), self.styles["body"]))
            return story
        style = table_style(("ALIGN", (1, 0), (1, -1), "RIGHT"), ("ALIGN", (7, 0), (8, -1), "RIGHT"),
                            ("FONT", (8, 1), (8, -1), f.bold, 8.5), ("ALIGN", (0, 0), (0, -1), "CENTER"),
                            *extra, font=f.regular, bold=f.bold)
        story.append(LongTable(rows, colWidths=widths, repeatRows=1, style=style))
        story.append(Spacer(1, 3 * mm))
        story.append(Paragraph(escape(_("%(flag)s: no verdict yet, a warning, an arbiter's decision, or a verdict "
                                         "other than “right”.") % {"flag": FLAG}), self.styles["small"]))
        return story


def arbitration_document(rnd: Round, *, flagged_only: bool = False, **kwargs: Any) -> ArbitrationDocument:
    """Every table's slip and verdict in a round (table order), or only the ones to look at again; the ones to
    look at are flagged."""
    return ArbitrationDocument(reading.tournament_info(rnd.game.tournament), reading.arbitration_sheet(rnd),
                               flagged_only=flagged_only, **kwargs)


__all__ = ["ArbitrationDocument", "arbitration_document"]
