"""Training on a finished game: its rounds as a player replays them, and duplicate GCG records read back.

Nothing here imports Django. A training round is what a player needs to play a round of a finished game
again: the board before the round (FEN), the rack, and the round's top (the move the game played and its
score). :func:`training_rounds` takes them from a game of the engine (a JSON record replayed, a GCG record
read by :func:`read_gcg`); a tournament game gives them from its own rounds.

A GCG record is read when it is a duplicate game's, as :func:`scoring.records.game_to_gcg` writes it: one
player whose every move line carries the rack (``>Top: ACERST? 8H WORD +24 24``), the tops in order.
A record of a two-player game, a line without a rack, a pass or an exchange is refused
(:class:`scoring.records.ReplayError`, with the line's round).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import NotRequired, TypedDict

from .board import Board, Tile
from .coords import Convention, Coord, CoordError, parse_coord
from .draw import DrawError, DrawEvent, accept_rack, tiles_text
from .game import DuplicateGame, GameError
from .messages import Square, Written, msg
from .notation import MoveText, NotationError, parse_move, parse_rack, parse_word, word_text
from .placement import IllegalMove, evaluate
from .records import ReplayError
from .rules import RulesError, get_ruleset
from .variants import VariantError, get_variant


class TrainingRound(TypedDict):
    """One round of a finished game, as a training replays it."""

    round: int
    rack: str
    board_before: str  # FEN
    top: str  # duplicate notation, Latin row labels
    score: int
    #: the Joker variant: the letters whose tiles replaced on the board the blanks the top played (a round
    #: without a replacement, and a game of another variant, has no such key)
    replaced: NotRequired[str]


def training_rounds(game: DuplicateGame) -> list[TrainingRound]:
    """The rounds of a played game with the board before each (blanks replaced as the game replaced them)."""
    board = Board(game.ruleset)
    out: list[TrainingRound] = []
    for r in game.rounds:
        row: TrainingRound = {
            "round": r.round,
            "rack": r.rack,
            "board_before": board.to_fen(),
            "top": r.move,
            "score": r.score,
        }
        if r.replaced:
            row["replaced"] = r.replaced
        out.append(row)
        board = board_after(board, r.move, r.replaced)
    return out


def board_after(board: Board, move: str, replaced: str = "") -> Board:
    """``board`` with the top ``move`` on it; the letters of ``replaced`` (the Joker variant) put as tiles
    where the move played their blanks."""
    play = evaluate(board, parse_move(move, board.ruleset))
    after = board.copy()
    left = Counter(replaced)
    for p in play.placed:
        real = p.blank and left[p.letter] > 0
        if real:
            left[p.letter] -= 1
        after[p.row, p.col] = Tile(p.letter, p.blank and not real)
    return after


# -- GCG ------------------------------------------------------------------------------------------------

_MOVE_LINE = re.compile(r"^>(?P<player>[^:]+):\s*(?P<rest>.*)$")
_RULE_SET = re.compile(r"rule set (?P<id>[\w-]+)")
_VARIANT = re.compile(r"^#note variant (?P<id>[\w-]+):")
#: A GCG word's runs: letters, or dots (letters already on the board)
_RUNS = re.compile(r"\.+|[^.]+")


def read_gcg(text: str, *, ruleset: str | None = None) -> DuplicateGame:
    """The duplicate game of a GCG record (see the module doc), its racks checked against the bag and its
    moves against the board and the racks. ``ruleset``: the rule set when the record does not name one."""
    lines = [line.strip() for line in text.replace("\r", "\n").split("\n") if line.strip()]
    named = next(
        (
            m.group("id")
            for line in lines
            if line.startswith("#description")
            for m in [_RULE_SET.search(line)]
            if m
        ),
        None,
    )
    variant_id = next((m.group("id") for line in lines for m in [_VARIANT.match(line)] if m), None)
    try:
        rs = get_ruleset(named or ruleset or "")
    except RulesError:
        raise ReplayError("bad_record", msg("record_ruleset", name=named or ruleset or "")) from None
    try:
        variant = get_variant(variant_id)
    except VariantError:
        raise ReplayError("bad_record", msg("record_variant", name=str(variant_id))) from None
    moves = [m for line in lines for m in [_MOVE_LINE.match(line)] if m]
    if not moves:
        raise ReplayError("bad_record", msg("record_no_move_line"))
    if len({m.group("player").strip() for m in moves}) > 1:
        raise ReplayError("two_players", msg("record_two_players"))
    game = DuplicateGame(rs, 0, variant=variant)
    for i, m in enumerate(moves, start=1):
        if game.over:
            raise ReplayError("after_end", msg("record_after_end", round=i - 1), i)
        _gcg_round(game, m.group("rest").split(), i)
    return game


def _gcg_round(game: DuplicateGame, parts: list[str], i: int) -> None:
    rs = game.ruleset
    if len(parts) < 4 or not parts[3].startswith("+"):
        raise ReplayError("bad_record", msg("record_bad_line", text=" ".join(parts)), i)
    rack_text, coord_text, word, score_text = parts[:4]
    try:
        rack = parse_rack(rack_text, rs)
        coord = parse_coord(coord_text, cyrillic=rs.cyrillic, convention=Convention.ENGLISH)
    except (NotationError, CoordError) as exc:
        raise ReplayError("bad_record", msg("record_part", text=" ".join(parts[:4]), reason=exc.message), i) from None
    if not score_text[1:].isdigit():
        raise ReplayError("bad_record", msg("record_part", text=" ".join(parts[:4]),
                                            reason=msg("score_not_whole", text=score_text[1:])), i)
    score = int(score_text[1:])
    board = game.board
    written = _gcg_word(board, coord, word, i)
    move = Written(coord, word_text(written))
    _take_rack(game, rack, i)
    try:
        play = evaluate(board, MoveText(coord, written), rack=list(game.rack or []))
    except IllegalMove as exc:
        raise ReplayError(exc.code, msg("placement_at", move=move, reason=exc.message), i) from None
    if play.score != score:
        raise ReplayError("score", msg("record_score", move=move, score=play.score, said=score), i)
    try:
        game.play(play)
    except GameError as exc:
        raise ReplayError(exc.code, str(exc), i, cause=exc) from None


def _gcg_word(board: Board, coord: Coord, word: str, i: int) -> tuple[Tile, ...]:
    """The tiles of a GCG move's word: each run of letters read in the rule set's letters (a blank in lower
    case), each ``.`` the tile already on the board at its square (a letter played through), whatever the
    tile set (a Cyrillic letter, the Ukrainian apostrophe, a Polish letter …)."""
    tiles: list[Tile] = []
    for run in _RUNS.findall(word):
        if run.startswith("."):
            for _dot in run:
                square = coord.square(len(tiles))
                on_board = board.tile(*square)
                if on_board is None:
                    raise ReplayError("bad_record", msg("record_played_through", square=Square(*square)), i)
                tiles.append(on_board)
            continue
        try:
            tiles.extend(parse_word(run, board.ruleset))
        except NotationError as exc:
            raise ReplayError("bad_record", msg("record_part", text=word, reason=exc.message), i) from None
    return tuple(tiles)


def _take_rack(game: DuplicateGame, rack: list[str], i: int) -> None:
    """The round's rack from the bag: the previous leftover and new tiles (or, when the rack does not hold
    the leftover, a redraw: the leftover went back into the bag)."""
    keep = list(game.on_stand())
    if Counter(keep) - Counter(rack):
        game.bag.put_back(keep)
        game.log.append(
            DrawEvent(i, "redraw", tiles_text(keep), "", "", False, "a rack without the leftover")
        )
        keep = []
        game.leftover = []
    drawn = list((Counter(rack) - Counter(keep)).elements())
    try:
        outcome = accept_rack(
            game.ruleset,
            game.bag,
            keep,
            i,
            keep + drawn,
            kind="replay",
            invalid="raise",
            variant=game.variant,
        )
    except DrawError as exc:
        raise ReplayError(exc.code, f"{tiles_text(rack)}: {exc}", i, cause=exc) from None
    game._take(outcome)


__all__ = ["TrainingRound", "board_after", "read_gcg", "training_rounds"]
