"""How a person reads a coordinate: one rule for the row letters and the convention of a tournament
(:func:`tournament_style`), one way to show a stored move or a slip (:class:`CoordStyle`), the letter of a written
coordinate drawn apart (:func:`letter_parts`: a row З is never read as the digit 3), and what a coordinate input says
under it while it is typed (:data:`COORD_ECHO`).

The engine writes moves in the duplicate convention with Latin rows (``H8 WORD``, ``scoring/coords.py``); nothing
else in the tournament side decides how a coordinate is shown. :mod:`tournament.labels` names these for the pages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.coords import LATIN_ROWS, Convention, Coord, CoordError, format_coord, parse_coord, row_label
from scoring.rules import SIZE, RulesError, get_ruleset

#: Languages whose tournaments start with Cyrillic row letters on a Cyrillic rule set.
CYRILLIC_READERS = ("ru", "uk")
LATIN, CYRILLIC = "latin", "cyrillic"


@dataclass(frozen=True)
class CoordStyle:
    """How coordinates are shown: the convention and whether rows are Cyrillic letters."""

    convention: str = Convention.DUPLICATE
    cyrillic: bool = False

    @property
    def english(self) -> bool:
        return self.convention == Convention.ENGLISH

    def move(self, text: str) -> str:
        """A stored move (``H8 WORD``: duplicate convention, Latin rows) as this style writes it."""
        if not text:
            return ""
        coord_text, _sep, word = str(text).partition(" ")
        try:
            coord = parse_coord(coord_text, cyrillic=False, convention=Convention.DUPLICATE)
        except CoordError:
            return str(text)
        return f"{format_coord(coord, convention=self.convention, cyrillic=self.cyrillic)} {word}".strip()

    def example(self) -> str:
        """Coordinates to show as an example: across and down from the 4th row, 8th column ("D8 / 8D", "Г8 / 8Г":
        a row without a look-alike among the digits)."""
        across, down = Coord(3, 7, False), Coord(3, 7, True)
        return " / ".join(format_coord(c, convention=self.convention, cyrillic=self.cyrillic) for c in (across, down))

    def coordinate(self, written: str) -> str:
        """Coordinates as a player wrote them (either script) in this style: a Latin H6 in a hall of Cyrillic rows
        is shown З6 — never left as H6, which an arbiter would read as the Cyrillic Н (row 13). Unreadable
        coordinates are shown as written."""
        text = (written or "").strip()
        if not text:
            return ""
        try:
            coord = parse_coord(text, cyrillic=True, convention=self.convention)
        except CoordError:
            return text
        return format_coord(coord, convention=self.convention, cyrillic=self.cyrillic)

    def slip(self, coordinates: str, word: str, score: int | None) -> str:
        """A slip as the hall reads it: its coordinates in this style, the word and the score as written."""
        parts = [self.coordinate(coordinates), word, "" if score is None else str(score)]
        return " ".join(p for p in parts if p)

    def rows(self) -> list[str]:
        """The labels down the side of the board."""
        if self.english:
            return [str(i + 1) for i in range(SIZE)]
        return [row_label(i, self.cyrillic) for i in range(SIZE)]

    def columns(self) -> list[str]:
        """The labels across the top of the board."""
        if self.english:
            return list(LATIN_ROWS)
        return [str(i + 1) for i in range(SIZE)]


#: What a coordinate input says under it while it is typed (``static/js/coords.js``, ``echo``): the square the
#: typed text names, or why it cannot be read. Placeholders: the coordinate in the tournament's rows, its row and
#: column; what was typed, the first and last letter of the tournament's rows (columns in the English
#: convention) and an example of each direction.
COORD_ECHO: dict[str, Promise] = {
    "across": _("%(coord)s — row %(row)s, column %(col)s, horizontal"),
    "down": _("%(coord)s — column %(col)s, row %(row)s, vertical"),
    "bad": _("«%(typed)s» cannot be read: coordinates are a letter %(first)s–%(last)s and a number 1–15, "
             "e.g. %(across)s or %(down)s."),
    "no_letter": _("«%(typed)s» has no letter: coordinates are a letter %(first)s–%(last)s and a number 1–15, "
                   "e.g. %(across)s or %(down)s."),
}


def coordinate_texts() -> dict[str, str]:
    """The texts of a coordinate input's echo, in the active language (for the screens' scripts)."""
    return {code: str(text) for code, text in COORD_ECHO.items()}


def script_style(convention: str, script: str) -> CoordStyle:
    """The one rule: rows are Cyrillic (А Б В … П) when the tournament chose Cyrillic row letters and writes
    coordinates in the duplicate convention (the English convention puts letters on columns: Latin)."""
    convention = convention or Convention.DUPLICATE
    return CoordStyle(convention, script == CYRILLIC and convention == Convention.DUPLICATE)


def reader_style(ruleset_id: str, convention: str, *, cyrillic_reader: bool) -> CoordStyle:
    """The style of a screen that says which row letters it shows (the tablet's assisted mode)."""
    return script_style(convention, CYRILLIC if cyrillic_reader else LATIN)


class CoordSettings(Protocol):
    """What decides a tournament's coordinates: a Tournament row, or a read model of it."""

    @property
    def convention(self) -> str: ...

    @property
    def coordinate_script(self) -> str: ...


def tournament_style(tournament: CoordSettings) -> CoordStyle:
    """How every person reads the tournament's coordinates: console, tablets, display, papers, messages."""
    return script_style(tournament.convention, tournament.coordinate_script)


def default_script(ruleset_id: str, language: str) -> str:
    """The row letters a new tournament starts with: Cyrillic for a Cyrillic rule set played in Russian or
    Ukrainian, Latin otherwise (the arbiter may choose)."""
    try:
        cyrillic_set = get_ruleset(ruleset_id).cyrillic
    except RulesError:
        cyrillic_set = False
    return CYRILLIC if cyrillic_set and (language or "")[:2] in CYRILLIC_READERS else LATIN


def letter_parts(written: str) -> tuple[str, str, str]:
    """A written move or slip ("З8 WORD 24") as (before the letter of its coordinate, the letter, after it): the
    letter is drawn apart on screens and papers, so that a row З is never read as the digit 3 (nor О as 0, Б as
    6). No letter ("") when the text does not start with a coordinate."""
    coord, sep, rest = written.partition(" ")
    parts = split_coordinate(coord)
    if parts is None:
        return written, "", ""
    before, letter, after = parts
    return before, letter, after + sep + rest


def split_coordinate(written: str) -> tuple[str, str, str] | None:
    """A written coordinate as (before its letter, the letter, after it): ``З8`` → ("", "З", "8"); None when
    ``written`` is not a coordinate."""
    if len(written) in (2, 3) and not written[0].isdigit() and written[1:].isdigit():
        return "", written[0], written[1:]
    if len(written) in (2, 3) and written[:-1].isdigit() and not written[-1].isdigit():
        return written[:-1], written[-1], ""
    return None


__all__ = ["CYRILLIC", "CYRILLIC_READERS", "LATIN", "COORD_ECHO", "CoordSettings", "CoordStyle", "coordinate_texts", "default_script", "letter_parts", "reader_style", "script_style", "split_coordinate", "tournament_style"]
