"""The duplicate game (RULES §4): racks, the top of each round, the end of the game.

Nothing here imports Django. The move generator is injected: a
:data:`~scoring.moves.SolveFn` returns the legal moves (:class:`~scoring.moves.Move`)
of a rack on a board.

Choosing the top
----------------
The top and its tie order are :mod:`scoring.tops` (one place for the game, the
solver task and the ``solve`` command). The arbiter may pick any other move of
top score (:meth:`DuplicateGame.play` with ``candidates`` checks it).

The end of the game (:func:`end_reason`)
----------------------------------------
Checked on the tiles left (rack leftover + bag) after each move:
``bag_and_rack_empty``; ``one_tile_left``; ``no_vowel`` / ``no_consonant`` —
unless a blank is among 2 or more tiles left. And when a rack has no legal move
(:meth:`DuplicateGame.no_move`): the rack goes back into the bag and is
redrawn, unless no other rack can be drawn (``no_move``): the tiles left fit on
one rack, or every valid rack that the tiles left allow has been tried in the
round (counted exactly for small pools), or — a safety net for blocked
boards with a large pool — ``max_no_move_redraws`` racks in a row had no move.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from .board import Board, Tile
from .coords import Coord, format_coord
from .draw import (
    BLANK,
    Bag,
    BagState,
    DrawError,
    DrawEvent,
    DrawEventState,
    DrawOutcome,
    accept_rack,
    check_rack,
    distinct_racks,
    draw_rack,
    sort_tiles,
    tiles_text,
)
from .moves import Move, SolveFn, same_move
from .notation import MoveText, NotationError, format_move, parse_move
from .placement import IllegalMove, Placement, evaluate
from .rules import RuleSet, get_ruleset
from .tops import END_REASONS, end_reason, offered_moves, rank_tops, subtract
from .variants import Variant, get_variant, replace_blanks

STATE_VERSION = 1
#: Before a prepared rack: the round was redrawn when the game was played, so the leftover goes back into the
#: bag before this rack is taken (``"-ОЕТВРАК"``).
PREPARED_REDRAW = "-"


class GameError(ValueError):
    """A game action that the rules refuse; ``code`` names the rule."""

    def __init__(self, code: str, message: str, **params: object):
        super().__init__(message)
        self.code = code
        self.params = params


def move_text(move: Move) -> str:
    """A move in the duplicate notation with Latin row labels (``H8 WORD``, ``8H WORD``)."""
    return format_move(move.coord, tuple(move.tiles))


# -- records ---------------------------------------------------------------------


@dataclass
class RoundRecord:
    """One round as played.

    ``leftover`` is what the previous rack kept; when the round had redraws
    (``redraws`` > 0: invalid racks or racks without a legal move) it went back
    into the bag and ``rack`` == ``drawn``; otherwise ``rack`` == leftover + drawn.
    ``bag_after`` is the number of tiles in the bag once the rack is drawn. ``replaced``: the
    letters whose tiles replaced the blanks of the move on the board (the Joker variant).
    """

    round: int
    leftover: str
    drawn: str
    rack: str
    redraws: int
    move: str
    score: int
    cumulative: int
    used: str
    bag_after: int
    replaced: str = ""

    @property
    def kept(self) -> str:
        """The part of the rack kept from the previous round."""
        return "" if self.redraws else self.leftover

    def rack_display(self) -> str:
        """``ОЕТ+ВРАК`` (leftover + new tiles), ``(redraw ×N)`` appended after redraws."""
        text = f"{self.kept}+{self.drawn}" if self.kept and self.drawn else self.kept or self.drawn
        if self.redraws:
            text += f" (redraw ×{self.redraws})"
        return text

    def to_json(self) -> RoundRecordState:
        state: RoundRecordState = {
            "round": self.round,
            "leftover": self.leftover,
            "drawn": self.drawn,
            "rack": self.rack,
            "redraws": self.redraws,
            "move": self.move,
            "score": self.score,
            "cumulative": self.cumulative,
            "used": self.used,
            "bag_after": self.bag_after,
        }
        if self.replaced:
            state["replaced"] = self.replaced
        return state

    @classmethod
    def from_json(cls, data: RoundRecordState) -> RoundRecord:
        return cls(**data)


class RoundRecordState(TypedDict):
    """A :class:`RoundRecord` as saved in a game's state."""

    round: int
    leftover: str
    drawn: str
    rack: str
    redraws: int
    move: str
    score: int
    cumulative: int
    used: str
    bag_after: int
    replaced: NotRequired[str]  # the Joker variant, when a blank was replaced


class GameState(TypedDict):
    """A :class:`DuplicateGame` as saved (``DuplicateGame.to_json``): what ``Game.state`` holds."""

    version: int
    ruleset: str
    seed: int
    bag: BagState
    board: str  # FEN
    round: int
    phase: str  # "draw", "play" or "over"
    leftover: str
    rack: str | None
    round_leftover: str
    drawn: str
    redraws: int
    no_move_racks: list[str]
    no_move_tries: int
    rounds: list[RoundRecordState]
    log: list[DrawEventState]
    total: int
    end_reason: str | None
    prepared: list[str] | None
    max_no_move_redraws: int
    variant: NotRequired[str]  # absent: classic


# -- the game ----------------------------------------------------------------------


class DuplicateGame:
    """A duplicate game played round by round: draw → solve → choose the top → apply.

    Phases: ``"draw"`` (the round needs a rack), ``"play"`` (the rack is on the
    stand, waiting for the top), ``"over"``. The state round-trips through
    :meth:`to_json` / :meth:`from_json`; :meth:`check_invariant` asserts that
    board + rack + bag always make the full tile set.

    ``prepared``: a prepared game, one rack per round (``"ОЕТ+ВРАК"`` or
    ``"ОЕТВРАК"``), verified round by round instead of drawing at random; ``"-ОЕТВРАК"``: the leftover went
    back into the bag first (the round was redrawn when the game was played, :data:`PREPARED_REDRAW`).
    ``variant``: ``"classic"`` (default), ``"joker"``, ``"topping"`` or ``"7among8"`` (:mod:`scoring.variants`).
    """

    def __init__(
        self,
        ruleset: RuleSet | str,
        seed: int,
        *,
        prepared: Sequence[str] | None = None,
        max_no_move_redraws: int = 100,
        variant: Variant | str | None = None,
    ):
        self.variant = get_variant(variant)
        # the 7-among-8 game plays a rule set of racks of 8 and moves of at most 7 (scoring.variants)
        self.ruleset = self.variant.ruleset(get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset)
        self.seed = seed
        self.bag = Bag(self.ruleset, seed)
        self.board = Board(self.ruleset)
        self.round_no = 1
        self.phase = "draw"
        self.leftover: list[str] = []  # kept from the previous round (phase "draw")
        self.rack: list[str] | None = None  # phase "play"
        self.round_leftover: list[str] = []  # the leftover this round started with (for the record)
        self.drawn: list[str] = []
        self.redraws = 0
        self.no_move_racks: list[str] = []  # racks of this round that had no legal move
        self.no_move_tries = 0  # racks sent back for want of a move in this round
        self.rounds: list[RoundRecord] = []
        self.log: list[DrawEvent] = []
        self.total = 0
        self.end_reason: str | None = None
        self.prepared: list[str] | None = list(prepared) if prepared is not None else None
        self.max_no_move_redraws = max_no_move_redraws

    # -- state ---------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def end_message(self) -> str:
        return END_REASONS.get(self.end_reason or "", "")

    def on_stand(self) -> list[str]:
        """The tiles on the rack stand: the rack in phase "play", else the leftover."""
        return list(self.rack) if self.rack is not None else list(self.leftover)

    def tiles_left(self) -> list[str]:
        """Every tile not on the board: the stand + the bag."""
        return self.on_stand() + self.bag.tiles()

    def board_tiles(self) -> Counter[str]:
        return Counter(BLANK if t.blank else t.letter for _, _, t in self.board.tiles())

    def check_invariant(self) -> None:
        """Assert board + rack + bag == the full tile set (AssertionError naming the difference)."""
        have = self.board_tiles() + Counter(self.on_stand()) + self.bag.counts()
        full = Counter(self.ruleset.full_bag())
        if have != full:
            extra = tiles_text(sort_tiles(self.ruleset, (have - full).elements()))
            lost = tiles_text(sort_tiles(self.ruleset, (full - have).elements()))
            raise AssertionError(
                f"round {self.round_no}: board + rack + bag is not the full tile set "
                f"(extra: {extra or '-'}; missing: {lost or '-'})"
            )

    def _require(self, phase: str) -> None:
        if self.phase != phase:
            if self.phase == "over":
                raise GameError("game_over", f"the game is over ({self.end_message})", end=self.end_reason or "")
            what = {"draw": "the round needs a rack first", "play": "the rack is already drawn"}[self.phase]
            raise GameError("wrong_phase", f"round {self.round_no}: {what}", phase=self.phase, round=self.round_no)

    def _rack_in_play(self) -> list[str]:
        """The rack waiting for its top (GameError outside phase "play")."""
        self._require("play")
        if self.rack is None:  # phase "play" always has a rack (from_json refuses a state without)
            raise GameError("bad_state", f"round {self.round_no}: the game waits for a top but has no rack")
        return self.rack

    # -- racks -----------------------------------------------------------------------
    def _take(self, outcome: DrawOutcome) -> DrawOutcome:
        self.log.extend(outcome.events)
        self.redraws += outcome.redraws
        self.drawn = list(outcome.drawn)
        if outcome.rack is None:  # a typed rack was invalid: everything went back
            self.leftover = []
        else:
            self.rack = list(outcome.rack)
            self.leftover = []
            self.phase = "play"
        return outcome

    def draw(self) -> DrawOutcome:
        """Fill the rack: the next prepared rack, or at random from the bag until valid."""
        self._require("draw")
        if self.prepared is None:
            kind = "redraw" if self.redraws else "draw"
            return self._take(draw_rack(self.ruleset, self.bag, self.leftover, self.round_no, first_kind=kind,
                                        variant=self.variant))
        if self.round_no > len(self.prepared):
            raise GameError(
                "prepared_exhausted",
                f"round {self.round_no}: the prepared game has only {len(self.prepared)} racks "
                "(type the rack drawn from the bag instead)",
                round=self.round_no, count=len(self.prepared),
            )
        text = self.prepared[self.round_no - 1]
        if self.redraws:
            raise GameError(
                "prepared_redraw",
                f"round {self.round_no}: the prepared rack «{text}» had no legal move and a prepared game "
                "cannot redraw (type the rack drawn from the bag instead)",
                round=self.round_no, typed=text,
            )
        if text.startswith(PREPARED_REDRAW):
            text = text[len(PREPARED_REDRAW):]
            self._return_leftover()
        try:
            outcome = accept_rack(
                self.ruleset, self.bag, self.leftover, self.round_no, text, kind="prepared", invalid="raise",
                variant=self.variant,
            )
        except DrawError as exc:
            raise DrawError(exc.code, f"round {self.round_no}: prepared rack «{text}»: {exc}",
                            **{**exc.params, "round": self.round_no, "prepared": text}) from None
        return self._take(outcome)

    def _return_leftover(self) -> None:
        """A prepared rack after ``-``: the round was redrawn, its leftover goes back into the bag first (RULES §4)."""
        if self.leftover:
            shown = tiles_text(self.leftover)
            self.log.append(DrawEvent(self.round_no, "prepared", shown, "", shown, False))
            self.bag.put_back(self.leftover)
            self.leftover = []
            self.redraws += 1

    def type_rack(self, text: str) -> DrawOutcome:
        """The arbiter types the rack drawn from the physical bag.

        DrawError (nothing changes) when it cannot come from the bag; an
        invalid rack is logged, goes back into the bag with the leftover, and
        ``outcome.valid`` is False: the arbiter redraws a full rack.
        """
        self._require("draw")
        return self._take(accept_rack(self.ruleset, self.bag, self.leftover, self.round_no, text, variant=self.variant))

    # -- moves -------------------------------------------------------------------------
    def legal_moves(self, solve_fn: SolveFn) -> list[Move]:
        """The moves offered for the rack on the stand (horizontal only on the empty board)."""
        rack = self._rack_in_play()
        return offered_moves(self.board, solve_fn(self.board, list(rack)))

    def tops(self, moves: Iterable[Move]) -> list[Move]:
        """The moves of top score among ``moves``, the proposed top first."""
        return rank_tops(self.board, self._rack_in_play(), moves, self.bag.tiles())

    def no_move(self) -> str | None:
        """The rack has no legal move: it goes back into the bag (logged) and is redrawn,
        unless no other rack can be drawn — then the game ends (returns the end reason)."""
        rack = list(self._rack_in_play())
        key = tiles_text(sort_tiles(self.ruleset, rack))
        if key not in self.no_move_racks:
            self.no_move_racks.append(key)
        pool = rack + self.bag.tiles()
        size = len(rack)
        self.no_move_tries += 1
        ends = len(pool) <= size or self.no_move_tries > self.max_no_move_redraws
        if not ends:
            if self.variant.blank_on_rack:  # a Joker rack holds one blank at a time
                pool = [t for t in pool if t != BLANK] + [BLANK] * min(1, pool.count(BLANK))
            ends = distinct_racks(self.ruleset, pool, size, self.round_no) <= len(self.no_move_racks)
        self.log.append(
            DrawEvent(self.round_no, "no_move", "", "", tiles_text(rack), False,
                      "no legal move" + ("; no other rack can be drawn" if ends else ": the rack goes back to the bag"))
        )
        if ends:
            self._finish("no_move")
            return self.end_reason
        self.bag.put_back(rack)
        self.rack = None
        self.leftover = []
        self.redraws += 1
        self.phase = "draw"
        return None

    def _match(self, move: Move | str, candidates: Sequence[Move]) -> Move:
        """The candidate equal to ``move`` (a move object or its notation), or GameError."""
        rack = self._rack_in_play()
        if isinstance(move, str):
            try:
                written = parse_move(move, self.ruleset)  # coordinates required: written.coord is set
            except NotationError as exc:
                raise GameError(exc.code, str(exc), detail=exc.message) from None
            probe = MoveText(written.coord, written.tiles)
        else:
            probe = MoveText(move.coord, tuple(move.tiles))
        for c in candidates:
            if same_move(c, probe):
                return c
        text = move if isinstance(move, str) else move_text(move)
        try:
            play = evaluate(self.board, probe, rack=rack)
        except IllegalMove as exc:
            raise GameError(exc.code, f"{text}: {exc}", detail=exc.message) from None
        if self.board.is_empty() and play.coord.vertical:
            raise GameError("first_move_vertical", f"{text}: the first move is placed horizontally", move=text)
        best = max(c.score for c in candidates)
        if play.score < best:
            raise GameError(
                "not_top", f"{text} scores {play.score}, the top of this round scores {best}", score=play.score, top=best,
                move=text,
            )
        words = ", ".join(w.word for w in play.words)
        raise GameError(
            "not_legal", f"{text} is not a legal move of the rack {tiles_text(rack)}: a word is not in the lexicon ({words})",
            move=text, rack=tiles_text(rack), words=words,
        )

    def play(self, move: Move | str, *, candidates: Sequence[Move] | None = None) -> RoundRecord:
        """Put ``move`` on the board as this round's top.

        With ``candidates`` (the legal moves of the rack) the move must be one
        of them (a move or its notation) and of top score, or GameError.
        """
        rack = self._rack_in_play()
        if candidates is not None:
            offered = offered_moves(self.board, candidates)
            if not offered:
                raise GameError("no_move", f"round {self.round_no}: the rack has no legal move", round=self.round_no)
            move = self._match(move, offered)
            best = max(m.score for m in offered)
            if move.score != best:
                raise GameError(
                    "not_top",
                    f"{move_text(move)} scores {move.score}, the top of this round scores {best}",
                    score=move.score, top=best, move=move_text(move),
                )
        elif isinstance(move, str):
            raise GameError("no_candidates", "a move given as text needs the legal moves to check it against")
        placed = tuple(move.placed)  # before the board changes (a solver's move may read the board)
        text = move_text(move)
        used = [BLANK if p.blank else p.letter for p in placed]
        if Counter(used) - Counter(rack):
            raise GameError("not_on_rack", f"{text} plays tiles that are not on the rack {tiles_text(rack)}",
                            move=text, rack=tiles_text(rack))
        board = self.board.copy()
        for p in placed:
            if board.occupied(p.row, p.col):
                square = format_coord(Coord(p.row, p.col, False))
                raise GameError("occupied", f"{text}: square {square} is taken", move=text, square=square)
            board[p.row, p.col] = Tile(p.letter, p.blank)
        replaced = self._replace_blanks(board, placed)
        self.board = board
        leftover = subtract(rack, used)
        self.total += move.score
        record = RoundRecord(
            round=self.round_no,
            leftover=tiles_text(self.round_leftover),
            drawn=tiles_text(self.drawn),
            rack=tiles_text(rack),
            redraws=self.redraws,
            move=text,
            score=move.score,
            cumulative=self.total,
            used=tiles_text(used),
            bag_after=len(self.bag),
            replaced=tiles_text(replaced),
        )
        self.rounds.append(record)
        self.rack = None
        self.leftover = leftover
        self.round_leftover = list(leftover)
        self.drawn = []
        self.redraws = 0
        self.no_move_racks = []
        self.no_move_tries = 0
        reason = end_reason(self.ruleset, self.tiles_left())
        if reason:
            self._finish(reason)
        else:
            self.round_no += 1
            self.phase = "draw"
        return record

    def _replace_blanks(self, board: Board, placed: tuple[Placement, ...]) -> list[str]:
        """The Joker variant after the top: each blank played whose letter the bag holds becomes that
        letter's tile on ``board``; the tile leaves the bag and the blank goes back (:mod:`scoring.variants`)."""
        if not self.variant.blank_replaced:
            return []
        replaced = replace_blanks(board, self.bag.counts(), placed)
        self.bag.take(replaced)
        self.bag.put_back([BLANK] * len(replaced))
        return replaced

    def _finish(self, reason: str) -> None:
        self.end_reason = reason
        self.phase = "over"

    # -- whole rounds --------------------------------------------------------------------
    def play_round(self, solve_fn: SolveFn) -> RoundRecord | None:
        """Draw (redrawing when there is no legal move), choose the proposed top and apply it.

        Returns the round's record, or None when the game ended without a move.
        """
        while True:
            if self.phase == "over":
                return None
            if self.phase == "draw":
                self.draw()
            moves = self.legal_moves(solve_fn)
            if moves:
                tops = self.tops(moves)
                return self.play(tops[0])
            self.no_move()

    def play_out(self, solve_fn: SolveFn, *, check: bool = False) -> DuplicateGame:
        """Play rounds until the game is over (``check``: assert the tile invariant every round)."""
        while not self.over:
            self.play_round(solve_fn)
            if check:
                self.check_invariant()
        return self

    # -- persistence -----------------------------------------------------------------------
    def to_json(self) -> GameState:
        state: GameState = {
            "version": STATE_VERSION,
            "ruleset": self.ruleset.id,
            "seed": self.seed,
            "bag": self.bag.to_json(),
            "board": self.board.to_fen(),
            "round": self.round_no,
            "phase": self.phase,
            "leftover": tiles_text(self.leftover),
            "rack": None if self.rack is None else tiles_text(self.rack),
            "round_leftover": tiles_text(self.round_leftover),
            "drawn": tiles_text(self.drawn),
            "redraws": self.redraws,
            "no_move_racks": list(self.no_move_racks),
            "no_move_tries": self.no_move_tries,
            "rounds": [r.to_json() for r in self.rounds],
            "log": [e.to_json() for e in self.log],
            "total": self.total,
            "end_reason": self.end_reason,
            "prepared": self.prepared,
            "max_no_move_redraws": self.max_no_move_redraws,
        }
        if not self.variant.classic:
            state["variant"] = self.variant.id
        return state

    @classmethod
    def from_json(cls, data: object) -> DuplicateGame:
        """The game saved by :meth:`to_json` (GameError ``bad_state`` when it cannot be read).

        ``data`` comes from storage (JSON): anything else than a state of this version is refused."""
        if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
            found = data.get("version") if isinstance(data, dict) else None
            raise GameError("bad_state", f"game state version {found!r} is not {STATE_VERSION}")
        try:
            game = cls._from_json(data)
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, GameError):
                raise
            raise GameError("bad_state", f"the saved game cannot be read: {exc!r}") from None
        try:
            game.check_invariant()
        except AssertionError as exc:
            raise GameError("bad_state", f"the saved game is inconsistent: {exc}") from None
        return game

    @classmethod
    def _from_json(cls, data: dict[str, Any]) -> DuplicateGame:
        game = cls(data["ruleset"], data["seed"], prepared=data.get("prepared"),
                   max_no_move_redraws=data.get("max_no_move_redraws", 100), variant=data.get("variant"))
        rs = game.ruleset
        game.bag = Bag.from_json(rs, data["bag"])
        game.board = Board.from_fen(rs, data["board"])
        game.round_no = data["round"]
        game.phase = data["phase"]
        game.leftover = list(data["leftover"])
        game.rack = None if data["rack"] is None else list(data["rack"])
        game.round_leftover = list(data["round_leftover"])
        game.drawn = list(data["drawn"])
        game.redraws = data["redraws"]
        game.no_move_racks = list(data["no_move_racks"])
        game.no_move_tries = data.get("no_move_tries", len(game.no_move_racks))
        game.rounds = [RoundRecord.from_json(r) for r in data["rounds"]]
        game.log = [DrawEvent.from_json(e) for e in data["log"]]
        game.total = data["total"]
        game.end_reason = data["end_reason"]
        # a game ended by "no legal move" keeps its last rack on the stand: phase "over" takes either
        racked = game.rack is not None
        if game.phase not in ("draw", "play", "over") or game.phase != "over" and (game.phase == "play") != racked:
            raise ValueError(f"phase {game.phase!r} with rack {data['rack']!r}")
        return game


__all__ = [
    "END_REASONS",
    "DuplicateGame",
    "GameError",
    "RoundRecord",
    "check_rack",
    "end_reason",
    "move_text",
]
