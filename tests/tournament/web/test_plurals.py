"""Every number shown with a noun is in the plural form of the page's language: "42 бали", "2 плитки", never
"42 балів" or "2 плиток" (ru, uk and pl have three forms, fr says 0 and 1 in the singular).

The catalogues are read for the texts that would need a plural entry and are not one — so that the next such
text fails here; the plural rules of the catalogues and of the screens' scripts (``D.text.plural``) are checked
against each other; and the engine's counted explanations, the Python texts and the templates are spot-checked.
"""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import ngettext

from scoring.coords import Coord
from scoring.messages import COUNTED, ENGLISH, TEXTS, Place, Written, msg, placeholders, render
from tests.paths import LOCALE, ROOT
from tests.tournament.web.test_translations import entries
from tournament import labels

#: The parameters that hold a number (and every ``%(…)d``).
NUMERIC = ("n|m|k|count|size|length|score|announced|awarded|total|players|limit|free|time|most|have|shown|expected|"
           "best|number|points|seconds|rounds|words|tiles|new")
#: A number's placeholder (``%(n)s``, ``%(p)d``, ``{score}``).
NUMBER = rf"(?:%\(\w+\)d|%\((?:{NUMERIC})\)s|\{{(?:{NUMERIC})\}})"
#: English nouns that are counted: a number before one of them needs the plural forms of every language.
COUNTABLE = (r"tiles?|points?|players?|rounds?|games?|seconds?|minutes?|hours?|days?|words?|letters?|racks?|slips?|"
             r"warnings?|blanks?|vowels?|consonants?|tablets?|tables?|halls?|verdicts?|moves?|lines?|files?|"
             r"versions?|codes?|penalt(?:y|ies)|solos?|tops?|rows?|columns?|lexicons?|characters?|squares?|copies|"
             r"entries|archives?|arbiters?|times")
#: ``%(n)s players``, ``%(n)s of %(total)s players``, ``{count} blank(s)``.
COUNTED_NOUN = re.compile(rf"{NUMBER}(?: of {NUMBER})?\s+(?:(?:free|legal|new|valid|more|other)\s+)?(?:{COUNTABLE})\b")
#: A translation that puts a number before a counted noun of its language (any case of it): such a text must be a
#: plural entry, whatever its English says ("{score} очок" for "scores {score}").
NATIVE_COUNTED = {
    "uk": r"(?:очк|очок|бал|плит|фіш|гравц|гравет|ход|хід|слів|слов|літер|секунд|хвилин|парті|бланк|попереджен|"
          r"рядк|рядок|зал|підстав|пуст)",
    "ru": r"(?:очк|очок|балл|фиш|игрок|ход|слов|букв|секунд|минут|парти|бланк|предупрежден|строк|зал|подстав|"
          r"пустыш)",
    "pl": r"(?:punkt|płyt|gracz|rund|ruch|słów|słow|liter|sekund|minut|parti|kartk|kartek|ostrzeż|wiersz|sal|"
          r"stojak|blank)",
}
#: Words after which a number names a thing (round 3, table 7) and counts nothing.
NAMING = {"хід", "ходу", "ході", "ход", "хода", "ходе", "партія", "партії", "партия", "партии", "стіл", "столу",
          "стол", "стола", "runda", "rundy", "rundzie", "partia", "partii", "stół", "stołu", "round", "game", "table"}
#: Texts where a number stands before a noun without counting it (a unit, a name).
NOT_COUNTS = {"%(seconds)s s", "%(mb)s MB"}


def catalogue(lang: str) -> list[tuple[str, str, list[str]]]:
    po = (LOCALE / lang / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    return [(flags, msgid, strs) for flags, msgid, strs in entries(po) if msgid]


def plural_msgids(po_text: str) -> set[str]:
    return {m for m in re.findall(r'msgid "(.*)"\nmsgid_plural', po_text)} | {
        "".join(re.findall(r'"(.*)"', block)) for block in re.findall(r'msgid ""\n((?:".*"\n)+)msgid_plural', po_text)}


def test_every_counted_english_text_is_a_plural_entry():
    po = (LOCALE / "uk" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    plurals = plural_msgids(po)
    single = [msgid for _flags, msgid, strs in catalogue("uk") if len(strs) == 1 and msgid not in NOT_COUNTS]
    bad = sorted(m for m in single if COUNTED_NOUN.search(m) and m not in plurals)
    assert not bad, "a number with a noun needs ngettext / {% blocktranslate count %}:\n" + "\n".join(bad)


@pytest.mark.parametrize("lang", ["uk", "ru", "pl"])
def test_no_translation_counts_a_noun_outside_a_plural_entry(lang):
    native = re.compile(rf"(\w*)\s*{NUMBER}\s+{NATIVE_COUNTED[lang]}\w*", re.IGNORECASE)

    def counts(text: str) -> bool:  # "ходу 3 плиткою": the number names a round, it counts no tile
        return any(m.group(1).lower() not in NAMING for m in native.finditer(text))

    bad = [(msgid, strs[0]) for _flags, msgid, strs in catalogue(lang)
           if len(strs) == 1 and msgid not in NOT_COUNTS and counts(strs[0])]
    assert not bad, f"{lang}: a number before a counted noun outside a plural entry:\n" + "\n".join(
        f"{m!r} → {s!r}" for m, s in bad)


#: (number, the plural index) the language's rule must give: one, few, many.
CATEGORIES = {
    "uk": {1: 0, 21: 0, 101: 0, 2: 1, 3: 1, 4: 1, 22: 1, 34: 1, 0: 2, 5: 2, 11: 2, 12: 2, 14: 2, 20: 2, 25: 2, 111: 2},
    "pl": {1: 0, 2: 1, 4: 1, 22: 1, 104: 1, 0: 2, 5: 2, 12: 2, 14: 2, 21: 2, 25: 2, 112: 2},
    "fr": {0: 0, 1: 0, 2: 1, 5: 1, 21: 1},
}
CATEGORIES["ru"] = CATEGORIES["uk"]


@pytest.mark.parametrize("lang", ["uk", "ru", "pl", "fr"])
def test_the_catalogues_plural_rule(lang):
    rule = gettext.translation("django", localedir=LOCALE, languages=[lang]).plural  # type: ignore[attr-defined]
    assert {n: rule(n) for n in CATEGORIES[lang]} == CATEGORIES[lang]


@pytest.mark.parametrize("lang, n, expected", [
    ("uk", 42, "42 бали"), ("uk", 1, "1 бал"), ("uk", 21, "21 бал"), ("uk", 11, "11 балів"), ("uk", 5, "5 балів"),
    ("ru", 42, "42 очка"), ("ru", 21, "21 очко"), ("ru", 12, "12 очков"),
    ("pl", 42, "42 punkty"), ("pl", 22, "22 punkty"), ("pl", 12, "12 punktów"), ("pl", 21, "21 punktów"),
    ("fr", 0, "0 point"), ("fr", 1, "1 point"), ("fr", 2, "2 points"),
])
def test_points_in_each_form(lang, n, expected):
    with translation.override(lang):
        assert ngettext("%(n)s point", "%(n)s points", n) % {"n": n} == expected


@pytest.mark.parametrize("lang, n, expected", [
    ("uk", 42, "ГАЗ8 КІТ — 42 бали, як заявлено"), ("uk", 25, "ГАЗ8 КІТ — 25 балів, як заявлено"),
    ("ru", 42, "ГАЗ8 КІТ — 42 очка, как заявлено"), ("pl", 42, "ГАЗ8 КІТ — 42 punkty, jak zgłoszono"),
    ("en", 1, "ГАЗ8 КІТ scores 1 point, as announced"),
])
def test_the_engines_counted_explanations(lang, n, expected):
    message = msg("ok", move=Written(None, "ГАЗ8 КІТ"), score=n)
    with translation.override(lang):
        assert labels.explain(message, labels.CoordStyle()) == expected


def test_the_engines_counted_templates_keep_their_parameters():
    for code, (count, (singular, plural)) in COUNTED.items():
        assert TEXTS[code] == singular and count in placeholders(singular) and count in placeholders(plural), code
        assert placeholders(singular) == placeholders(plural), code
    two = msg("too_many_tiles", count=8, most=7)
    assert render(two, ENGLISH) == "the move places 8 tiles: a move places at most 7"
    assert str(msg("off_board_row", word="AB", place=Place(Coord(14, 0, True)), length=1, end=16)).startswith(
        "«AB» from 1O has 1 letter and")


@pytest.mark.django_db
def test_the_typed_rack_help_counts_the_tiles(client, alice, lexicon_row):
    from tournament import services

    t = services.tournaments.create_tournament(alice, name="Кубок", slug="kubok", ruleset="en", lexicon=lexicon_row,
                                               arbiters=[alice], language="uk")
    game = services.games.create_game(alice, t)
    client.force_login(alice)
    page = client.get(f"/arbiter/t/{t.slug}/g/{game.number}/").content.decode()
    assert "Наберіть 7 плиток" in page and "плитки, витягнуті" not in page


def test_every_script_count_goes_through_plural():
    """The screens' scripts show a count with a noun only through ``T.plural`` / ``T.points`` (their forms rendered
    by ``labels.plural_forms``), never ``fmt`` with a plural noun's text."""
    counted = re.compile(r"fmt\(\s*S\.(topped|points)\b")
    scripts = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "static" / "js").glob("*.js")}
    assert not [name for name, text in scripts.items() if counted.search(text)]


def test_the_scripts_rule_is_the_catalogues(chromium):
    """``D.text.plural`` picks, for every number from 0 to 300, the form gettext picks for it."""
    page = chromium.new_page()
    page.set_content("<!doctype html><html><body></body></html>")
    page.add_script_tag(path=str(Path(ROOT / "static" / "js" / "text.js")))
    for lang in ("uk", "ru", "pl", "fr", "en"):
        with translation.override(lang):
            forms = labels.points_forms()
            wanted = [ngettext("%(n)s point", "%(n)s points", n) % {"n": n} for n in range(301)]
        shown = page.evaluate("([forms, lang]) => { var out = []; for (var n = 0; n <= 300; n++) "
                              "out.push(window.Duplicate.text.plural(forms, n, lang)); return out; }", [forms, lang])
        assert shown == wanted, lang
    page.close()
