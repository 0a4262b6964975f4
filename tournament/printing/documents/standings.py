"""1. Standings of a game or of the tournament, in sections by series, category or club on request."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import ngettext
from reportlab.lib.units import mm
from reportlab.platypus import LongTable, Paragraph, Spacer

from scoring.topping import format_seconds

from ...services import reading, topping
from ...services.reading import StandingsSheet, TournamentInfo
from ...services.standings import Standing
from ...services.topping import GameRow
from ..columns import Column, column_widths, fits, one_line, words_cell
from ..layout import escape, minus
from ..layout import tr as _
from .common import SheetDocument, percent, table_style

if TYPE_CHECKING:
    from ...models import Game, Tournament

GROUPS = ("series", "category", "club")


def group_title(group_by: str, name: str) -> str:
    label = {"series": _("Series"), "category": _("Category"), "club": _("Club")}[group_by]
    return f"{label}: {name or _('(none)')}"


class StandingsDocument(SheetDocument):
    MAX_GAME_COLUMNS = 10

    def __init__(self, info: TournamentInfo, data: StandingsSheet, *, group_by: str | None = None,
                 times: list[GameRow] | None = None, **kwargs: Any):
        self.data = data
        self.times = times or []  # topping: the standings by total time
        self.group_by = group_by if data.grouped else None
        counted = data.games
        #: the game numbers with their own column (tournament standings of 2 to 10 games)
        self.game_columns = counted if data.game is None and 1 < len(counted) <= self.MAX_GAME_COLUMNS else []
        self.landscape = len(self.game_columns) > 3
        super().__init__(info, **kwargs)
        f = self.fonts  # the page turns when the columns do not fit it with every value whole
        self.landscape = self.landscape or not fits(self.columns(), self.frame_width, font=f.regular, bold=f.bold,
                                                    size=8.5)

    def standings_title(self) -> str:
        title = _("Standings")
        if self.data.game is not None:
            title += " · " + _("Game %(n)s") % {"n": self.data.game}
        if self.group_by:
            title += " · " + {"series": _("by series"), "category": _("by category"),
                              "club": _("by club")}[self.group_by]
        return title

    def document_title(self) -> str:
        return self.standings_title()

    def facts(self) -> list[str]:
        data = self.data
        if data.game is not None:
            facts = [ngettext("after %(n)s round", "after %(n)s rounds", data.rounds) % {"n": data.rounds}]
            if data.finished:
                facts.append(_("game over"))
        else:
            facts = [_("Games: %(n)s") % {"n": len(data.games)}, _("Rounds: %(n)s") % {"n": data.rounds}]
        facts += [_("Players: %(n)s") % {"n": data.players}, _("Top total") + f": {data.top_total}"]
        return [escape(f) for f in facts if f]

    def estimated_pages(self) -> int:
        rows = sum(len(r) for _h, r in self.data.sections) + 3 * len(self.data.sections)
        return 1 + rows // (34 if self.landscape else 52)

    def columns(self) -> list[Column]:
        """Every column, sized to what it prints; name and club share what is left."""
        rows = [row for _name, ranked in self.data.sections for row in ranked]
        people = [row.player for row in rows]
        games = [list(row.per_game) + [0] * len(self.game_columns) for row in rows]
        return [
            Column("#", "RIGHT", [str(row.rank) for row in rows], 10 * mm),
            Column(_("Name"), texts=[p.name for p in people], grow=0.58),
            Column(_("Club"), texts=[p.club for p in people], grow=0.42),
            Column(_("Series"), texts=[p.series for p in people], minimum=12 * mm),
            Column(_("Category"), texts=[p.category for p in people], minimum=16 * mm),
            *[Column(_("G%(n)s") % {"n": n}, "RIGHT", [minus(g[i]) for g in games], 11 * mm)
              for i, n in enumerate(self.game_columns)],
            Column(_("Total"), "RIGHT", [minus(row.total) for row in rows], 13 * mm),
            Column(_("Deficit"), "RIGHT", [minus(row.deficit) for row in rows], 15 * mm),
            Column("%", "RIGHT", [percent(row.percentage) for row in rows], 14 * mm),
        ]

    def whole(self, text: str, width: float, size: float) -> str | Paragraph:
        """A name as printed in its column: on one line when it fits, else wrapped between words (never cut)."""
        return words_cell(text, width, self.fonts.regular, self.styles["cell"])

    def line(self, row: Standing, widths: list[float], size: float) -> list[str | Paragraph]:
        """A standings row as printed: rank, player, the game totals when shown, total, deficit, percentage."""
        f, player = self.fonts, row.player
        line: list[str | Paragraph] = [
            str(row.rank),
            self.whole(player.name, widths[1], size),
            self.whole(player.club, widths[2], size),
            one_line(player.series, widths[3], f.regular, size),
            one_line(player.category, widths[4], f.regular, size),
        ]
        if self.game_columns:
            per_game = list(row.per_game) + [0] * len(self.game_columns)
            line += [minus(v) for v in per_game[: len(self.game_columns)]]
        return line + [minus(row.total), minus(row.deficit), percent(row.percentage)]

    def story(self) -> list:
        f = self.fonts
        story = self.title_block(self.standings_title(), self.facts())
        if self.times:  # topping: the times first, the points below
            story += self.times_story()
        cols = self.columns()
        size = 8.5
        widths = column_widths(cols, self.frame_width, font=f.regular, bold=f.bold, size=size)
        header = self.header_row([c.header for c in cols], right=[i for i, c in enumerate(cols) if c.align == "RIGHT"])
        aligns = [("ALIGN", (i, 0), (i, -1), c.align) for i, c in enumerate(cols)]
        total_col = len(cols) - 3
        for name, ranked in self.data.sections:
            if self.group_by:
                story.append(Paragraph(escape(group_title(self.group_by, name)), self.styles["h2"]))
            if not ranked:
                story.append(Paragraph(escape(_("No player yet.")), self.styles["small"]))
                continue
            rows = [header] + [self.line(row, widths, size) for row in ranked]
            style = table_style(*aligns, ("FONT", (total_col, 1), (total_col, -1), f.bold, size),
                                font=f.regular, bold=f.bold, size=size)
            story.append(LongTable(rows, colWidths=widths, repeatRows=1, style=style))
            story.append(Spacer(1, 3 * mm))
        return story

    def times_story(self) -> list:
        """Topping: the standings by total time (lowest first), before the points."""
        f, size = self.fonts, 8.5
        head = ["#", _("Table"), _("Name"), _("Total time"), _("Tops"), _("Attempts")]
        rest = self.frame_width - (10 + 14 + 22 + 14 + 18) * mm
        widths = [10 * mm, 14 * mm, rest, 22 * mm, 14 * mm, 18 * mm]
        rows: list[list[Any]] = [self.header_row(head, right=[0, 1, 3, 4, 5])]
        rows += [[str(r["rank"]), str(r["table"]), self.whole(r["name"], widths[2], size),
                  format_seconds(r["total"]), str(r["topped"]), str(r["attempts"])] for r in self.times]
        aligns = [("ALIGN", (i, 0), (i, -1), "RIGHT") for i in (0, 1, 3, 4, 5)]
        style = table_style(*aligns, ("FONT", (3, 1), (3, -1), f.bold, size), font=f.regular, bold=f.bold, size=size)
        return [Paragraph(escape(_("Topping: standings by total time")), self.styles["h2"]),
                Paragraph(escape(_("Lowest total first; a round not topped counts the limit plus the penalty. "
                                   "Points below, as in every game.")), self.styles["small"]),
                LongTable(rows, colWidths=widths, repeatRows=1, style=style), Spacer(1, 3 * mm)]


def standings_document(tournament: Tournament, *, game: Game | None = None, group_by: str | None = None,
                       **kwargs: Any) -> StandingsDocument:
    """Standings of a game (``game``) or of the tournament, in sections by series, category or club on request."""
    if group_by not in (None, "", *GROUPS):
        raise ValueError(f"standings by {group_by!r}: series, category or club")
    data = reading.standings_sheet(tournament, game=game, group_by=group_by or None)
    times = topping.standings_times(tournament, game) if not group_by else []
    return StandingsDocument(reading.tournament_info(tournament), data, group_by=group_by, times=times, **kwargs)


__all__ = ["StandingsDocument", "group_title", "standings_document"]
