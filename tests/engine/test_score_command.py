"""``manage.py score``: the rulebook examples through the command, exit statuses, JSON shape."""

import json

import pytest

AFTER_ZDOROVY = "15/15/15/15/15/15/15/7ЗДОРОВЫ1/15/15/15/15/15/15/15"


@pytest.mark.parametrize(
    "board,move,score,bingo,placed",
    [
        (None, "H8 ЗДОРОВ", 24, False, 6),
        (None, "H8 ЗДОРОВЫ", 82, True, 7),
        (AFTER_ZDOROVY, "8H ЗАНОВО", 11, False, 5),
    ],
)
def test_rulebook_examples(manage, board, move, score, bingo, placed):
    args = ["score", "--ruleset", "ru", "--move", move, "--json"]
    if board:
        args += ["--board", board]
    result = manage(*args)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data == {
        "legal": True,
        "error": None,
        "score": score,
        "bingo": bingo,
        "tiles_placed": placed,
        "words": [{"word": move.split()[1], "score": score - (50 if bingo else 0), "valid": None}],
    }


def test_illegal_move_exits_1_with_the_reason(manage):
    result = manage("score", "--ruleset", "ru", "--move", "A1 ДОМ", "--json")
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert data["legal"] is False and data["score"] is None
    assert data["error"] == "the first move must cover the centre square H8"


def test_rack_makes_missing_tiles_illegal(manage):
    result = manage("score", "--ruleset", "ru", "--move", "H8 ЗДОРОВЫ", "--rack", "ЗДОРОВ?", "--json")
    assert result.returncode == 1
    assert "Ы is not on the rack" in json.loads(result.stdout)["error"]
    ok = manage("score", "--ruleset", "ru", "--move", "H8 ЗДОРОВы", "--rack", "ЗДОРОВ?", "--json")
    assert ok.returncode == 0 and json.loads(ok.stdout)["score"] == 74  # (16 - 4) * 2 + 50


@pytest.mark.parametrize(
    "args,message",
    [
        (["--ruleset", "xx", "--move", "H8 AB"], "unknown rule set 'xx'"),
        (["--ruleset", "ru", "--board", "15/15", "--move", "H8 ДОМ"], "board: a board has 15 rows"),
        (["--ruleset", "ru", "--rack", "QQ", "--move", "H8 ДОМ"], "rack: «Q» on the rack"),
    ],
)
def test_unusable_arguments_exit_2_without_traceback(manage, args, message):
    result = manage("score", *args, "--json")
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_text_output(manage):
    result = manage("score", "--ruleset", "en", "--move", "H8 QUIZ")
    assert result.returncode == 0
    assert result.stdout.splitlines()[0] == "legal: 44 points, 4 tile(s) placed"
