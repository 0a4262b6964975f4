"""Types of the compiled move generator (scoring/_solver.c)."""

from collections.abc import Sequence
from typing import Literal, overload

from typing_extensions import Buffer

from .board import Tile

#: (row, col, vertical, letter codes of the whole word (| 0x80 for a blank), score)
RawMove = tuple[int, int, bool, bytes, int]

class BingoIndex:
    """Anagram index of the words of rack_size .. rack_size + 2 letters."""

    def __init__(self, nodes: Buffer, dawg_root: int, nletters: int, rack_size: int) -> None: ...
    @classmethod
    def mapped(cls, section: Buffer) -> BingoIndex: ...
    @property
    def nbytes(self) -> int: ...
    @property
    def in_place(self) -> bool: ...
    @property
    def rack_size(self) -> int: ...

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
    @overload
    def generate(
        self,
        nodes: Buffer,
        dawg_root: int,
        gaddag_root: int,
        board: Buffer | Sequence[Sequence[Tile | None]],
        rack: Buffer,
        top: int = 0,
        count_all: bool = False,
        vertical_first: bool = True,
        bingo_index: BingoIndex | None = None,
        snapshot: Literal[False] = False,
    ) -> tuple[list[RawMove], int | None]: ...
    @overload
    def generate(
        self,
        nodes: Buffer,
        dawg_root: int,
        gaddag_root: int,
        board: Buffer | Sequence[Sequence[Tile | None]],
        rack: Buffer,
        top: int,
        count_all: bool,
        vertical_first: bool,
        bingo_index: BingoIndex | None,
        snapshot: Literal[True],
    ) -> tuple[list[RawMove], int | None, bytes]: ...
    @property
    def last_search_ns(self) -> int: ...  # the last generate()'s time in the search itself (ns)
