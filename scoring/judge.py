"""The judge of a duplicate slip (RULES §4 "Slips and verdicts"). Nothing here imports Django.

:func:`judge_slip` reads one slip (text such as ``"H8 WORD 24"``, ``"WORD 24"``,
``"H8 WORD"``, or structured :class:`SlipParts`) against the round's board and
rack and returns a :class:`Verdict`. It never raises for what a player wrote:
a slip that can't be read is a verdict of 0 with reason ``unreadable``.

How the verdict table is applied (first matching row wins)
----------------------------------------------------------
0. No slip → 0 (``no_slip``); a late slip → 0 (``late``); unreadable → 0 (``unreadable``).
1. Round 1 (coordinates are not needed; any written coordinates are ignored):
   the word's best score anywhere on the board (``first_round``), with a
   warning when the announced score is missing or differs from that best
   score (``first_round_score_wrong`` / ``first_round_score_missing``).
2. Later rounds, the stated place holds a legal move whose words are all valid:
   its score; announced right → ``ok``; announced wrong or missing → the true
   score with a warning (``score_wrong`` / ``score_missing``). A legal move at
   the stated place is judged there even if the announced score would fit
   another reading (the table's order).
3. Otherwise the same word at the same square in the other direction
   (``direction_reversed``) or with row and column swapped, same direction
   (``coordinates_swapped``) — one error, not both — is legal and valid and
   scores exactly the announced score → that score with a warning.
4. Otherwise, when the announced score is given and the word (letters as
   written) is playable somewhere on the board for exactly that score → announced − 5,
   0 if the announced score is ≤ 4, no warning (``place_wrong`` or, without
   coordinates, ``place_missing``).
5. Otherwise 0, the reason naming the fault: ``invalid_word`` (main or cross
   word not in the lexicon), ``illegal_placement`` (a placement rule; the
   message names it), ``not_on_rack`` (a letter the rack can't supply), or
   ``place_and_score_wrong`` (the place is missing or wrong and the word is
   playable elsewhere, but not for the announced score: two errors).

At most one warning is ever given (rows 1–3 give one, others none).

Blanks
------
A slip marks a letter played with a blank in lower case (``*`` for the
Ukrainian apostrophe). The written marking is used when the rack allows it.
When it does not, the judge reads the word as an arbiter would: an upper-case
letter the rack can't supply is taken as played with a blank if the rack has a
blank left, and a lower-case letter is taken as the real tile when the rack has
no blank for it but has the tile. Among several such readings it takes one
scoring the announced score if there is one, else the one closest to what was
written, then the highest score. Re-reading the blanks costs nothing by itself
(no warning); the score is then judged as usual.

Where the word can go (rows 1, 4) is found with ``solve_fn(board, rack)`` when
given (the round's legal moves, e.g. the compiled solver's), otherwise by
trying the word at every square and direction (exact, a few ms).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypedDict

from .board import Board, Tile
from .coords import Convention, Coord, CoordError, parse_coord
from .messages import Message, Param, Place, Written, msg
from .moves import Move, SolveFn
from .notation import MoveText, NotationError, format_move, parse_move, parse_rack, parse_word, word_text
from .placement import IllegalMove, Placement, check_rack, evaluate, locate
from .rules import SIZE

BLANK = "?"


class Reason(StrEnum):
    """Every reason a verdict can carry (the module doc says when each applies; the words people read
    are the tournament's labels, not the engine's)."""

    OK = "ok"  # legal valid move at the stated place, score right
    SCORE_WRONG = "score_wrong"  # same, score wrong: true score, warning
    SCORE_MISSING = "score_missing"  # same, no score: true score, warning
    FIRST_ROUND = "first_round"  # round 1: the word's best score anywhere
    FIRST_ROUND_SCORE_WRONG = "first_round_score_wrong"  # round 1, score wrong: warning
    FIRST_ROUND_SCORE_MISSING = "first_round_score_missing"  # round 1, no score: warning
    DIRECTION_REVERSED = "direction_reversed"  # its score, warning
    COORDINATES_SWAPPED = "coordinates_swapped"  # row and column swapped: its score, warning
    PLACE_WRONG = "place_wrong"  # the word for the announced score is playable elsewhere: announced − 5
    PLACE_MISSING = "place_missing"  # no place, the word for the announced score is playable: announced − 5
    PLACE_AND_SCORE_WRONG = "place_and_score_wrong"  # no or wrong place and the score fits nowhere: 0
    NO_SLIP = "no_slip"
    LATE = "late"
    UNREADABLE = "unreadable"
    INVALID_WORD = "invalid_word"  # a word of the move (main or cross) is not in the lexicon: 0
    ILLEGAL_PLACEMENT = "illegal_placement"
    NOT_ON_RACK = "not_on_rack"


#: Every reason code a verdict can carry.
REASONS = frozenset(r.value for r in Reason)
WARNING_REASONS = frozenset(
    {"score_wrong", "score_missing", "first_round_score_wrong", "first_round_score_missing",
     "direction_reversed", "coordinates_swapped"}
)
#: Verdicts that need no second look by the arbiter (everything else is flagged for review).
PLAIN_REASONS = frozenset({"ok", "first_round"})
PLACE_PENALTY = 5


class JudgeInputError(ValueError):
    """The round itself (rack) can't be read: a caller's error, not a player's."""


@dataclass(frozen=True)
class SlipParts:
    """A slip as separate fields (tablet, arbiter form): coordinates optional, score optional."""

    word: str | None
    coord: str | None = None
    score: int | str | None = None


@dataclass(frozen=True)
class Verdict:
    awarded: int
    warning: bool
    reason: str
    explanation: Message  # why, with the move and squares as positions (the tournament writes it in its script)
    true_score: int | None = None
    move: str | None = None  # the move as judged, e.g. "H8 WORD" (None when none was found)

    @property
    def message(self) -> str:
        """The explanation in English (the engine's own language)."""
        return str(self.explanation)

    def to_dict(self) -> VerdictDict:
        return {"awarded": self.awarded, "warning": self.warning, "reason": self.reason, "true_score": self.true_score}


class VerdictDict(TypedDict):
    """A verdict as the ``judge`` command prints it."""

    awarded: int
    warning: bool
    reason: str
    true_score: int | None


@dataclass(frozen=True)
class ParsedSlip:
    tiles: tuple[Tile, ...]
    coord: Coord | None
    coord_text: str | None  # as written (also when unreadable)
    coord_error: Message | None
    score: int | None

    @property
    def word(self) -> str:
        return "".join(t.letter for t in self.tiles)


class SlipError(ValueError):
    """A slip that cannot be read; ``message`` says why."""

    def __init__(self, message: Message):
        super().__init__(str(message))
        self.message = message


# -- reading a slip -----------------------------------------------------------------

_SCORE_RE = re.compile(r"^\d{1,4}$")


#: No move of any rule set scores more (the best known Scrabble move scores 1,778).
MAX_SCORE = 9999


def _checked(score: int) -> int:
    if score > MAX_SCORE:
        raise SlipError(msg("score_too_high", score=score, most=MAX_SCORE))
    return score


def _score(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool):
        raise SlipError(msg("score_not_number", text=repr(value)))
    if isinstance(value, int):
        if value < 0:
            raise SlipError(msg("score_negative", score=value))
        return _checked(value)
    text = str(value).strip()
    if not text:
        return None
    if not _SCORE_RE.match(text):
        raise SlipError(msg("score_not_whole", text=text))
    return _checked(int(text))


def parse_slip(slip: str | SlipParts | Mapping[str, Any], board: Board, *, convention: Convention | str = Convention.DUPLICATE) -> ParsedSlip:
    """Read a slip; :class:`SlipError` with a clear message when it can't be read."""
    ruleset = board.ruleset
    if isinstance(slip, Mapping):
        slip = SlipParts(word=slip.get("word"), coord=slip.get("coord") or slip.get("coordinates"), score=slip.get("score"))
    if isinstance(slip, SlipParts):
        score = _score(slip.score)
        try:
            tiles = parse_word(slip.word or "", ruleset)
        except NotationError as exc:
            raise SlipError(msg("slip_word", reason=exc.message)) from None
        coord, coord_error = None, None
        coord_text = (slip.coord or "").strip() or None
        if coord_text:
            try:
                coord = parse_coord(coord_text, cyrillic=ruleset.cyrillic, convention=convention)
            except CoordError as exc:
                coord_error = exc.message
        return ParsedSlip(tiles, coord, coord_text, coord_error, score)
    if not isinstance(slip, str):
        raise SlipError(msg("slip_not_text"))
    tokens = slip.split()
    if not tokens:
        raise SlipError(msg("slip_empty"))
    score = None
    if len(tokens) >= 2 and _SCORE_RE.match(tokens[-1]):
        score = _checked(int(tokens.pop()))
    rest = " ".join(tokens)
    if len(tokens) == 1:
        if any(ch.isdigit() for ch in rest):
            raise SlipError(msg("slip_no_word", text=slip.strip()))
        try:
            return ParsedSlip(parse_word(rest, ruleset), None, None, None, score)
        except NotationError as exc:
            raise SlipError(msg("slip_word", reason=exc.message)) from None
    try:
        move = parse_move(rest, ruleset, convention=convention, require_coord=True)
        coord_text = rest.replace(_word_token(tokens) or "", "").strip()
        return ParsedSlip(move.tiles, move.coord, coord_text, None, score)
    except NotationError as exc:
        word = _word_token(tokens)
        if word is None or exc.code not in {"bad_coordinates", "unknown_row", "off_board", "bad_notation"}:
            raise SlipError(msg("slip_unreadable_move", text=slip.strip(), reason=exc.message)) from None
        coord_text = " ".join(t for t in tokens if t != word)
        try:
            tiles = parse_word(word, ruleset)
        except NotationError as exc2:
            raise SlipError(msg("slip_word", reason=exc2.message)) from None
        reason = exc.message if exc.code != "bad_notation" else msg("not_a_coordinate", text=coord_text)
        return ParsedSlip(tiles, None, coord_text, reason, score)


def _word_token(tokens: Sequence[str]) -> str | None:
    """The one token without digits (the word) among coordinate and word tokens, if there is exactly one long one."""
    words = [t for t in tokens if not any(ch.isdigit() for ch in t) and len(t) >= 2]
    return words[0] if len(words) == 1 else None


# -- readings of a word at a place ------------------------------------------------------


@dataclass(frozen=True)
class Reading:
    """One legal reading of the written word at one place (blanks resolved)."""

    play: Move
    differs: int  # placed tiles whose blank marking differs from the slip

    @property
    def score(self) -> int:
        return self.play.score

    @property
    def coord(self) -> Coord:
        return self.play.coord

    def notation(self, convention: Convention | str, cyrillic: bool) -> str:
        return format_move(self.play.coord, tuple(self.play.tiles), convention=convention, cyrillic=cyrillic)


class _Fault(Exception):
    def __init__(self, reason: str, message: Message):
        super().__init__(str(message))
        self.reason = reason
        self.message = message


def _differs(coord: Coord, written: Sequence[Tile], placed: Iterable[Placement]) -> int:
    n = 0
    for p in placed:
        i = (p.row - coord.row) if coord.vertical else (p.col - coord.col)
        if 0 <= i < len(written) and written[i].blank != p.blank:
            n += 1
    return n


def readings_at(
    board: Board, coord: Coord, tiles: Sequence[Tile], rack: Sequence[str], lexicon: Container[str] | None
) -> list[Reading]:
    """The legal readings of ``tiles`` written at ``coord`` (see "Blanks").

    Raises :class:`_Fault` (``illegal_placement``, ``not_on_rack``, ``invalid_word``).
    """
    written = tuple(tiles)
    try:
        _, placed = locate(board, MoveText(coord, written))
    except IllegalMove as exc:
        raise _Fault("illegal_placement", exc.message) from None
    have = Counter(rack)
    blanks = have.pop(BLANK, 0)
    index = [(p.row - coord.row) if coord.vertical else (p.col - coord.col) for p in placed]
    options: list[frozenset[int]] = []
    as_written = frozenset(k for k, p in enumerate(placed) if p.blank)
    if _fits(placed, as_written, have, blanks):
        options = [as_written]
    else:
        for k in range(0, min(blanks, len(placed)) + 1):
            for chosen in itertools.combinations(range(len(placed)), k):
                if _fits(placed, frozenset(chosen), have, blanks):
                    options.append(frozenset(chosen))
    if not options:
        try:
            check_rack(placed, rack)
        except IllegalMove as exc:
            raise _Fault("not_on_rack", msg("placement_at", move=Written(coord, word_text(written)), reason=exc.message)) from None
        raise _Fault("not_on_rack", msg("rack_cannot_supply", move=Written(coord, word_text(written))))  # pragma: no cover
    out = []
    for option in options:
        new = list(board[coord.square(i)] or t for i, t in enumerate(written))
        for k, i in enumerate(index):
            new[i] = Tile(new[i].letter, k in option)
        try:
            play = evaluate(board, MoveText(coord, tuple(new)), lexicon=lexicon)
        except IllegalMove as exc:
            raise _Fault("illegal_placement", exc.message) from None
        if play.invalid_words:
            code = "not_in_lexicon_one" if len(play.invalid_words) == 1 else "not_in_lexicon_many"
            raise _Fault("invalid_word", msg(code, move=_written(play), words=tuple(play.invalid_words)))
        out.append(Reading(play, _differs(coord, written, play.placed)))
    return out


def _fits(placed: Sequence[Placement], as_blank: frozenset[int], have: Counter[str], blanks: int) -> bool:
    if len(as_blank) > blanks:
        return False
    need = Counter(p.letter for k, p in enumerate(placed) if k not in as_blank)
    return not (need - have)


def _choose(readings: Sequence[Reading], announced: int | None) -> Reading:
    if announced is not None:
        matching = [r for r in readings if r.score == announced]
        if matching:
            readings = matching
    return min(readings, key=lambda r: (r.differs, -r.score))


def readings_anywhere(
    board: Board,
    tiles: Sequence[Tile],
    rack: Sequence[str],
    lexicon: Container[str] | None,
    solve_fn: SolveFn | None = None,
) -> list[Reading]:
    """Every legal reading of the written word anywhere on the board.

    Readings keeping the slip's blank marking are preferred: when some exist,
    only those are returned.
    """
    written = tuple(tiles)
    letters = "".join(t.letter for t in written)
    found: list[Reading] = []
    if solve_fn is not None:
        for m in solve_fn(board, list(rack)):
            if "".join(t.letter for t in m.tiles) == letters:
                found.append(Reading(m, _differs(m.coord, written, m.placed)))
    else:
        n = len(written)
        for vertical in (False, True):
            for a in range(SIZE):
                for b in range(SIZE - n + 1):
                    coord = Coord(b, a, True) if vertical else Coord(a, b, False)
                    try:
                        found.extend(readings_at(board, coord, written, rack, lexicon))
                    except _Fault:
                        continue
    if not found:
        return []
    least = min(r.differs for r in found)
    return [r for r in found if r.differs == least]


def _why_nowhere(board: Board, tiles: Sequence[Tile], rack: Sequence[str], lexicon: Container[str] | None) -> _Fault:
    """Why a word is playable nowhere: not a word, letters missing, or no legal place."""
    word = "".join(t.letter for t in tiles)
    if lexicon is not None and word not in lexicon:
        return _Fault("invalid_word", msg("word_not_in_lexicon", word=word))
    have = Counter(rack)
    blanks = have.pop(BLANK, 0)
    on_board = Counter(t.letter for _, _, t in board.tiles())
    short = Counter(word) - have - on_board
    if short.total() > blanks:
        missing = "".join(sorted(short.elements()))
        return _Fault("not_on_rack", msg("word_needs_letters", word=word, missing=missing, rack="".join(rack)))
    return _Fault("illegal_placement", msg("word_nowhere", word=word, rack="".join(rack)))


# -- the judge --------------------------------------------------------------------------


def _written(move: Move) -> Written:
    return Written(move.coord, word_text(tuple(move.tiles)))


def _zero(reason: str, message: Message, move: str | None = None) -> Verdict:
    return Verdict(0, False, reason, message, None, move)


def judge_slip(
    board: Board,
    rack: str | Sequence[str],
    slip: str | SlipParts | Mapping[str, Any] | None,
    *,
    round_number: int,
    lexicon: Container[str] | None,
    solve_fn: SolveFn | None = None,
    convention: Convention | str = Convention.DUPLICATE,
    late: bool = False,
) -> Verdict:
    """The verdict on one slip (see the module doc for the table as implemented)."""
    ruleset = board.ruleset
    if isinstance(rack, str):
        try:
            rack = parse_rack(rack, ruleset)
        except NotationError as exc:
            raise JudgeInputError(f"rack: {exc}") from None
    rack = list(rack)
    if slip is None or (isinstance(slip, str) and not slip.strip()):
        return _zero("no_slip", msg("no_slip"))
    if late:
        return _zero("late", msg("late"))
    try:
        parsed = parse_slip(slip, board, convention=convention)
    except SlipError as exc:
        return _zero("unreadable", msg("unreadable", reason=exc.message))
    cyr = False
    announced = parsed.score

    def name(reading: Reading) -> str:
        return reading.notation(convention, cyr)

    if round_number <= 1:
        return _judge_first(board, rack, parsed, lexicon, solve_fn, name)

    stated_fault: _Fault | None = None
    if parsed.coord is not None:
        at_place = _judge_at_place(board, rack, parsed, parsed.coord, lexicon, name)
        if isinstance(at_place, Verdict):
            return at_place
        stated_fault = at_place
    anywhere = readings_anywhere(board, parsed.tiles, rack, lexicon, solve_fn)
    place = "missing" if parsed.coord is None and parsed.coord_error is None else "wrong"
    if announced is not None:
        matching = [r for r in anywhere if r.score == announced]
        if matching:
            reading = min(matching, key=lambda r: (r.coord.row, r.coord.col, r.coord.vertical))
            awarded = max(0, announced - PLACE_PENALTY)
            because = parsed.coord_error or (stated_fault.message if stated_fault else None)
            code = f"place_{place}" + ("_because" if because else "") + ("_low" if announced < PLACE_PENALTY else "")
            because_params: dict[str, Param] = {"reason": because} if because else {}
            return Verdict(
                awarded, False, f"place_{place}",
                msg(code, word=parsed.word, announced=announced, move=_written(reading.play), awarded=awarded,
                    **because_params),
                announced, name(reading),
            )
    if stated_fault is not None:
        return _zero(stated_fault.reason, stated_fault.message)
    if anywhere:
        scores = sorted({r.score for r in anywhere}, reverse=True)
        listed = ", ".join(str(s) for s in scores[:5])
        where = "place_wrong_because" if parsed.coord_error else f"place_{place}"
        said = "_score_wrong" if announced is not None else "_no_score"
        params: dict[str, Param] = {"reason": parsed.coord_error} if parsed.coord_error else {}
        if announced is not None:
            params["announced"] = announced
        return _zero("place_and_score_wrong", msg(where + said, word=parsed.word, scores=listed, **params))
    nowhere = _why_nowhere(board, parsed.tiles, rack, lexicon)
    return _zero(nowhere.reason, nowhere.message)


def _judge_at_place(
    board: Board,
    rack: Sequence[str],
    parsed: ParsedSlip,
    coord: Coord,
    lexicon: Container[str] | None,
    name: Callable[[Reading], str],
) -> Verdict | _Fault:
    """The verdict on a slip at its written place ``coord`` (or, at the announced score, with the direction
    reversed or the row and column swapped); else why the written place does not hold the word."""
    announced = parsed.score
    try:
        reading = _choose(readings_at(board, coord, parsed.tiles, rack, lexicon), announced)
    except _Fault as fault:
        stated_fault = fault
    else:
        true = reading.score
        move = _written(reading.play)
        if announced == true:
            return Verdict(true, False, "ok", msg("ok", move=move, score=true), true, name(reading))
        if announced is None:
            return Verdict(true, True, "score_missing", msg("score_missing", move=move, score=true), true, name(reading))
        return Verdict(true, True, "score_wrong", msg("score_wrong", move=move, score=true, announced=announced),
                       true, name(reading))
    variants = [("direction_reversed", coord.flipped()), ("coordinates_swapped", coord.transposed())]
    for reason, other in variants:
        if other == coord or announced is None:
            continue
        try:
            readings = readings_at(board, other, parsed.tiles, rack, lexicon)
        except _Fault:
            continue
        reading = _choose(readings, announced)
        if reading.score == announced:
            explanation = msg(reason, written=Place(coord), move=_written(reading.play), announced=announced)
            return Verdict(announced, True, reason, explanation, announced, name(reading))
    return stated_fault


def _judge_first(
    board: Board,
    rack: Sequence[str],
    parsed: ParsedSlip,
    lexicon: Container[str] | None,
    solve_fn: SolveFn | None,
    name: Callable[[Reading], str],
) -> Verdict:
    anywhere = readings_anywhere(board, parsed.tiles, rack, lexicon, solve_fn)
    if not anywhere:
        nowhere = _why_nowhere(board, parsed.tiles, rack, lexicon)
        return _zero(nowhere.reason, nowhere.message)
    best_score = max(r.score for r in anywhere)
    best = min(
        (r for r in anywhere if r.score == best_score),
        key=lambda r: (r.coord.vertical, r.coord.row, r.coord.col),
    )
    announced = parsed.score
    move = name(best)
    params: dict[str, Param] = {"word": parsed.word, "score": best_score, "move": _written(best.play)}
    if announced == best_score:
        return Verdict(best_score, False, "first_round", msg("first_round", **params), best_score, move)
    if announced is None:
        return Verdict(best_score, True, "first_round_score_missing", msg("first_round_score_missing", **params),
                       best_score, move)
    return Verdict(best_score, True, "first_round_score_wrong",
                   msg("first_round_score_wrong", announced=announced, **params), best_score, move)


__all__ = [
    "PLAIN_REASONS",
    "REASONS",
    "Reason",
    "WARNING_REASONS",
    "JudgeInputError",
    "ParsedSlip",
    "Reading",
    "SlipError",
    "SlipParts",
    "Verdict",
    "judge_slip",
    "parse_slip",
    "readings_anywhere",
    "readings_at",
]
