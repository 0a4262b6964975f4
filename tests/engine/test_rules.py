"""Rule sets carry exactly the tiles of shared/bench/tilesets.json."""

import json

import pytest

from scoring.rules import RulesError, fold_accents, get_ruleset, layout, ruleset_ids
from tests.conftest import BENCH


def bench_tilesets():
    return {t["id"]: t for t in json.loads((BENCH / "tilesets.json").read_text(encoding="utf-8"))["tilesets"]}


@pytest.mark.parametrize("rs", ruleset_ids())
def test_tiles_match_the_bench_tilesets(rs):
    ruleset = get_ruleset(rs)
    spec = bench_tilesets()[ruleset.tileset_id]
    assert [e["letter"] for e in spec["letters"]] == list(ruleset.letters)
    for e in spec["letters"]:
        assert ruleset.counts[e["letter"]] == e["count"]
        assert ruleset.values[e["letter"]] == e["value"]
    assert ruleset.blanks == spec["blanks"] == 2
    assert ruleset.vowels == frozenset(spec["vowels"])
    assert ruleset.total_tiles == spec["total_tiles"]
    assert sum(ruleset.counts[x] * ruleset.values[x] for x in ruleset.letters) == spec["total_points"]
    assert len(ruleset.full_bag()) == spec["total_tiles"]


def test_russian_has_the_yo_tile_and_ukrainian_the_apostrophe():
    ru, uk = get_ruleset("ru"), get_ruleset("uk")
    assert ru.counts["Ё"] == 1 and ru.value("Ё") == 3
    assert uk.counts["'"] == 1 and uk.value("'") == 10
    assert not uk.is_vowel("'") and not uk.is_consonant("'")
    assert ru.is_consonant("Й") and ru.is_consonant("Ь") and ru.is_consonant("Ъ")
    assert ru.total_tiles == uk.total_tiles == 104


def test_standard_board_premiums():
    lay = get_ruleset("en").layout
    assert lay.word_mult[7][7] == 2  # centre
    assert lay.word_mult[0][0] == 3 and lay.word_mult[0][7] == 3
    assert lay.letter_mult[1][5] == 3 and lay.letter_mult[0][3] == 2
    assert sum(v == 3 for row in lay.word_mult for v in row) == 8
    assert sum(v == 2 for row in lay.word_mult for v in row) == 17
    assert sum(v == 3 for row in lay.letter_mult for v in row) == 12
    assert sum(v == 2 for row in lay.letter_mult for v in row) == 24
    for r in range(15):
        for c in range(15):
            assert lay.word_mult[r][c] == lay.word_mult[c][r]


def test_literaki_board():
    lit = get_ruleset("pl-literaki")
    assert lit.layout.word_mult[7][7] == 1 and lit.layout.letter_colour[7][7] == "red"
    assert lit.letter_multiplier(7, 7, "Ż", False) == 3  # red tile on red square
    assert lit.letter_multiplier(7, 7, "K", False) == 1  # green tile on red square
    assert lit.letter_multiplier(7, 7, "Ż", True) == 1  # a blank never gets it
    assert lit.value("Ź") == 5 and get_ruleset("pl").value("Ź") == 9


def test_unknown_ruleset_and_layout():
    with pytest.raises(RulesError, match="unknown rule set 'xx'"):
        get_ruleset("xx")
    with pytest.raises(RulesError):
        layout("hexagonal")


def test_letter_normalisation():
    assert get_ruleset("uk").normalize_letter("\u2019") == "'"
    assert get_ruleset("uk").normalize_letter("\u02bc") == "'"
    assert get_ruleset("fr").normalize_letter("é") == "E"
    assert get_ruleset("pl").normalize_letter("ą") == "Ą"
    assert fold_accents("ŒUF") == "OEUF"
