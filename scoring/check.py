"""One call that reads a position and a written move and says whether it is legal and what it scores.

Used by ``manage.py score``, the arbiter's dispute tools and the tests. No Django.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from .board import Board, BoardError
from .coords import Convention, CoordError
from .messages import msg
from .notation import NotationError, parse_move, parse_rack
from .placement import IllegalMove, Placement, Play, evaluate, from_placements
from .rules import RulesError, RuleSet, get_ruleset
from .variants import VariantError, get_variant


class UnusableInput(ValueError):
    """Arguments that cannot be read at all (unknown rule set, bad board, bad rack)."""


@dataclass
class WordReport:
    word: str
    score: int
    valid: bool | None


@dataclass
class MoveReport:
    legal: bool
    error: str | None
    score: int | None
    bingo: bool
    tiles_placed: int
    words: list[WordReport] = field(default_factory=list)
    code: str | None = None

    def to_dict(self) -> MoveReportDict:
        """What ``manage.py score --json`` prints (the refusal code is left out)."""
        return {
            "legal": self.legal,
            "error": self.error,
            "score": self.score,
            "bingo": self.bingo,
            "tiles_placed": self.tiles_placed,
            "words": [{"word": w.word, "score": w.score, "valid": w.valid} for w in self.words],
        }


class WordReportDict(TypedDict):
    word: str
    score: int
    valid: bool | None


class MoveReportDict(TypedDict):
    legal: bool
    error: str | None
    score: int | None
    bingo: bool
    tiles_placed: int
    words: list[WordReportDict]


def load_position(ruleset_id: str, fen: str | None, variant: str | None = None) -> tuple[RuleSet, Board]:
    """The rule set (with the variant's racks: ``7among8`` takes racks of 8) and the board; UnusableInput otherwise."""
    try:
        ruleset = get_variant(variant).ruleset(get_ruleset(ruleset_id))
    except (RulesError, VariantError) as exc:
        raise UnusableInput(str(exc)) from None
    try:
        board = Board.from_fen(ruleset, fen)
    except BoardError as exc:
        raise UnusableInput(f"board: {exc}") from None
    return ruleset, board


def load_position_and_rack(ruleset_id: str, fen: str | None, rack_text: str,
                           variant: str | None = None) -> tuple[RuleSet, Board, list[str]]:
    """:func:`load_position` plus a non-empty rack (``?`` = blank); :class:`UnusableInput` otherwise."""
    ruleset, board = load_position(ruleset_id, fen, variant)
    try:
        rack = parse_rack(rack_text, ruleset)
    except NotationError as exc:
        raise UnusableInput(f"rack: {exc}") from None
    if not rack:
        raise UnusableInput("rack: the rack is empty")
    return ruleset, board, rack


def check_move(
    board: Board,
    move_text: str,
    *,
    rack: str | None = None,
    lexicon: Container[str] | None = None,
    convention: Convention | str = Convention.DUPLICATE,
) -> MoveReport:
    """Legality and score of a written move on ``board``.

    A move whose notation can't be read, that breaks a placement rule, uses a
    tile not on ``rack`` or forms a word missing from ``lexicon`` is not legal;
    the report then says why in ``error``. Raises :class:`UnusableInput` only
    for a rack that can't be read.
    """
    ruleset = board.ruleset
    rack_tiles = None
    if rack is not None:
        try:
            rack_tiles = parse_rack(rack, ruleset)
        except NotationError as exc:
            raise UnusableInput(f"rack: {exc}") from None
    try:
        move = parse_move(move_text, ruleset, convention=convention)
        play = evaluate(board, move, rack=rack_tiles, lexicon=lexicon)
    except (NotationError, CoordError, IllegalMove) as exc:
        return MoveReport(False, str(exc), None, False, 0, [], getattr(exc, "code", "illegal"))
    words = [WordReport(w.word, w.score, w.valid) for w in play.words]
    if play.invalid_words:
        listed = ", ".join(f"«{w}»" for w in play.invalid_words)
        verb = "is" if len(play.invalid_words) == 1 else "are"
        return MoveReport(
            False, f"{listed} {verb} not in the lexicon", play.score, play.bingo, play.tiles_placed, words, "invalid_word"
        )
    return MoveReport(True, None, play.score, play.bingo, play.tiles_placed, words)


def play_placed(board: Board, placed: Iterable[tuple[int, int, str, bool]], *, rack: Sequence[str]) -> Play:
    """Tiles put on squares (``(row, col, letter, blank)``, the tablet's assisted mode) → the move they make,
    scored. Placement rules and the rack are checked, words are not looked up. Raises
    :class:`~scoring.placement.IllegalMove` (``bad_letter`` for a letter outside the tile set)."""
    ruleset = board.ruleset
    tiles = []
    for row, col, letter, blank in placed:
        normal = ruleset.normalize_letter(letter.strip())
        if not ruleset.is_letter(normal):
            raise IllegalMove("bad_letter", msg("not_a_letter", letter=letter, tileset=ruleset.id))
        tiles.append(Placement(row, col, normal, blank))
    return evaluate(board, from_placements(board, tiles), rack=list(rack))


def play_written(board: Board, move_text: str, *, rack: Sequence[str],
                 convention: Convention | str = Convention.DUPLICATE) -> Play:
    """A written move (``H8 WORD``) → the move, scored; placement rules and the rack checked, words not
    looked up. Raises :class:`~scoring.placement.IllegalMove`, :class:`~scoring.notation.NotationError`."""
    return evaluate(board, parse_move(move_text, board.ruleset, convention=convention), rack=list(rack))
