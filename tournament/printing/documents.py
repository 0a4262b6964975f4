"""The six printed documents: standings, game sheet, player sheet, arbitration sheet, blank slips, access cards.

Each ``*_document(...)`` function reads what the document shows (through the models and
:mod:`tournament.services`, never changing anything) and returns a :class:`~tournament.printing.layout.Document`
ready to :meth:`~tournament.pdf.base.Document.build`. The exception is :func:`issue_access_codes`:
access codes are stored hashed (only a two-letter hint is kept), so a card can show a code only
when the code is new — printing cards issues new codes and the previous ones stop working.

Labels are translated with gettext in the active language (the caller activates the tournament's).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.urls import NoReverseMatch, reverse
from django.utils.formats import date_format, number_format
from django.utils.translation import get_language, ngettext
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, LongTable, Paragraph, Spacer, Table, TableStyle

from scoring.board import Board
from scoring.coords import LATIN_ROWS, Convention, row_label
from scoring.rules import SIZE, get_ruleset

from .. import gamestate, labels
from ..models import Game, Penalty, Registration, Round, Slip, Solo, Tournament, Verdict
from ..services import standings as standing_service
from .layout import (
    ACCENT,
    FLAG_BG,
    HEAD_BG,
    INK,
    LINE,
    MUTED,
    ZEBRA,
    Document,
    escape,
    fit_text,
    minus,
    text_width,
)
from .layout import tr as _

#: The path of the tablet login page; the card's QR code holds ``<base>/tablet/login/?code=CODE``.
TABLET_LOGIN_PATH = "/tablet/login/"
FLAG = "\u2691"  # ⚑
MINUS = "\u2212"


# -- shared helpers ----------------------------------------------------------------------------------


def reason_label(reason: str) -> str:
    return labels.reason_label(reason)


def coord_style(tournament: Tournament) -> labels.CoordStyle:
    """The coordinates of the papers: the one rule, for the document's language."""
    return labels.tournament_style(tournament, get_language() or tournament.language)


def uses_cyrillic_labels(tournament: Tournament) -> bool:
    return coord_style(tournament).cyrillic


def show_move(text: str, tournament: Tournament) -> str:
    """A stored move (``H8 WORD``, Latin duplicate notation) in the tournament's convention and row labels."""
    return coord_style(tournament).move(text)


def tournament_dates(t: Tournament) -> str:
    if t.starts_on and t.ends_on and t.ends_on != t.starts_on:
        return f"{date_format(t.starts_on, 'SHORT_DATE_FORMAT')} – {date_format(t.ends_on, 'SHORT_DATE_FORMAT')}"
    day = t.starts_on or t.ends_on
    return date_format(day, "SHORT_DATE_FORMAT") if day else ""


def tournament_subtitle(t: Tournament) -> str:
    return " · ".join(p for p in (tournament_dates(t), t.venue) if p)


def percent(value: float) -> str:
    return number_format(value, 2)


def signed(n: int) -> str:
    return minus(n) if n < 0 else ("+" + str(n) if n > 0 else "0")


def table_style(*extra, header_rows: int = 1, zebra: bool = True, font: str = "", bold: str = "",
                size: float = 8.5) -> TableStyle:
    """The common table look: a shaded header, light rules, zebra rows."""
    cmds = [
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

    def __init__(self, tournament: Tournament, **kwargs):
        super().__init__(heading=tournament.name, subtitle=tournament_subtitle(tournament), **kwargs)
        self.tournament = tournament

    def p(self, text: str, style: str = "cell") -> Paragraph:
        return Paragraph(text, self.styles[style])

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


# -- 1. standings ---------------------------------------------------------------------------------------

def group_title(group_by: str, name: str) -> str:
    label = {"series": _("Series"), "category": _("Category"), "club": _("Club")}[group_by]
    return f"{label}: {name or _('(none)')}"


@dataclass
class StandingsData:
    title: str
    facts: list[str]
    sections: list[tuple[str, list[tuple[int, object]]]]  # (heading, [(rank, Row)])
    game_columns: list[int] = field(default_factory=list)  # game numbers with their own column


class StandingsDocument(SheetDocument):
    MAX_GAME_COLUMNS = 10

    def __init__(self, tournament: Tournament, data: StandingsData, **kwargs):
        self.data = data
        self.landscape = len(data.game_columns) > 3
        super().__init__(tournament, **kwargs)

    def document_title(self) -> str:
        return self.data.title

    def estimated_pages(self) -> int:
        rows = sum(len(r) for _h, r in self.data.sections) + 3 * len(self.data.sections)
        return 1 + rows // (34 if self.landscape else 52)

    def columns(self) -> list[tuple[str, float, str]]:
        """(header, width, alignment) of every column; name and club share what is left."""
        games = self.data.game_columns
        fixed = [
            ("#", 10 * mm, "RIGHT"),
            (_("Name"), 0, "LEFT"),
            (_("Club"), 0, "LEFT"),
            (_("Series"), self.col(_("Series"), 12 * mm), "LEFT"),
            (_("Category"), self.col(_("Category"), 16 * mm), "LEFT"),
            *[(_("G%(n)s") % {"n": n}, 11 * mm, "RIGHT") for n in games],
            (_("Total"), self.col(_("Total"), 13 * mm), "RIGHT"),
            (_("Deficit"), self.col(_("Deficit"), 15 * mm), "RIGHT"),
            ("%", 14 * mm, "RIGHT"),
        ]
        used = sum(w for _h, w, _a in fixed)
        rest = self.frame_width - used
        fixed[1] = (fixed[1][0], rest * 0.58, "LEFT")
        fixed[2] = (fixed[2][0], rest * 0.42, "LEFT")
        return fixed

    def story(self) -> list:
        f = self.fonts
        story = self.title_block(self.data.title, self.data.facts)
        cols = self.columns()
        widths = [w for _h, w, _a in cols]
        header = self.header_row([h for h, _w, _a in cols], right=[i for i, c in enumerate(cols) if c[2] == "RIGHT"])
        name_w, club_w = widths[1] - 6, widths[2] - 6
        size = 8.5
        aligns = [("ALIGN", (i, 0), (i, -1), a) for i, (_h, _w, a) in enumerate(cols)]
        total_col = len(cols) - 3
        for heading, ranked in self.data.sections:
            if heading:
                story.append(Paragraph(escape(heading), self.styles["h2"]))
            rows = [header]
            for rank, row in ranked:
                player = row.player
                line = [
                    str(rank),
                    fit_text(player.name, f.regular, size, name_w),
                    fit_text(player.club, f.regular, size, club_w),
                    fit_text(player.series, f.regular, size, widths[3] - 6),
                    fit_text(player.category, f.regular, size, widths[4] - 6),
                ]
                if self.data.game_columns:
                    per_game = list(row.per_game) + [0] * len(self.data.game_columns)
                    line += [minus(v) for v in per_game[: len(self.data.game_columns)]]
                line += [minus(row.total), minus(row.deficit), percent(row.percentage)]
                rows.append(line)
            if len(rows) == 1:
                story.append(Paragraph(escape(_("No player yet.")), self.styles["small"]))
                continue
            style = table_style(
                *aligns,
                ("FONT", (total_col, 1), (total_col, -1), f.bold, size),
                font=f.regular, bold=f.bold, size=size,
            )
            table = LongTable(rows, colWidths=widths, repeatRows=1, style=style)
            story.append(table)
            story.append(Spacer(1, 3 * mm))
        return story


def standings_document(tournament: Tournament, *, game: Game | None = None, group_by: str | None = None,
                       **kwargs) -> StandingsDocument:
    """Standings of a game (``game``) or of the tournament, in sections by series, category or club on request."""
    if group_by not in (None, "", "series", "category", "club"):
        raise ValueError(f"standings by {group_by!r}: series, category or club")
    players = tournament.registrations.count()
    facts = []
    if game is not None:
        rows = standing_service.game_standings(game)
        rounds = game.rounds.filter(status=Round.Status.PUBLISHED).count()
        title = _("Standings") + " · " + _("Game %(n)s") % {"n": game.number}
        game_columns: list[int] = []
        facts.append(ngettext("after %(n)s round", "after %(n)s rounds", rounds) % {"n": rounds})
        if game.status == Game.Status.FINISHED:
            facts.append(_("game over"))
    else:
        rows = standing_service.tournament_standings(tournament)
        games = list(tournament.games.exclude(status=Game.Status.CANCELLED).order_by("number"))
        rounds = Round.objects.filter(game__in=games, status=Round.Status.PUBLISHED).count()
        title = _("Standings")
        game_columns = [g.number for g in games] if 1 < len(games) <= StandingsDocument.MAX_GAME_COLUMNS else []
        facts += [_("Games: %(n)s") % {"n": len(games)}, _("Rounds: %(n)s") % {"n": rounds}]
    top_total = rows[0].top_total if rows else 0
    facts += [_("Players: %(n)s") % {"n": players},
              _("Top total") + f": {top_total}"]
    if group_by:
        title += " · " + {"series": _("by series"), "category": _("by category"), "club": _("by club")}[group_by]
        groups = standing_service.grouped_standings(tournament, group_by, game)
        sections = [(group_title(group_by, name), [(row.rank, row) for row in groups[name]])
                    for name in sorted(groups, key=lambda n: (n == "", n.casefold()))]
    else:
        sections = [("", [(row.rank, row) for row in rows])]
    data = StandingsData(title=title, facts=[escape(f) for f in facts if f], sections=sections,
                         game_columns=game_columns)
    return StandingsDocument(tournament, data, **kwargs)


# -- the board diagram -------------------------------------------------------------------------------------

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

    Rows are labelled on the left (A–O, or А–П on Cyrillic papers) and columns on top (1–15);
    the English convention labels columns with letters and rows with numbers.
    """

    def __init__(self, ruleset_id: str, fen: str, *, width: float, fonts, cyrillic: bool = False,
                 convention: str = Convention.DUPLICATE, highlight: Iterable[tuple[int, int]] = ()):
        super().__init__()
        self.ruleset = get_ruleset(ruleset_id)
        self.board = Board.from_fen(self.ruleset, fen or None)
        self.fonts = fonts
        self.cyrillic = cyrillic
        self.english = Convention(convention) is Convention.ENGLISH
        self.cell = width / (SIZE + 1)
        self.width = self.height = self.cell * (SIZE + 1)
        self.highlight = set(highlight)

    def wrap(self, avail_width, avail_height):
        return self.width, self.height

    def fill(self, code: str):
        if self.ruleset.letter_colours and code in LITERAKI_WORD_FILL:
            return LITERAKI_WORD_FILL[code]
        return PREMIUM_FILL.get(code, SQUARE_FILL)

    def _row_name(self, r: int) -> str:
        return str(r + 1) if self.english else row_label(r, self.cyrillic)

    def _col_name(self, c: int) -> str:
        return LATIN_ROWS[c] if self.english else str(c + 1)

    def draw(self):
        cv, s, f = self.canv, self.cell, self.fonts
        layout = self.ruleset.layout
        top = self.height
        cv.saveState()
        cv.setFont(f.bold, s * 0.42)
        cv.setFillColor(MUTED)
        for i in range(SIZE):
            cv.drawCentredString(s * (i + 1.5), top - s * 0.68, self._col_name(i))
            cv.drawCentredString(s * 0.5, top - s * (i + 1) - s * 0.66, self._row_name(i))
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

    def _empty_label(self, x, y, code, centre):
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

    def _tile(self, x, y, tile, highlight: bool):
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


def board_legend(ruleset_id: str, styles) -> Paragraph:
    ruleset = get_ruleset(ruleset_id)

    def swatch(colour, text):
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


# -- 2. game sheet ------------------------------------------------------------------------------------------


@dataclass
class SheetRound:
    number: int
    kept: str
    drawn: str
    redraws: int
    rejected: list[str]
    move: str = ""
    score: int | None = None
    cumulative: int | None = None
    bag_after: int | None = None
    status: str = ""


def rack_markup(kept: str, drawn: str, fonts) -> str:
    """``ОЕТ+ВРАК``: the tiles kept from the previous rack (grey) + the new ones (bold)."""
    kept_s = f'<font color="#6b7582">{escape(kept)}</font>' if kept else ""
    drawn_s = f"<b>{escape(drawn)}</b>" if drawn else ""
    body = f"{kept_s}+{drawn_s}" if kept and drawn else (kept_s or drawn_s)
    return f'<font name="{fonts.mono}">{body}</font>'


def _rejected_racks(rnd: Round | None) -> list[str]:
    if rnd is None:
        return []
    return [e.get("rack", "") for e in (rnd.draw_log or []) if not e.get("valid", True) and e.get("rack")]


class GameSheetDocument(SheetDocument):
    def __init__(self, tournament: Tournament, game: Game, rounds: list[SheetRound], fen: str, **kwargs):
        self.game = game
        self.rounds = rounds
        self.fen = fen
        super().__init__(tournament, **kwargs)

    def document_title(self) -> str:
        return _("Game sheet") + " · " + _("Game %(n)s") % {"n": self.game.number}

    def estimated_pages(self) -> int:
        return 2 + len(self.rounds) // 40

    def story(self) -> list:
        f, t = self.fonts, self.tournament
        played = [r for r in self.rounds if r.score is not None]
        top_total = played[-1].cumulative if played else 0
        facts = [
            escape(_("Game %(n)s") % {"n": self.game.number}),
            escape(_("Rounds: %(n)s") % {"n": len(played)}),
            escape(_("Top total") + f": {top_total}"),
            escape(str(Game.Status(self.game.status).label)),
        ]
        story = self.title_block(_("Game sheet"), facts)
        header = self.header_row(["#", _("Rack"), _("Top"), _("Points"), _("Total"), _("Bag")],
                                 right=[0, 3, 4, 5])
        widths = [10 * mm, 64 * mm, 0, self.col(_("Points"), 14 * mm), self.col(_("Total"), 15 * mm),
                  self.col(_("Bag"), 14 * mm)]
        widths[2] = self.frame_width - sum(widths)
        rows: list[list] = [header]
        for r in self.rounds:
            rack = rack_markup(r.kept, r.drawn, f)
            if r.redraws:
                note = _("redraw ×%(n)s") % {"n": r.redraws}
                rejected = ", ".join(r.rejected[:3]) + (" …" if len(r.rejected) > 3 else "")
                rack += f'<br/><font size="7" color="#b5651d">\u21bb {escape(note)}</font>'
                if rejected:
                    rack += f'<font size="6.5" color="#6b7582">: {escape(rejected)}</font>'
            if r.score is None:
                top = Paragraph(f'<font color="#6b7582">{escape(_("not played yet"))}</font>', self.styles["cell"])
            else:
                top = Paragraph(f'<font name="{f.mono}">{escape(show_move(r.move, t))}</font>', self.styles["cell"])
            rows.append([str(r.number), Paragraph(rack, self.styles["cell"]), top,
                         "" if r.score is None else str(r.score),
                         "" if r.cumulative is None else str(r.cumulative),
                         "" if r.bag_after is None else str(r.bag_after)])
        if len(rows) == 1:
            story.append(Paragraph(escape(_("No round published yet.")), self.styles["body"]))
        else:
            style = table_style(("ALIGN", (0, 0), (0, -1), "RIGHT"), ("ALIGN", (3, 0), (-1, -1), "RIGHT"),
                                ("FONT", (4, 1), (4, -1), f.bold, 8.5), font=f.regular, bold=f.bold)
            story.append(LongTable(rows, colWidths=widths, repeatRows=1, style=style))
        story.append(Paragraph(escape(_("Rack: tiles kept from the previous round + new tiles (bold); "
                                         "a blank is ?; in a move a blank is a lower-case letter.")),
                               self.styles["small"]))
        board_title = _("Final board") if self.game.status == Game.Status.FINISHED else (
            _("Board after round %(n)s") % {"n": played[-1].number} if played else _("Board"))
        size = min(self.frame_width, 150 * mm)
        diagram = BoardDiagram(t.ruleset, self.fen, width=size, fonts=f, cyrillic=uses_cyrillic_labels(t),
                               convention=t.convention)
        story.append(KeepTogether([
            Paragraph(escape(board_title), self.styles["h2"]),
            Table([[diagram]], colWidths=[self.frame_width], style=[("ALIGN", (0, 0), (-1, -1), "CENTER"),
                                                                   ("LEFTPADDING", (0, 0), (-1, -1), 0)]),
            Spacer(1, 2 * mm),
            board_legend(t.ruleset, self.styles),
        ]))
        return story


def game_sheet_document(game: Game, **kwargs) -> GameSheetDocument:
    """Every round of a game (rack, top, score, cumulative top) and the board as a diagram."""
    t = game.tournament
    live = {r.number: r for r in game.rounds.exclude(status=Round.Status.CANCELLED).order_by("number", "id")}
    rounds = []
    for rec in gamestate.history(game):
        rounds.append(SheetRound(
            number=rec.round, kept=rec.kept, drawn=rec.drawn, redraws=rec.redraws,
            rejected=_rejected_racks(live.get(rec.round)), move=rec.move, score=rec.score,
            cumulative=rec.cumulative, bag_after=rec.bag_after,
        ))
    done = {r.number for r in rounds}
    for number, rnd in sorted(live.items()):
        if number in done or rnd.status == Round.Status.PUBLISHED:
            continue
        redraws = sum(1 for e in (rnd.draw_log or []) if not e.get("valid", True))
        rounds.append(SheetRound(number=number, kept=rnd.leftover if not redraws else "", drawn=rnd.drawn,
                                 redraws=redraws, rejected=_rejected_racks(rnd), status=rnd.status))
    return GameSheetDocument(t, game, rounds, gamestate.board_fen(game), **kwargs)


# -- 3. player sheet ------------------------------------------------------------------------------------------


@dataclass
class PlayerRound:
    number: int
    slip: str
    late: bool
    reason: str
    warning: bool
    overridden: bool
    awarded: int
    top_move: str
    top: int
    solo: int


@dataclass
class PlayerGame:
    game: Game
    rounds: list[PlayerRound]
    penalties: list[Penalty]

    @property
    def awarded(self) -> int:
        return sum(r.awarded for r in self.rounds)

    @property
    def solos(self) -> int:
        return sum(r.solo for r in self.rounds)

    @property
    def penalty_points(self) -> int:
        return sum(p.points for p in self.penalties)

    @property
    def total(self) -> int:
        return self.awarded + self.solos - self.penalty_points

    @property
    def top_total(self) -> int:
        return sum(r.top for r in self.rounds)

    @property
    def warnings(self) -> int:
        return sum(1 for r in self.rounds if r.warning)

    @property
    def percentage(self) -> float:
        return round(100.0 * self.total / self.top_total, 2) if self.top_total else 0.0


class PlayerSheetDocument(SheetDocument):
    def __init__(self, tournament: Tournament, registration: Registration, games: list[PlayerGame], **kwargs):
        self.registration = registration
        self.games = games
        super().__init__(tournament, **kwargs)

    def document_title(self) -> str:
        return _("Player sheet") + " · " + self.registration.player.name

    def estimated_pages(self) -> int:
        return max(1, sum(len(g.rounds) for g in self.games) // 35 + len(self.games))

    def story(self) -> list:
        f, t, reg = self.fonts, self.tournament, self.registration
        player = reg.player
        facts = [escape(_("Table %(n)s") % {"n": reg.table_number})]
        facts += [escape(f"{label}: {value}") for label, value in
                  ((_("Club"), player.club), (_("Series"), player.series), (_("Category"), player.category),
                   (_("Licence"), player.licence)) if value]
        story = self.title_block(player.name, facts)
        if not self.games:
            story.append(Paragraph(escape(_("No game yet.")), self.styles["body"]))
        header = self.header_row(["#", _("Slip"), _("Verdict"), _("Awarded"), _("Top"), _("Points"), _("Diff.")],
                                 right=[0, 3, 5, 6])
        widths = [9 * mm, 42 * mm, 0, self.col(_("Awarded"), 14 * mm), 34 * mm, self.col(_("Points"), 13 * mm),
                  self.col(_("Diff."), 13 * mm)]
        widths[2] = self.frame_width - sum(widths)
        for pg in self.games:
            story.append(Paragraph(escape(_("Game %(n)s") % {"n": pg.game.number}), self.styles["h2"]))
            if not pg.rounds:
                story.append(Paragraph(escape(_("No round published yet.")), self.styles["small"]))
                continue
            rows: list[list] = [header]
            flags = []
            for i, r in enumerate(pg.rounds, start=1):
                verdict = escape(reason_label(r.reason))
                marks = []
                if r.warning:
                    marks.append(_("warning"))
                if r.overridden:
                    marks.append(_("overridden"))
                if r.solo:
                    marks.append(_("solo") + f" +{r.solo}")
                if marks:
                    verdict += f'<br/><font size="7" color="#b5651d">{escape(" · ".join(marks))}</font>'
                slip = f'<font name="{f.mono}">{escape(r.slip)}</font>' if r.slip else \
                    f'<font color="#6b7582">{escape(_("no slip"))}</font>'
                if r.late:
                    slip += f' <font size="7" color="#b5651d">{escape(_("late"))}</font>'
                rows.append([str(r.number), self.p(slip), self.p(verdict), str(r.awarded),
                             self.p(f'<font name="{f.mono}">{escape(show_move(r.top_move, t))}</font>'),
                             str(r.top), minus(r.awarded - r.top)])
                if labels.flagged(r.reason, r.warning, not r.overridden):
                    flags.append(("BACKGROUND", (0, i), (-1, i), FLAG_BG))
            rows.append(["", _("Total"), "", str(pg.awarded), "", str(pg.top_total), minus(pg.awarded - pg.top_total)])
            last = len(rows) - 1
            style = table_style(
                ("ALIGN", (0, 0), (0, -1), "RIGHT"), ("ALIGN", (3, 0), (3, -1), "RIGHT"),
                ("ALIGN", (5, 0), (6, -1), "RIGHT"), *flags,
                ("FONT", (0, last), (-1, last), f.bold, 8.5), ("LINEABOVE", (0, last), (-1, last), 0.8, MUTED),
                ("BACKGROUND", (0, last), (-1, last), HEAD_BG),
                font=f.regular, bold=f.bold)
            story.append(LongTable(rows, colWidths=widths, repeatRows=1, style=style))
            story.append(Spacer(1, 2 * mm))
            story.append(self._game_summary(pg))
        if len(self.games) > 1:
            story.append(Paragraph(escape(_("Tournament")), self.styles["h2"]))
            rows = [self.header_row([_("Game"), _("Total"), _("Top total"), _("Deficit"), "%"], right=[1, 2, 3, 4])]
            for pg in self.games:
                rows.append([str(pg.game.number), str(pg.total), str(pg.top_total), minus(pg.total - pg.top_total),
                             percent(pg.percentage)])
            total = sum(g.total for g in self.games)
            tops = sum(g.top_total for g in self.games)
            pct = round(100.0 * total / tops, 2) if tops else 0.0
            rows.append([_("Total"), str(total), str(tops), minus(total - tops), percent(pct)])
            last = len(rows) - 1
            story.append(Table(rows, colWidths=[30 * mm, 25 * mm, 25 * mm, 25 * mm, 22 * mm], hAlign="LEFT",
                               style=table_style(("ALIGN", (1, 0), (-1, -1), "RIGHT"),
                                                 ("FONT", (0, last), (-1, last), f.bold, 8.5),
                                                 ("BACKGROUND", (0, last), (-1, last), HEAD_BG),
                                                 font=f.regular, bold=f.bold)))
        return story

    def _game_summary(self, pg: PlayerGame) -> Table:
        f = self.fonts
        t = self.tournament
        lines = [
            (_("Awarded"), str(pg.awarded)),
            (_("Solos"), signed(pg.solos) if pg.solos else "0"),
            (_("Warnings"), f"{pg.warnings} " + _("(%(free)s free)") % {"free": t.free_warnings}),
        ]
        for pen in pg.penalties:
            label = str(Penalty.Kind(pen.kind).label) if pen.kind in Penalty.Kind.values else pen.kind
            lines.append((_("Penalty") + f": {label}" + (f" — {pen.reason}" if pen.reason else ""),
                          minus(-pen.points)))
        lines += [(_("Game total"), str(pg.total)), (_("Top total"), str(pg.top_total)),
                  (_("Deficit"), minus(pg.total - pg.top_total)), ("%", percent(pg.percentage))]
        rows = [[Paragraph(escape(a), self.styles["cell"]), b] for a, b in lines]
        total_row = len(lines) - 4
        return Table(rows, colWidths=[95 * mm, 25 * mm], hAlign="LEFT", style=TableStyle([
            ("FONT", (0, 0), (-1, -1), f.regular, 8.5),
            ("ALIGN", (1, 0), (1, -1), "RIGHT"),
            ("TOPPADDING", (0, 0), (-1, -1), 1.2), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.6),
            ("LINEABOVE", (0, total_row), (-1, total_row), 0.8, MUTED),
            ("FONT", (0, total_row), (-1, total_row), f.bold, 9),
        ]))


def player_sheet_document(registration: Registration, **kwargs) -> PlayerSheetDocument:
    """One player's slips, verdicts, awarded scores against the tops; totals, warnings, penalties, solos."""
    t = registration.tournament
    games = []
    for game in t.games.exclude(status=Game.Status.CANCELLED).order_by("number"):
        rounds = list(game.rounds.filter(status=Round.Status.PUBLISHED).order_by("number"))
        verdicts = {v.round_id: v for v in Verdict.objects.filter(round__in=rounds, registration=registration)
                    .select_related("slip")}
        slips = {s.round_id: s for s in Slip.objects.filter(round__in=rounds, registration=registration)
                 .order_by("version")}  # the last version of each round wins
        current = {s.round_id: s for s in Slip.objects.filter(round__in=rounds, registration=registration,
                                                              is_current=True)}
        solos = {s.round_id: s.points for s in Solo.objects.filter(round__in=rounds, registration=registration)}
        out = []
        for rnd in rounds:
            v = verdicts.get(rnd.pk)
            slip = (v.slip if v is not None and v.slip_id else None) or current.get(rnd.pk) or slips.get(rnd.pk)
            out.append(PlayerRound(
                number=rnd.number, slip=slip.text if slip else "", late=bool(slip and slip.late),
                reason=v.reason if v else "no_slip", warning=bool(v and v.warning),
                overridden=bool(v and not v.automatic), awarded=v.awarded if v else 0,
                top_move=rnd.chosen_move, top=rnd.chosen_score or 0, solo=solos.get(rnd.pk, 0),
            ))
        penalties = list(Penalty.objects.filter(game=game, registration=registration).order_by("id"))
        games.append(PlayerGame(game, out, penalties))
    return PlayerSheetDocument(t, registration, games, **kwargs)


# -- 4. arbitration sheet --------------------------------------------------------------------------------------


@dataclass
class ArbitrationLine:
    table: int
    name: str
    slip: str
    versions: int
    source: str
    late: bool
    verdict: Verdict | None
    solo: int

    @property
    def flagged(self) -> bool:
        v = self.verdict
        return v is None or labels.flagged(v.reason, v.warning, v.automatic)


class ArbitrationDocument(SheetDocument):
    def __init__(self, tournament: Tournament, rnd: Round, lines: list[ArbitrationLine], **kwargs):
        self.round = rnd
        self.lines = lines
        super().__init__(tournament, **kwargs)

    def document_title(self) -> str:
        return (_("Arbitration sheet") + " · " + _("Game %(n)s") % {"n": self.round.game.number} + " · "
                + _("Round %(n)s") % {"n": self.round.number})

    def estimated_pages(self) -> int:
        return 1 + len(self.lines) // 40

    def story(self) -> list:
        f, t, rnd = self.fonts, self.tournament, self.round
        received = sum(1 for line in self.lines if line.slip)
        flagged = sum(1 for line in self.lines if line.flagged)
        top = show_move(rnd.chosen_move, t) if rnd.chosen_move else ""
        facts = [
            escape(_("Rack")) + ": " + rack_markup(
                "" if any(not e.get("valid", True) for e in rnd.draw_log or []) else rnd.leftover, rnd.drawn, f),
            escape(_("Top")) + (f': <font name="{f.mono}">{escape(top)}</font> {rnd.chosen_score}' if top else ": —"),
            escape(str(Round.Status(rnd.status).label)),
            escape(_("%(n)s of %(total)s slips received.") % {"n": received, "total": len(self.lines)}),
            f'<font color="#b5651d">{FLAG}</font> ' + escape(_("To look at: %(n)s") % {"n": flagged}),
        ]
        story = self.title_block(None, facts)
        header = self.header_row([FLAG, _("Table"), _("Player"), _("Slip"), _("Source"), _("Verdict"),
                                  _("True score"), _("Awarded")], right=[1, 6, 7], center=[0])
        widths = [6 * mm, self.col(_("Table"), 10 * mm), 0, 37 * mm, self.col(_("Source"), 15 * mm), 37 * mm,
                  self.col(_("True score"), 13 * mm), self.col(_("Awarded"), 14 * mm)]
        widths[2] = self.frame_width - sum(widths)
        rows: list[list] = [header]
        extra = []
        for i, line in enumerate(self.lines, start=1):
            v = line.verdict
            slip = f'<font name="{f.mono}">{escape(line.slip)}</font>' if line.slip else \
                '<font color="#6b7582">—</font>'
            notes = []
            if line.versions > 1:
                notes.append(_("Versions: %(n)s") % {"n": line.versions})
            if line.late:
                notes.append(_("late"))
            if notes:
                slip += f'<br/><font size="7" color="#b5651d">{escape(", ".join(notes))}</font>'
            if v is None:
                verdict = f'<font color="#6b7582">{escape(_("not judged yet"))}</font>'
            else:
                verdict = escape(reason_label(v.reason))
                marks = []
                if v.warning:
                    marks.append(_("warning"))
                if not v.automatic:
                    marks.append(_("overridden") + (f": {v.override_reason}" if v.override_reason else ""))
                if line.solo:
                    marks.append(_("solo") + f" +{line.solo}")
                if marks:
                    verdict += f'<br/><font size="7" color="#b5651d">{escape(" · ".join(marks))}</font>'
            rows.append([
                FLAG if line.flagged else "", str(line.table),
                self.p(escape(line.name)), self.p(slip), line.source, self.p(verdict),
                "" if v is None or v.true_score is None else str(v.true_score),
                "" if v is None else str(v.awarded),
            ])
            if line.flagged:
                extra += [("BACKGROUND", (0, i), (-1, i), FLAG_BG), ("TEXTCOLOR", (0, i), (0, i), ACCENT)]
        if len(rows) == 1:
            story.append(Paragraph(escape(_("No player yet.")), self.styles["body"]))
            return story
        style = table_style(("ALIGN", (1, 0), (1, -1), "RIGHT"), ("ALIGN", (6, 0), (7, -1), "RIGHT"),
                            ("FONT", (7, 1), (7, -1), f.bold, 8.5), ("ALIGN", (0, 0), (0, -1), "CENTER"),
                            *extra, font=f.regular, bold=f.bold)
        story.append(LongTable(rows, colWidths=widths, repeatRows=1, style=style))
        story.append(Spacer(1, 3 * mm))
        story.append(Paragraph(escape(_("%(flag)s: no verdict yet, a warning, an arbiter's decision, or a verdict "
                                         "other than “right”.") % {"flag": FLAG}), self.styles["small"]))
        return story


def arbitration_document(rnd: Round, **kwargs) -> ArbitrationDocument:
    """Every table's slip and verdict in a round (table order); the ones to look at are flagged."""
    t = rnd.game.tournament
    regs = list(t.registrations.select_related("player").order_by("table_number"))
    verdicts = {v.registration_id: v for v in Verdict.objects.filter(round=rnd).select_related("slip")}
    versions: dict[int, list[Slip]] = defaultdict(list)
    for s in Slip.objects.filter(round=rnd).order_by("version"):
        versions[s.registration_id].append(s)
    solos = {s.registration_id: s.points for s in Solo.objects.filter(round=rnd)}
    sources = dict(Slip.Source.choices)
    lines = []
    for reg in regs:
        v = verdicts.get(reg.pk)
        mine = versions.get(reg.pk, [])
        current = next((s for s in mine if s.is_current), None)
        slip = (v.slip if v is not None and v.slip_id else None) or current or (mine[-1] if mine else None)
        lines.append(ArbitrationLine(
            table=reg.table_number, name=reg.player.name, slip=slip.text if slip else "", versions=len(mine),
            source=str(sources.get(slip.source, slip.source)) if slip else "", late=bool(slip and slip.late),
            verdict=v, solo=solos.get(reg.pk, 0),
        ))
    return ArbitrationDocument(t, rnd, lines, **kwargs)


# -- cards on a grid (slips, access cards) ----------------------------------------------------------------------


def card_grid(cards: Sequence[Flowable], columns: int, width: float, height: float) -> Table:
    """Cards in a table with dashed cutting lines; the table breaks between rows of cards."""
    rows = [list(cards[i:i + columns]) for i in range(0, len(cards), columns)]
    if rows and len(rows[-1]) < columns:
        rows[-1] += [""] * (columns - len(rows[-1]))
    return Table(rows, colWidths=[width] * columns, rowHeights=[height] * len(rows), style=TableStyle([
        ("GRID", (0, 0), (-1, -1), 0.5, LINE, None, (3, 2)),
        ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
        ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ]))


class CardFlowable(Flowable):
    def __init__(self, width: float, height: float, fonts):
        super().__init__()
        self.width, self.height, self.fonts = width, height, fonts

    def wrap(self, avail_width, avail_height):
        return self.width, self.height


# -- 5. blank slips -----------------------------------------------------------------------------------------------


class SlipCard(CardFlowable):
    """A paper slip: tournament, game, round, table (filled in when known), coordinates, word and score boxes."""

    WORD_BOXES = 15

    def __init__(self, width, height, fonts, *, tournament: str, game: int | None, round_number: int | None,
                 table: int | None, name: str, labels: dict[str, str]):
        super().__init__(width, height, fonts)
        self.tournament, self.game, self.round_number = tournament, game, round_number
        self.table, self.name, self.labels = table, name, labels

    def _boxes(self, x, y, count, size, value: str = ""):
        cv = self.canv
        cv.setStrokeColor(MUTED)
        cv.setLineWidth(0.7)
        for i in range(count):
            cv.rect(x + i * size, y, size, size, stroke=1, fill=0)
        if value:
            cv.setFillColor(INK)
            cv.setFont(self.fonts.bold, size * 0.62)
            for i, ch in enumerate(value[:count]):
                cv.drawCentredString(x + (i + 0.5) * size, y + size * 0.26, ch)

    def _label(self, x, y, text):
        self.canv.setFont(self.fonts.regular, 7.5)
        self.canv.setFillColor(MUTED)
        self.canv.drawString(x, y, text)

    def draw(self):
        cv, f, L = self.canv, self.fonts, self.labels
        pad = 5 * mm
        w, h = self.width, self.height
        inner = w - 2 * pad
        # the rows from the top: tournament, game/round/table/player, coordinates/score, word, hint
        cv.setFillColor(INK)
        cv.setFont(f.bold, 10)
        cv.drawString(pad, h - pad - 3.5 * mm, fit_text(self.tournament, f.bold, 10, inner))
        cv.setStrokeColor(LINE)
        cv.setLineWidth(0.5)
        cv.line(pad, h - pad - 5.5 * mm, w - pad, h - pad - 5.5 * mm)
        box = 6.5 * mm
        y = h - pad - 15.5 * mm
        x = pad
        for label, value, count in ((L["game"], self.game, 2), (L["round"], self.round_number, 2),
                                    (L["table"], self.table, 3)):
            self._label(x, y + box + 1.3 * mm, label)
            self._boxes(x, y, count, box, "" if value is None else str(value).rjust(count))
            x += count * box + 4 * mm
        self._label(x, y + box + 1.3 * mm, L["player"])
        if self.name:
            cv.setFillColor(INK)
            cv.setFont(f.bold, 9)
            cv.drawString(x, y + 1.8 * mm, fit_text(self.name, f.bold, 9, w - pad - x))
        else:
            cv.setStrokeColor(MUTED)
            cv.line(x, y + 0.5 * mm, w - pad, y + 0.5 * mm)
        box = 7.5 * mm
        y -= 15 * mm
        self._label(pad, y + box + 1.3 * mm, L["coordinates"])
        self._boxes(pad, y, 3, box)
        score_x = w - pad - 3 * box
        self._label(score_x, y + box + 1.3 * mm, L["score"])
        self._boxes(score_x, y, 3, box)
        size = min(7 * mm, inner / self.WORD_BOXES)
        y -= 8 * mm + size
        self._label(pad, y + size + 1.3 * mm, L["word"])
        self._boxes(pad, y, self.WORD_BOXES, size)
        # the hint, on two lines when needed
        cv.setFont(f.regular, 6.5)
        cv.setFillColor(MUTED)
        words, lines = L["hint"].split(), [""]
        for word in words:
            trial = (lines[-1] + " " + word).strip()
            if text_width(trial, f.regular, 6.5) <= inner or not lines[-1]:
                lines[-1] = trial
            else:
                lines.append(word)
        for i, line in enumerate(lines[:2]):
            cv.drawString(pad, y - (3.6 + 2.9 * i) * mm, fit_text(line, f.regular, 6.5, inner))


class SlipsDocument(SheetDocument):
    COLUMNS = 2
    ROWS = 4

    def __init__(self, tournament: Tournament, slips: list[dict], *, game: int | None, round_number: int | None,
                 **kwargs):
        self.slips = slips
        self.game_number = game
        self.round_number = round_number
        super().__init__(tournament, **kwargs)

    def document_title(self) -> str:
        parts = [_("Slips")]
        if self.game_number:
            parts.append(_("Game %(n)s") % {"n": self.game_number})
        if self.round_number:
            parts.append(_("Round %(n)s") % {"n": self.round_number})
        return " · ".join(parts)

    def estimated_pages(self) -> int:
        return max(1, math.ceil(len(self.slips) / (self.COLUMNS * self.ROWS)))

    def story(self) -> list:
        width = self.frame_width / self.COLUMNS
        height = min(64 * mm, (self.frame_height - 2) / self.ROWS)
        labels = {
            "game": _("Game"), "round": _("Round"), "table": _("Table"), "player": _("Player"),
            "coordinates": _("Coordinates"), "score": _("Score"), "word": _("Word"),
            "hint": _("Write the whole word, the letters already on the board too; a blank in lower case."),
        }
        cards = [SlipCard(width, height, self.fonts, tournament=self.tournament.name, game=self.game_number,
                          round_number=self.round_number, labels=labels, **s) for s in self.slips]
        return [card_grid(cards, self.COLUMNS, width, height)]


def slips_document(tournament: Tournament, *, game: int | None = None, round_number: int | None = None,
                   copies: int = 1, blank: int = 0, **kwargs) -> SlipsDocument:
    """Slips for paper play: ``copies`` per registered table (name and table filled in), or ``blank``
    anonymous ones (a page of them when the tournament has no player yet)."""
    slips = []
    if not blank:
        for reg in tournament.registrations.select_related("player").order_by("table_number"):
            slips += [{"table": reg.table_number, "name": reg.player.name}] * max(1, copies)
    if not slips:
        slips = [{"table": None, "name": ""}] * (blank or SlipsDocument.COLUMNS * SlipsDocument.ROWS)
    return SlipsDocument(tournament, slips, game=game, round_number=round_number, **kwargs)


# -- 6. access cards ------------------------------------------------------------------------------------------------


def tablet_login_url(base_url: str, code: str) -> str:
    """The address a tablet opens to log in with a code: ``<base>/tablet/login/?code=CODE``."""
    try:
        login = reverse("tablet:login")
    except NoReverseMatch:  # the tablet pages are not part of this site's URLs
        login = TABLET_LOGIN_PATH
    return base_url.rstrip("/") + login + "?" + urlencode({"code": code})


class QrCode(Flowable):
    """A QR code drawn as vector squares (sharp at any printer resolution)."""

    def __init__(self, data: str, size: float):
        super().__init__()
        import qrcode
        from qrcode.constants import ERROR_CORRECT_M

        qr = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=2)
        qr.add_data(data)
        qr.make(fit=True)
        self.matrix = qr.get_matrix()
        self.width = self.height = size

    def wrap(self, avail_width, avail_height):
        return self.width, self.height

    def draw(self):
        n = len(self.matrix)
        unit = self.width / n
        cv = self.canv
        cv.setFillColor(colors.white)
        cv.rect(0, 0, self.width, self.height, stroke=0, fill=1)
        cv.setFillColor(colors.black)
        path = cv.beginPath()
        for r, row in enumerate(self.matrix):
            c = 0
            while c < n:
                if row[c]:
                    start = c
                    while c < n and row[c]:
                        c += 1
                    path.rect(start * unit, self.height - (r + 1) * unit, (c - start) * unit, unit)
                else:
                    c += 1
        cv.drawPath(path, stroke=0, fill=1)


class AccessCard(CardFlowable):
    def __init__(self, width, height, fonts, *, tournament: str, name: str, table: int, code: str, url: str,
                 labels: dict[str, str]):
        super().__init__(width, height, fonts)
        self.tournament, self.name, self.table, self.code, self.url = tournament, name, table, code, url
        self.labels = labels
        self.qr_size = min(height - 12 * mm, 34 * mm)
        self.qr = QrCode(url, self.qr_size)

    def draw(self):
        cv, f, L = self.canv, self.fonts, self.labels
        pad = 4.5 * mm
        w, h = self.width, self.height
        qr_x = w - pad - self.qr_size
        text_w = qr_x - pad - 3 * mm
        y = h - pad - 2.8 * mm
        cv.setFillColor(MUTED)
        cv.setFont(f.regular, 7.5)
        cv.drawString(pad, y, fit_text(self.tournament, f.regular, 7.5, w - 2 * pad))
        # name: as large as fits, down to 9 pt, then cut
        size = 13.0
        while size > 9 and text_width(self.name, f.bold, size) > text_w:
            size -= 0.5
        y -= 7 * mm
        cv.setFillColor(INK)
        cv.setFont(f.bold, size)
        cv.drawString(pad, y, fit_text(self.name, f.bold, size, text_w))
        y -= 9.5 * mm
        cv.setFont(f.regular, 7.5)
        cv.setFillColor(MUTED)
        cv.drawString(pad, y + 5.2 * mm, L["table"])
        cv.setFont(f.bold, 18)
        cv.setFillColor(INK)
        cv.drawString(pad, y - 1.5 * mm, str(self.table))
        y -= 11 * mm
        cv.setFont(f.regular, 7.5)
        cv.setFillColor(MUTED)
        cv.drawString(pad, y + 5 * mm, L["code"])
        code_size = 15.0
        while code_size > 10 and text_width(self.code, f.mono_bold, code_size) > text_w:
            code_size -= 0.5
        cv.setFillColor(colors.HexColor("#f1f3f6"))
        cv.roundRect(pad - 1.2 * mm, y - 2.4 * mm, text_width(self.code, f.mono_bold, code_size) + 2.4 * mm,
                     code_size * 0.95 + 1.8 * mm, 1.2 * mm, stroke=0, fill=1)
        cv.setFillColor(INK)
        cv.setFont(f.mono_bold, code_size)
        cv.drawString(pad, y, self.code)
        # the QR code and, under it, the address in small print
        qr_y = h - pad - 5 * mm - self.qr_size
        self.qr.drawOn(cv, qr_x, qr_y)
        cv.setFont(f.regular, 6)
        cv.setFillColor(MUTED)
        cv.drawCentredString(qr_x + self.qr_size / 2, qr_y - 3 * mm, L["scan"])
        address = self.url.split("?", 1)[0]
        cv.drawString(pad, pad - 1.2 * mm, fit_text(address, f.regular, 6, qr_x - pad - 2 * mm))


class AccessCardsDocument(SheetDocument):
    COLUMNS = 2
    ROWS = 5

    def __init__(self, tournament: Tournament, entries: list[tuple[Registration, str]], *, base_url: str,
                 **kwargs):
        self.entries = sorted(entries, key=lambda e: e[0].table_number)
        self.base_url = base_url
        super().__init__(tournament, **kwargs)

    def document_title(self) -> str:
        return _("Access cards")

    def estimated_pages(self) -> int:
        return max(1, math.ceil(len(self.entries) / (self.COLUMNS * self.ROWS)))

    def story(self) -> list:
        width = self.frame_width / self.COLUMNS
        height = min(52 * mm, (self.frame_height - 2) / self.ROWS)
        labels = {"table": _("Table"), "code": _("Access code"), "scan": _("Scan to log in")}
        cards = [AccessCard(width, height, self.fonts, tournament=self.tournament.name, name=reg.player.name,
                            table=reg.table_number, code=code, url=tablet_login_url(self.base_url, code),
                            labels=labels)
                 for reg, code in self.entries]
        if not cards:
            return [Paragraph(escape(_("No player yet.")), self.styles["body"])]
        return [card_grid(cards, self.COLUMNS, width, height)]


def access_cards_document(tournament: Tournament, entries: list[tuple[Registration, str]], *, base_url: str,
                          **kwargs) -> AccessCardsDocument:
    """Cards for (registration, code) pairs: name, table, code and its QR code (the tablet login link).

    The codes are those just returned by :func:`tournament.services.register_player` or
    :func:`issue_access_codes`; nothing is read from or written to the database here.
    """
    if not base_url or "://" not in base_url:
        raise ValueError(f"the tablets' address must be absolute (http://host:port), not {base_url!r}")
    return AccessCardsDocument(tournament, entries, base_url=base_url, **kwargs)
