"""3. The player sheet: one player's slips, verdicts, awarded scores against the tops, game by game; the sheets
of several players (every player, or a club's, a series', a category's) in one PDF, a new page for each.

Every total (awarded, solos, warnings, penalties, game total, top total, deficit, percentage) is the
player's line of the standings (:func:`tournament.services.reading.player_sheet`): nothing is added
up here.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, LongTable, PageBreak, Paragraph, Spacer, Table, TableStyle

from scoring.topping import format_seconds

from ... import labels
from ...services import reading, topping
from ...services.reading import PlayerGame, PlayerRound, PlayerSheet, TournamentInfo
from ...services.topping import GameRow
from ..layout import FLAG_BG, HEAD_BG, MUTED, LazyStory, escape, minus
from ..layout import tr as _
from .common import SheetDocument, marks_markup, move_markup, percent, signed, table_style, written_markup

if TYPE_CHECKING:
    from ...models import Registration, Tournament


class PlayerSheetDocument(SheetDocument):
    def __init__(self, info: TournamentInfo, sheet: PlayerSheet, *, times: dict[int, dict[int, GameRow]] | None = None,
                 **kwargs: Any):
        self.sheet = sheet
        self.times = times or {}  # topping games' lines by total time
        super().__init__(info, **kwargs)

    def document_title(self) -> str:
        return _("Player sheet") + " · " + self.sheet.name

    def estimated_pages(self) -> int:
        return max(1, sum(len(g.rounds) for g in self.sheet.games) // 35 + len(self.sheet.games))

    def story(self) -> list:
        return self.sheet_story(self.sheet)

    def topping_lines(self, row: GameRow) -> list:
        """Topping: the player's total time, rank, tops and each round's time (limit + penalty when not topped)."""
        head = _("Topping: total time %(time)s, rank %(rank)s, tops %(tops)s, attempts %(attempts)s") % {
            "time": format_seconds(row["total"]), "rank": row["rank"], "tops": row["topped"],
            "attempts": row["attempts"]}
        per_round = " · ".join(f"{i}: {format_seconds(s)}" for i, s in enumerate(row["rounds"], 1))
        return [Spacer(1, 1 * mm), Paragraph(f"<b>{escape(head)}</b>", self.styles["body"]),
                Paragraph(escape(per_round), self.styles["small"])]

    def sheet_story(self, sheet: PlayerSheet) -> list:
        """One player's pages: the facts, each game's rounds and summary, the tournament's figures."""
        facts = [escape(_("Table %(n)s") % {"n": sheet.table})]
        facts += [escape(f"{label}: {value}") for label, value in
                  ((_("Club"), sheet.club), (_("Series"), sheet.series), (_("Category"), sheet.category),
                   (_("Licence"), sheet.licence)) if value]
        story = self.title_block(sheet.name, facts)
        if not sheet.games:
            story.append(Paragraph(escape(_("No game yet.")), self.styles["body"]))
        for pg in sheet.games:
            story.append(Paragraph(escape(_("Game %(n)s") % {"n": pg.number}), self.styles["h2"]))
            if not pg.rounds:
                story.append(Paragraph(escape(_("No round published yet.")), self.styles["small"]))
                continue
            story.append(self.rounds_table(pg))
            story.append(Spacer(1, 2 * mm))
            story.append(self.game_summary(pg))
            timed = self.times.get(pg.number, {}).get(sheet.table)
            if timed is not None:
                story += self.topping_lines(timed)
        if len(sheet.games) > 1:
            story.append(Paragraph(escape(_("Tournament")), self.styles["h2"]))
            story.append(self.tournament_table(sheet))
        return story

    def round_row(self, r: PlayerRound) -> list:
        f = self.fonts
        marks = []
        if r.warning:
            marks.append(_("warning"))
        if r.overridden:
            marks.append(_("overridden"))
        if r.solo:
            marks.append(_("solo") + f" +{r.solo}")
        verdict = escape(labels.reason_label(r.reason)) + marks_markup(marks)
        slip = written_markup(r.slip, f) if r.slip else \
            f'<font color="#6b7582">{escape(_("no slip"))}</font>'
        if r.late:
            slip += f' <font size="7" color="#b5651d">{escape(_("late"))}</font>'
        return [str(r.number), self.p(slip, shared=not r.slip), self.p(verdict, shared=True), str(r.awarded),
                self.p(move_markup(r.top_move, self.tournament, f), shared=True),
                str(r.top), minus(r.awarded - r.top)]

    def rounds_table(self, pg: PlayerGame) -> LongTable:
        """The rounds of a game: slip, verdict, awarded, top; a total row (the standings line's figures)."""
        f, line = self.fonts, pg.line
        header = self.header_row(["#", _("Slip"), _("Verdict"), _("Awarded"), _("Top"), _("Points"), _("Diff.")],
                                 right=[0, 3, 5, 6])
        widths = [9 * mm, 42 * mm, 0, self.col(_("Awarded"), 14 * mm), 34 * mm, self.col(_("Points"), 13 * mm),
                  self.col(_("Diff."), 13 * mm)]
        widths[2] = self.frame_width - sum(widths)
        rows: list[list] = [header]
        flags = []
        for i, r in enumerate(pg.rounds, start=1):
            rows.append(self.round_row(r))
            if labels.flagged(r.reason, r.warning, not r.overridden):
                flags.append(("BACKGROUND", (0, i), (-1, i), FLAG_BG))
        rows.append(["", _("Total"), "", str(line.awarded), "", str(line.top_total),
                     minus(line.awarded - line.top_total)])
        last = len(rows) - 1
        style = table_style(
            ("ALIGN", (0, 0), (0, -1), "RIGHT"), ("ALIGN", (3, 0), (3, -1), "RIGHT"),
            ("ALIGN", (5, 0), (6, -1), "RIGHT"), *flags,
            ("FONT", (0, last), (-1, last), f.bold, 8.5), ("LINEABOVE", (0, last), (-1, last), 0.8, MUTED),
            ("BACKGROUND", (0, last), (-1, last), HEAD_BG),
            font=f.regular, bold=f.bold)
        return LongTable(rows, colWidths=widths, repeatRows=1, style=style)

    def game_summary(self, pg: PlayerGame) -> Table:
        f, line = self.fonts, pg.line
        lines = [
            (_("Awarded"), str(line.awarded)),
            (_("Solos"), signed(line.solos) if line.solos else "0"),
            (_("Warnings"), f"{line.warnings} " + _("(%(free)s free)") % {"free": pg.free_warnings}),
        ]
        for pen in pg.penalties:
            lines.append((_("Penalty") + f": {pen.label}" + (f" — {pen.reason}" if pen.reason else ""),
                          minus(-pen.points)))
        lines += [(_("Game total"), str(line.total)), (_("Top total"), str(line.top_total)),
                  (_("Deficit"), minus(line.deficit)), ("%", percent(line.percentage))]
        rows = [[Paragraph(escape(a), self.styles["cell"]), b] for a, b in lines]
        total_row = len(lines) - 4
        return Table(rows, colWidths=[95 * mm, 25 * mm], hAlign="LEFT", style=TableStyle([
            ("FONT", (0, 0), (-1, -1), f.regular, 8.5),
            ("ALIGN", (1, 0), (1, -1), "RIGHT"),
            ("TOPPADDING", (0, 0), (-1, -1), 1.2), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.6),
            ("LINEABOVE", (0, total_row), (-1, total_row), 0.8, MUTED),
            ("FONT", (0, total_row), (-1, total_row), f.bold, 9),
        ]))

    def tournament_table(self, sheet: PlayerSheet) -> Table:
        """Every game's total against its tops, and the tournament's (the tournament standings line)."""
        f = self.fonts
        rows = [self.header_row([_("Game"), _("Total"), _("Top total"), _("Deficit"), "%"], right=[1, 2, 3, 4])]
        for pg in sheet.games:
            line = pg.line
            rows.append([str(pg.number), str(line.total), str(line.top_total), minus(line.deficit),
                         percent(line.percentage)])
        overall = sheet.overall
        rows.append([_("Total"), str(overall.total), str(overall.top_total), minus(overall.deficit),
                     percent(overall.percentage)])
        last = len(rows) - 1
        return Table(rows, colWidths=[30 * mm, 25 * mm, 25 * mm, 25 * mm, 22 * mm], hAlign="LEFT",
                     style=table_style(("ALIGN", (1, 0), (-1, -1), "RIGHT"),
                                       ("FONT", (0, last), (-1, last), f.bold, 8.5),
                                       ("BACKGROUND", (0, last), (-1, last), HEAD_BG),
                                       font=f.regular, bold=f.bold))


class SheetStart(Flowable):
    """Where a player's pages begin (nothing drawn): the page header names the player from there on."""

    def __init__(self, name: str):
        super().__init__()
        self.name = name

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return 0, 0

    def draw(self) -> None:
        pass


class PlayerSheetsDocument(PlayerSheetDocument):
    """The sheets of several players in one PDF, each from a new page; ``scope``: whose (e.g. "Club: Київ").

    ``sheets`` (``count`` of them) may be an iterator (:func:`tournament.services.reading.player_sheets`): each is
    made when the layout reaches it (a hall's sheets are never all in memory)."""

    def __init__(self, info: TournamentInfo, sheets: Iterable[PlayerSheet], *, count: int, scope: str = "",
                 **kwargs: Any):
        rest = iter(sheets)
        first = next(rest, None)
        if first is None:
            raise ValueError("the player sheets need at least one player")
        self.sheets: Iterator[PlayerSheet] = itertools.chain([first], rest)
        self.count = count
        self.scope = scope
        self.current = ""  # the player of the page being laid out (the header's)
        super().__init__(info, first, **kwargs)

    def document_title(self) -> str:
        if self.current:
            return _("Player sheet") + " · " + self.current
        return " · ".join(p for p in (_("Player sheets"), self.scope) if p)

    def estimated_pages(self) -> int:
        # every player has the same published rounds: the first sheet's pages, times the players
        return self.count * super().estimated_pages()

    def after_flowable(self, flowable: Flowable) -> None:
        if isinstance(flowable, SheetStart):
            self.current = flowable.name

    def story(self) -> list:
        def parts() -> Iterator[list]:
            for i, sheet in enumerate(self.sheets):
                yield ([PageBreak()] if i else []) + [SheetStart(sheet.name), *self.sheet_story(sheet)]

        return LazyStory(parts())


def player_sheets_document(tournament: Tournament, *, group_by: str | None = None, group: str | None = None,
                           **kwargs: Any) -> PlayerSheetsDocument:
    """The player sheets of every player, or of the players of one club, series or category (``group_by``,
    ``group``), in table order, in one PDF (each sheet read and laid out in turn)."""
    regs = reading.sheet_registrations(tournament, group_by, group)
    scope = ""
    if group_by and group is not None:
        kind = {"club": _("Club"), "series": _("Series"), "category": _("Category")}[group_by]
        scope = f"{kind}: {group or _('(none)')}"
    return PlayerSheetsDocument(reading.tournament_info(tournament), reading.player_sheets(tournament, regs),
                                count=len(regs), scope=scope, times=topping.times_by_game(tournament), **kwargs)


def player_sheet_document(registration: Registration, **kwargs: Any) -> PlayerSheetDocument:
    """One player's slips, verdicts, awarded scores against the tops; totals, warnings, penalties, solos."""
    return PlayerSheetDocument(reading.tournament_info(registration.tournament), reading.player_sheet(registration),
                               times=topping.times_by_game(registration.tournament), **kwargs)


__all__ = ["PlayerSheetDocument", "PlayerSheetsDocument", "SheetStart", "player_sheet_document",
           "player_sheets_document"]
