"""Types of the compiled move generator (scoring/_solver.c)."""

from collections.abc import Sequence
from typing import Any, TypeVar

from typing_extensions import Buffer

from .board import Tile

class BingoIndex:
    """Anagram index of the words of rack_size .. rack_size + 4 letters, and of at most rack_size."""

    def __init__(self, nodes: Buffer, dawg_root: int, nletters: int, rack_size: int) -> None: ...
    @classmethod
    def mapped(cls, section: Buffer) -> BingoIndex: ...
    @property
    def nbytes(self) -> int: ...
    @property
    def in_place(self) -> bool: ...
    @property
    def rack_size(self) -> int: ...
    def spells(self, codes: bytes, blanks: int) -> bool | None: ...

_R = TypeVar("_R", bound=ResultBase)

class MoveBase:
    """The fields of a solved move (scoring.solver.SolvedMove adds the rest)."""

    score: int
    _text: str | None
    _words: list[str] | None
    def __init__(
        self, core: Any, snap: SnapshotBase, row: int, col: int, vertical: bool, codes: bytes, score: int
    ) -> None: ...
    @property
    def _row(self) -> int: ...
    @property
    def _col(self) -> int: ...
    @property
    def _vertical(self) -> bool: ...
    @property
    def _codes(self) -> bytes: ...
    @property
    def _core(self) -> Any: ...
    @property
    def _snap(self) -> SnapshotBase: ...

class SnapshotBase:
    """The position a solve's moves were found on (scoring.solver._Snapshot)."""

    _board: Any
    def __init__(self, core: Any, codes: bytes, board: Any = None) -> None: ...
    @property
    def codes(self) -> bytes: ...
    @property
    def _core(self) -> Any: ...

class ResultBase:
    """What a solve gives (scoring.solver.SolveResult)."""

    moves: list[Any]
    count_all: int | None
    elapsed_ms: float
    def __init__(self, moves: list[Any], count_all: int | None, elapsed_ms: float) -> None: ...

class Tables:
    """Per rule set tables of the move generator."""

    def __init__(
        self,
        nletters: int,
        values: Buffer,
        blank_value: int,
        lm: Buffer,
        blm: Buffer,
        wm: Buffer,
        rack_size: int,
        bingo: int,
        centre: int,
        codes: dict[str, int],
        play_max: int = 0,
    ) -> None: ...
    def solve(
        self,
        nodes: Buffer,
        dawg_root: int,
        gaddag_root: int,
        board: Sequence[Sequence[Tile | None]],
        rack: Buffer,
        top: int,
        count_all: bool,
        vertical_first: bool,
        bingo_index: BingoIndex | None,
        core: Any,
        move_type: type[MoveBase],
        snapshot_type: type[SnapshotBase],
        result_type: type[_R],
        position: Any,
        keep: int,
        ties: bool,
        /,
    ) -> _R: ...
    def set_text(self, letters: tuple[str, ...], coordinates: tuple[str, ...]) -> None: ...
    @property
    def total_search_ns(self) -> int: ...  # every solve()'s so far

class SolverBase:
    """The compiled part of scoring.solver.Solver: its solve (the Python subclass types it)."""

    def _bind(
        self,
        tables: Tables,
        nodes: Buffer,
        dawg_root: int,
        gaddag_root: int,
        bingo_index: BingoIndex | None,
        core: Any,
        ruleset: Any,
        rack_cache: dict[Any, bytes],
        move_type: type[MoveBase],
        snapshot_type: type[SnapshotBase],
        result_type: type[ResultBase],
        general: Any,
        board_type: type,
        max_top: int,
    ) -> None: ...
    def _bind_like(self, other: SolverBase) -> None: ...
