"""The move generator: every legal move of a position, or the best N (RULES §3).

The hot part is compiled (``scoring/_solver.c``: GADDAG move generation with
per-call cross-checks, and best-first search over anchors with score upper
bounds for the best-N mode, and the answer's objects: their fields live in its
base types); this module gives it its tables and inputs and adds the methods of
:class:`SolvedMove` and :class:`SolveResult`.

Typical use::

    graph = WordGraph.load("ru.kwg")
    result = solve(Board(get_ruleset("ru")), "ЗДОРОВЫ", graph, top=1)
    result.moves[0].notation(), result.moves[0].score      # ('H4 ЗДОРОВЫ', 90)

    solver = solver_for(get_ruleset("ru"), graph)         # tables cached: cheap repeated calls
    solver.solve(board, "АБВ??ГД", top=10, count_all=True)
    solver.solve(board, rack, top=1, ties=True)           # every move of top score

The first call for a graph sets up the rule set's tables (under a millisecond) and maps the anagram
index of the lexicon's 7- to 11-letter words (it prunes the best-N search) stored in the compiled file
(format 2): nothing is built. A format-1 file has no stored index: it is built then (tens of ms).
``SolvedMove.placed`` and ``.words`` are worked out on demand.

Moves are sorted best first: score descending, then notation (code-point
order of ``format_move``'s text). A move is one set of tiles (letters and
blank flags) on one line: the same tiles reached through different blank
assignments of the rack are one move; a blank played as X and a real X are
two moves. A single tile that forms words in both directions is listed once
per direction (``H8 …`` and ``8H …`` are both ways to write it). On the
empty board vertical moves are legal; they are listed in the all-moves mode
and left out of best-N lists (duplicate places the first move horizontally),
unless ``first_vertical`` says otherwise; ``count_all`` always counts them.
Nothing here imports Django.
"""

from __future__ import annotations

import logging
import struct
import weakref
from collections.abc import Iterable
from typing import TYPE_CHECKING, TypedDict

from . import _solver
from .board import Board, Tile, shared_tile
from .coords import Coord, format_coord
from .moves import SolveFn
from .notation import MoveText, NotationError, format_move, parse_rack
from .placement import Placement, evaluate
from .rules import CENTRE, SIZE, RuleSet

if TYPE_CHECKING:  # pragma: no cover
    from lexicon.graph import WordGraph

__all__ = ["SolveResult", "SolvedMove", "Solver", "SolverError", "graph_solver", "solve", "solver_for"]

_log = logging.getLogger(__name__)

BLANK_BIT = 0x80
UNKNOWN_CODE = 63  # a letter of the rule set that the word graph does not know: never playable


class SolverError(ValueError):
    """Inputs the solver cannot use (a rack or board of another set, a graph without a GADDAG)."""


class _Core:
    """What the compiled generator needs for one rule set and one word graph.

    Holds the edge array (a zero-copy view of the graph's mapping) but not the
    :class:`WordGraph` itself, so that a cache keyed weakly by the graph works.
    """

    def __init__(self, ruleset: RuleSet, graph: WordGraph):
        if not getattr(graph, "has_gaddag", True) or not graph.gaddag_root:
            raise SolverError(f"the word graph {getattr(graph, 'path', '')} has no GADDAG: rebuild it with gaddag=True")
        alphabet = graph.alphabet
        graph_code = {letter: i + 1 for i, letter in enumerate(alphabet)}
        codes = {letter: graph_code.get(letter, UNKNOWN_CODE) for letter in ruleset.letters}
        if len(alphabet) >= UNKNOWN_CODE and UNKNOWN_CODE in codes.values():
            raise SolverError("the word graph's alphabet is full and lacks letters of the rule set")
        self.ruleset = ruleset
        self.codes = codes
        values = [0] * 64
        for letter, code in codes.items():
            if code != UNKNOWN_CODE:
                values[code] = ruleset.value(letter)
        lm, blm = _letter_multipliers(ruleset, codes)
        wm = bytes(ruleset.layout.word_mult[r][c] for r in range(SIZE) for c in range(SIZE))
        self.tables = _solver.Tables(
            nletters=len(alphabet),
            values=struct.pack("<64i", *values),
            blank_value=ruleset.blank_value,
            lm=bytes(lm),
            blm=bytes(blm),
            wm=wm,
            rack_size=ruleset.rack_size,
            bingo=ruleset.bingo,
            play_max=ruleset.move_tiles,
            centre=CENTRE[0] * SIZE + CENTRE[1],
            codes=codes,
        )
        self.nodes = graph.nodes_buffer()
        self.dawg_root = graph.dawg_root
        self.gaddag_root = graph.gaddag_root
        # anagram index of the words a full rack can make (prunes the best-N search)
        self.bingo_index = _bingo_index(graph, self.nodes, ruleset.move_tiles)  # the bonus's tiles: 7 in a 7-among-8 game too
        # code (| BLANK_BIT) -> the letter as written in a move (lower case for a blank)
        fen = ["?"] * 256
        tile: dict[int, Tile] = {}
        for letter, code in codes.items():
            if code == UNKNOWN_CODE:
                continue
            fen[code] = letter
            tile[code] = shared_tile(letter, False)
            blank = shared_tile(letter, True)
            fen[code | BLANK_BIT] = blank.fen()
            tile[code | BLANK_BIT] = blank
        self.fen = fen
        # the same as a str.translate table: a word's codes read as Latin-1 become its letters in one C call
        self.fen_table = {code: letter for code, letter in enumerate(fen)}
        self.tile = tile
        labels: dict[tuple[int, int, bool], str] = {}
        for r in range(SIZE):
            for c in range(SIZE):
                for vertical in (False, True):
                    labels[r, c, vertical] = format_coord(Coord(r, c, vertical))
        self.labels = labels
        # how the compiled solve writes a move when it orders several (the same text as ``_notation``)
        self.tables.set_text(tuple(fen), tuple(labels[r, c, vertical] for r in range(SIZE) for c in range(SIZE)
                                               for vertical in (False, True)))
        self._rack_cache: dict[str | tuple[str, ...], bytes] = {}
        self._binding: _solver.SolverBase | None = None

    def binding(self) -> _solver.SolverBase:
        """What the compiled solve passes besides the board and the rack, bound once per core: each
        :class:`Solver` copies it (``solver_for`` makes a Solver per call). ``rebind`` after changing a part."""
        if self._binding is None:
            binding = _solver.SolverBase()
            binding._bind(self.tables, self.nodes, self.dawg_root, self.gaddag_root, self.bingo_index, self,
                          self.ruleset, self._rack_cache, SolvedMove, _Snapshot, SolveResult,
                          Solver._solve_general, Board, _MAX_TOP)
            self._binding = binding
        return self._binding

    def rebind(self) -> None:
        """Forget the binding (made anew when next asked): after a part of the core was replaced."""
        self._binding = None

    def rack_codes(self, rack: str | Iterable[str]) -> bytes:
        """The rack as letter codes (0 for a blank); SolverError on a tile of another set."""
        key: str | tuple[str, ...] = rack if isinstance(rack, str) else tuple(rack)
        try:
            codes = self._rack_cache.get(key)
        except TypeError:  # an unhashable tile: SolverError below
            return self._rack_codes(key)
        if codes is None:
            codes = self._rack_codes(key)
            if len(self._rack_cache) >= 4096:
                self._rack_cache.clear()
            self._rack_cache[key] = codes
        return codes

    def board_of(self, codes: bytes) -> Board:
        """The board of 225 codes (a snapshot's, as the search read them)."""
        board = Board(self.ruleset)
        cells = board._cells
        tile = self.tile
        for i, code in enumerate(codes):
            if code:
                cells[i // SIZE][i % SIZE] = tile[code]
        return board

    def _rack_codes(self, rack: str | Iterable[str]) -> bytes:
        rs = self.ruleset
        if isinstance(rack, str):
            try:
                tiles = parse_rack(rack, rs)
            except NotationError as exc:
                raise SolverError(str(exc)) from None
        else:
            tiles = []
            for t in rack:
                if t == "?":
                    tiles.append("?")
                    continue
                letter = rs.normalize_letter(t) if isinstance(t, str) else t
                if not isinstance(letter, str) or not rs.is_letter(letter):
                    raise SolverError(f"«{t}» on the rack is not a tile of the {rs.id} set")
                tiles.append(letter)
            if len(tiles) > rs.rack_size:
                raise SolverError(f"a rack holds at most {rs.rack_size} tiles, this one has {len(tiles)}")
        return bytes(0 if t == "?" else self.codes[t] for t in tiles)


def _letter_multipliers(ruleset: RuleSet, codes: dict[str, int]) -> tuple[bytes, bytes]:
    """The letter multiplier of a real tile and of a blank, per square (row * 15 + col) and letter code
    (64 a square). Squares alike on the layout (the same letter multiplier and colour, all that
    ``letter_multiplier`` reads) share their rows: a few hundred calls instead of 15,000."""
    layout = ruleset.layout
    known = [(letter, code) for letter, code in codes.items() if code != UNKNOWN_CODE]
    rows: dict[tuple[int, str | None], tuple[bytes, bytes]] = {}
    lm: list[bytes] = []
    blm: list[bytes] = []
    for r in range(SIZE):
        for c in range(SIZE):
            kind = (layout.letter_mult[r][c], layout.letter_colour[r][c])
            pair = rows.get(kind)
            if pair is None:
                real, blank = bytearray(64), bytearray(64)
                for letter, code in known:
                    real[code] = ruleset.letter_multiplier(r, c, letter, False)
                    blank[code] = ruleset.letter_multiplier(r, c, letter, True)
                pair = rows[kind] = (bytes(real), bytes(blank))
            lm.append(pair[0])
            blm.append(pair[1])
    return b"".join(lm), b"".join(blm)


def _bingo_index(graph: WordGraph, nodes: memoryview, rack_size: int) -> _solver.BingoIndex:
    """The graph file's stored anagram index, used in place; built in memory for a file without one
    (format 1) or for another rack size. A stored index that fails its checks is refused."""
    section = graph.anagram_section() if hasattr(graph, "anagram_section") else None
    if section is not None:
        try:
            index = _solver.BingoIndex.mapped(section)
        except ValueError as exc:
            raise SolverError(f"the word graph {getattr(graph, 'path', '')} is corrupt: {exc}") from None
        if index.rack_size == rack_size:
            return index
    elif getattr(graph, "format_version", 2) < 2:
        _log.warning(
            "the word graph %s is in format %s, without its anagram index: building it now (tens of ms per "
            "process); `manage.py lexicon upgrade` rewrites it (the same words and content hash)",
            getattr(graph, "path", ""), graph.format_version,
        )
    return _solver.BingoIndex(nodes, graph.dawg_root, len(graph.alphabet), rack_size)


class SolvedMoveDict(TypedDict):
    """A move as ``manage.py solve --json`` prints it."""

    move: str
    score: int
    words: list[str]
    blanks: int
    tiles_placed: int


class SolveResultDict(TypedDict):
    moves: list[SolvedMoveDict]
    count_all: int | None
    elapsed_ms: float


class _Snapshot(_solver.SnapshotBase):
    """The position a solve found its moves on: the board's codes as the search read them, the
    :class:`Board` itself made from them only when a move needs it (``words``). Its fields live in the
    compiled base (``_solver.SnapshotBase``: the solve makes it there)."""

    __slots__ = ()
    _core: _Core
    _board: Board | None

    def __reduce__(self) -> tuple[type[_Snapshot], tuple[_Core, bytes, Board | None]]:
        return (type(self), (self._core, self.codes, self._board))  # copy.copy makes it anew

    @property
    def board(self) -> Board:
        if self._board is None:
            self._board = self._core.board_of(self.codes)
        return self._board


class SolvedMove(_solver.MoveBase):
    """One legal move: where, the whole word, its score; the rest is worked out on demand. Its fields
    (``score``; ``_row``, ``_col``, ``_vertical``, ``_codes``: the whole word's codes; ``_text``: the
    notation once written; ``_words``) live in the compiled base (``_solver.MoveBase``): the solve makes the
    moves there, without a Python ``__init__`` per move."""

    __slots__ = ()
    _core: _Core
    _snap: _Snapshot

    def __reduce__(self) -> tuple[type[SolvedMove], tuple[_Core, _Snapshot, int, int, bool, bytes, int]]:
        return (type(self), (self._core, self._snap, self._row, self._col, self._vertical, self._codes, self.score))

    @property
    def _notation(self) -> str:
        text = self._text
        if text is None:
            core = self._core
            text = self._text = (core.labels[self._row, self._col, self._vertical] + " "
                                 + self._codes.decode("latin-1").translate(core.fen_table))
        return text

    @property
    def coord(self) -> Coord:
        return Coord(self._row, self._col, self._vertical)

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The whole main word, letters already on the board included (blanks: ``blank=True``)."""
        tile = self._core.tile
        return tuple(tile[c] for c in self._codes)

    @property
    def word(self) -> str:
        """The main word as written (blanks in lower case)."""
        return self._notation.split(" ", 1)[1]

    @property
    def placed(self) -> tuple[Placement, ...]:
        """The tiles the move puts on empty squares."""
        out = []
        coord = self.coord
        board = self._snap.codes
        for i, t in enumerate(self.tiles):
            r, c = coord.square(i)
            if not board[r * SIZE + c]:
                out.append(Placement(r, c, t.letter, t.blank))
        return tuple(out)

    @property
    def tiles_placed(self) -> int:
        return len(self.placed)

    @property
    def blanks(self) -> int:
        """Blanks the move plays from the rack."""
        return sum(1 for p in self.placed if p.blank)

    @property
    def words(self) -> list[str]:
        """Every word formed, main word first, as written (blanks in lower case)."""
        if self._words is None:
            play = evaluate(self._snap.board, MoveText(self.coord, self.tiles))
            self._words = [w.word for w in play.words]
        return list(self._words)

    def notation(self, convention: str | None = None, cyrillic: bool = False) -> str:
        """``H8 ЗДОРОВЫ`` (RULES §2; other conventions through scoring.notation.format_move)."""
        if convention is None and not cyrillic:
            return self._notation
        return format_move(self.coord, self.tiles, convention=convention or "duplicate", cyrillic=cyrillic)

    def sort_key(self) -> tuple[int, str]:
        return (-self.score, self._notation)

    def to_dict(self) -> SolvedMoveDict:
        return {
            "move": self._notation,
            "score": self.score,
            "words": self.words,
            "blanks": self.blanks,
            "tiles_placed": self.tiles_placed,
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SolvedMove):
            return NotImplemented
        return self._notation == other._notation and self.score == other.score

    def __hash__(self) -> int:
        return hash((self._notation, self.score))

    def __repr__(self) -> str:
        return f"<SolvedMove {self._notation} {self.score}>"


class SolveResult(_solver.ResultBase):
    """What a solve gives: the moves (best first), every legal move counted (``count_all``, else None),
    the call's time in ms (the compiled call's: reading the position, the search, making the moves)."""

    __slots__ = ()
    moves: list[SolvedMove]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SolveResult):
            return NotImplemented
        return (self.moves, self.count_all, self.elapsed_ms) == (other.moves, other.count_all, other.elapsed_ms)

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass it replaces

    def __reduce__(self) -> tuple[type[SolveResult], tuple[list[SolvedMove], int | None, float]]:
        return (type(self), (self.moves, self.count_all, self.elapsed_ms))

    def __repr__(self) -> str:
        return f"SolveResult(moves={self.moves!r}, count_all={self.count_all!r}, elapsed_ms={self.elapsed_ms!r})"

    @property
    def best(self) -> SolvedMove | None:
        return self.moves[0] if self.moves else None

    def to_dict(self) -> SolveResultDict:
        return {
            "moves": [m.to_dict() for m in self.moves],
            "count_all": self.count_all,
            "elapsed_ms": self.elapsed_ms,
        }


#: Larger ``top`` values run the exhaustive search (the best-N heap is sized by ``top``).
_MAX_TOP = 1 << 16


class Solver(_solver.SolverBase):
    """The move generator for one rule set and one word graph (its tables built once).

    ``solve`` is compiled (``SolverBase.solve``: no Python frame on the usual call, a Board of the solver's
    rule set and a rack seen before); any other call goes to ``_solve_general``, which checks, converts and
    explains, and takes the same arguments."""

    def __init__(self, ruleset: RuleSet, graph: WordGraph):
        self.ruleset = ruleset
        self.graph = graph
        self._core = _Core(ruleset, graph)
        self._bind_core()

    @classmethod
    def _from_core(cls, core: _Core, graph: WordGraph) -> Solver:
        self = cls.__new__(cls)
        self.ruleset = core.ruleset
        self.graph = graph
        self._core = core
        self._bind_core()
        return self

    def _bind_core(self) -> None:
        """What the compiled solve passes on each call: the core's binding (``_Core.binding``)."""
        self._bind_like(self._core.binding())

    def _solve_general(
        self,
        board: Board,
        rack: str | Iterable[str],
        *,
        top: int | None = None,
        count_all: bool = False,
        first_vertical: bool | None = None,
        ties: bool = False,
    ) -> SolveResult:
        """Every legal move (``top=None``) or the ``top`` best, best first.

        ``count_all`` also counts every legal move (``SolveResult.count_all``).
        ``first_vertical``: list vertical moves on the empty board (default: only
        in the all-moves mode). ``ties``: with ``top``, also keep the moves tied
        with the last one kept (``top=1, ties=True``: every move of top score).
        """
        core = self._core
        if board.ruleset is not core.ruleset:
            brs, crs = board.ruleset, core.ruleset
            if (brs.id, brs.rack_size, brs.move_tiles) != (crs.id, crs.rack_size, crs.move_tiles):
                raise SolverError(f"the board is a {brs.id} board of racks of {brs.rack_size}, "
                                  f"the solver plays {crs.id} with racks of {crs.rack_size}")
        if top is not None and (not isinstance(top, int) or top < 1):
            raise SolverError("top must be a positive number of moves (or None for all moves)")
        rack_codes = core._rack_cache.get(rack) if isinstance(rack, str) else None
        if rack_codes is None:
            rack_codes = core.rack_codes(rack)
        # one compiled call reads the position, searches, orders and cuts the moves and makes the result (the
        # moves' snapshot keeps a copy of the board when it holds a tile the graph does not know)
        result: SolveResult = core.tables.solve(
            core.nodes,
            core.dawg_root,
            core.gaddag_root,
            board._cells,  # read, not kept: the moves keep the codes read (a snapshot)
            rack_codes,
            top if top is not None and top <= _MAX_TOP else 0,
            count_all,
            (top is None) if first_vertical is None else first_vertical,
            core.bingo_index,
            core,
            SolvedMove,
            _Snapshot,
            SolveResult,
            board,
            top or 0,
            ties,
        )
        return result

    if TYPE_CHECKING:  # at run time, solve is SolverBase.solve: the compiled way in, with the same arguments
        solve = _solve_general

    @property
    def total_search_ns(self) -> int:
        """Nanoseconds every ``solve`` so far (of any solver over the same tables) spent in the compiled search."""
        return self._core.tables.total_search_ns

    def best(self, board: Board, rack: str | Iterable[str]) -> SolvedMove | None:
        """The top move (None when no move exists)."""
        return self.solve(board, rack, top=1).best


#: graph -> (rule set id, rack size, tiles per move) -> the tables of the generator
_CORES: weakref.WeakKeyDictionary[WordGraph, dict[tuple[str, int, int], _Core]] = weakref.WeakKeyDictionary()


def solver_for(ruleset: RuleSet, graph: WordGraph) -> Solver:
    """A cached :class:`Solver` for the rule set and graph (kept while the graph lives)."""
    per_graph = _CORES.get(graph)
    if per_graph is None:
        per_graph = {}
        _CORES[graph] = per_graph
    key = (ruleset.id, ruleset.rack_size, ruleset.move_tiles)
    core = per_graph.get(key)
    if core is None:
        core = _Core(ruleset, graph)
        per_graph[key] = core
    return Solver._from_core(core, graph)


def solve(
    board: Board,
    rack: str | list[str],
    graph: WordGraph,
    *,
    top: int | None = None,
    count_all: bool = False,
    first_vertical: bool | None = None,
    ties: bool = False,
) -> SolveResult:
    """Every legal move (or the ``top`` best) of ``rack`` on ``board`` with the words of ``graph``."""
    return solver_for(board.ruleset, graph).solve(
        board, rack, top=top, count_all=count_all, first_vertical=first_vertical, ties=ties
    )


def graph_solver(ruleset: RuleSet, graph: WordGraph) -> SolveFn:
    """A move generator (:data:`~scoring.moves.SolveFn`) for a game: every move of top score (all the
    game needs to choose the top); on the empty board only horizontal moves."""
    solver = solver_for(ruleset, graph)

    def solve_fn(board: Board, rack: list[str]) -> list[SolvedMove]:
        # a variant's board (7-among-8: racks of 8) carries its own rule set: its solver
        use = solver if board.ruleset is ruleset else solver_for(board.ruleset, graph)
        return use.solve(board, rack, top=1, ties=True).moves

    return solve_fn
