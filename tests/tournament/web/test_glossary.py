"""The translations speak the trade's words (RULES §6 "Words of the trade"), one term per language: a Ukrainian
hall reads "суддя", "підставка", "плитка", "бал", "дублікат"; a Russian one "арбитр", "подставка", "фишка",
"мешочек"; a Polish one "sędzia", "stojak", "kartka". A text whose English names a term of the glossary says the
language's term, and no catalogue uses a synonym the glossary does not give (uk "арбітр", "фішка", a rack called
"набір"; ru "судья", "мешок"; pl "blankiet")."""

from __future__ import annotations

import re

import pytest

from tests.paths import LOCALE
from tests.tournament.web.test_translations import entries

#: English term → the stem of its translation in each language (RULES §6; where the glossary gives two words, the
#: one chosen: ru фишка for the tile, uk and ru бланк for the slip, pl kartka).
TERMS = {
    "arbiter": {"ru": r"арбитр", "uk": r"судд|судді", "pl": r"sędzi|sędzia"},
    "rack": {"ru": r"подставк|подставок", "uk": r"підставк|підставок|підставц", "pl": r"stojak"},
    "tile": {"ru": r"фишк|фишек|фишеч", "uk": r"плитк|плиток|плитц", "pl": r"płyt"},
    "bag": {"ru": r"мешоч", "uk": r"мішк|мішок|мішку", "pl": r"wor(ek|ka|ku|kiem)"},
    "slip": {"ru": r"бланк", "uk": r"бланк", "pl": r"kartk|kartek|kartce"},
    "blank": {"ru": r"пустышк|пустышек", "uk": r"пуст", "pl": r"blank"},
    "duplicate": {"ru": r"дубликат", "uk": r"дублікат", "pl": r"duplikat"},
    "redraw": {"ru": r"перетяж|перетян", "uk": r"повторн\w* витяг", "pl": r"ponown\w* losow"},
    "standings": {"ru": r"таблиц", "uk": r"таблиц", "pl": r"klasyfikac"},
    "top": {"ru": r"топ", "uk": r"топ", "pl": r"top"},
}
#: How each term is found in an English text ("top score" and "blank slips" are adjectives).
ENGLISH = {term: rf"\b{term}s?\b" for term in TERMS} | {"top": r"\btops?\b(?! score)",
                                                        "blank": r"\bblanks?\b(?! slips)"}
#: Words the glossary does not give, in any text of the language.
FORBIDDEN = {
    "uk": {"арбітр (суддя)": r"арбітр", "фішка (плитка)": r"фішк|фішок",
           "набір for a rack (підставка)": r"\bнаб(ір|ор\w*)\b(?!\s+(плиток|правил))",
           "очко (бал)": r"\bочк|\bочок", "раунд (хід)": r"раунд", "подвійний Scrabble (дублікат)": r"подвійн|Scrabble",
           "папірець (бланк)": r"папірц"},
    "ru": {"судья (арбитр)": r"\bсудь(я|и|е|ю|ёй|ей|ям|ями|ях)\b|\bсудей\b", "косточка (фишка)": r"косточк",
           "мешок (мешочек)": r"\bмеш(ок|ка|ке|ку|ком)\b", "набор for a rack (подставка)": r"\bнабор\w*\b(?!\s+(фишек|правил))",
           "балл (очко)": r"балл", "раунд (ход)": r"раунд", "листок (бланк)": r"листок|листк"},
    "pl": {"arbiter (sędzia)": r"arbit", "blankiet (kartka)": r"blankiet", "woreczek (worek)": r"woreczk",
           "kafelek, kostka, żeton (płytka)": r"kafel|kostk|\bżeton"},
}


def catalogue(lang: str) -> list[tuple[str, list[str]]]:
    po = (LOCALE / lang / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    return [(msgid, strs) for _flags, msgid, strs in entries(po) if msgid]


def english_words(msgid: str) -> str:
    """The English a person reads: placeholders, quoted examples and codes left out."""
    return re.sub(r"«[^»]*»|`[^`]*`", "", re.sub(r"%\(\w+\)[sd]|\{\w+\}", "", msgid))


@pytest.mark.parametrize("lang", ["uk", "ru", "pl"])
def test_a_glossary_term_is_translated_by_the_glossarys_word(lang):
    wrong = []
    for msgid, strs in catalogue(lang):
        text = english_words(msgid)
        for term, stems in TERMS.items():
            if re.search(ENGLISH[term], text, re.IGNORECASE) and not all(
                    re.search(stems[lang], s, re.IGNORECASE) for s in strs):
                wrong.append(f"{term}: {msgid!r} → {strs[0]!r}")
    assert not wrong, f"{lang}: the glossary's word is missing (RULES §6):\n" + "\n".join(wrong)


@pytest.mark.parametrize("lang", ["uk", "ru", "pl"])
def test_no_synonym_outside_the_glossary(lang):
    found = [f"{name}: {s!r}" for _msgid, strs in catalogue(lang) for s in strs
             for name, pattern in FORBIDDEN[lang].items() if re.search(pattern, s, re.IGNORECASE)]
    assert not found, f"{lang}: a word the glossary does not use:\n" + "\n".join(found)


@pytest.mark.parametrize("lang, title", [("uk", "Турнір зі Скрабл-дубліката"), ("ru", "Турнир по Скрэбблу-дубликату"),
                                         ("pl", "Turniej scrabble duplikat")])
def test_the_game_is_named_as_the_trade_names_it(lang, title):
    assert dict(catalogue(lang))["Duplicate tournament"] == [title]
