"""The pymorphy3 dictionaries read from their files (lexicon/morphdict.py, lexicon/_dawgdic.c)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from lexicon import morphdict, sources
from lexicon.sources import RU_EXCLUDED, RU_LETTERS, UK_EXCLUDED, UK_LETTERS, SourceError

PREFIXES = ["ёлк", "кот", "москв", "мвд", "здоров", "ножниц", "1-", "абакан", "пол-", "яб"]


def pymorphy3_forms(lang: str, prefix: str, letters: frozenset[str], excluded: frozenset[str],
                    proper: frozenset[str] = frozenset()) -> tuple[set[str], set[str]]:
    """(accepted, skipped) forms starting with ``prefix``, through pymorphy3's analyser as make_wordlist.py."""
    import pymorphy3  # noqa: PLC0415 (the reference: only these tests need the analyser)

    dictionary = pymorphy3.MorphAnalyzer(lang=lang).dictionary
    good: set[str] = set()
    seen: set[str] = set()
    for word, tag, normal_form, _para, _idx in dictionary.iter_known_words(prefix):
        seen.add(word)
        spelled = word.replace("\u2019", "'").replace("\u02bc", "'")
        if sources._letters_check(spelled, letters, lang == "uk") is not None:
            continue
        if tag.grammemes & excluded or normal_form in proper:
            continue
        good.add(spelled.upper())
    return good, seen


def scanned(lang: str, letters: frozenset[str], excluded: frozenset[str],
            proper: frozenset[str] = frozenset()) -> tuple[list[str], list[str], bytes]:
    dictionary = morphdict.open_dictionary(lang)
    codes = sources._tag_codes(dictionary, excluded, nouns_only=False)
    scan = dictionary.scan(codes, "".join(sorted(letters)), apostrophe=lang == "uk", proper_lemmas=proper,
                           proper_code=3, keep=10**9)
    assert sum(scan.counts.values()) == len(scan.codes)  # all kept
    accepted = scan.accepted.decode().upper().split("\n")[:-1]
    skipped = scan.skipped.decode().split("\n")[:-1]
    assert len(skipped) == len(scan.codes)
    return accepted, skipped, scan.codes


def test_ru_scan_agrees_with_the_analyser():
    accepted, skipped, _codes = scanned("ru", RU_LETTERS, RU_EXCLUDED)
    assert len(accepted) == len(set(accepted))
    for prefix in PREFIXES:
        good, seen = pymorphy3_forms("ru", prefix, RU_LETTERS, RU_EXCLUDED)
        mine = {w for w in accepted if w.startswith(prefix.upper())}
        assert mine == good, prefix
        mine_skipped = {w for w in skipped if w.startswith(prefix)}
        assert {w.upper() for w in seen} == mine | {w.upper() for w in mine_skipped}, prefix


def test_uk_scan_with_proper_lemmas_agrees_with_the_analyser():
    proper = frozenset({"київ", "львів", "харків", "україна"})
    accepted, skipped, codes = scanned("uk", UK_LETTERS, UK_EXCLUDED, proper)
    for prefix in ["киє", "київ", "льв", "м'я", "м’я", "ґуд", "україн"]:
        good, _seen = pymorphy3_forms("uk", prefix, UK_LETTERS, UK_EXCLUDED, proper)
        start = prefix.replace("’", "'").upper()
        mine = {w for w in accepted if w.startswith(start)}
        assert good <= mine, prefix  # mine also holds the forms spelt with ’ that start with '
        assert {w for w in mine if w.startswith(prefix.upper())} == {w for w in good if w.startswith(prefix.upper())}
    assert "КИЄВА" not in accepted and "КИЇВ" in accepted  # київ: also a form of «кий»
    assert any(c == 3 for c in codes)


def test_the_skipped_forms_carry_their_reason():
    _accepted, skipped, codes = scanned("ru", RU_LETTERS, RU_EXCLUDED)
    reasons = dict(zip(skipped, codes, strict=True))
    assert reasons["москва"] == 1  # a place name: excluded tag
    assert reasons["1-й"] == morphdict.LETTER_FAIL
    assert reasons["абаканэнергопромстрой"] == morphdict.LETTER_FAIL  # 21 letters


def test_only_the_first_forms_of_each_reason_are_kept():
    dictionary = morphdict.open_dictionary("ru")
    scan = dictionary.scan(sources._tag_codes(dictionary, RU_EXCLUDED, nouns_only=True), "".join(sorted(RU_LETTERS)))
    assert scan.codes.count(1) == scan.codes.count(2) == 10
    assert scan.codes.count(morphdict.LETTER_FAIL) == scan.counts[morphdict.LETTER_FAIL] > 300_000
    assert scan.counts[2] > 1_000_000
    assert scan.entries == dictionary.meta["words_dawg_length"]


def test_a_damaged_dictionary_is_a_clear_error(tmp_path):
    source = morphdict.dictionary_path("ru")
    copy = tmp_path / "ru"
    shutil.copytree(source, copy)
    dictionary = morphdict.open_dictionary("ru", copy)
    data = (copy / "words.dawg").read_bytes()
    middle = len(data) // 4
    (copy / "words.dawg").write_bytes(data[:middle] + bytes(4096) + data[middle + 4096 :])
    codes = bytes(len(dictionary.tags))
    with pytest.raises(morphdict.DictionaryError, match="words.dawg"):  # a broken path or reading
        dictionary.scan(codes, "".join(sorted(RU_LETTERS)))
    (copy / "words.dawg").write_bytes(data[: len(data) // 2])
    with pytest.raises(morphdict.DictionaryError, match="not a dawgdic completion DAWG"):
        dictionary.scan(codes, "".join(sorted(RU_LETTERS)))
    with pytest.raises(ValueError, match="tag codes"):
        dictionary.scan(codes[:-1], "абв")
    (copy / "meta.json").write_text('[["format_version", "3.0"]]', encoding="utf-8")
    with pytest.raises(morphdict.DictionaryError, match="format 3.0"):
        morphdict.open_dictionary("ru", copy)
    (copy / "meta.json").unlink()
    with pytest.raises(morphdict.DictionaryError, match="cannot read"):
        morphdict.open_dictionary("ru", copy)


def test_a_missing_dictionary_is_a_source_error(monkeypatch):
    def missing(lang: str) -> Path:
        raise morphdict.DictionaryError(f"the pymorphy3 dictionary for {lang!r} is not installed")

    monkeypatch.setattr(morphdict, "dictionary_path", missing)
    with pytest.raises(SourceError, match="not installed"):
        sources.words_ru()


def test_grammemes_of_a_tag():
    assert morphdict.grammemes_of("NOUN,anim,masc sing,nomn") == {"NOUN", "anim", "masc", "sing", "nomn"}
    assert morphdict.grammemes_of("PREP") == {"PREP"}


@pytest.mark.slow
def test_ru_from_the_package_is_the_make_wordlist_list():
    """Exactly the word set of ``make_wordlist.py ru`` (the bench list, when it is here)."""
    folder = os.environ.get("BENCH_WORDLIST_DIR")
    path = Path(folder) / "ru.txt" if folder else None
    if path is None or not path.is_file():
        pytest.skip("set BENCH_WORDLIST_DIR to the folder of make_wordlist.py's ru.txt")
    words, skipped = sources.words_ru()
    assert len(words) == len(set(words))
    assert set(words) == set(path.read_text(encoding="utf-8").split())
    assert skipped.counts["excluded_tag"] > 0
