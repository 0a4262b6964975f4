"""Rule sets: tiles, values, vowels, blanks and board layouts (RULES §1–3).

The tile and board data live in ``scoring/data/tilesets.json`` (the figures of
``shared/bench/tilesets.json``). Nothing here imports Django.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, TypeVar

_T = TypeVar("_T")

SIZE = 15
CENTRE = (7, 7)

#: Ukrainian apostrophe spellings read as the apostrophe tile.
APOSTROPHES = {"\u2019": "'", "\u02bc": "'", "\u2018": "'", "`": "'", "\u00b4": "'"}
#: The letter a blank shows when it stands for a letter with no lower case (the apostrophe).
BLANK_APOSTROPHE = "*"


class RulesError(ValueError):
    """A rule-set name or letter the engine does not know."""


@dataclass(frozen=True)
class Layout:
    """Premium squares of a 15×15 board.

    ``word_mult[r][c]`` is 1, 2 or 3; ``letter_mult[r][c]`` is the letter
    multiplier for any tile (standard boards); ``letter_colour[r][c]`` is the
    colour of a Literaki letter square (a tile of that colour is tripled).
    """

    name: str
    word_mult: tuple[tuple[int, ...], ...]
    letter_mult: tuple[tuple[int, ...], ...]
    letter_colour: tuple[tuple[str | None, ...], ...]

    def premium_code(self, row: int, col: int) -> str:
        """A short label for drawing: TW, DW, TL, DL, a colour initial, or ''."""
        wm = self.word_mult[row][col]
        if wm == 3:
            return "TW"
        if wm == 2:
            return "DW"
        colour = self.letter_colour[row][col]
        if colour:
            return colour[0].upper()
        lm = self.letter_mult[row][col]
        return {3: "TL", 2: "DL"}.get(lm, "")


@dataclass(frozen=True)
class RuleSet:
    """One rule set of RULES §1: its tiles, values, vowels, blanks and board."""

    id: str
    name: str
    tileset_id: str
    letters: tuple[str, ...]
    counts: dict[str, int]
    values: dict[str, int]
    vowels: frozenset[str]
    blanks: int
    blank_value: int
    rack_size: int
    bingo: int
    layout: Layout
    cyrillic: bool
    letter_colours: dict[str, str] = field(default_factory=dict)
    fold_accents: bool = False
    #: the most tiles one move may place (0: the whole rack); the bonus is for exactly that many
    #: (the 7-among-8 variant: racks of 8, moves of at most 7, :mod:`scoring.variants`)
    play_max: int = 0

    @property
    def move_tiles(self) -> int:
        """The most tiles one move places, and the number that earns the bonus."""
        return self.play_max or self.rack_size

    # -- letters -------------------------------------------------------------
    @property
    def alphabet(self) -> str:
        """The letters in code order (code = index + 1), as the word graph takes them."""
        return "".join(self.letters)

    def code(self, letter: str) -> int:
        """The letter code (1..N) used by the word graph and the solver."""
        try:
            return self._codes()[letter]
        except KeyError:
            raise RulesError(f"«{letter}» is not a letter of the {self.id} tile set") from None

    def _codes(self) -> dict[str, int]:
        return _codes_of(self.letters)

    def is_letter(self, letter: str) -> bool:
        return letter in self._codes()

    def is_vowel(self, letter: str) -> bool:
        return letter in self.vowels

    def is_consonant(self, letter: str) -> bool:
        """Every letter that is not a vowel, except the Ukrainian apostrophe."""
        return letter in self._codes() and letter not in self.vowels and letter != "'"

    def value(self, letter: str) -> int:
        return self.values[letter]

    def tile_colour(self, letter: str) -> str | None:
        return self.letter_colours.get(letter)

    def letter_multiplier(self, row: int, col: int, letter: str, blank: bool) -> int:
        """Multiplier of a newly placed tile on (row, col)."""
        if self.letter_colours:
            colour = self.layout.letter_colour[row][col]
            if colour and not blank and self.letter_colours.get(letter) == colour:
                return 3
            return 1
        return self.layout.letter_mult[row][col]

    def normalize_letter(self, ch: str) -> str:
        """Upper-case a typed character and map spelling variants to the tile letter.

        Ukrainian ’ and ʼ become ``'``; French accents and ligatures fold to A–Z.
        Returns the input unchanged (upper-cased) when it is not a letter of the set,
        so that callers can report it.
        """
        ch = APOSTROPHES.get(ch, ch)
        up = ch.upper()
        if up in self._codes():
            return up
        if self.fold_accents:
            folded = fold_accents(up)
            if folded in self._codes():
                return folded
        return up

    @property
    def total_tiles(self) -> int:
        return sum(self.counts.values()) + self.blanks

    def full_bag(self) -> list[str]:
        """Every tile of the set; blanks are ``?``."""
        bag: list[str] = []
        for letter in self.letters:
            bag.extend(letter * self.counts[letter])
        bag.extend("?" * self.blanks)
        return bag


@cache
def _codes_of(letters: tuple[str, ...]) -> dict[str, int]:
    return {letter: i + 1 for i, letter in enumerate(letters)}


_LIGATURES = {"Œ": "OE", "Æ": "AE", "ß": "SS"}


def fold_accents(text: str) -> str:
    """É → E, Ç → C, Œ → OE: the French convention for tiles."""
    out = []
    for ch in text:
        if ch in _LIGATURES:
            out.append(_LIGATURES[ch])
            continue
        decomposed = unicodedata.normalize("NFD", ch)
        out.append("".join(c for c in decomposed if not unicodedata.combining(c)))
    return "".join(out)


# -- loading -----------------------------------------------------------------

RULESET_TILESETS = {
    "ru": ("ru-scrabble", "standard_15x15", True),
    "uk": ("uk-scrabble", "standard_15x15", True),
    "pl": ("pl-scrabble", "standard_15x15", False),
    "pl-literaki": ("pl-literaki", "literaki_15x15", False),
    "en": ("en-scrabble", "standard_15x15", False),
    "fr": ("fr-scrabble", "standard_15x15", False),
}

RULESET_NAMES = {
    "ru": "Русский",
    "uk": "Українська",
    "pl": "Polski",
    "pl-literaki": "Polski (Literaki)",
    "en": "English",
    "fr": "Français",
}


@cache
def _data() -> dict[str, Any]:
    """tilesets.json as parsed (JSON: its shape is checked where it is read)."""
    text = resources.files("scoring").joinpath("data/tilesets.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _square(name: str) -> tuple[int, int]:
    """Squares in tilesets.json are column letter + row number (A1 top left)."""
    return int(name[1:]) - 1, ord(name[0]) - ord("A")


def _grid(default: _T) -> list[list[_T]]:
    return [[default] * SIZE for _ in range(SIZE)]


def _freeze(grid: list[list[_T]]) -> tuple[tuple[_T, ...], ...]:
    return tuple(tuple(row) for row in grid)


@cache
def layout(name: str) -> Layout:
    """The ``standard_15x15`` or ``literaki_15x15`` premium layout."""
    boards = _data()["boards"]
    if name not in boards or not isinstance(boards[name], dict):
        raise RulesError(f"unknown board layout {name!r}")
    spec = boards[name]
    word = _grid(1)
    letter = _grid(1)
    colour: list[list[str | None]] = _grid(None)
    if "premiums" in spec:
        p = spec["premiums"]
        for sq in p["TW"]:
            r, c = _square(sq)
            word[r][c] = 3
        for sq in p["DW"]:
            r, c = _square(sq)
            word[r][c] = 2
        for sq in p["TL"]:
            r, c = _square(sq)
            letter[r][c] = 3
        for sq in p["DL"]:
            r, c = _square(sq)
            letter[r][c] = 2
    else:
        for sq in spec["word_x3"]:
            r, c = _square(sq)
            word[r][c] = 3
        for sq in spec["word_x2"]:
            r, c = _square(sq)
            word[r][c] = 2
        for col_name, squares in spec["letter_x3_by_colour"].items():
            for sq in squares:
                r, c = _square(sq)
                colour[r][c] = col_name
    return Layout(name, _freeze(word), _freeze(letter), _freeze(colour))


@cache
def get_ruleset(ruleset_id: str) -> RuleSet:
    """The rule set ``ru``, ``uk``, ``pl``, ``pl-literaki``, ``en`` or ``fr``."""
    if ruleset_id not in RULESET_TILESETS:
        known = ", ".join(RULESET_TILESETS)
        raise RulesError(f"unknown rule set {ruleset_id!r} (known: {known})")
    tileset_id, layout_name, cyrillic = RULESET_TILESETS[ruleset_id]
    spec = next(t for t in _data()["tilesets"] if t["id"] == tileset_id)
    letters = tuple(entry["letter"] for entry in spec["letters"])
    return RuleSet(
        id=ruleset_id,
        name=RULESET_NAMES[ruleset_id],
        tileset_id=tileset_id,
        letters=letters,
        counts={e["letter"]: e["count"] for e in spec["letters"]},
        values={e["letter"]: e["value"] for e in spec["letters"]},
        vowels=frozenset(spec["vowels"]),
        blanks=spec["blanks"],
        blank_value=spec["blank_value"],
        rack_size=spec["rack"],
        bingo=spec["bingo"],
        layout=layout(layout_name),
        cyrillic=cyrillic,
        letter_colours=dict(spec.get("letter_colours", {})),
        fold_accents=ruleset_id == "fr",
    )


def ruleset_ids() -> list[str]:
    return list(RULESET_TILESETS)
