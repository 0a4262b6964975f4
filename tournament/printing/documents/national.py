"""The national standings of a simultaneous game: every player of every hall ranked together (or the players of one
hall, club, series or category, each with his national rank)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import ngettext
from reportlab.lib.units import mm
from reportlab.platypus import LongTable, Paragraph, Spacer

from ...models import Simultaneous
from ...services import simultaneous
from ...services.simultaneous import NationalRow
from ..layout import Document, escape, fit_text, minus, text_width
from ..layout import tr as _
from .common import percent, table_style


class NationalStandingsDocument(Document):
    def __init__(self, simul: Simultaneous, rows: list[NationalRow], filters: dict[str, str], **kwargs: Any):
        self.simul, self.rows, self.filters = simul, rows, filters
        self.halls = simultaneous.hall_summaries(simul)
        super().__init__(heading=simul.name, subtitle=_("Simultaneous game"), **kwargs)

    def document_title(self) -> str:
        return _("National standings")

    def facts(self) -> list[str]:
        sent = [h for h in self.halls if h.result is not None]
        facts = [
            ngettext("%(n)s hall", "%(n)s halls", len(sent)) % {"n": len(sent)},
            ngettext("%(n)s player", "%(n)s players", len(self.rows)) % {"n": len(self.rows)},
            ngettext("%(n)s round", "%(n)s rounds", len(self.simul.rounds)) % {"n": len(self.simul.rounds)},
            _("Top total") + f": {sum(r['score'] for r in self.simul.rounds)}",
            _("Lexicon") + f": {self.simul.lexicon.label} ({self.simul.lexicon_hash[:12]}…)",
        ]
        names = {"hall": _("Hall"), "club": _("Club"), "series": _("Series"), "category": _("Category")}
        halls = {h.hall.code: h.hall.name for h in self.halls}
        facts += [f"{names[k]}: {halls.get(v, v) if k == 'hall' else v}" for k, v in self.filters.items()]
        return [escape(f) for f in facts]

    def estimated_pages(self) -> int:
        return 1 + len(self.rows) // 50

    def columns(self) -> list[tuple[str, float, str]]:
        fixed = [("#", 10 * mm, "RIGHT")]
        if self.filters:
            fixed.append((_("National rank"), self.col(_("National rank"), 14 * mm), "RIGHT"))
        fixed += [(_("Name"), 0, "LEFT"), (_("Club"), 0, "LEFT"), (_("Hall"), 0, "LEFT"),
                  (_("Series"), self.col(_("Series"), 12 * mm), "LEFT"),
                  (_("Category"), self.col(_("Category"), 16 * mm), "LEFT"),
                  (_("Total"), self.col(_("Total"), 13 * mm), "RIGHT"),
                  (_("Deficit"), self.col(_("Deficit"), 15 * mm), "RIGHT"), ("%", 14 * mm, "RIGHT")]
        rest = self.frame_width - sum(w for _h, w, _a in fixed)
        first = 2 if self.filters else 1
        for i, share in zip(range(first, first + 3), (0.4, 0.3, 0.3), strict=True):
            fixed[i] = (fixed[i][0], rest * share, "LEFT")
        return fixed

    def col(self, label: str, minimum: float) -> float:
        longest = max((text_width(w, self.fonts.bold, 7.8) for w in label.split()), default=0)
        return max(minimum, longest + 8)

    def cell(self, text: str, width: float, size: float) -> str | Paragraph:
        if text_width(text or "", self.fonts.regular, size) <= width:
            return text or ""
        return Paragraph(escape(text), self.styles["cell"])

    def line(self, row: NationalRow, widths: list[float], size: float) -> list[str | Paragraph]:
        f, p = self.fonts, row.player
        out: list[str | Paragraph] = [str(row.rank)]
        if self.filters:
            out.append(str(row.national_rank))
        i = len(out)
        out += [self.cell(p["name"], widths[i] - 6, size), self.cell(p["club"], widths[i + 1] - 6, size),
                self.cell(row.hall.name, widths[i + 2] - 6, size),
                fit_text(p["series"], f.regular, size, widths[i + 3] - 6),
                fit_text(p["category"], f.regular, size, widths[i + 4] - 6)]
        return out + [minus(row.total), minus(row.line.deficit), percent(row.line.percentage)]

    def story(self) -> list:
        f, size = self.fonts, 8.5
        story = self.title_block(_("National standings"), self.facts())
        if not self.rows:
            return [*story, Paragraph(escape(_("No results yet.")), self.styles["small"])]
        cols = self.columns()
        widths = [w for _h, w, _a in cols]
        header = [Paragraph(escape(h), self.styles["head_right" if a == "RIGHT" else "head"]) for h, _w, a in cols]
        aligns = [("ALIGN", (i, 0), (i, -1), a) for i, (_h, _w, a) in enumerate(cols)]
        total_col = len(cols) - 3
        style = table_style(*aligns, ("FONT", (total_col, 1), (total_col, -1), f.bold, size),
                            font=f.regular, bold=f.bold, size=size)
        rows = [header] + [self.line(r, widths, size) for r in self.rows]
        story += [LongTable(rows, colWidths=widths, repeatRows=1, style=style), Spacer(1, 3 * mm)]
        return story


def national_document(simul: Simultaneous, **filters: str) -> NationalStandingsDocument:
    """The national standings of ``simul`` (``filters``: hall code, club, series, category)."""
    wanted = {k: v for k, v in filters.items() if v and k in simultaneous.FILTERS}
    return NationalStandingsDocument(simul, simultaneous.national_standings(simul, **wanted), wanted)


__all__ = ["NationalStandingsDocument", "national_document"]
