"""Coordinates, move notation, racks and board FEN: parsing, formatting, round trips (hypothesis)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.board import Board, BoardError, Tile
from scoring.coords import Convention, Coord, CoordError, format_coord, parse_coord
from scoring.notation import NotationError, format_move, parse_move, parse_rack
from scoring.rules import get_ruleset, ruleset_ids
from tests.conftest import BENCH


@pytest.mark.parametrize(
    "text,expected",
    [
        ("H8", Coord(7, 7, False)),
        ("8H", Coord(7, 7, True)),
        ("h8", Coord(7, 7, False)),
        ("h 8", Coord(7, 7, False)),
        (" 8 h ", Coord(7, 7, True)),
        ("A1", Coord(0, 0, False)),
        ("O15", Coord(14, 14, False)),
        ("15O", Coord(14, 14, True)),
        ("B12", Coord(1, 11, False)),
        ("З8", Coord(7, 7, False)),  # Cyrillic row labels: З is the 8th row
        ("8з", Coord(7, 7, True)),
        ("П1", Coord(14, 0, False)),
        ("И3", Coord(8, 2, False)),
        ("К3", Coord(9, 2, False)),  # Й is skipped
    ],
)
def test_parse_coord_duplicate(text, expected):
    assert parse_coord(text) == expected


def test_english_convention():
    assert parse_coord("8H", convention=Convention.ENGLISH) == Coord(7, 7, False)
    assert parse_coord("H8", convention=Convention.ENGLISH) == Coord(7, 7, True)
    assert parse_coord("2C", convention="english") == Coord(1, 2, False)
    assert format_coord(Coord(1, 2, False), convention="english") == "2C"
    assert format_coord(Coord(1, 2, False)) == "B3"


@pytest.mark.parametrize(
    "text,message",
    [
        ("", "coordinates are missing"),
        ("Й8", "unknown row label «Й»"),
        ("Ё8", "unknown row label «Ё»"),
        ("P8", "unknown row label «P»"),
        ("H0", "column 0 is off the board"),
        ("H16", "column 16 is off the board"),
        ("88", "is not a coordinate"),
        ("HH", "is not a coordinate"),
        ("H8H", "is not a coordinate"),
    ],
)
def test_bad_coordinates(text, message):
    with pytest.raises(CoordError) as exc:
        parse_coord(text)
    assert message in str(exc.value)


def test_cyrillic_rows_only_for_cyrillic_rule_sets():
    with pytest.raises(CoordError, match="unknown row label «З»"):
        parse_coord("З8", cyrillic=False)
    assert format_coord(Coord(7, 7, False), cyrillic=True) == "З8"


def test_moves():
    ru = get_ruleset("ru")
    m = parse_move("h8 здоровЫ", ru)
    assert m.coord == Coord(7, 7, False) and m.word == "ЗДОРОВЫ" and m.written == "здоровЫ"
    assert [t.blank for t in m.tiles] == [True] * 6 + [False]
    assert parse_move("ЗДОРОВ 8H", ru).coord == Coord(7, 7, True)
    assert parse_move("З 8 ЗДОРОВ", ru).coord == Coord(7, 7, False)
    assert parse_move("ЗДОРОВ", ru, require_coord=False).coord is None
    uk = get_ruleset("uk")
    for spelling in ("H8 М'ЯСО", "H8 М’ЯСО", "H8 МʼЯСО"):
        assert parse_move(spelling, uk).word == "М'ЯСО"
    assert parse_move("H8 М*ЯСО", uk).tiles[1] == Tile("'", True)
    with pytest.raises(NotationError, match="blank apostrophe"):
        parse_move("H8 A*B", get_ruleset("en"))


def test_racks():
    ru = get_ruleset("ru")
    assert parse_rack("оет+врак", ru) == list("ОЕТВРАК")
    assert parse_rack("АБ??", ru) == ["А", "Б", "?", "?"]
    with pytest.raises(NotationError, match="at most 7 tiles"):
        parse_rack("АБВГДЕЖЗ", ru)
    with pytest.raises(NotationError, match="«Q» on the rack"):
        parse_rack("QАБ", ru)


# -- property-based ------------------------------------------------------------------
ANY_TEXT = st.text(
    alphabet=st.characters(codec="utf-8", categories=["L", "N", "P", "Z", "S"]) | st.sampled_from("H8 8HЗ'’ʼ*?"),
    max_size=30,
)


@settings(max_examples=400, deadline=None)
@given(text=ANY_TEXT, convention=st.sampled_from(list(Convention)), cyr=st.booleans())
def test_coordinate_parser_only_raises_its_own_error(text, convention, cyr):
    try:
        coord = parse_coord(text, cyrillic=cyr, convention=convention)
    except CoordError:
        return
    assert 0 <= coord.row < 15 and 0 <= coord.col < 15


@settings(max_examples=400, deadline=None)
@given(text=ANY_TEXT, rs=st.sampled_from(ruleset_ids()), need=st.booleans())
def test_move_parser_only_raises_its_own_error(text, rs, need):
    ruleset = get_ruleset(rs)
    try:
        move = parse_move(text, ruleset, require_coord=need)
    except NotationError:
        return
    assert all(ruleset.is_letter(t.letter) for t in move.tiles)


@settings(max_examples=300, deadline=None)
@given(
    row=st.integers(0, 14), col=st.integers(0, 14), vertical=st.booleans(),
    convention=st.sampled_from(list(Convention)), cyr=st.booleans(),
)
def test_coordinate_round_trip(row, col, vertical, convention, cyr):
    coord = Coord(row, col, vertical)
    cyr = cyr and convention is Convention.DUPLICATE
    text = format_coord(coord, convention=convention, cyrillic=cyr)
    assert parse_coord(text, convention=convention, cyrillic=True) == coord


@st.composite
def written_moves(draw):
    ruleset = get_ruleset(draw(st.sampled_from(ruleset_ids())))
    letters = st.sampled_from(ruleset.letters)
    tiles = draw(st.lists(st.builds(Tile, letters, st.booleans()), min_size=2, max_size=15))
    coord = Coord(draw(st.integers(0, 14)), draw(st.integers(0, 14)), draw(st.booleans()))
    return ruleset, coord, tuple(tiles)


@settings(max_examples=300, deadline=None)
@given(written_moves())
def test_move_round_trip(case):
    ruleset, coord, tiles = case
    text = format_move(coord, tiles, cyrillic=ruleset.cyrillic)
    parsed = parse_move(text, ruleset)
    assert (parsed.coord, parsed.tiles) == (coord, tiles)
    assert format_move(parsed.coord, parsed.tiles, cyrillic=ruleset.cyrillic) == text


@st.composite
def boards(draw):
    ruleset = get_ruleset(draw(st.sampled_from(ruleset_ids())))
    rnd = draw(st.randoms(use_true_random=False))
    density = draw(st.sampled_from([0.0, 0.05, 0.3, 0.9, 1.0]))
    cells = [
        [
            Tile(rnd.choice(ruleset.letters), rnd.random() < 0.2) if rnd.random() < density else None
            for _ in range(15)
        ]
        for _ in range(15)
    ]
    return Board(ruleset, cells)


@settings(max_examples=150, deadline=None)
@given(boards())
def test_fen_round_trip(board):
    fen = board.to_fen()
    assert Board.from_fen(board.ruleset, fen) == board
    assert Board.from_fen(board.ruleset, fen).to_fen() == fen


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=80), rs=st.sampled_from(ruleset_ids()))
def test_fen_reader_only_raises_its_own_error(text, rs):
    try:
        Board.from_fen(get_ruleset(rs), text)
    except BoardError:
        pass


@pytest.mark.parametrize("rs", ["en", "ru", "uk", "pl", "pl-literaki"])
def test_bench_positions_round_trip(rs):
    ruleset = get_ruleset(rs)
    for line in (BENCH / f"{rs}.dev.txt").read_text(encoding="utf-8").splitlines():
        fen, rack = line.rsplit(" ", 1)
        assert Board.from_fen(ruleset, fen).to_fen() == fen
        assert "".join(parse_rack(rack, ruleset)) == rack


@pytest.mark.parametrize(
    "fen,message",
    [
        ("15/15", "this one has 2"),
        ("/".join(["15"] * 14 + ["16"]), "longer than 15"),
        ("/".join(["15"] * 14 + ["14"]), "has 14 squares instead of 15"),
        ("/".join(["15"] * 14 + ["7Q7"]), "«Q» is not a tile of the ru set"),
        ("/".join(["15"] * 14 + ["0ДОМ12"]), "empty run of 0"),
    ],
)
def test_bad_fen(fen, message):
    with pytest.raises(BoardError, match=message):
        Board.from_fen(get_ruleset("ru"), fen)
