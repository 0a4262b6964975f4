"""One coordinate script per tournament (issue 14, bug 5): every person reads the tournament's row letters,
whatever his language; both scripts are read on input; the letter of a coordinate is drawn apart (bug 6)."""

from __future__ import annotations

import io
import json

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


def test_solve_prints_the_script_asked_for():
    latin, cyrillic = solve(), solve("--script", "cyrillic")
    assert latin[0] == "H4 УМИТО" and cyrillic[0] == "З4 УМИТО"
    assert [parse_coord(m.split()[0]) for m in latin] == [parse_coord(m.split()[0]) for m in cyrillic]


def test_judge_explains_in_the_script_asked_for():
    out = io.StringIO()
    call_command("judge", "--ruleset", "uk", "--lexicon", str(SIM_UK), "--rack", "МОРИСТУ", "--slip", "УМИТО 20",
                 "--round", "1", "--script", "cyrillic", stdout=out)
    assert "(З4 УМИТО)" in out.getvalue() and "H4" not in out.getvalue()


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
