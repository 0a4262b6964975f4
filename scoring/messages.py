"""What the engine says to people, as data: a code and its parameters (no Django here).

Every explanation the engine gives — why coordinates, a word, a move or a slip can't be read or
played, and why a verdict is what it is — is a :class:`Message`: a code from :data:`TEXTS` and named
parameters. Squares, coordinates and moves are kept as positions (:class:`Square`, :class:`Place`,
:class:`Written`), not as text, so whoever shows a message writes them in the reader's script and
convention; a message inside a message (the reason a written place fails) is a :class:`Message`
parameter.

``str(message)`` is the English text with Latin rows in the duplicate convention (the engine's own
language: tests, logs, the command line). The tournament renders the same message in the hall's
language (``tournament.labels.explain``): the English templates here are the translation
catalogue's source strings, marked with :func:`gettext_noop` so that the catalogue tools find them.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Union

from .squares import Convention, Coord, format_coord, square_name


def gettext_noop(text: str) -> str:
    """Marks an English template for the translation catalogue (the tools look for this name)."""
    return text


def ngettext_noop(singular: str, plural: str) -> tuple[str, str]:
    """Marks an English template whose words follow a number (a plural entry of the catalogue: the project's
    ``makemessages`` looks for this name too)."""
    return singular, plural


@dataclass(frozen=True, slots=True)
class Square:
    """One square of the board (0-based), shown as ``H8``."""

    row: int
    col: int


@dataclass(frozen=True, slots=True)
class Place:
    """The coordinates of a move (first square and direction), shown as ``H8`` / ``8H``."""

    coord: Coord


@dataclass(frozen=True, slots=True)
class Written:
    """A move as written: its coordinates (when any) and its word, shown as ``H8 WORD``."""

    coord: Coord | None
    word: str


Param = Union[str, int, Square, Place, Written, "Message", tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Message:
    """One thing the engine says: ``code`` (a key of :data:`TEXTS`) and its parameters."""

    code: str
    params: tuple[tuple[str, Param], ...] = ()

    def __str__(self) -> str:
        return render(self, ENGLISH)

    def __getitem__(self, name: str) -> Param:
        for key, value in self.params:
            if key == name:
                return value
        raise KeyError(name)

    def get(self, name: str, default: Any = None) -> Any:
        try:
            return self[name]
        except KeyError:
            return default

    def to_json(self) -> dict[str, Any]:
        """A JSON form (stored with a verdict): positions as lists, nested messages as objects."""
        return {"code": self.code, "params": {k: _param_json(v) for k, v in self.params}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Message:
        params = data.get("params") or {}
        return cls(str(data["code"]), tuple((str(k), _param_from_json(v)) for k, v in params.items()))


def msg(code: str, **params: Param) -> Message:
    """A message; ``code`` must be a key of :data:`TEXTS` (checked: an unknown code is a bug)."""
    if code not in TEXTS:
        raise KeyError(f"unknown engine message {code!r}")
    return Message(code, tuple(params.items()))


def _param_json(value: Param) -> Any:
    if isinstance(value, Square):
        return {"square": [value.row, value.col]}
    if isinstance(value, Place):
        return {"place": [value.coord.row, value.coord.col, value.coord.vertical]}
    if isinstance(value, Written):
        at = value.coord
        return {"written": value.word, "at": None if at is None else [at.row, at.col, at.vertical]}
    if isinstance(value, Message):
        return {"message": value.to_json()}
    if isinstance(value, tuple):
        return {"list": list(value)}
    return value


def _param_from_json(value: Any) -> Param:
    if isinstance(value, dict):
        if "square" in value:
            return Square(*value["square"])
        if "place" in value:
            return Place(Coord(*value["place"]))
        if "written" in value:
            at = value.get("at")
            return Written(None if at is None else Coord(*at), str(value["written"]))
        if "message" in value:
            return Message.from_json(value["message"])
        if "list" in value:
            return tuple(str(v) for v in value["list"])
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        return str(value)
    return value


@dataclass(frozen=True)
class Renderer:
    """How a message becomes text: the template of a code, and how positions are written."""

    template: Callable[[str], str]
    convention: str = Convention.DUPLICATE
    cyrillic: bool = False
    quote: Callable[[str], str] = "«{}»".format
    join: Callable[[tuple[str, ...]], str] = ", ".join
    #: Applied to every text that comes from a parameter (e.g. HTML escaping) …
    text: Callable[[str], str] = str
    #: … and to every written square or coordinate (e.g. marking its letter apart from the digits).
    coordinate: Callable[[str], str] = str
    #: The template of a counted message (:data:`COUNTED`) for its number, in the plural form of the language;
    #: None: English's (1 → the singular).
    counted: Callable[[str, int], str] | None = None

    def template_of(self, message: Message) -> str:
        """The template of ``message``: for a counted one, the form its number asks for."""
        counted = COUNTED.get(message.code)
        number = message.get(counted[0]) if counted is not None else None
        if counted is None or not isinstance(number, int) or isinstance(number, bool):
            return self.template(message.code)
        if self.counted is not None:
            return self.counted(message.code, number)
        return counted[1][0] if number == 1 else counted[1][1]

    def value(self, value: Param) -> str:
        if isinstance(value, Square):
            return self.coordinate(square_name(value.row, value.col, self.convention, self.cyrillic))
        if isinstance(value, Place):
            return self.coordinate(format_coord(value.coord, convention=self.convention, cyrillic=self.cyrillic))
        if isinstance(value, Written):
            if value.coord is None:
                return self.text(value.word)
            place = format_coord(value.coord, convention=self.convention, cyrillic=self.cyrillic)
            return f"{self.coordinate(place)} {self.text(value.word)}"
        if isinstance(value, Message):
            return render(value, self)
        if isinstance(value, tuple):
            return self.join(tuple(self.quote(self.text(v)) for v in value))
        return self.text(str(value))


def placeholders(template: str) -> set[str]:
    """The parameter names a template uses (``{word}`` → ``word``)."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def render(message: Message, renderer: Renderer) -> str:
    """The text of ``message`` by ``renderer`` (a template naming a missing parameter keeps it as written)."""
    values = _Values({k: renderer.value(v) for k, v in message.params})
    try:
        return renderer.template_of(message).format_map(values)
    except (ValueError, IndexError):  # a broken translation: the English text
        return TEXTS.get(message.code, message.code).format_map(values)


class _Values(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def walk(message: Message) -> Iterator[Message]:
    """The message and every message inside it."""
    yield message
    for _, value in message.params:
        if isinstance(value, Message):
            yield from walk(value)


_ = gettext_noop

#: Every message of the engine: code → the English template (``{name}`` is a parameter).
TEXTS: dict[str, str] = {
    # coordinates (scoring.coords)
    "coord_missing": _("coordinates are missing (for example H8 or 8H)"),
    "coord_not_text": _("coordinates must be text such as H8 or 8H"),
    "coord_unreadable": _("«{text}» is not a coordinate: write a row letter and a column number, "
                          "H8 for a horizontal word, 8H for a vertical one"),
    "unknown_row": _("unknown row label «{text}»: rows are A–O"),
    "unknown_row_cyrillic": _("unknown row label «{text}»: rows are A–O or А–П (without Ё and Й)"),
    "unknown_column": _("unknown column label «{text}»: columns are A–O"),
    "column_off_board": _("column {number} is off the board (columns are 1–15)"),
    "row_off_board": _("row {number} is off the board (rows are 1–15)"),
    # words, moves and racks (scoring.notation)
    "word_missing": _("the word is missing"),
    "not_a_letter": _("«{letter}» is not a letter of the {tileset} tile set"),
    "no_blank_apostrophe": _("«*» (a blank apostrophe) does not exist in the {tileset} set"),
    "move_not_text": _("a move must be text such as «H8 WORD»"),
    "move_empty": _("the move is empty: write coordinates and the word, e.g. «H8 WORD»"),
    "coordinates_missing_before": _("coordinates are missing before «{word}» "
                                    "(e.g. H8 for a horizontal word, 8H for a vertical one)"),
    "not_a_move": _("«{text}» is not a move: write the coordinates, a space and the whole word, e.g. «H8 WORD»"),
    "rack_not_text": _("a rack must be text such as «АБВГ??Д»"),
    "rack_bad_tile": _("«{letter}» on the rack is not a tile of the {tileset} set"),
    # placement (scoring.placement)
    "move_no_coordinates": _("the coordinates of the move are missing"),
    "too_short": _("«{word}»: a word has at least 2 letters"),
    "board_mismatch": _("square {square} holds {board_letter}, but the word has {word_letter} there"),
    "word_continues_before": _("square {square} before the word holds {letter}: write the whole word, "
                               "letters already on the board included"),
    "word_continues_after": _("square {square} after the word holds {letter}: write the whole word, "
                              "letters already on the board included"),
    "no_new_tile": _("«{word}» is already on the board: a move places at least one tile"),
    "letter_not_on_rack": _("{letter} is not on the rack {rack}"),
    "letter_not_on_rack_blank": _("{letter} is not on the rack {rack} "
                                  "(a letter played with a blank is written in lower case)"),
    "letter_short_on_rack": _("the move needs {count} × {letter}, the rack {rack} has {have}"),
    "letter_short_on_rack_blank": _("the move needs {count} × {letter}, the rack {rack} has {have} "
                                    "(a letter played with a blank is written in lower case)"),
    "first_off_centre": _("the first move must cover the centre square {square}"),
    "first_single_tile": _("the first move must place at least 2 tiles"),
    "not_touching": _("«{word}» at {place} does not touch any tile on the board"),
    "nothing_placed": _("no tile was placed"),
    "tile_off_board": _("a tile was placed off the board"),
    "square_taken": _("square {square} already holds a tile"),
    "two_tiles_on_square": _("two tiles were placed on {square}"),
    "not_in_line": _("the tiles of a move must all lie in one row or one column"),
    "gap": _("square {square} between the placed tiles is empty: a move forms one unbroken word"),
    # reading a slip (scoring.judge)
    "score_not_whole": _("the score «{text}» is not a whole number"),
    "score_not_number": _("the score {text} is not a number"),
    "score_negative": _("the score {score} is negative"),
    "score_too_high": _("the score {score} is not possible: at most {most}"),
    "slip_word": _("the word: {reason}"),
    "slip_not_text": _("a slip is text such as «H8 WORD 24» or its parts"),
    "slip_empty": _("the slip is empty"),
    "slip_no_word": _("«{text}» has no word: write e.g. «H8 WORD 24»"),
    "slip_unreadable_move": _("«{text}»: {reason}"),
    "not_a_coordinate": _("«{text}» is not a coordinate"),
    # why a word can't be played (scoring.judge)
    "placement_at": _("{move}: {reason}"),
    "rack_cannot_supply": _("{move}: the rack cannot supply the tiles"),
    "not_in_lexicon_one": _("{move}: {words} is not in the lexicon"),
    "not_in_lexicon_many": _("{move}: {words} are not in the lexicon"),
    "word_not_in_lexicon": _("«{word}» is not in the lexicon"),
    "word_needs_letters": _("«{word}» needs {missing}, which the rack {rack} cannot supply"),
    "word_nowhere": _("«{word}» cannot be placed legally anywhere on the board with the rack {rack}"),
    # game records read back (scoring.records: JSON; scoring.training: GCG)
    "record_not_json": _("the record is not JSON (line {line}, column {column})"),
    "record_not_object": _("the record must be a JSON object"),
    "record_field_missing": _("the record has no «{key}»"),
    "record_field_kind": _("«{key}» should be {kind}"),
    "kind_int": _("a whole number"),
    "kind_str": _("text"),
    "kind_list": _("a list"),
    "kind_dict": _("an object"),
    "nothing": _("nothing"),
    "record_ruleset": _("the record's rule set «{name}» is not one of this system's"),
    "record_variant": _("the record's variant «{name}» is not one of this system's"),
    "record_round_not_object": _("a round must be a JSON object"),
    "record_out_of_order": _("the rounds are out of order: round {number} comes as round {round}"),
    "record_after_end": _("the game was over after round {round} but the record goes on"),
    "record_no_move_left": _("the record ends with no legal move, but the rack left has one"),
    "record_stops": _("the record stops after round {round} but the game goes on (tiles left: {left})"),
    "record_end": _("the record's end «{said}» is not how the game ends"),
    "record_total": _("the tops add up to {total}, the record says {said}"),
    "record_board_unreadable": _("the final board cannot be read"),
    "record_board": _("the final board is not the board the moves make"),
    "record_leftover": _("the previous rack left {left}, the record says {said}"),
    "record_redraws": _("redraws cannot be negative ({count})"),
    "record_rack_kept": _("the rack {rack} is not the leftover {kept} + the drawn {drawn}"),
    "record_rack_drawn": _("the rack {rack} is not the drawn tiles {drawn}"),
    "record_bag_after": _("after the draw the bag holds {count}, the record says {said}"),
    "record_first_vertical": _("{move}: the first move is placed horizontally"),
    "record_score": _("{move} scores {score}, the record says {said}"),
    "record_not_top": _("{move} scores {score}, the top of the rack {rack} scores {best}"),
    "record_replaced": _("the blanks were replaced by «{got}», the record says «{said}»"),
    "record_no_move_line": _("the record has no move line (>player: rack coordinates word +score total)"),
    "record_two_players": _("the record is a game of two players, not a duplicate game"),
    "record_bad_line": _("a move line reads «rack coordinates word +score total», not «{text}»"),
    "record_part": _("«{text}»: {reason}"),
    "record_played_through": _("«.» stands for a letter on the board, but square {square} is empty"),
    # verdicts (scoring.judge)
    "no_slip": _("no slip was handed in"),
    "late": _("the slip came after the deadline and counts as missing"),
    "unreadable": _("the slip cannot be read: {reason}"),
    "place_wrong_score_wrong": _("the place is wrong and the announced {announced}: {word} is playable only "
                                 "for {scores}"),
    "place_missing_score_wrong": _("the place is missing and the announced {announced}: {word} is playable only "
                                   "for {scores}"),
    "place_wrong_no_score": _("the place is wrong and no score was announced: {word} is playable only for {scores}"),
    "place_missing_no_score": _("the place is missing and no score was announced: {word} is playable only "
                                "for {scores}"),
    "place_wrong_because_score_wrong": _("the place is wrong ({reason}) and the announced {announced}: {word} is "
                                         "playable only for {scores}"),
    "place_wrong_because_no_score": _("the place is wrong ({reason}) and no score was announced: {word} is "
                                      "playable only for {scores}"),
}
del _


#: The messages whose words follow a number (a noun after it, in English or in a language of the hall): code → the
#: parameter that counts, and the English singular and plural; a renderer picks the form of the number
#: (:attr:`Renderer.counted`). Their singular is in :data:`TEXTS` too.
COUNTED: dict[str, tuple[str, tuple[str, str]]] = {
    "rack_too_long": ("size", ngettext_noop("a rack holds at most {size} tile, «{rack}» has {count}",
                                 "a rack holds at most {size} tiles, «{rack}» has {count}")),
    "off_board_column": ("length", ngettext_noop("«{word}» from {place} has {length} letter and would end at column {end}, "
                                      "off the board",
                                      "«{word}» from {place} has {length} letters and would end at column {end}, "
                                      "off the board")),
    "off_board_row": ("length", ngettext_noop("«{word}» from {place} has {length} letter and would end at row {end}, off the "
                                   "board",
                                   "«{word}» from {place} has {length} letters and would end at row {end}, off the "
                                   "board")),
    "too_many_blanks": ("count", ngettext_noop("the move plays {count} blank (a lower-case letter) but the rack {rack} has "
                                    "{have}",
                                    "the move plays {count} blanks (lower-case letters) but the rack {rack} has "
                                    "{have}")),
    "too_many_tiles": ("count", ngettext_noop("the move places {count} tile: a move places at most {most}",
                                   "the move places {count} tiles: a move places at most {most}")),
    # verdicts (scoring.judge)
    "ok": ("score", ngettext_noop("{move} scores {score} point, as announced", "{move} scores {score} points, as announced")),
    "score_missing": ("score", ngettext_noop("{move} scores {score} point; no score was announced: true score, warning",
                                  "{move} scores {score} points; no score was announced: true score, warning")),
    "score_wrong": ("score", ngettext_noop("{move} scores {score} point, not the announced {announced}: true score, warning",
                                "{move} scores {score} points, not the announced {announced}: true score, "
                                "warning")),
    "direction_reversed": ("announced", ngettext_noop(
        "written at {written}, the move is {move} (direction reversed) and scores {announced} point as announced: "
        "its score, warning",
        "written at {written}, the move is {move} (direction reversed) and scores {announced} points as announced: "
        "its score, warning")),
    "coordinates_swapped": ("announced", ngettext_noop(
        "written at {written}, the move is {move} (row and column swapped) and scores {announced} point as "
        "announced: its score, warning",
        "written at {written}, the move is {move} (row and column swapped) and scores {announced} points as "
        "announced: its score, warning")),
    "place_missing": ("announced", ngettext_noop(
        "the place is missing; {word} for {announced} point is playable at {move}: announced − 5 = {awarded}",
        "the place is missing; {word} for {announced} points is playable at {move}: announced − 5 = {awarded}")),
    "place_wrong": ("announced", ngettext_noop(
        "the place is wrong; {word} for {announced} point is playable at {move}: announced − 5 = {awarded}",
        "the place is wrong; {word} for {announced} points is playable at {move}: announced − 5 = {awarded}")),
    "place_wrong_because": ("announced", ngettext_noop(
        "the place is wrong ({reason}); {word} for {announced} point is playable at {move}: announced − 5 = "
        "{awarded}",
        "the place is wrong ({reason}); {word} for {announced} points is playable at {move}: announced − 5 = "
        "{awarded}")),
    "place_missing_low": ("announced", ngettext_noop(
        "the place is missing; {word} for {announced} point is playable at {move}: announced − 5 = 0 (0 because "
        "the announced score is 4 or less)",
        "the place is missing; {word} for {announced} points is playable at {move}: announced − 5 = 0 (0 because "
        "the announced score is 4 or less)")),
    "place_wrong_low": ("announced", ngettext_noop(
        "the place is wrong; {word} for {announced} point is playable at {move}: announced − 5 = 0 (0 because the "
        "announced score is 4 or less)",
        "the place is wrong; {word} for {announced} points is playable at {move}: announced − 5 = 0 (0 because "
        "the announced score is 4 or less)")),
    "place_wrong_because_low": ("announced", ngettext_noop(
        "the place is wrong ({reason}); {word} for {announced} point is playable at {move}: announced − 5 = 0 (0 "
        "because the announced score is 4 or less)",
        "the place is wrong ({reason}); {word} for {announced} points is playable at {move}: announced − 5 = 0 (0 "
        "because the announced score is 4 or less)")),
    "first_round": ("score", ngettext_noop("round 1: {word} scores at best {score} point ({move}), as announced",
                                "round 1: {word} scores at best {score} points ({move}), as announced")),
    "first_round_score_missing": ("score", ngettext_noop(
        "round 1: {word} scores at best {score} point ({move}); no score was announced: warning",
        "round 1: {word} scores at best {score} points ({move}); no score was announced: warning")),
    "first_round_score_wrong": ("score", ngettext_noop(
        "round 1: {word} scores at best {score} point ({move}), not the announced {announced}: warning",
        "round 1: {word} scores at best {score} points ({move}), not the announced {announced}: warning")),
}
TEXTS.update({code: forms[0] for code, (_count, forms) in COUNTED.items()})

#: The engine's own way of writing a message: English, duplicate convention, Latin rows.
ENGLISH = Renderer(template=lambda code: TEXTS[code])

__all__ = ["COUNTED", "ENGLISH", "TEXTS", "Message", "Param", "Place", "Renderer", "Square", "Written", "gettext_noop",
           "msg", "ngettext_noop", "placeholders", "render", "walk"]
