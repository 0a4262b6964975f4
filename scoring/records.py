"""Records of a played duplicate game: GCG and JSON export, JSON import and replay.

Nothing here imports Django.

JSON record (:func:`game_to_json`)::

    {"seed": N, "ruleset": "ru",
     "rounds": [{"round": 1, "leftover": "", "drawn": "ВРАКОЕТ", "rack": "ВРАКОЕТ", "redraws": 0,
                 "top": {"move": "H4 КОРОВА", "score": 24}, "bag_after": 97}, ...],
     "total": 812, "end_reason": "no_vowel", "final_board": "<FEN>"}

``leftover`` is what the previous rack kept; when ``redraws`` > 0 it went back
into the bag with the invalid racks, and ``rack`` == ``drawn``; otherwise
``rack`` == leftover + drawn. ``bag_after`` is the number of tiles in the bag
once the rack was drawn. Moves are written in the duplicate notation with
Latin row labels (``H8 WORD`` horizontal, ``8H WORD`` vertical).

A game of a variant (:mod:`scoring.variants`) says so: ``"variant": "joker"`` next to the rule
set, and a round whose blank was replaced by its letter's tile ``"replaced": "S"``; a classic
game's record has neither key (records of classic games are as they always were). The GCG
record notes the variant in its header and each replacement in a ``#note``.

:func:`replay_json` plays such a record again and checks every rack against
the bag (leftover, tiles available, rack size, validity) and every move
(legal placement from the rack, words in the lexicon when one is given, the
score, the top score when a move generator is given), then the end reason,
the total and the final board. The first mismatch raises :class:`ReplayError`
naming the round.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Container, Mapping
from typing import Any, NotRequired, TypedDict, TypeVar

from .board import Board, BoardError, Tile
from .coords import Convention, format_coord
from .draw import DrawError, DrawEvent, accept_rack, sort_tiles, tiles_text
from .game import PREPARED_REDRAW, DuplicateGame, GameError, RoundRecord
from .messages import Message, Param, Written, msg
from .moves import SolveFn
from .notation import NotationError, parse_move, word_text
from .placement import IllegalMove, evaluate
from .rules import RulesError, RuleSet, get_ruleset
from .tops import END_REASONS, offered_moves
from .variants import VariantError, get_variant

_T = TypeVar("_T")


class ReplayError(ValueError):
    """A record that does not replay; ``round`` names the round (None: the whole record).

    ``message`` says why as data (:class:`~scoring.messages.Message`: the tournament writes it in the reader's
    language); a refusal of the draw or the game passed on is ``cause`` (its ``code`` and ``params``), its
    English text the message. ``str()`` is the English text, the round first."""

    def __init__(self, code: str, message: Message | str, round: int | None = None, *,
                 cause: Exception | None = None):
        text = str(message)
        super().__init__(f"round {round}: {text}" if round is not None else text)
        self.code = code
        self.message = message
        self.round = round
        self.cause = cause


#: The kind a record's field is checked to be, as the refusal names it.
_KINDS = {int: "kind_int", str: "kind_str", list: "kind_list", dict: "kind_dict"}


def _nothing(tiles: str) -> Param:
    return tiles or msg("nothing")


def _written(move_text: str, ruleset: RuleSet) -> Param:
    """A record's move as a position (written in the reader's coordinates), or as text when it cannot be read."""
    try:
        move = parse_move(move_text, ruleset)
    except NotationError:
        return move_text
    return Written(move.coord, word_text(move.tiles))


# -- JSON --------------------------------------------------------------------------


class TopRecord(TypedDict):
    move: str  # duplicate notation, Latin row labels
    score: int


class RoundRecordJson(TypedDict):
    round: int
    leftover: str
    drawn: str
    rack: str
    redraws: int
    top: TopRecord
    bag_after: int
    replaced: NotRequired[str]  # the Joker variant: the letters whose tiles replaced the blanks


class _LexiconName(TypedDict):
    lexicon: NotRequired[str]


class _VariantName(TypedDict):
    variant: NotRequired[str]


class GameRecord(TypedDict):
    """The JSON record of a game (see the module doc)."""

    seed: int
    ruleset: str
    variant: NotRequired[str]  # absent: classic
    lexicon: NotRequired[str]
    rounds: list[RoundRecordJson]
    total: int
    end_reason: str | None
    final_board: str  # FEN


def game_to_json(game: DuplicateGame, *, lexicon: str | None = None) -> GameRecord:
    """The record of a game (see the module doc); ``lexicon`` adds its name."""
    rounds: list[RoundRecordJson] = []
    for r in game.rounds:
        rnd: RoundRecordJson = {
            "round": r.round,
            "leftover": r.leftover,
            "drawn": r.drawn,
            "rack": r.rack,
            "redraws": r.redraws,
            "top": {"move": r.move, "score": r.score},
            "bag_after": r.bag_after,
        }
        if r.replaced:
            rnd["replaced"] = r.replaced
        rounds.append(rnd)
    named: _LexiconName = {"lexicon": lexicon} if lexicon else {}
    variant: _VariantName = {} if game.variant.classic else {"variant": game.variant.id}
    return {
        "seed": game.seed,
        "ruleset": game.ruleset.id,
        **variant,
        **named,
        "rounds": rounds,
        "total": game.total,
        "end_reason": game.end_reason,
        "final_board": game.board.to_fen(),
    }


def dumps(game: DuplicateGame, *, lexicon: str | None = None, indent: int | None = 1) -> str:
    return json.dumps(game_to_json(game, lexicon=lexicon), ensure_ascii=False, indent=indent)


def _field(data: Mapping[str, Any], key: str, kind: type[_T], where: int | None = None) -> _T:
    """``data[key]``, checked to be a ``kind`` (a bool is not an int here); ReplayError otherwise."""
    if key not in data:
        raise ReplayError("bad_record", msg("record_field_missing", key=key), where)
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise ReplayError("bad_record", msg("record_field_kind", key=key, kind=msg(_KINDS.get(kind, "kind_dict"))), where)
    return value


def _same_tiles(a: str, b: list[str] | str) -> bool:
    return Counter(a) == Counter(b)


def replay_json(
    data: Mapping[str, Any] | str,
    *,
    lexicon: Container[str] | None = None,
    solve_fn: SolveFn | None = None,
) -> DuplicateGame:
    """Play a JSON record again, checking it round by round (ReplayError on the first mismatch).

    ``lexicon`` (any container of upper-case words) checks the words of each
    move; ``solve_fn`` checks that each move has the top score.
    """
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise ReplayError("bad_record", msg("record_not_json", line=exc.lineno, column=exc.colno)) from None
    if not isinstance(data, dict):
        raise ReplayError("bad_record", msg("record_not_object"))
    seed = _field(data, "seed", int)
    name = _field(data, "ruleset", str)
    try:
        ruleset = get_ruleset(name)
    except RulesError:
        raise ReplayError("bad_record", msg("record_ruleset", name=name)) from None
    rounds = _field(data, "rounds", list)
    if data.get("variant") is not None:
        _field(data, "variant", str)  # a name: ``"variant": {}`` is refused as a field of the wrong kind
    try:
        variant = get_variant(data.get("variant"))
    except VariantError:
        raise ReplayError("bad_record", msg("record_variant", name=str(data.get("variant")))) from None
    game = DuplicateGame(ruleset, seed, variant=variant)
    for i, rec in enumerate(rounds, start=1):
        if not isinstance(rec, dict):
            raise ReplayError("bad_record", msg("record_round_not_object"), i)
        n = _field(rec, "round", int, i)
        if n != i:
            raise ReplayError("bad_record", msg("record_out_of_order", number=n, round=i), i)
        if game.over:
            raise ReplayError("after_end", msg("record_after_end", round=i - 1), i)
        _replay_round(game, rec, i, lexicon, solve_fn)
    end = data.get("end_reason")
    if not game.over:
        if end == "no_move":
            if solve_fn is not None and offered_moves(game.board, solve_fn(game.board, game.leftover)):
                raise ReplayError("end_reason", msg("record_no_move_left"))
            game._finish("no_move")
        else:
            raise ReplayError("end_reason", msg("record_stops", round=len(rounds), left=len(game.tiles_left())))
    if end != game.end_reason:
        raise ReplayError("end_reason", msg("record_end", said=str(end)))
    total = _field(data, "total", int)
    if total != game.total:
        raise ReplayError("total", msg("record_total", total=game.total, said=total))
    if "final_board" in data:
        try:
            board = Board.from_fen(ruleset, data["final_board"])
        except BoardError:
            raise ReplayError("final_board", msg("record_board_unreadable")) from None
        if board != game.board:
            raise ReplayError("final_board", msg("record_board"))
    return game


def _replay_round(
    game: DuplicateGame,
    rec: Mapping[str, Any],
    i: int,
    lexicon: Container[str] | None,
    solve_fn: SolveFn | None,
) -> None:
    rs = game.ruleset
    leftover = _field(rec, "leftover", str, i)
    drawn = _field(rec, "drawn", str, i)
    rack_text = _field(rec, "rack", str, i)
    redraws = _field(rec, "redraws", int, i)
    top = _field(rec, "top", dict, i)
    move_text = _field(top, "move", str, i)
    score = _field(top, "score", int, i)
    stand = game.on_stand()
    if not _same_tiles(leftover, stand):
        raise ReplayError("leftover", msg("record_leftover", left=_nothing(tiles_text(stand)),
                                          said=_nothing(leftover)), i)
    if redraws < 0:
        raise ReplayError("bad_record", msg("record_redraws", count=redraws), i)
    keep = list(stand)
    if redraws:
        # the leftover went back into the bag with the invalid racks
        game.bag.put_back(keep)
        game.log.append(DrawEvent(i, "redraw", tiles_text(keep), "", "", False, f"{redraws} redraw(s) in the record"))
        keep = []
        game.leftover = []
        game.redraws = redraws
    expected = tiles_text(keep) + drawn
    if not _same_tiles(rack_text, expected):
        why = (msg("record_rack_kept", rack=rack_text, kept=tiles_text(keep), drawn=drawn) if keep
               else msg("record_rack_drawn", rack=rack_text, drawn=drawn))
        raise ReplayError("rack", why, i)
    # the rack in leftover-then-drawn order, as drawn
    ordered = keep + list(drawn)
    try:
        outcome = accept_rack(rs, game.bag, keep, i, ordered, kind="replay", invalid="raise", variant=game.variant)
    except DrawError as exc:
        raise ReplayError(exc.code, str(exc), i, cause=exc) from None
    game._take(outcome)
    game.redraws = redraws
    if "bag_after" in rec and rec["bag_after"] != len(game.bag):
        raise ReplayError("bag_after", msg("record_bag_after", count=len(game.bag), said=str(rec["bag_after"])), i)
    move = _written(move_text, rs)
    try:
        written = parse_move(move_text, rs)
        play = evaluate(game.board, written, rack=game.rack, lexicon=lexicon)
    except (NotationError, IllegalMove) as exc:
        raise ReplayError(getattr(exc, "code", "illegal"), msg("placement_at", move=move, reason=exc.message),
                          i) from None
    if play.invalid_words:
        code = "not_in_lexicon_one" if len(play.invalid_words) == 1 else "not_in_lexicon_many"
        raise ReplayError("not_a_word", msg(code, move=move, words=tuple(play.invalid_words)), i)
    if game.board.is_empty() and play.coord.vertical:
        raise ReplayError("first_move_vertical", msg("record_first_vertical", move=move), i)
    if play.score != score:
        raise ReplayError("score", msg("record_score", move=move, score=play.score, said=score), i)
    if solve_fn is not None:
        offered = offered_moves(game.board, solve_fn(game.board, game.on_stand()))
        best = max((m.score for m in offered), default=None)
        if best is not None and best != score:
            raise ReplayError("not_top", msg("record_not_top", move=move, score=score, rack=rack_text, best=best), i)
    try:
        played = game.play(play)
    except GameError as exc:
        raise ReplayError(exc.code, str(exc), i, cause=exc) from None
    if "replaced" in rec and not _same_tiles(str(rec["replaced"]), played.replaced):
        raise ReplayError("replaced", msg("record_replaced", got=played.replaced, said=str(rec["replaced"])), i)


def load_json(
    text: str, *, lexicon: Container[str] | None = None, solve_fn: SolveFn | None = None
) -> DuplicateGame:
    """Read and replay a JSON record (see :func:`replay_json`)."""
    return replay_json(text, lexicon=lexicon, solve_fn=solve_fn)


# -- GCG ---------------------------------------------------------------------------


def gcg_move(board: Board, move_text: str) -> tuple[str, str]:
    """GCG coordinates and word of a move on ``board``: ``8H`` horizontal (row number first),
    ``H8`` vertical (column letter first); letters already on the board are ``.``."""
    written = parse_move(move_text, board.ruleset)
    coord = written.coord
    assert coord is not None  # parse_move requires the coordinates by default
    letters = []
    for k, tile in enumerate(written.tiles):
        letters.append("." if board[coord.square(k)] is not None else tile.fen())
    return format_coord(coord, convention=Convention.ENGLISH), "".join(letters)


def game_to_gcg(game: DuplicateGame, *, lexicon: str | None = None, player: str = "Top") -> str:
    """The game as a GCG record: one player, the top of each round, cumulative score.

    The header names the rule set, its tile set and board, and the seed; rounds
    with redraws get a ``#note``; the end reason closes the record.
    """
    rs = game.ruleset
    lines = [
        "#character-encoding UTF-8",
        f"#player1 {player} {player}",
        f"#title Duplicate game {rs.id} seed {game.seed}",
        f"#description Duplicate tops; rule set {rs.id} ({rs.name}), tiles {rs.tileset_id}, "
        f"board {rs.layout.name}, seed {game.seed}",
        f"#id duplicate-hall {rs.id}-{game.seed}",
        f"#tile-distribution {rs.tileset_id}",
        f"#board-layout {rs.layout.name}",
    ]
    if lexicon:
        lines.append(f"#lexicon {lexicon}")
    if not game.variant.classic:
        lines.append(f"#note variant {game.variant.id}: {game.variant.name}; {game.variant.note}")
    board = Board(rs)
    for r in game.rounds:
        coord, word = gcg_move(board, r.move)
        rack = tiles_text(sort_tiles(rs, r.rack))
        lines.append(f">{player}: {rack} {coord} {word} +{r.score} {r.cumulative}")
        if r.redraws:
            lines.append(f"#note round {r.round}: rack {r.rack_display()}")
        if r.replaced:
            lines.append(f"#note round {r.round}: the blank is replaced by {r.replaced} from the bag")
        written = parse_move(r.move, rs)
        play = evaluate(board, written)
        for p in play.placed:
            board[p.row, p.col] = Tile(p.letter, p.blank)
    reason = END_REASONS.get(game.end_reason or "", game.end_reason or "not finished")
    lines.append(f"#note end of game: {reason}; total {game.total}")
    return "\n".join(lines) + "\n"


def prepared_text(record: RoundRecord) -> str:
    """A round's rack as a prepared game takes it (``DuplicateGame(prepared=…)``): ``kept+drawn``; after a redraw
    the drawn tiles, after :data:`~scoring.game.PREPARED_REDRAW` when a leftover went back into the bag."""
    if record.redraws:
        return (PREPARED_REDRAW if record.leftover else "") + record.drawn
    return f"{record.kept}+{record.drawn}" if record.kept and record.drawn else record.kept or record.drawn


__all__ = [
    "ReplayError",
    "dumps",
    "game_to_gcg",
    "game_to_json",
    "gcg_move",
    "load_json",
    "prepared_text",
    "replay_json",
]
