"""Placing and scoring moves (RULES §3): hand-computed cases for every rule set and every illegal case."""

import pytest

from scoring.board import Board
from scoring.check import check_move, load_position
from scoring.notation import parse_move
from scoring.placement import IllegalMove, Placement, apply, evaluate, from_placements
from scoring.rules import get_ruleset


def fen(rows: dict[int, str]) -> str:
    """A FEN from {row number 1–15: row text}; other rows empty."""
    return "/".join(rows.get(i, "15") for i in range(1, 16))


def score(rs: str, board_fen: str, move: str, **kw) -> int:
    ruleset, board = load_position(rs, board_fen)
    return evaluate(board, parse_move(move, ruleset), **kw).score


# -- the rulebook's own examples (RULES §3) -------------------------------------
def test_rulebook_examples_russian():
    ru = get_ruleset("ru")
    board = Board(ru)
    assert evaluate(board, parse_move("H8 ЗДОРОВ", ru)).score == 24
    play = evaluate(board, parse_move("H8 ЗДОРОВЫ", ru))
    assert (play.score, play.bingo, play.tiles_placed) == (82, True, 7)
    after = apply(board, play)
    down = evaluate(after, parse_move("8H ЗАНОВО", ru))
    assert down.score == 11
    assert down.tiles_placed == 5 and [w.word for w in down.words] == ["ЗАНОВО"]


# -- hand-computed cases, one per rule ---------------------------------------------
CASES = [
    # rule set, board, move, score, why
    ("en", "", "H8 QUIZ", 44, "centre doubles: (10+1+1+10)*2"),
    ("en", "", "H5 JUKEBOX", 104, "J8 U1 K5 E1(centre) B3 O1 X8 = 27*2 + 50"),
    ("en", "", "H2 JUKEBOX", 114, "K on the double letter H4, X on the centre: (8+1+10+1+3+1+8)*2 + 50"),
    ("en", "", "H8 qUIZ", 24, "a blank on the centre still doubles: (0+1+1+10)*2"),
    ("en", fen({5: "7E7", 6: "7A7", 7: "7R7", 8: "7N7"}), "E5 JUKEBOX", 108, "two double-word squares: 27*4"),
    ("en", fen({1: "3O11", 2: "3X11"}), "A1 ABSOLUTE", 140, "two triple-word squares: 10*9 + 50 for 7 tiles"),
    ("en", fen({8: "5HORSE5"}), "6H HAZE", 36, "Z on a triple letter: 4+1+30+1"),
    ("en", fen({8: "7CAT5"}), "I8 AT", 10, "main AT 1+1*2, cross CA 4, cross AT 1+2"),
    ("ru", "", "H8 ЁЖ", 16, "Ё is a tile worth 3: (3+5)*2"),
    ("ru", "", "H8 зДОРОВ", 14, "blank З scores 0: (0+2+1+1+1*2+1)*2"),
    ("uk", "", "H8 М'ЯСО", 40, "apostrophe tile 10, О on H12 doubled: (2+10+4+2+2)*2"),
    ("uk", "", "H8 М’ЯСО", 40, "typographic apostrophe reads as '"),
    ("uk", "", "H8 МʼЯСО", 40, "modifier apostrophe reads as '"),
    ("uk", "", "H8 М*ЯСО", 20, "blank apostrophe: (2+0+4+2+2)*2"),
    ("uk", "", "H8 ҐУДЗИК", 46, "Ґ 10, И on H12 doubled: (10+3+2+4+2+2)*2... 23*2"),
    ("pl", "", "H8 ŹDŹBŁO", 60, "Ł on H12 doubled: (9+2+9+3+6+1)*2"),
    ("pl-literaki", "", "H8 ŻABA", 26, "red Ż on the red centre x3, blue B on blue J8 x3: 15+1+9+1, no word premium"),
    ("pl-literaki", "", "H8 KOT", 5, "green K on red, green T on blue: no triple: 2+1+2"),
    ("pl-literaki", "", "H8 żABA", 11, "a blank never gets the colour triple: 0+1+9+1"),
    ("pl-literaki", fen({3: "7S7", 4: "7A7"}), "C6 KOSA", 10, "Literaki 2W square: (2+1+1+1)*2; S already on the board"),
    ("fr", "", "H8 KIWI", 44, "(10+1+10+1)*2"),
    ("fr", "", "H8 ÉTÉ", 6, "accents fold: ETE (1+1+1)*2"),
]


@pytest.mark.parametrize("rs,board_fen,move,expected,why", [c for c in CASES if c[3] is not None])
def test_hand_computed_scores(rs, board_fen, move, expected, why):
    assert score(rs, board_fen, move) == expected, why


def test_premiums_count_only_when_first_covered():
    ru, board = load_position("ru", "")
    first = evaluate(board, parse_move("H8 ЗДОРОВЫ", ru))
    after = apply(board, first)
    # ЗДОРОВЫЕ extends through the old tiles: only the new Е on H15 (triple word) counts a premium.
    ext = evaluate(after, parse_move("H8 ЗДОРОВЫЕ", ru))
    assert ext.score == (5 + 2 + 1 + 1 + 1 + 1 + 4 + 1) * 3


def test_cross_word_shares_the_new_tile_with_its_premium():
    en, board = load_position("en", fen({7: "8A6"}))
    # T on H9 (not a premium square) under A: main HAT? no: main word "H8 AT" horizontal, cross "AA"? use DL square.
    play = evaluate(board, parse_move("H9 AT", en))
    # A on H9 under A (G9): cross word AA = 1+1; main AT = 1+1 (H10 no premium) -> 4
    assert [w.word for w in play.words] == ["AT", "AA"]
    assert play.score == 4
    board2 = Board.from_fen(en, fen({6: "6A8"}))
    # new X on G7 (double letter) below A on F7: main XI counts X doubled, cross AX counts X doubled too
    play2 = evaluate(board2, parse_move("G7 XI", en))
    assert {w.word: w.score for w in play2.words} == {"XI": 16 + 1, "AX": 1 + 16}
    assert play2.score == 34


# -- illegal cases: each gives its message -----------------------------------------
ILLEGAL = [
    ("en", "", "H1 JUKEBOX", "first_off_centre", "first move must cover the centre square H8"),
    ("en", "", "8A JUKEBOX", "first_off_centre", "centre square H8"),
    ("en", fen({8: "7CAT5"}), "A1 AX", "not_touching", "does not touch any tile"),
    ("en", "", "H12 JUKEBOX", "off_board", "would end at column 18, off the board"),
    ("en", "", "10J JUKEBOX", "off_board", "would end at row 16, off the board"),
    ("en", fen({8: "7CAT5"}), "H8 COT", "board_mismatch", "square H9 holds A, but the word has O there"),
    ("en", fen({8: "7CAT5"}), "H8 CA", "word_continues", "square H10 after the word holds T"),
    ("en", fen({8: "7CAT5"}), "H7 SC", "word_continues", "square H9 after the word holds A"),
    ("en", fen({8: "7CAT5"}), "H8 CAT", "no_new_tile", "already on the board"),
    ("en", "", "H8 A", "too_short", "at least 2 letters"),
    ("ru", "", "Й8 ДОМ", "unknown_row", "unknown row label «Й»"),
    ("en", "", "Q8 QUIZ", "unknown_row", "unknown row label «Q»"),
    ("en", "", "H16 QUIZ", "off_board", "column 16 is off the board"),
    ("en", "", "H8 QU1Z", "bad_letter", "«1» is not a letter of the en tile set"),
    ("en", "", "QUIZ", "missing_coordinates", "coordinates are missing before «QUIZ»"),
    ("en", "", "H8 8H QUIZ", "bad_notation", "is not a move"),
    ("ru", "", "H8 DOM", "bad_letter", "«D» is not a letter of the ru tile set"),
]


@pytest.mark.parametrize("rs,board_fen,move,code,message", ILLEGAL)
def test_illegal_moves_say_why(rs, board_fen, move, code, message):
    _, board = load_position(rs, board_fen)
    report = check_move(board, move)
    assert not report.legal
    assert report.code == code
    assert message in report.error
    assert report.score is None


def test_letter_not_on_the_rack():
    _, board = load_position("ru", "")
    report = check_move(board, "H8 ЗДОРОВЫ", rack="ЗДОРОВА")
    assert not report.legal and report.code == "not_on_rack"
    assert report.error == "Ы is not on the rack АВДЗООР"
    # a blank may stand for it when written in lower case
    assert check_move(board, "H8 ЗДОРОВы", rack="ЗДОРОВ?").legal
    hint = check_move(board, "H8 ЗДОРОВЫ", rack="ЗДОРОВ?")
    assert "a letter played with a blank is written in lower case" in hint.error
    twice = check_move(board, "H8 ЗДОРОВ", rack="ЗДОРВ??")
    assert twice.error.startswith("the move needs 2 × О, the rack ??ВДЗОР has 1")
    no_blank = check_move(board, "H8 зДОРОВ", rack="ЗДОРОВЫ")
    assert "blank" in no_blank.error


def test_rack_only_counts_new_tiles():
    _, board = load_position("ru", "")
    ru = board.ruleset
    after = apply(board, evaluate(board, parse_move("H8 ЗДОРОВЫ", ru)))
    assert check_move(after, "8H ЗАНОВО", rack="АНОВОКК").legal


def test_gap_between_placed_tiles():
    en = get_ruleset("en")
    board = Board.from_fen(en, fen({8: "7CAT5"}))
    with pytest.raises(IllegalMove) as exc:
        from_placements(board, [Placement(9, 7, "A"), Placement(11, 7, "E")])
    assert exc.value.code == "gap" and "square K8 between the placed tiles is empty" in str(exc.value)
    with pytest.raises(IllegalMove, match="one row or one column"):
        from_placements(board, [Placement(9, 7, "A"), Placement(10, 8, "E")])
    with pytest.raises(IllegalMove, match="already holds a tile"):
        from_placements(board, [Placement(7, 7, "A")])


def test_placements_become_the_whole_word():
    en = get_ruleset("en")
    board = Board.from_fen(en, fen({8: "7CAT5"}))
    move = from_placements(board, [Placement(8, 7, "A"), Placement(9, 7, "B")])
    assert move.written == "CAB" and move.coord.vertical and (move.coord.row, move.coord.col) == (7, 7)
    single = from_placements(board, [Placement(7, 10, "S")])
    assert single.written == "CATS" and not single.coord.vertical
    assert evaluate(board, single).score == 3 + 1 + 1 + 1


def test_single_tile_first_move():
    en = get_ruleset("en")
    board = Board(en)
    with pytest.raises(IllegalMove) as exc:
        evaluate(board, from_placements(board, [Placement(7, 7, "A")]))
    assert exc.value.code == "first_single_tile"
    assert "the first move must place at least 2 tiles" in str(exc.value)
