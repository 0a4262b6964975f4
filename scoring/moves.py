"""One move type for the whole engine, and one signature of a move generator.

A :class:`Move` is anything that says where a word goes and what it scores: the
placement checker's :class:`~scoring.placement.Play` and the compiled solver's
:class:`~scoring.solver.SolvedMove` are both moves. Code that handles moves (the
game, the judge, the choice of the top) asks for this protocol, never for a
concrete class, so a move generator can be swapped (the compiled solver, the
reference generator of the tests).

A :data:`SolveFn` is a move generator: ``solve_fn(board, rack)`` returns the
legal moves of ``rack`` (tiles, ``?`` a blank) on ``board``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from .board import Board, Tile
from .coords import Coord
from .placement import Placement


class Move(Protocol):
    """A legal move: its first square and direction, the whole main word and the tiles it puts down."""

    @property
    def coord(self) -> Coord: ...

    @property
    def tiles(self) -> tuple[Tile, ...]: ...

    @property
    def placed(self) -> tuple[Placement, ...]: ...

    @property
    def score(self) -> int: ...

    def notation(self) -> str:
        """``H8 WORD`` / ``8H WORD``: the duplicate convention, Latin row labels."""
        ...


class Written(Protocol):
    """A word and where it goes: a move, or a move as written (:class:`~scoring.notation.MoveText`)."""

    @property
    def coord(self) -> Coord | None: ...

    @property
    def tiles(self) -> tuple[Tile, ...]: ...


SolveFn = Callable[[Board, list[str]], Sequence[Move]]

BLANK = "?"


def used_tiles(move: Move) -> list[str]:
    """The rack tiles a move plays (``?`` for a blank)."""
    return [BLANK if p.blank else p.letter for p in move.placed]


def blanks_of(move: Move) -> int:
    """Blanks a move plays from the rack."""
    return sum(1 for p in move.placed if p.blank)


def same_move(a: Written, b: Written) -> bool:
    """The same word at the same place (blank marking included)."""
    return a.coord == b.coord and tuple(a.tiles) == tuple(b.tiles)


__all__ = ["BLANK", "Move", "SolveFn", "Written", "blanks_of", "same_move", "used_tiles"]
