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
from ..columns import Column, column_widths, fits, one_line, words_cell
from ..layout import Document, escape, minus
from ..layout import tr as _
from .common import percent, table_style


def rounds_played(played: int, total: int) -> str:
    """"21 rounds" once the halls played them all, else "3 rounds played of 21"."""
    if played == total:
        return ngettext("%(n)s round", "%(n)s rounds", total) % {"n": total}
    return ngettext("%(n)s round played of %(total)s", "%(n)s rounds played of %(total)s", played) % {
        "n": played, "total": total}


class NationalStandingsDocument(Document):
    def __init__(self, simul: Simultaneous, rows: list[NationalRow], filters: dict[str, str], **kwargs: Any):
        self.simul, self.rows, self.filters = simul, rows, filters
        self.halls = simultaneous.hall_summaries(simul)
        self.tops = simultaneous.played_tops(simul)  # the deficits and percentages are against their total
        super().__init__(heading=simul.name, subtitle=_("Simultaneous game"), **kwargs)
        f = self.fonts  # the page turns when the columns do not fit it with every value whole
        self.landscape = not fits(self.columns(), self.frame_width, font=f.regular, bold=f.bold, size=8.5)

    def document_title(self) -> str:
        return _("National standings")

    def facts(self) -> list[str]:
        sent = [h for h in self.halls if h.result is not None]
        facts = [
            ngettext("%(n)s hall", "%(n)s halls", len(sent)) % {"n": len(sent)},
            ngettext("%(n)s player", "%(n)s players", len(self.rows)) % {"n": len(self.rows)},
            rounds_played(len(self.tops), len(self.simul.rounds)),
            _("Top total") + f": {sum(self.tops)}",
            _("Lexicon") + f": {self.simul.lexicon.label} ({self.simul.lexicon_hash[:12]}…)",
        ]
        names = {"hall": _("Hall"), "club": _("Club"), "series": _("Series"), "category": _("Category")}
        halls = {h.hall.code: h.hall.name for h in self.halls}
        facts += [f"{names[k]}: {halls.get(v, v) if k == 'hall' else v}" for k, v in self.filters.items()]
        return [escape(f) for f in facts]

    def estimated_pages(self) -> int:
        return 1 + len(self.rows) // 50

    def columns(self) -> list[Column]:
        """Every column, sized to what it prints; name, club and hall share what is left."""
        rows, people = self.rows, [r.player for r in self.rows]
        cols = [Column("#", "RIGHT", [str(r.rank) for r in rows], 10 * mm)]
        if self.filters:
            cols.append(Column(_("National rank"), "RIGHT", [str(r.national_rank) for r in rows], 14 * mm))
        return cols + [
            Column(_("Name"), texts=[p["name"] for p in people], grow=0.4),
            Column(_("Club"), texts=[p["club"] for p in people], grow=0.3),
            Column(_("Hall"), texts=[r.hall.name for r in rows], grow=0.3),
            Column(_("Series"), texts=[p["series"] for p in people], minimum=12 * mm),
            Column(_("Category"), texts=[p["category"] for p in people], minimum=16 * mm),
            Column(_("Total"), "RIGHT", [minus(r.total) for r in rows], 13 * mm),
            Column(_("Deficit"), "RIGHT", [minus(r.line.deficit) for r in rows], 15 * mm),
            Column("%", "RIGHT", [percent(r.line.percentage) for r in rows], 14 * mm),
        ]

    def line(self, row: NationalRow, widths: list[float], size: float) -> list[str | Paragraph]:
        f, p, cell = self.fonts, row.player, self.styles["cell"]
        out: list[str | Paragraph] = [str(row.rank)]
        if self.filters:
            out.append(str(row.national_rank))
        i = len(out)
        out += [words_cell(p["name"], widths[i], f.regular, cell), words_cell(p["club"], widths[i + 1], f.regular, cell),
                words_cell(row.hall.name, widths[i + 2], f.regular, cell),
                one_line(p["series"], widths[i + 3], f.regular, size),
                one_line(p["category"], widths[i + 4], f.regular, size)]
        return out + [minus(row.total), minus(row.line.deficit), percent(row.line.percentage)]

    def story(self) -> list:
        f, size = self.fonts, 8.5
        story = self.title_block(_("National standings"), self.facts())
        if not self.rows:
            return [*story, Paragraph(escape(_("No results yet.")), self.styles["small"])]
        cols = self.columns()
        widths = column_widths(cols, self.frame_width, font=f.regular, bold=f.bold, size=size)
        header = [Paragraph(escape(c.header), self.styles["head_right" if c.align == "RIGHT" else "head"]) for c in cols]
        aligns = [("ALIGN", (i, 0), (i, -1), c.align) for i, c in enumerate(cols)]
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


__all__ = ["NationalStandingsDocument", "national_document", "rounds_played"]
