"""Word sources (lexicon/sources.py): word-list files, Debian lists, pymorphy3 dictionaries."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from lexicon import sources
from lexicon.sources import SkipReport, SourceError, read_wordlist
from tests.paths import ROOT

FIXTURES = ROOT / "fixtures" / "lexicons"
BENCH_RU_COUNT = 2_342_497
BENCH_UK_COUNT = 2_828_032
NPM_UK_DIC = Path("/work/wl/npm/node_modules/dictionary-uk/index.dic")


def reasons(report: SkipReport) -> dict[str, int]:
    return dict(report.counts)


# -- word-list files ----------------------------------------------------------------------


def test_english_list_foreign_letters_are_reported_by_letter():
    words, skipped = read_wordlist(FIXTURES / "en.txt", "en")
    assert set(words) == {"CAT", "DOG", "QUIZ", "ZEBRA", "JUKEBOX", "OXYGEN", "RHYTHM", "SCRABBLE", "WORD", "WORDS",
                          "LONDON", "TEA"}
    assert reasons(skipped) == {"foreign_letter": 3, "too_short": 1, "too_long": 1}
    assert skipped.count == 5
    assert skipped.examples["foreign_letter"] == ["café (É)", "naïve (Ï)", "don't (')"]
    assert skipped.letters == {"É": 1, "Ï": 1, "'": 1}
    assert skipped.examples["too_long"] == ["internationalization (20)"]
    data = skipped.to_dict()
    assert data["count"] == 5
    assert data["by_reason"]["foreign_letter"]["examples"][0] == "café (É)"
    assert "foreign letter" in skipped.summary()


def test_skip_capitalised_leaves_out_proper_nouns_and_abbreviations():
    words, skipped = read_wordlist(FIXTURES / "pl.txt", "pl", skip_capitalised=True)
    assert set(words) == {"ŹDŹBŁO", "ŻÓŁW", "GĘŚ", "ŁÓDŹ", "KOT", "PIES", "ĆMA", "ZAŻÓŁCIĆ"}
    assert reasons(skipped) == {"capitalised": 2, "foreign_letter": 2}
    assert skipped.examples["capitalised"] == ["Kraków", "PKP"]
    assert skipped.examples["foreign_letter"] == ["video (V)", "quiz (Q)"]
    kept, skipped_kept = read_wordlist(FIXTURES / "pl.txt", "pl", skip_capitalised=False)
    assert {"KRAKÓW", "PKP"} <= set(kept)
    assert "capitalised" not in skipped_kept.counts


def test_skip_capitalised_does_not_apply_to_a_list_in_capitals():
    words, skipped = read_wordlist(FIXTURES / "ru.txt", "ru", skip_capitalised=True)
    assert {"ЁЛКА", "КОФЕ", "НОЖНИЦЫ", "ЗДОРОВЫ", "ДОМ", "ЁЖ", "СЪЕЗД", "ЭХО"} == set(words)
    assert "capitalised" not in skipped.counts
    assert any("capitals" in note for note in skipped.notes)
    # ЁЛKА has a Latin K, ІГРА a Ukrainian І: reported with the letter
    assert "ЁЛKА (K)" in skipped.examples["foreign_letter"]
    assert "ІГРА (І)" in skipped.examples["foreign_letter"]
    assert skipped.counts["too_short"] == 1 and skipped.counts["too_long"] == 1


def test_ukrainian_apostrophes_and_letters():
    words, skipped = read_wordlist(FIXTURES / "uk.txt", "uk")
    assert set(words) == {"ҐУДЗИК", "М'ЯСО", "М'ЯТА", "ОБ'ЄКТ", "ЇЖАК", "ЄНОТ", "ПІСНЯ", "ДЖЕРЕЛО"}
    assert skipped.counts == {"foreign_letter": 2, "misplaced_apostrophe": 2}
    assert skipped.letters == {"Ё": 1, "Ъ": 1}


def test_french_accents_and_ligatures_fold():
    words, skipped = read_wordlist(FIXTURES / "fr.txt", "fr")
    assert {"ETE", "COEUR", "GARCON", "NOEL", "ILE", "OU", "OEUVRE", "ANGSTROM", "MAISON", "ZEBRE"} == set(words)
    assert skipped.counts == {"foreign_letter": 3}
    assert skipped.letters == {"'": 1, "-": 1, "Ø": 1}


def test_bom_crlf_blank_lines_and_spaces_are_tolerated(tmp_path):
    path = tmp_path / "messy.txt"
    path.write_bytes("\ufeffcat\r\n\r\n  dog  \r\n\tbird\t\r\nfish".encode())
    words, skipped = read_wordlist(path, "en")
    assert words == ["CAT", "DOG", "BIRD", "FISH"]
    assert skipped.count == 0


def test_duplicates_are_counted_not_silently_dropped(tmp_path):
    path = tmp_path / "dups.txt"
    path.write_text("cat\nCAT\ndog\ncat\n", encoding="utf-8")
    words, skipped = read_wordlist(path, "en")
    assert words == ["CAT", "DOG"]
    assert skipped.counts == {"duplicate": 2}


def test_space_inside_a_line_is_reported(tmp_path):
    path = tmp_path / "space.txt"
    path.write_text("ice cream\ncat\n", encoding="utf-8")
    words, skipped = read_wordlist(path, "en")
    assert words == ["CAT"]
    assert skipped.examples["foreign_letter"] == ["ice cream (space)"]


def test_examples_are_capped_at_ten(tmp_path):
    path = tmp_path / "many.txt"
    path.write_text("".join(f"w{i}\n" for i in range(25)) + "ok\n", encoding="utf-8")
    words, skipped = read_wordlist(path, "en")
    assert words == ["OK"]
    assert skipped.counts["foreign_letter"] == 25
    assert len(skipped.examples["foreign_letter"]) == 10


def test_not_utf8_is_refused_with_the_line_number(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes("cat\ncafé\n".encode("latin-1"))
    with pytest.raises(SourceError, match="line 2 is not valid UTF-8"):
        read_wordlist(path, "en")


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(SourceError, match="cannot read the word list"):
        read_wordlist(tmp_path / "nope.txt", "en")


def test_reads_from_a_binary_stream():
    words, skipped = read_wordlist(io.BytesIO("кот\nдом\n".encode()), "ru")
    assert words == ["КОТ", "ДОМ"]


def test_progress_is_reported(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("".join(f"{'ab' * (i % 5 + 1)}\n" for i in range(5000)), encoding="utf-8")
    seen: list[float] = []
    read_wordlist(path, "en", progress=seen.append)
    assert seen[-1] == 1.0
    assert seen == sorted(seen)


# -- hunspell, yo, Debian ----------------------------------------------------------------


def test_hunspell_capitalised_only(tmp_path):
    a = tmp_path / "a.dic"
    a.write_text("4\nКиїв/a\nмісто/b\nЛьвів\nБук/c\n", encoding="utf-8")
    b = tmp_path / "b.dic"
    b.write_text("1\nбук/d\n", encoding="utf-8")
    assert sources.hunspell_capitalised_only([a, b]) == {"київ", "львів"}
    with pytest.raises(SourceError, match="cannot read the hunspell dictionary"):
        sources.hunspell_capitalised_only([tmp_path / "missing.dic"])


def test_yo_as_e_adds_the_e_spelling():
    words = ["ЁЛКА", "ЕЛЬ", "ВСЁ", "ВСЕ"]
    report = SkipReport()
    assert sources.add_yo_as_e(words, report) == 1
    assert words == ["ЁЛКА", "ЕЛЬ", "ВСЁ", "ВСЕ", "ЕЛКА"]
    assert "1 spellings" in report.notes[0]


def test_debian_lists_are_offered_when_installed():
    found = {d.key: d for d in sources.debian_wordlists()}
    for entry in sources.debian_wordlists(installed_only=False):
        assert (entry.key in found) == entry.path.is_file()
    if "pl" in found:
        assert found["pl"].ruleset == "pl"
        assert "wpolish" in found["pl"].describe()
    with pytest.raises(SourceError, match="unknown Debian word list"):
        sources.debian_list("xx")


def test_unknown_package_source():
    with pytest.raises(SourceError, match="unknown word source"):
        sources.package_source("de")
    with pytest.raises(SourceError, match="Russian sources only"):
        sources.package_source("uk", yo_as_e=True)


# (the Debian Polish list with the default filter: tests/lexicon/test_packedlists.py, both readers)


# -- pymorphy3 dictionaries (slow: the whole dictionaries) ----------------------------------------


@pytest.mark.slow
def test_ru_nouns_from_the_package():
    words, skipped = sources.words_ru_nouns()
    found = set(words)
    for word in ["НОЖНИЦЫ", "ЁЛКА", "КОФЕ", "СТОЛ"]:
        assert word in found, word
    for word in ["ЗДОРОВЫ", "МОСКВА", "МВД", "СТОЛЫ", "НОЖНИЦАМИ", "ЕЛКА"]:
        assert word not in found, word
    assert skipped.counts["not_nominative_noun"] > 1_000_000
    assert skipped.counts["excluded_tag"] > 0


@pytest.mark.slow
def test_uk_from_the_package():
    both = NPM_UK_DIC.is_file() and sources.UK_HUNSPELL_DIC.is_file()
    dics = [NPM_UK_DIC, sources.UK_HUNSPELL_DIC] if both else None
    words, skipped = sources.words_uk(hunspell_paths=dics)
    found = set(words)
    for word in ["ҐУДЗИК", "М'ЯСО", "ПІСНЯ", "ЇЖАК"]:
        assert word in found, word
    for word in ["ЛЬВІВ", "ХАРКІВ", "КИЄВА", "УКРАЇНА"]:  # proper-noun lemmas (hunspell: capitalised only)
        assert word not in found, word
    # київ is also the genitive plural of «кий» (billiard cue), a common noun: that reading keeps it,
    # as in the bench list; the city's own forms (києва) are out.
    assert "КИЇВ" in found
    if both:
        assert len(words) == BENCH_UK_COUNT  # the bench list, made with both .dic files
    elif sources.UK_HUNSPELL_DIC.is_file():
        assert abs(len(words) - BENCH_UK_COUNT) < 1000  # Debian file only: a few hundred forms differ
    assert len(found) == len(words)
    assert all("'" not in (w[0], w[-1]) for w in words[:100_000])
    assert skipped.counts["excluded_tag"] > 0


def test_letters_without_a_single_capital_are_foreign(tmp_path):
    path = tmp_path / "de.txt"
    path.write_text("straße\nstrasse\n", encoding="utf-8")
    words, skipped = read_wordlist(path, "en")
    assert words == ["STRASSE"]
    assert skipped.examples["foreign_letter"] == ["straße (ß)"]
    words, skipped = read_wordlist(path, "fr")  # French folds: ß is SS
    assert words == ["STRASSE"] and skipped.counts == {"duplicate": 1}
