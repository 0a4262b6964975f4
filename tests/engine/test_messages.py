"""The engine's messages: data with positions, rendered in any script and convention, stored as JSON."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scoring.board import Board
from scoring.coords import Coord, CoordError, parse_coord
from scoring.judge import judge_slip
from scoring.messages import (
    ENGLISH,
    TEXTS,
    Message,
    Place,
    Renderer,
    Square,
    Written,
    msg,
    placeholders,
    render,
    walk,
)
from scoring.rules import get_ruleset

ROOT = Path(__file__).resolve().parents[2] / "scoring"


def cyrillic_renderer() -> Renderer:
    return Renderer(template=lambda code: TEXTS[code], cyrillic=True)


def test_positions_are_written_in_the_readers_script_and_convention():
    m = msg("placement_at", move=Written(Coord(3, 10, True), "WORD"), reason=msg("square_taken", square=Square(3, 4)))
    assert str(m) == "11D WORD: square D5 already holds a tile"
    assert render(m, cyrillic_renderer()) == "11Г WORD: square Г5 already holds a tile"
    english = Renderer(template=lambda code: TEXTS[code], convention="english")
    assert render(m, english) == "K4 WORD: square E4 already holds a tile"
    assert render(msg("not_touching", word="AB", place=Place(Coord(7, 7, False))), cyrillic_renderer()).startswith(
        "«AB» at З8")


def test_messages_survive_json():
    m = msg("not_in_lexicon_many", move=Written(Coord(7, 7, False), "XY"), words=("XY", "QZ"))
    nested = msg("unreadable", reason=msg("slip_word", reason=msg("not_a_letter", letter="1", tileset="en")))
    for message in (m, nested, msg("no_slip"), msg("ok", move=Written(None, "AB"), score=12)):
        again = Message.from_json(message.to_json())
        assert again == message and str(again) == str(message)
    assert [x.code for x in walk(nested)] == ["unreadable", "slip_word", "not_a_letter"]
    assert str(m) == "H8 XY: «XY», «QZ» are not in the lexicon"


def test_an_unknown_code_is_a_bug():
    with pytest.raises(KeyError):
        msg("no_such_message")


def test_every_code_the_engine_uses_has_a_template_and_every_template_is_used():
    source = "\n".join(p.read_text() for p in ROOT.glob("*.py") if p.name != "messages.py")
    used = set(re.findall(r'msg\(\s*f?"([a-z_{}]+)"', source))
    expanded = set()
    for code in used:  # f-strings: word_continues_{side}, letter_not_on_rack{hint}
        if "{" in code:
            prefix = code.split("{")[0]
            expanded |= {c for c in TEXTS if c.startswith(prefix)}
        else:
            expanded.add(code)
    assert expanded - set(TEXTS) == set()
    literals = set(re.findall(r'"([a-z_]+)"', source))
    built = {c for c in TEXTS if c.startswith("place_")}  # the place verdicts are built from their parts
    assert set(TEXTS) - expanded - literals - built == set()


def test_templates_name_only_their_parameters():
    for code, text in TEXTS.items():
        assert placeholders(text) <= {"text", "letter", "tileset", "word", "size", "rack", "count", "place", "length",
                                      "end", "square", "board_letter", "word_letter", "have", "score", "most",
                                      "reason", "move", "words", "missing", "announced", "written", "awarded",
                                      "scores", "number",
                                      # a game record read back (scoring.records, scoring.training)
                                      "line", "column", "key", "kind", "name", "round", "left", "said", "total",
                                      "kept", "drawn", "got", "best"}, code


def test_errors_carry_their_message():
    with pytest.raises(CoordError) as err:
        parse_coord("H16")
    assert err.value.message == msg("column_off_board", number=16)
    assert str(err.value) == "column 16 is off the board (columns are 1–15)"


def test_verdicts_explain_with_positions():
    en = get_ruleset("en")
    board = Board(en)
    verdict = judge_slip(board, "CATSROE", "H4 COATERS 74", round_number=2, lexicon=None)
    assert verdict.explanation.code in TEXTS
    assert verdict.message == str(verdict.explanation)
    assert ENGLISH.value(Square(0, 0)) == "A1"
