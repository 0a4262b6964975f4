"""Moves are shown with the same row labels as the board."""

from types import SimpleNamespace

from django.utils import translation

from tournament.templatetags.duplicate import move_labels


def test_cyrillic_rows_for_russian_readers():
    ru = SimpleNamespace(ruleset="ru", convention="duplicate")
    with translation.override("ru"):
        assert move_labels("H8 ЗДОРОВЫ", ru) == "З8 ЗДОРОВЫ"
        assert move_labels("8H ЗАНОВО", ru) == "8З ЗАНОВО"
        assert move_labels("K3 ДОМ", ru) == "Л3 ДОМ"  # Latin K is the 11th row, Cyrillic Л
        assert move_labels("", ru) == ""
        assert move_labels("not a move", ru) == "not a move"
    with translation.override("en"):
        assert move_labels("H8 ЗДОРОВЫ", ru) == "H8 ЗДОРОВЫ"
    with translation.override("ru"):
        assert move_labels("H8 QUIZ", SimpleNamespace(ruleset="en", convention="duplicate")) == "H8 QUIZ"
        # the English convention (columns are letters): row 8, column H written 8H, Latin everywhere
        assert move_labels("H8 ДОМ", SimpleNamespace(ruleset="ru", convention="english")) == "8H ДОМ"
