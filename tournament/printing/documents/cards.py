"""5. Blank slips and 6. access cards: cards on a grid with dashed cutting lines.

A slip has the tournament, game, round and table (filled in when known), boxes for the coordinates,
the word and the score. An access card has the player's name, table, access code and the code's QR
code (the tablet login link). Access codes are stored hashed: a card shows a code only when it is new,
so the codes come from :func:`tournament.services.players.new_access_codes` (``printing.build`` has
them saved once the file is written); nothing is read from or written to the database here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

import qrcode
from django.urls import NoReverseMatch, reverse
from qrcode.constants import ERROR_CORRECT_M
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Table, TableStyle

from ...services import reading
from ...services.reading import Seat, TournamentInfo
from ..layout import INK, LINE, MUTED, Fonts, escape, fit_lines, fit_text, text_width
from ..layout import tr as _
from .common import SheetDocument

if TYPE_CHECKING:
    from ...models import Registration, Tournament

#: The path of the tablet login page; the card's QR code holds ``<base>/tablet/login/?code=CODE``.
TABLET_LOGIN_PATH = "/tablet/login/"


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


def draw_lines(cv: Any, text: str, font: str, x: float, bottom: float, width: float, height: float, *,
               largest: float = 9, smallest: float = 5.5) -> None:
    """``text`` in the box (x, bottom, width, height), as large as fits, on as few lines as it can, never cut
    (:func:`~tournament.printing.layout.fit_lines`); centred in the box's height."""
    size, lines = fit_lines(text, font, width, height, largest=largest, smallest=smallest)
    draw_fitted(cv, lines, font, size, x, bottom, height)


def draw_fitted(cv: Any, lines: list[str], font: str, size: float, x: float, bottom: float, height: float) -> None:
    """Lines already fitted at ``size`` points, centred in the height of the box that starts at ``bottom``."""
    leading = size * 1.12
    block = leading * len(lines)
    first = bottom + (height + block) / 2 - size * 0.9  # the first line's baseline
    cv.setFillColor(INK)
    cv.setFont(font, size)
    for i, line in enumerate(lines):
        cv.drawString(x, first - i * leading, line)


class CardFlowable(Flowable):
    def __init__(self, width: float, height: float, fonts: Fonts):
        super().__init__()
        self.width, self.height, self.fonts = width, height, fonts

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return self.width, self.height


# -- 5. blank slips -----------------------------------------------------------------------------------------------


class SlipCard(CardFlowable):
    """A paper slip: tournament, game, round, table (filled in when known), coordinates, word and score boxes."""

    WORD_BOXES = 15

    def __init__(self, width: float, height: float, fonts: Fonts, *, tournament: str, game: int | None,
                 round_number: int | None, table: int | None, name: str, labels: dict[str, str]):
        super().__init__(width, height, fonts)
        self.tournament, self.game, self.round_number = tournament, game, round_number
        self.table, self.name, self.labels = table, name, labels

    def _boxes(self, x: float, y: float, count: int, size: float, value: str = "") -> None:
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

    def _label(self, x: float, y: float, text: str) -> None:
        self.canv.setFont(self.fonts.regular, 7.5)
        self.canv.setFillColor(MUTED)
        self.canv.drawString(x, y, text)

    def draw(self) -> None:
        cv, f, L = self.canv, self.fonts, self.labels
        pad = 4.5 * mm
        w, h = self.width, self.height
        inner = w - 2 * pad
        # the rows from the top: tournament, player (the whole width: a long name is never cut),
        # game/round/table, coordinates/score, word, hint
        cv.setFillColor(INK)
        cv.setFont(f.bold, 9)
        cv.drawString(pad, h - pad - 3 * mm, fit_text(self.tournament, f.bold, 9, inner))
        label_w = text_width(L["player"], f.regular, 7.5) + 2 * mm
        self._label(pad, h - pad - 8.2 * mm, L["player"])
        if self.name:  # smaller, then on two or three lines
            draw_lines(cv, self.name, f.bold, pad + label_w, h - pad - 12.8 * mm, inner - label_w, 8.6 * mm,
                       largest=11, smallest=6)
        cv.setStrokeColor(LINE if self.name else MUTED)  # no name printed: the line to write it on
        cv.setLineWidth(0.5 if self.name else 0.7)
        cv.line(pad if self.name else pad + label_w, h - pad - 13.7 * mm, w - pad, h - pad - 13.7 * mm)
        box = 6.5 * mm
        y = h - pad - 24.4 * mm
        x = pad
        for label, value, count in ((L["game"], self.game, 2), (L["round"], self.round_number, 2),
                                    (L["table"], self.table, 3)):
            self._label(x, y + box + 1.3 * mm, label)
            self._boxes(x, y, count, box, "" if value is None else str(value).rjust(count))
            x += count * box + 4 * mm
        box = 7.5 * mm
        y -= 13 * mm
        self._label(pad, y + box + 1.3 * mm, L["coordinates"])
        self._boxes(pad, y, 3, box)
        score_x = w - pad - 3 * box
        self._label(score_x, y + box + 1.3 * mm, L["score"])
        self._boxes(score_x, y, 3, box)
        size = min(7 * mm, inner / self.WORD_BOXES)
        y -= 6.5 * mm + size
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

    def __init__(self, info: TournamentInfo, slips: list[tuple[int | None, str]], *, game: int | None,
                 round_number: int | None, **kwargs: Any):
        self.slips = slips  # (table, name) of each slip; (None, "") for an anonymous one
        self.game_number = game
        self.round_number = round_number
        super().__init__(info, **kwargs)

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
                          round_number=self.round_number, table=table, name=name, labels=labels)
                 for table, name in self.slips]
        return [card_grid(cards, self.COLUMNS, width, height)]


def slips_document(tournament: Tournament, *, game: int | None = None, round_number: int | None = None,
                   copies: int = 1, blank: int = 0, **kwargs: Any) -> SlipsDocument:
    """Slips for paper play: ``copies`` per registered table (name and table filled in), or ``blank``
    anonymous ones (a page of them when the tournament has no player yet)."""
    slips: list[tuple[int | None, str]] = []
    if not blank:
        for seat in reading.seats(tournament):
            slips += [(seat.table, seat.name)] * max(1, copies)
    if not slips:
        slips = [(None, "")] * (blank or SlipsDocument.COLUMNS * SlipsDocument.ROWS)
    return SlipsDocument(reading.tournament_info(tournament), slips, game=game, round_number=round_number,
                         **kwargs)


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
        qr = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=2)
        qr.add_data(data)
        qr.make(fit=True)
        self.matrix = qr.get_matrix()
        self.width = self.height = size

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
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
    def __init__(self, width: float, height: float, fonts: Fonts, *, tournament: str, name: str, table: int,
                 code: str, url: str, labels: dict[str, str]):
        super().__init__(width, height, fonts)
        self.tournament, self.name, self.table, self.code, self.url = tournament, name, table, code, url
        self.labels = labels
        self.qr_size = min(height - 12 * mm, 34 * mm)
        self.qr = QrCode(url, self.qr_size)

    def draw(self) -> None:
        cv, f, L = self.canv, self.fonts, self.labels
        pad = 4.5 * mm
        w, h = self.width, self.height
        qr_x = w - pad - self.qr_size
        text_w = qr_x - pad - 3 * mm
        y = h - pad - 2.8 * mm
        cv.setFillColor(MUTED)
        cv.setFont(f.regular, 7.5)
        cv.drawString(pad, y, fit_text(self.tournament, f.regular, 7.5, w - 2 * pad))
        # name: as large as fits on one line down to 9 pt, then on two or three larger lines, never cut; a name
        # on more lines than its 7.6 mm take pushes the rest down into the room left above the address
        y -= 7 * mm
        size, lines = fit_lines(self.name, f.bold, text_w, 14 * mm, largest=13, smallest=6, one_line_down_to=9)
        box = max(7.6 * mm, len(lines) * size * 1.12 + 0.6 * mm)
        draw_fitted(cv, lines, f.bold, size, pad, y + 6.2 * mm - box, box)
        y -= 9.5 * mm + (box - 7.6 * mm)
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

    def __init__(self, info: TournamentInfo, entries: list[tuple[Seat, str]], *, base_url: str, **kwargs: Any):
        self.entries = sorted(entries, key=lambda e: e[0].table)  # (player at a table, new access code)
        self.base_url = base_url
        super().__init__(info, **kwargs)

    def document_title(self) -> str:
        return _("Access cards")

    def estimated_pages(self) -> int:
        return max(1, math.ceil(len(self.entries) / (self.COLUMNS * self.ROWS)))

    def story(self) -> list:
        width = self.frame_width / self.COLUMNS
        height = min(52 * mm, (self.frame_height - 2) / self.ROWS)
        labels = {"table": _("Table"), "code": _("Access code"), "scan": _("Scan to log in")}
        cards = [AccessCard(width, height, self.fonts, tournament=self.tournament.name, name=seat.name,
                            table=seat.table, code=code, url=tablet_login_url(self.base_url, code), labels=labels)
                 for seat, code in self.entries]
        if not cards:
            return [Paragraph(escape(_("No player yet.")), self.styles["body"])]
        return [card_grid(cards, self.COLUMNS, width, height)]


def access_cards_document(tournament: Tournament, entries: list[tuple[Registration, str]], *, base_url: str,
                          **kwargs: Any) -> AccessCardsDocument:
    """Cards for (registration, code) pairs: name, table, code and its QR code (the tablet login link).

    The codes are those just made by :func:`tournament.services.players.new_access_codes` (or returned
    by :func:`~tournament.services.players.register_player`); nothing is written here.
    """
    if not base_url or "://" not in base_url:
        raise ValueError(f"the tablets' address must be absolute (http://host:port), not {base_url!r}")
    cards = [(reading.seat_of(reg), code) for reg, code in entries]
    return AccessCardsDocument(reading.tournament_info(tournament), cards, base_url=base_url, **kwargs)


__all__ = ["TABLET_LOGIN_PATH", "AccessCard", "AccessCardsDocument", "QrCode", "SlipCard", "SlipsDocument",
           "access_cards_document", "card_grid", "slips_document", "tablet_login_url"]
