"""One coordinate script per tournament (issue 14, bug 5): every person reads the tournament's row letters,
whatever his language; both scripts are read on input; the letter of a coordinate is drawn apart (bug 6)."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.core.management import call_command
from django.template import Context, Template
from django.utils import translation

from scoring.coords import Coord, parse_coord
from scoring.messages import Place, Square, Written, msg
from tests.paths import LEXICONS
from tournament import labels
from tournament.models import Tournament

SIM_UK = LEXICONS / "sim-uk.txt"


def solve(*extra: str) -> list[str]:
    out = io.StringIO()
    call_command("solve", "--ruleset", "uk", "--lexicon", str(SIM_UK), "--rack", "МОРИСТУ", "--top", "3", "--json",
                 *extra, stdout=out)
    return [m["move"] for m in json.loads(out.getvalue())["moves"]]


def command(name: str, *args: str) -> str:
    out = io.StringIO()
    call_command(name, "--lexicon", str(SIM_UK), "--rack", "МОРИСТУ", *args, stdout=out)
    return out.getvalue()


LATIN_WORD = re.compile(r"[A-Za-z]")


def test_solve_json_keeps_the_engines_notation_unless_a_script_is_asked_for():
    latin, cyrillic = solve(), solve("--script", "cyrillic")
    assert latin[0] == "H4 УМИТО" and cyrillic[0] == "З4 УМИТО"
    assert [parse_coord(m.split()[0]) for m in latin] == [parse_coord(m.split()[0]) for m in cyrillic]


def test_solve_prints_the_rule_sets_rows_and_language():
    """Issue 34, defect 3: a uk table in Cyrillic rows and in Ukrainian, not Latin rows under English heads."""
    text = command("solve", "--ruleset", "uk", "--top", "3", "--count-all")
    lines = text.splitlines()
    assert lines[0].split()[:3] == ["#", "Хід", "Бали"] and lines[1].split()[:3] == ["1", "З4", "УМИТО"]
    assert "3 ходи (найкращі 3), усього" in lines[-1] and lines[-1].endswith(" мс")
    assert not LATIN_WORD.search(text), text
    russian = command("solve", "--ruleset", "uk", "--top", "1", "--language", "ru")
    assert russian.splitlines()[0].split()[1] == "Ход" and "З4 УМИТО" in russian  # a Cyrillic reader: Cyrillic rows
    english = command("solve", "--ruleset", "uk", "--top", "1", "--language", "en")
    assert english.splitlines()[0].split()[1] == "Move" and "H4 УМИТО" in english  # as a new tournament in English
    assert "З4 УМИТО" in command("solve", "--ruleset", "uk", "--top", "1", "--language", "en", "--script", "cyrillic")
    assert "H4 УМИТО" in command("solve", "--ruleset", "uk", "--top", "1", "--script", "latin")


def test_judge_explains_in_one_language_the_rule_sets():
    """Issue 34, defect 3: "51 points (place_wrong): место неверно (на клетке H11 …)" for a uk slip."""
    text = command("judge", "--ruleset", "uk", "--slip", "УМИТО 20", "--round", "1").strip()
    assert text.startswith("22 бали, попередження (") and "(З4 УМИТО)" in text, text
    assert not LATIN_WORD.search(text), text
    placed = command("judge", "--ruleset", "uk", "--slip", "H11 УМИТО 22", "--round", "2").strip()
    assert placed.startswith("17 балів (") and "З8" in placed and "8Г УМИТО" in placed, placed  # place wrong
    assert not LATIN_WORD.search(placed), placed
    russian = command("judge", "--ruleset", "uk", "--slip", "УМИТО 20", "--round", "1", "--language", "ru")
    assert russian.startswith("22 очка, предупреждение (") and "(З4 УМИТО)" in russian, russian
    english = command("judge", "--ruleset", "uk", "--slip", "УМИТО 20", "--round", "1", "--language", "en")
    assert english.startswith("22 points, warning (round 1: score wrong): ") and "(H4 УМИТО)" in english, english
    cyrillic = command("judge", "--ruleset", "uk", "--slip", "УМИТО 20", "--round", "1", "--script", "cyrillic",
                       "--language", "en")
    assert "(З4 УМИТО)" in cyrillic and "H4" not in cyrillic


class Settings:
    def __init__(self, script: str, convention: str = "duplicate"):
        self.coordinate_script, self.convention, self.ruleset = script, convention, "uk"


def test_the_tournament_decides_the_rows_not_the_reader():
    for language in ("uk", "en", "pl"):
        with translation.override(language):
            assert labels.tournament_style(Settings("cyrillic")).move("D11 ФАГА") == "Г11 ФАГА"
            assert labels.tournament_style(Settings("latin")).move("D11 ФАГА") == "D11 ФАГА"
    # the English convention puts letters on the columns: Latin whatever the script
    assert labels.tournament_style(Settings("cyrillic", "english")).move("D11 ФАГА") == "4K ФАГА"
    config = labels.board_config(Settings("cyrillic"))
    assert config["rows"][:4] == ["А", "Б", "В", "Г"] and config["cyrillic_input"]


def test_engine_messages_take_the_tournaments_rows():
    translation.activate("en")
    style = labels.tournament_style(Settings("cyrillic"))
    m = msg("place_wrong", word="ФАГА", announced=26, move=Written(Coord(3, 10, True), "ФАГА"), awarded=21)
    assert labels.explain(m, style) == "the place is wrong; ФАГА for 26 points is playable at 11Г ФАГА: announced − 5 = 21"
    assert "11Г" in labels.explain(m.to_json(), style)
    assert labels.explain(msg("square_taken", square=Square(7, 10)), style) == "square З11 already holds a tile"
    assert labels.explain(msg("not_touching", word="AB", place=Place(Coord(7, 7, True))), style).startswith(
        "«AB» at 8З")


def test_both_scripts_are_read_and_mean_the_same_square():
    assert parse_coord("Г11") == parse_coord("D11") == Coord(3, 10, False)
    assert parse_coord("11Г") == parse_coord("11d") == Coord(3, 10, True)


@pytest.mark.django_db
def test_new_tournaments_start_with_the_rows_of_their_hall(alice):
    from lexicon.models import Lexicon
    from tournament import services

    def lexicon(ruleset: str) -> Lexicon:
        return Lexicon.objects.create(name=f"lx-{ruleset}", ruleset=ruleset, status=Lexicon.Status.READY, version=1,
                                      content_hash="0" * 64, file_path="none.kwg")

    uk = services.tournaments.create_tournament(alice, name="Кубок", slug="kubok", ruleset="uk", lexicon=lexicon("uk"),
                                                language="uk")
    pl_reader = services.tournaments.create_tournament(alice, name="Kubek", slug="kubek", ruleset="uk",
                                                       lexicon=Lexicon.objects.get(ruleset="uk"), language="pl")
    en = services.tournaments.create_tournament(alice, name="Open", slug="open", ruleset="en", lexicon=lexicon("en"),
                                                language="uk")
    assert [uk.coordinate_script, pl_reader.coordinate_script, en.coordinate_script] == ["cyrillic", "latin", "latin"]
    assert Tournament.objects.get(pk=uk.pk).time_zone


def test_the_letter_of_a_coordinate_is_marked_on_pages():
    html = Template("{% load duplicate %}{{ move|move_labels:t }}").render(
        Context({"move": "H3 ЗАЛ", "t": Settings("cyrillic")}))
    assert html == 'З<span class="coord-letter">З</span>3 ЗАЛ'.replace('З<span', '<span')
    html = Template("{% load duplicate %}{{ move|move_labels:t }}").render(
        Context({"move": "3H <b>", "t": Settings("cyrillic")}))
    assert html == '3<span class="coord-letter">З</span> &lt;b&gt;'
