"""The moves of a round and its top: solved once, stored on the round, used by every reader.

:func:`solve_round` (the Celery task's body) finds every legal move of the round's rack on the
round's board, ranks them with :func:`scoring.tops.ranked_moves` (the one order of the top, the same
as the ``solve`` command's) and keeps the best :data:`TOP_MOVES_KEPT` on the round, the proposed top
first. The review page shows those moves, and the publication puts the first on the board unless the
arbiter chose another of top score (:func:`checked_top`). Judging needs every legal move of the rack:
:func:`round_moves` (a few milliseconds with the compiled solver).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Container
from typing import TypedDict

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.board import Board
from scoring.moves import Move, SolveFn
from scoring.notation import NotationError, parse_move
from scoring.placement import IllegalMove, Play, evaluate
from scoring.solver import solver_for
from scoring.tops import offered_moves, ranked_moves

from .. import labels
from ..errors import Code, ServiceError
from ..gamestate import ruleset_of
from ..models import Round, Tournament

log = logging.getLogger(__name__)

#: Moves of a round kept on its row (the review page lists them; the first is the proposed top).
TOP_MOVES_KEPT = 50

Tools = tuple[SolveFn, Container[str]]


class TopMove(TypedDict):
    """A move as the round keeps it (``Round.top_moves``)."""

    move: str  # duplicate notation, Latin row labels
    score: int
    blanks: int
    tiles_placed: int


def round_tools(tournament: Tournament) -> Tools:
    """``(solve_fn, lexicon)`` of a tournament: the compiled solver over its lexicon (tests replace this)."""
    graph = tournament.lexicon.graph()
    # the board carries the game's rule set (a 7-among-8 game's racks of 8): its solver, cached per rule set
    return (lambda board, rack: solver_for(board.ruleset, graph).solve(board, rack).moves), graph


def board_of(rnd: Round) -> Board:
    """The board the round's rack is played on."""
    return Board.from_fen(ruleset_of(rnd.game), rnd.board_before or None)


def solver_key(rnd: Round) -> str:
    """What a stored solution was computed from: rule set, lexicon, board and rack."""
    t = rnd.game.tournament
    variant = () if rnd.game.variant == "classic" else (rnd.game.variant,)
    parts = (t.ruleset, str(t.lexicon_id), rnd.board_before, rnd.rack, *variant)
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def round_moves(rnd: Round, tools: Tools | None = None) -> list[Move]:
    """Every move the round offers (every legal move; on the empty board the horizontal ones)."""
    solve_fn, _lexicon = tools or round_tools(rnd.game.tournament)
    board = board_of(rnd)
    return offered_moves(board, solve_fn(board, list(rnd.rack)))


def move_row(move: Move) -> TopMove:
    """A move as the round keeps it (``top_moves``)."""
    return {"move": move.notation(), "score": move.score, "blanks": sum(1 for p in move.placed if p.blank),
            "tiles_placed": len(move.placed)}


def is_solved(rnd: Round) -> bool:
    """The round's stored moves are those of its current rack and board."""
    done = (Round.SolverStatus.DONE, Round.SolverStatus.NO_MOVE)
    return rnd.solver_status in done and rnd.solver_key == solver_key(rnd)


def solve_round(rnd: Round) -> str:
    """Solves the round and keeps its best moves, the proposed top first (skipped when already solved)."""
    if rnd.status == Round.Status.CANCELLED:
        return "gone"
    if is_solved(rnd):
        return "already"
    key = solver_key(rnd)
    Round.objects.filter(pk=rnd.pk).update(solver_status=Round.SolverStatus.RUNNING)
    try:
        moves = round_moves(rnd)
        kept = [move_row(m) for m in ranked_moves(board_of(rnd), list(rnd.rack), moves,
                                                  limit=TOP_MOVES_KEPT)[:TOP_MOVES_KEPT]]
        status = Round.SolverStatus.DONE if moves else Round.SolverStatus.NO_MOVE
        Round.objects.filter(pk=rnd.pk).update(top_moves=kept, move_count=len(moves), solver_status=status,
                                               solver_key=key, solver_error="")
    except Exception as exc:
        Round.objects.filter(pk=rnd.pk).update(solver_status=Round.SolverStatus.FAILED,
                                               solver_error=str(exc)[:2000])
        log.exception("solving round %s failed", rnd.pk)
        raise
    return "solved"


def ensure_solved(rnd: Round) -> Round:
    """The round with its stored moves, solving it now when the task has not (yet) done it."""
    if not is_solved(rnd):
        solve_round(rnd)
        rnd.refresh_from_db()
    return rnd


def tops(rnd: Round) -> list[TopMove]:
    """The stored moves of top score, the proposed top first."""
    if not rnd.top_moves:
        return []
    best = rnd.top_moves[0]["score"]
    return [m for m in rnd.top_moves if m["score"] == best]


def checked_top(rnd: Round, text: str, tools: Tools | None = None) -> Play:
    """The move ``text`` on the round's board, checked as the round's top: legal, every word in the
    lexicon, the rack's tiles, and the top score the solver found."""
    rnd = ensure_solved(rnd)
    if not rnd.top_moves:
        raise ServiceError(Code.NO_MOVE, _("the rack has no legal move"))
    best = rnd.top_moves[0]["score"]
    t = rnd.game.tournament
    _solve_fn, lexicon = tools or round_tools(t)
    board = board_of(rnd)
    style = labels.tournament_style(t)
    try:
        play = evaluate(board, parse_move(text, board.ruleset, convention=t.convention), rack=list(rnd.rack),
                        lexicon=lexicon)
    except (NotationError, IllegalMove) as exc:
        raise ServiceError(Code.NOT_LEGAL, f"{text}: {labels.engine_error(exc, style)}") from None
    shown = style.move(play.notation())
    if play.invalid_words:
        raise ServiceError(Code.NOT_LEGAL, _("%(move)s: not in the lexicon: %(words)s")
                           % {"move": shown, "words": ", ".join(play.invalid_words)})
    if board.is_empty() and play.coord.vertical:
        raise ServiceError(Code.NOT_LEGAL, _("%(move)s: the first move is placed horizontally") % {"move": shown})
    if play.score != best:
        raise ServiceError(Code.NOT_TOP, ngettext("%(move)s scores %(score)s point, the top of this round scores "
                                                  "%(best)s",
                                                  "%(move)s scores %(score)s points, the top of this round scores "
                                                  "%(best)s", play.score)
                           % {"move": shown, "score": play.score, "best": best})
    return play


__all__ = ["TOP_MOVES_KEPT", "TopMove", "board_of", "checked_top", "ensure_solved", "is_solved", "move_row", "round_moves",
           "round_tools", "solve_round", "solver_key", "tops"]
