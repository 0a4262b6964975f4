"""The judge of a slip (RULES §4 verdict table): every row, blanks, parsing, the ``judge`` command."""

from __future__ import annotations

import json

import pytest

from scoring.board import Board
from scoring.judge import REASONS, SlipParts, Verdict, judge_slip
from scoring.rules import get_ruleset
from tests.paths import ROOT
from tests.tools.wordlist_solver import WordListSolver

WORDLIST = ROOT / "fixtures" / "lexicons" / "judge-en.txt"
EN = get_ruleset("en")
WORDS = frozenset(WORDLIST.read_text().split())
#: CAT on H8–H10 (after round 1).
CAT_FEN = "15/15/15/15/15/15/15/7CAT5/15/15/15/15/15/15/15"
RACK = "DOERS?Z"


@pytest.fixture(params=["enumerate", "solver"])
def solve_fn(request):
    """The judge finds where a word goes either by itself or through the round's legal moves."""
    return None if request.param == "enumerate" else WordListSolver(EN, WORDS)


def judge(slip, *, fen=CAT_FEN, rack=RACK, round_number=2, solve_fn=None, **kw) -> Verdict:
    board = Board.from_fen(EN, fen)
    return judge_slip(board, rack, slip, round_number=round_number, lexicon=WORDS, solve_fn=solve_fn, **kw)


def summary(v: Verdict) -> tuple:
    return v.awarded, v.warning, v.reason, v.true_score


# -- row 1: legal, valid, right score -----------------------------------------------------


def test_right_move_right_score(solve_fn):
    v = judge("11D DOERS 18", solve_fn=solve_fn)
    assert summary(v) == (18, False, "ok", 18)
    assert v.move == "11D DOERS"
    assert "scores 18 points, as announced" in v.message


# -- row 2: score wrong or missing ----------------------------------------------------------


def test_wrong_score_gets_true_score_and_warning(solve_fn):
    v = judge("11D DOERS 20", solve_fn=solve_fn)
    assert summary(v) == (18, True, "score_wrong", 18)
    assert "not the announced 20" in v.message


def test_missing_score_gets_true_score_and_warning(solve_fn):
    assert summary(judge("11D DOERS", solve_fn=solve_fn)) == (18, True, "score_missing", 18)


def test_legal_place_is_judged_there_even_if_score_fits_elsewhere():
    # I9 DOERS scores 16; 16 also fits 11D DOeRS, but the stated place holds a legal move: row 2.
    assert summary(judge("I9 DOERS 18")) == (16, True, "score_wrong", 16)


# -- row 3: round 1, coordinates not needed -------------------------------------------------


@pytest.mark.parametrize(
    "slip,expected",
    [
        ("CARTS 20", (20, False, "first_round", 20)),
        ("H8 CARTS 20", (20, False, "first_round", 20)),  # written place ignored: best anywhere is 20
        ("H8 CARTS 16", (20, True, "first_round_score_wrong", 20)),
        ("CARTS", (20, True, "first_round_score_missing", 20)),
        ("A1 CARTS 20", (20, False, "first_round", 20)),
    ],
)
def test_round_one_best_score_anywhere(slip, expected, solve_fn):
    v = judge(slip, fen="", rack="CATSROE", round_number=1, solve_fn=solve_fn)
    assert summary(v) == expected
    assert v.move == "H4 CARTS"


@pytest.mark.parametrize(
    "slip,reason",
    [("CARDS 20", "not_on_rack"), ("STAR 8", "invalid_word"), ("TOAST 8", "invalid_word")],
)
def test_round_one_zero(slip, reason, solve_fn):
    v = judge(slip, fen="", rack="CATSROE", round_number=1, solve_fn=solve_fn)
    assert summary(v) == (0, False, reason, None)


def test_round_one_cyrillic_rulebook_example():
    ru = get_ruleset("ru")
    words = {"ЗДОРОВ", "ЗДОРОВЫ"}
    # the rulebook's H8 placement scores 82; З on the double letter of H4 scores 90: best anywhere
    v = judge_slip(Board(ru), "ЗДОРОВЫ", "З8 ЗДОРОВЫ 82", round_number=1, lexicon=words)
    assert summary(v) == (90, True, "first_round_score_wrong", 90)
    assert v.move == "H4 ЗДОРОВЫ"
    v = judge_slip(Board(ru), "ЗДОРОВЫ", "ЗДОРОВЫ 90", round_number=1, lexicon=words)
    assert summary(v) == (90, False, "first_round", 90)
    v = judge_slip(Board(ru), "ЗДОРОВЫ", "здоров 32", round_number=1, lexicon=words)
    # lower case = blanks, but the rack has no blank: the real tiles are meant (see "Blanks")
    assert summary(v) == (32, False, "first_round", 32)


# -- row 4: direction reversed / row and column swapped --------------------------------------


def test_direction_reversed(solve_fn):
    v = judge("D11 DOERS 18", solve_fn=solve_fn)  # written horizontal, the move is 11D (vertical)
    assert summary(v) == (18, True, "direction_reversed", 18)
    assert v.move == "11D DOERS"


def test_row_and_column_swapped(solve_fn):
    v = judge("4K DOERS 18", solve_fn=solve_fn)  # 11D with row and column swapped
    assert summary(v) == (18, True, "coordinates_swapped", 18)


def test_reversed_and_score_wrong_is_two_errors(solve_fn):
    v = judge("D11 DOERS 20", solve_fn=solve_fn)
    assert v.awarded == 0 and not v.warning
    assert v.reason == "illegal_placement"


def test_reversed_and_swapped_is_not_one_error(solve_fn):
    # K4 = 11D flipped and transposed: two errors, but DOERS for 18 is playable: place wrong
    v = judge("K4 DOERS 18", solve_fn=solve_fn)
    assert summary(v) == (13, False, "place_wrong", 18)


# -- row 5: place missing or wrong, word with the announced score playable elsewhere -----------


def test_place_wrong(solve_fn):
    v = judge("A1 DOERS 18", solve_fn=solve_fn)
    assert summary(v) == (13, False, "place_wrong", 18)
    assert "announced − 5 = 13" in v.message


def test_place_missing(solve_fn):
    assert summary(judge("DOERS 16", solve_fn=solve_fn)) == (11, False, "place_missing", 16)


@pytest.mark.parametrize("slip,awarded", [("A1 ES 9", 4), ("A1 TO 2", 0), ("A1 ES 5", 0)])
def test_place_wrong_low_scores(slip, awarded, solve_fn):
    v = judge(slip, solve_fn=solve_fn)
    if slip == "A1 ES 5":  # ES never scores 5 here: place and score wrong
        assert summary(v) == (0, False, "illegal_placement", None)
    else:
        assert summary(v) == (awarded, False, "place_wrong", int(slip.split()[-1]))


def test_unreadable_coordinates_count_as_a_wrong_place(solve_fn):
    v = judge("Z99 DOERS 18", solve_fn=solve_fn)
    assert summary(v) == (13, False, "place_wrong", 18)
    v = judge(SlipParts(word="DOERS", coord="Q3", score=18), solve_fn=solve_fn)
    assert summary(v) == (13, False, "place_wrong", 18)
    assert "unknown row label «Q»" in v.message


def test_place_missing_and_score_wrong(solve_fn):
    v = judge("DOERS 17", solve_fn=solve_fn)
    assert summary(v) == (0, False, "place_and_score_wrong", None)
    assert "playable only for 18, 16" in v.message


# -- row 6: zero ----------------------------------------------------------------------------


def test_no_slip_and_late():
    assert summary(judge(None)) == (0, False, "no_slip", None)
    assert summary(judge("   ")) == (0, False, "no_slip", None)
    assert summary(judge("11D DOERS 18", late=True)) == (0, False, "late", None)


def test_invalid_cross_word(solve_fn):
    v = judge("I8 OD 7", solve_fn=solve_fn)  # forms CO (OD for 5 at I10 would be a wrong place)
    assert summary(v) == (0, False, "invalid_word", None)
    assert "«CO» is not in the lexicon" in v.message


def test_invalid_main_word(solve_fn):
    v = judge("I9 DOSE 14", solve_fn=solve_fn)
    assert summary(v) == (0, False, "invalid_word", None)
    assert "«DOSE»" in v.message


def test_illegal_placement(solve_fn):
    v = judge("12D DOERS 99", solve_fn=solve_fn)
    assert summary(v) == (0, False, "illegal_placement", None)
    assert "does not touch" in v.message
    v = judge("H8 CAT 5", solve_fn=solve_fn)
    assert summary(v) == (0, False, "illegal_placement", None)


def test_letter_not_on_rack(solve_fn):
    v = judge("11E TOES 99", rack="DOERSAZ", solve_fn=solve_fn)
    assert summary(v) == (0, False, "not_on_rack", None)
    assert "T is not on the rack" in v.message


@pytest.mark.parametrize("slip", ["H8 24", "!!! 12", "H8 DO!RS 12", "12 24", SlipParts(word="DOERS", score="abc")])
def test_unreadable_slip_is_zero_never_an_exception(slip):
    v = judge(slip)
    assert summary(v) == (0, False, "unreadable", None)
    assert v.message.startswith("the slip cannot be read")


# -- blanks ------------------------------------------------------------------------------------


def test_blank_written_in_lower_case(solve_fn):
    assert summary(judge("G9 ZaS 43", solve_fn=solve_fn)) == (43, False, "ok", 43)


def test_upper_case_letter_only_a_blank_can_supply_is_the_blank(solve_fn):
    v = judge("G9 ZAS 43", solve_fn=solve_fn)
    assert summary(v) == (43, False, "ok", 43)
    assert v.move == "G9 ZaS"
    assert summary(judge("11D ROADS 16", solve_fn=solve_fn)) == (16, False, "ok", 16)


def test_written_blank_marking_is_kept_when_legal():
    # the rack has both S and a blank: "DOERs" is judged as written (15), not as DOERS (18)
    assert summary(judge("11D DOERs 15")) == (15, False, "ok", 15)
    assert summary(judge("11D DOERs 18")) == (15, True, "score_wrong", 15)


def test_upper_case_blank_reading_keeps_the_score_judged():
    # ROADS: no A on the rack, so the A is the blank (16); announcing 18 is a wrong score
    v = judge("11D ROADS 18", rack=RACK)
    assert summary(v) == (16, True, "score_wrong", 16)


def test_lower_case_without_a_blank_on_the_rack_means_the_tile():
    v = judge("G9 ZaS 1", rack="DOERSAZ")
    assert v.reason == "score_wrong" and v.move == "G9 ZAS"
    assert v.true_score > 43  # the real A scores more than a blank


# -- parts and reasons ------------------------------------------------------------------------


def test_structured_parts_and_mapping(solve_fn):
    assert summary(judge(SlipParts(word="DOERS", coord="11D", score=18), solve_fn=solve_fn)) == (18, False, "ok", 18)
    assert summary(judge({"word": "DOERS", "coord": "11d", "score": "18"}, solve_fn=solve_fn)) == (18, False, "ok", 18)
    assert summary(judge(SlipParts(word="DOERS", score=16), solve_fn=solve_fn)) == (11, False, "place_missing", 16)


def test_word_first_notation(solve_fn):
    assert summary(judge("DOERS 11D 18", solve_fn=solve_fn)) == (18, False, "ok", 18)


def test_every_reason_is_documented():
    for slip in ["11D DOERS 18", "11D DOERS 1", "DOERS 16", None]:
        assert judge(slip).reason in REASONS


# -- the judge command --------------------------------------------------------------------------


def _command_available() -> bool:
    try:
        import lexicon.resolve  # noqa: F401
    except ImportError:
        return False
    return True


needs_resolve = pytest.mark.skipif(not _command_available(), reason="lexicon.resolve is not there yet")


@needs_resolve
@pytest.mark.parametrize(
    "args,expected",
    [
        (["--board", CAT_FEN, "--slip", "11D DOERS 18"], {"awarded": 18, "warning": False, "reason": "ok", "true_score": 18}),
        (["--board", CAT_FEN, "--slip", "11D DOERS 20"], {"awarded": 18, "warning": True, "reason": "score_wrong", "true_score": 18}),
        (["--board", CAT_FEN, "--slip", "A1 DOERS 18"], {"awarded": 13, "warning": False, "reason": "place_wrong", "true_score": 18}),
        (["--board", CAT_FEN, "--slip", "I8 OD 7"], {"awarded": 0, "warning": False, "reason": "invalid_word", "true_score": None}),
        (["--slip", "CARTS 20", "--rack", "CATSROE"], {"awarded": 20, "warning": False, "reason": "first_round", "true_score": 20}),
        (["--slip", "CARTS 20", "--rack", "CATSROE", "--round", "3"],
         {"awarded": 15, "warning": False, "reason": "place_missing", "true_score": 20}),
    ],
)
def test_judge_command_json(manage, args, expected):
    if "--rack" not in args:
        args = [*args, "--rack", RACK]
    result = manage("judge", "--ruleset", "en", "--lexicon", str(WORDLIST), *args, "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == expected


@needs_resolve
def test_judge_command_text(manage):
    result = manage("judge", "--ruleset", "en", "--lexicon", str(WORDLIST), "--board", CAT_FEN,
                    "--rack", RACK, "--slip", "11D DOERS 20")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("18 points, warning (score wrong): ")  # en: English, the reason's label


@pytest.mark.parametrize(
    "args,message",
    [
        (["--ruleset", "xx", "--rack", RACK, "--slip", "H8 AB 1"], "unknown rule set 'xx'"),
        (["--ruleset", "en", "--board", "15/15", "--rack", RACK, "--slip", "H8 AB 1"], "board: a board has 15 rows"),
        (["--ruleset", "en", "--rack", "DOERS??Z1", "--slip", "H8 AB 1"], "rack:"),
        (["--ruleset", "en", "--rack", RACK, "--slip", "H8 AB 1", "--round", "0"], "--round"),
        (["--ruleset", "en", "--rack", RACK, "--slip", "H8 AB 1", "--lexicon", "/nonexistent/words.txt"], ""),
    ],
)
def test_judge_command_unusable_arguments_exit_2(manage, args, message):
    if "--lexicon" not in args:
        args = [*args, "--lexicon", str(WORDLIST)]
    result = manage("judge", *args, "--json")
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
