"""Placing a move on the board and scoring it (RULES §3).

Each illegal case raises :class:`IllegalMove` with a short ``code`` (the rule broken) and a
:class:`~scoring.messages.Message` naming the square, the letter and the rule. Nothing here imports Django.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass, field

from .board import Board, Tile
from .coords import Convention, Coord
from .messages import Message, Place, Square, msg
from .notation import MoveText, format_move, word_text
from .rules import CENTRE, SIZE, RuleSet


class IllegalMove(ValueError):
    """A move that breaks a placement rule; ``code`` names the rule."""

    def __init__(self, code: str, message: Message):
        super().__init__(str(message))
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Placement:
    """A tile put on an empty square by the move."""

    row: int
    col: int
    letter: str
    blank: bool = False


@dataclass(slots=True)
class FormedWord:
    """A word formed or extended by the move (the main word or a cross word)."""

    word: str  # as written: blanks in lower case
    score: int
    main: bool
    coord: Coord
    valid: bool | None = None

    @property
    def letters(self) -> str:
        return self.word.upper().replace("*", "'")


@dataclass(slots=True)
class Play:
    """A legal placement with its score."""

    coord: Coord
    tiles: tuple[Tile, ...]  # the whole main word
    placed: tuple[Placement, ...]
    words: list[FormedWord]
    score: int
    bingo: bool
    invalid_words: list[str] = field(default_factory=list)

    @property
    def word(self) -> str:
        return "".join(t.letter for t in self.tiles)

    @property
    def blanks(self) -> int:
        return sum(1 for p in self.placed if p.blank)

    @property
    def tiles_placed(self) -> int:
        return len(self.placed)

    def notation(self, convention: Convention | str = Convention.DUPLICATE, cyrillic: bool = False) -> str:
        return format_move(self.coord, self.tiles, convention=convention, cyrillic=cyrillic)

    def rack_tiles(self) -> list[str]:
        """The rack tiles the move uses (``?`` for a blank)."""
        return ["?" if p.blank else p.letter for p in self.placed]


def locate(board: Board, move: MoveText) -> tuple[Coord, tuple[Placement, ...]]:
    """Check the written word against the board and return the new tiles it places.

    Raises IllegalMove for: off the board, a letter that disagrees with the board,
    a word that continues into a neighbouring tile, no new tile.
    """
    if move.coord is None:
        raise IllegalMove("missing_coordinates", msg("move_no_coordinates"))
    coord, tiles = move.coord, move.tiles
    if len(tiles) < 2:
        raise IllegalMove("too_short", msg("too_short", word=word_text(tiles)))
    dr, dc = coord.step()
    last_r, last_c = coord.row + dr * (len(tiles) - 1), coord.col + dc * (len(tiles) - 1)
    if last_r >= SIZE or last_c >= SIZE:
        over = (last_r if coord.vertical else last_c) + 1
        code = "off_board_row" if coord.vertical else "off_board_column"
        raise IllegalMove("off_board", msg(code, word=word_text(tiles), place=Place(coord), length=len(tiles), end=over))
    placed: list[Placement] = []
    for i, tile in enumerate(tiles):
        r, c = coord.square(i)
        on_board = board[r, c]
        if on_board is None:
            placed.append(Placement(r, c, tile.letter, tile.blank))
        elif on_board.letter != tile.letter:
            raise IllegalMove("board_mismatch", msg("board_mismatch", square=Square(r, c), board_letter=on_board.letter,
                                                    word_letter=tile.letter))
    before = (coord.row - dr, coord.col - dc)
    after = (last_r + dr, last_c + dc)
    for (r, c), side in ((before, "before"), (after, "after")):
        t = board.tile(r, c)
        if t is not None:
            raise IllegalMove("word_continues", msg(f"word_continues_{side}", square=Square(r, c), letter=t.letter))
    if not placed:
        raise IllegalMove("no_new_tile", msg("no_new_tile", word=word_text(tiles)))
    return coord, tuple(placed)


def new_tiles_at(board: Board, coord: Coord, letters: Sequence[str]) -> int | None:
    """How many tiles the word ``letters`` written at ``coord`` puts on ``board``: the squares it covers that are
    empty (a letter already on the board is not a tile placed). None when it does not lie there: off the board,
    or a square holds another letter."""
    count = 0
    for i, letter in enumerate(letters):
        r, c = coord.square(i)
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            return None
        on_board = board[r, c]
        if on_board is None:
            count += 1
        elif on_board.letter != letter:
            return None
    return count


def fewest_new_tiles(board: Board, letters: Sequence[str]) -> int:
    """The fewest tiles the word ``letters`` puts on ``board`` wherever it lies in line with the board's letters
    (in either direction): its length on an empty board or where it crosses no letter of the board.

    A word placing more than :attr:`RuleSet.move_tiles` even so is no move anywhere, whatever its coordinates."""
    best = len(letters)
    if board.is_empty():
        return best
    for vertical in (False, True):
        for line in range(SIZE):
            for start in range(SIZE - len(letters) + 1):
                coord = Coord(start, line, True) if vertical else Coord(line, start, False)
                n = new_tiles_at(board, coord, letters)
                if n is not None and n < best:
                    best = n
    return best


def check_rack(placed: Iterable[Placement], rack: Iterable[str]) -> None:
    """Raise IllegalMove if the rack cannot supply the placed tiles (``?`` is a blank)."""
    have = Counter(rack)
    need = Counter("?" if p.blank else p.letter for p in placed)
    for tile, n in need.items():
        if have[tile] >= n:
            continue
        rack_text = "".join(sorted(have.elements()))
        if tile == "?":
            raise IllegalMove("not_on_rack", msg("too_many_blanks", count=n, rack=rack_text, have=have["?"]))
        hint = "_blank" if have["?"] else ""
        if have[tile] == 0:
            message = msg(f"letter_not_on_rack{hint}", letter=tile, rack=rack_text)
        else:
            message = msg(f"letter_short_on_rack{hint}", count=n, letter=tile, rack=rack_text, have=have[tile])
        raise IllegalMove("not_on_rack", message)


def _check_connection(board: Board, coord: Coord, tiles: tuple[Tile, ...], placed: tuple[Placement, ...]) -> None:
    if board.is_empty():
        squares = {(p.row, p.col) for p in placed}
        if CENTRE not in squares:
            raise IllegalMove("first_off_centre", msg("first_off_centre", square=Square(*CENTRE)))
        if len(placed) < 2:
            raise IllegalMove("first_single_tile", msg("first_single_tile"))
        return
    if len(placed) < len(tiles):
        return  # plays through a tile on the board
    for p in placed:
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if board.occupied(p.row + dr, p.col + dc):
                return
    raise IllegalMove("not_touching", msg("not_touching", word=word_text(tiles), place=Place(coord)))


def _cross_word(board: Board, p: Placement, vertical: bool, ruleset: RuleSet) -> FormedWord | None:
    """The word through the new tile ``p`` in direction ``vertical``, if longer than 1."""
    dr, dc = (1, 0) if vertical else (0, 1)
    r, c = p.row, p.col
    while board.occupied(r - dr, c - dc):
        r, c = r - dr, c - dc
    start = Coord(r, c, vertical)
    tiles: list[Tile] = []
    total = 0
    word_mult = 1
    while True:
        if (r, c) == (p.row, p.col):
            tile = Tile(p.letter, p.blank)
            value = ruleset.blank_value if p.blank else ruleset.value(p.letter)
            total += value * ruleset.letter_multiplier(r, c, p.letter, p.blank)
            word_mult *= ruleset.layout.word_mult[r][c]
        else:
            t = board.tile(r, c)
            if t is None:
                break
            tile = t
            total += ruleset.blank_value if t.blank else ruleset.value(t.letter)
        tiles.append(tile)
        r, c = r + dr, c + dc
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            break
    if len(tiles) < 2:
        return None
    return FormedWord(word_text(tiles), total * word_mult, False, start)


def score_main(board: Board, coord: Coord, tiles: tuple[Tile, ...], ruleset: RuleSet) -> int:
    """Score of the main word: premiums only on squares the move covers."""
    total = 0
    word_mult = 1
    for i, tile in enumerate(tiles):
        r, c = coord.square(i)
        value = ruleset.blank_value if tile.blank else ruleset.value(tile.letter)
        on_board = board[r, c]
        if on_board is None:
            total += value * ruleset.letter_multiplier(r, c, tile.letter, tile.blank)
            word_mult *= ruleset.layout.word_mult[r][c]
        else:
            total += ruleset.blank_value if on_board.blank else ruleset.value(on_board.letter)
    return total * word_mult


def evaluate(
    board: Board,
    move: MoveText,
    *,
    rack: Iterable[str] | None = None,
    lexicon: Container[str] | None = None,
) -> Play:
    """Check a written move against the rules and score it.

    Placement rules raise :class:`IllegalMove`. Words missing from ``lexicon``
    do not raise: they are listed in ``Play.invalid_words`` (and each word's
    ``valid``), so that a caller can both report the score and refuse the move.
    """
    ruleset = board.ruleset
    coord, placed = locate(board, move)
    tiles = tuple(board[coord.square(i)] or t for i, t in enumerate(move.tiles))
    if rack is not None:
        check_rack(placed, rack)
    if len(placed) > ruleset.move_tiles:
        raise IllegalMove("too_many_tiles", msg("too_many_tiles", count=len(placed), most=ruleset.move_tiles))
    _check_connection(board, coord, tiles, placed)
    main = FormedWord(word_text(tiles), score_main(board, coord, tiles, ruleset), True, coord)
    words = [main]
    for p in placed:
        cross = _cross_word(board, p, not coord.vertical, ruleset)
        if cross is not None:
            words.append(cross)
    score = sum(w.score for w in words)
    bingo = len(placed) == ruleset.move_tiles
    if bingo:
        score += ruleset.bingo
    invalid: list[str] = []
    if lexicon is not None:
        for w in words:
            w.valid = w.letters in lexicon
            if not w.valid:
                invalid.append(w.letters)
    return Play(coord, tiles, placed, words, score, bingo, invalid)


def from_placements(board: Board, placements: Iterable[Placement]) -> MoveText:
    """Turn tiles put on squares (tablet, assisted mode) into a written move.

    Raises IllegalMove for tiles off the board or on occupied squares, tiles
    not in one line, or a gap between them.
    """
    items = list(placements)
    if not items:
        raise IllegalMove("no_new_tile", msg("nothing_placed"))
    seen = set()
    for p in items:
        if not (0 <= p.row < SIZE and 0 <= p.col < SIZE):
            raise IllegalMove("off_board", msg("tile_off_board"))
        if board.occupied(p.row, p.col):
            raise IllegalMove("occupied", msg("square_taken", square=Square(p.row, p.col)))
        if (p.row, p.col) in seen:
            raise IllegalMove("occupied", msg("two_tiles_on_square", square=Square(p.row, p.col)))
        seen.add((p.row, p.col))
    if len(items) == 1 and board.is_empty():
        raise IllegalMove("first_single_tile", msg("first_single_tile"))
    rows = {p.row for p in items}
    cols = {p.col for p in items}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalMove("not_in_line", msg("not_in_line"))
    if len(items) == 1:
        p = items[0]
        # A single tile: the direction in which it forms a word of 2+ letters (horizontal first).
        vertical = not (board.occupied(p.row, p.col - 1) or board.occupied(p.row, p.col + 1))
        if vertical and not (board.occupied(p.row - 1, p.col) or board.occupied(p.row + 1, p.col)):
            vertical = False
    else:
        vertical = len(cols) == 1
    by_square = {(p.row, p.col): p for p in items}
    dr, dc = (1, 0) if vertical else (0, 1)
    key = (lambda p: p.row) if vertical else (lambda p: p.col)
    first = min(items, key=key)
    last = max(items, key=key)
    r, c = first.row, first.col
    while board.occupied(r - dr, c - dc):
        r, c = r - dr, c - dc
    start = Coord(r, c, vertical)
    tiles: list[Tile] = []
    while 0 <= r < SIZE and 0 <= c < SIZE:
        if (r, c) in by_square:
            p = by_square[(r, c)]
            tiles.append(Tile(p.letter, p.blank))
        elif (on_board := board[r, c]) is not None:
            tiles.append(on_board)
        elif (r, c) <= (last.row, last.col):
            raise IllegalMove("gap", msg("gap", square=Square(r, c)))
        else:
            break
        r, c = r + dr, c + dc
    return MoveText(start, tuple(tiles))


def apply(board: Board, play: Play) -> Board:
    """The board after the move (a new Board)."""
    after = board.copy()
    for p in play.placed:
        after[p.row, p.col] = Tile(p.letter, p.blank)
    return after
