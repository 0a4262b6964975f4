"""Moves are shown with the same row labels as the board."""

import re
from types import SimpleNamespace

from django.utils import translation

from tournament.templatetags.duplicate import move_labels


def test_moves_in_the_tournaments_row_letters():
    def shown(move: str, ns: SimpleNamespace) -> str:
        return re.sub(r"<[^>]+>", "", str(move_labels(move, ns)))

    ru = SimpleNamespace(ruleset="ru", convention="duplicate", coordinate_script="cyrillic")
    for language in ("ru", "en"):  # the tournament's letters, whatever the reader's language
        with translation.override(language):
            assert shown("H8 ЗДОРОВЫ", ru) == "З8 ЗДОРОВЫ"
            assert shown("8H ЗАНОВО", ru) == "8З ЗАНОВО"
            assert shown("K3 ДОМ", ru) == "Л3 ДОМ"  # Latin K is the 11th row, Cyrillic Л
    assert move_labels("", ru) == ""
    assert shown("not a move", ru) == "not a move"
    assert shown("H8 ЗДОРОВЫ", SimpleNamespace(ruleset="ru", convention="duplicate", coordinate_script="latin")) == (
        "H8 ЗДОРОВЫ")
    # the English convention (columns are letters): row 8, column H written 8H, Latin everywhere
    assert shown("H8 ДОМ", SimpleNamespace(ruleset="ru", convention="english", coordinate_script="cyrillic")) == (
        "8H ДОМ")
