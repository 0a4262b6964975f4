"""Move notation (RULES §2): coordinates + the whole word.

Letters already on the board are written too; a letter played with a blank is
written in lower case; ``*`` is a blank played as the Ukrainian apostrophe;
’ and ʼ read as ``'``. Racks are written with ``?`` for a blank.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .board import Tile
from .coords import Convention, Coord, CoordError, format_coord, parse_coord
from .messages import Message, msg
from .rules import APOSTROPHES, BLANK_APOSTROPHE, RuleSet


class NotationError(ValueError):
    """A move or rack that cannot be read, with the reason and a short code."""

    def __init__(self, message: Message, code: str = "bad_notation"):
        super().__init__(str(message))
        self.message = message
        self.code = code


@dataclass(frozen=True, slots=True)
class MoveText:
    """A move as written: where (None when the coordinates were left out) and the whole word."""

    coord: Coord | None
    tiles: tuple[Tile, ...]

    @property
    def word(self) -> str:
        """The word in upper case (blanks shown as their letters)."""
        return "".join(t.letter for t in self.tiles)

    @property
    def written(self) -> str:
        """The word as written, blanks in lower case."""
        return word_text(self.tiles)


_COORD_PART = r"(?:[^\W\d_]\s?\d{1,2}|\d{1,2}\s?[^\W\d_])"
_COORD_FIRST = re.compile(rf"^\s*(?P<coord>{_COORD_PART})\s+(?P<word>\S+)\s*$")
_WORD_FIRST = re.compile(rf"^\s*(?P<word>\S+)\s+(?P<coord>{_COORD_PART})\s*$")


def word_text(tiles: tuple[Tile, ...] | list[Tile]) -> str:
    return "".join(t.fen() for t in tiles)


def parse_word(text: str, ruleset: RuleSet) -> tuple[Tile, ...]:
    """Read a word: upper case = tile, lower case = blank, ``*`` = blank apostrophe."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError(msg("word_missing"), "missing_word")
    tiles = []
    for ch in text.strip():
        if ch == BLANK_APOSTROPHE:
            if not ruleset.is_letter("'"):
                raise NotationError(msg("no_blank_apostrophe", tileset=ruleset.id), "bad_letter")
            tiles.append(Tile("'", True))
            continue
        ch = APOSTROPHES.get(ch, ch)
        letter = ruleset.normalize_letter(ch)
        if not ruleset.is_letter(letter):
            raise NotationError(msg("not_a_letter", letter=ch, tileset=ruleset.id), "bad_letter")
        blank = ch != ch.upper()
        tiles.append(Tile(letter, blank))
    return tuple(tiles)


def parse_move(
    text: str,
    ruleset: RuleSet,
    *,
    convention: Convention | str = Convention.DUPLICATE,
    require_coord: bool = True,
) -> MoveText:
    """Read ``H8 ЗДОРОВ`` (or ``ЗДОРОВ H8``; ``ЗДОРОВ`` alone when coordinates are optional)."""
    if not isinstance(text, str):
        raise NotationError(msg("move_not_text"))
    stripped = text.strip()
    if not stripped:
        raise NotationError(msg("move_empty"), "missing_word")
    m = _COORD_FIRST.match(stripped) or _WORD_FIRST.match(stripped)
    if m:
        try:
            coord = parse_coord(m.group("coord"), cyrillic=ruleset.cyrillic, convention=convention)
        except CoordError as exc:
            raise NotationError(exc.message, exc.code) from None
        return MoveText(coord, parse_word(m.group("word"), ruleset))
    if len(stripped.split()) == 1 and not any(ch.isdigit() for ch in stripped):
        if require_coord:
            raise NotationError(msg("coordinates_missing_before", word=stripped), "missing_coordinates")
        return MoveText(None, parse_word(stripped, ruleset))
    raise NotationError(msg("not_a_move", text=stripped))


def format_move(
    coord: Coord | None,
    tiles: tuple[Tile, ...] | list[Tile],
    *,
    convention: Convention | str = Convention.DUPLICATE,
    cyrillic: bool = False,
) -> str:
    word = word_text(tiles)
    if coord is None:
        return word
    return f"{format_coord(coord, convention=convention, cyrillic=cyrillic)} {word}"


def parse_rack(text: str, ruleset: RuleSet) -> list[str]:
    """Read a rack: letters, ``?`` for a blank; spaces and ``+`` (leftover + drawn) are ignored."""
    if not isinstance(text, str):
        raise NotationError(msg("rack_not_text"), "bad_rack")
    tiles = []
    for ch in text.strip():
        if ch in " +":
            continue
        if ch == "?":
            tiles.append("?")
            continue
        letter = ruleset.normalize_letter(ch)
        if not ruleset.is_letter(letter):
            raise NotationError(msg("rack_bad_tile", letter=ch, tileset=ruleset.id), "bad_rack")
        tiles.append(letter)
    if len(tiles) > ruleset.rack_size:
        raise NotationError(msg("rack_too_long", size=ruleset.rack_size, rack=text.strip(), count=len(tiles)), "bad_rack")
    return tiles


def format_rack(tiles: list[str] | tuple[str, ...] | str) -> str:
    return "".join(tiles)
