"""Word lists read in C for the graph builder (lexicon/packedlists.py, pack_lines in lexicon/_graph.c): the same
words and the same report as the line-by-line reader, lexicon.sources.read_wordlist."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from lexicon.graph import GraphError, PackedWords, WordGraph, build, build_threads, pack_lines
from lexicon.packedlists import read_wordlist_packed
from lexicon.sources import SourceError, read_wordlist
from scoring.rules import get_ruleset
from tests.paths import ROOT

FIXTURES = ROOT / "fixtures" / "lexicons"
DEBIAN_POLISH = Path("/usr/share/dict/polish")

CASES = {
    "clean": ("en", "cat\ndog\nzebra\n"),
    "capitals": ("ru", "КОТ\nДОМ\nЁЛКА\n"),
    "mixed case": ("pl", "kot\nKraków\nPKP\nźdźbło\nŻÓŁW\n"),
    "bom crlf blanks": ("en", "\ufeffcat\r\n\r\n  dog  \r\n\tbird\t\r\nfish"),
    "duplicates": ("en", "cat\nCAT\ndog\ncat\n"),
    "capitals with a duplicate": ("en", "CAT\nDOG\nCAT\n"),
    "space inside": ("en", "ice cream\ncat\n"),
    "foreign, short, long": ("en", "café\nx\ninternationalization\nok\nw1\n"),
    "apostrophes": ("uk", "м'ясо\nм’ясо\n'ясо\nясо'\nм''ясо\nоб'єкт\nЇЖАК\n"),
    "unicode space": ("en", "cat\u00a0\ndog\n"),
    "sharp s": ("en", "straße\nstrasse\n"),
    "empty": ("en", ""),
    "blank only": ("en", "\n  \n\r\n"),
    "capitals only in a lower-case list": ("en", "Paris\nLondon\n"),
    "quiz capitalised and foreign": ("pl", "Quiz\nkot\nVideo\n"),
    "capitals read and left, in order": ("pl", "Kraków\nQuiz\nkot\nPKP\nVideo\nżółw\nŁódź\n"),
}


def both(lang: str, data: bytes, skip_capitalised: bool):
    slow = read_wordlist(io.BytesIO(data), lang, skip_capitalised=skip_capitalised)
    fast = read_wordlist_packed(io.BytesIO(data), lang, skip_capitalised=skip_capitalised)
    return slow, fast


@pytest.mark.parametrize("skip_capitalised", [False, True])
@pytest.mark.parametrize("case", list(CASES))
def test_the_same_words_and_report_as_the_line_reader(case, skip_capitalised):
    lang, text = CASES[case]
    slow, fast = both(lang, text.encode(), skip_capitalised)
    assert sorted(fast.words) == sorted(slow.words)
    assert len(fast.words) == len(slow.words)
    assert fast.skipped.to_dict() == slow.skipped.to_dict()
    assert fast.skipped.counts == slow.skipped.counts  # the same order of reasons too


@pytest.mark.parametrize("skip_capitalised", [False, True])
@pytest.mark.parametrize("name,lang", [("en.txt", "en"), ("pl.txt", "pl"), ("ru.txt", "ru"), ("uk.txt", "uk"),
                                        ("fr.txt", "fr")])
def test_fixtures_read_the_same(name, lang, skip_capitalised):
    data = (FIXTURES / name).read_bytes()
    slow, fast = both(lang, data, skip_capitalised)
    assert sorted(fast.words) == sorted(slow.words)
    assert fast.skipped.to_dict() == slow.skipped.to_dict()


def test_clean_lists_come_packed_and_build_the_same_graph(tmp_path):
    lines = ["КОТ", "ДОМ", "ёлка", "ЁЖ", "съезд"] * 1 + [f"{'АБ' * (i % 7 + 1)}В" for i in range(50)]
    data = "\n".join(dict.fromkeys(lines)).encode()
    fast = read_wordlist_packed(io.BytesIO(data), "ru")
    slow = read_wordlist(io.BytesIO(data), "ru")
    assert isinstance(fast.words, PackedWords)
    assert list(fast.words) == sorted(slow.words, key=lambda w: [get_ruleset("ru").alphabet.index(c) for c in w])
    alphabet = get_ruleset("ru").alphabet
    a = build(fast.words, alphabet, tmp_path / "a.kwg")
    build(slow.words, alphabet, tmp_path / "b.kwg")
    assert (tmp_path / "a.kwg").read_bytes() == (tmp_path / "b.kwg").read_bytes()
    assert a.word_count == len(slow.words)
    with WordGraph.load(tmp_path / "a.kwg") as graph:
        assert "ЁЛКА" in graph and "СЪЕЗД" in graph


@pytest.mark.slow
@pytest.mark.skipif(not DEBIAN_POLISH.is_file(), reason="Debian wpolish is not installed")
def test_the_debian_polish_list_reads_the_same():
    """Both readers, with the default filter, give the bench list's 3,276,062 words (its capitalised
    lines left out) and the same report."""
    data = DEBIAN_POLISH.read_bytes()
    slow, fast = both("pl", data, True)
    assert isinstance(fast.words, PackedWords)
    assert len(fast.words) == len(slow.words) == 3_276_062
    assert slow.skipped.counts["capitalised"] > 0
    assert set(fast.words) == set(slow.words)
    assert fast.skipped.to_dict() == slow.skipped.to_dict()


def test_bad_utf8_and_nul_are_refused_with_the_line_number():
    with pytest.raises(SourceError, match="line 2 is not valid UTF-8"):
        read_wordlist_packed(io.BytesIO("cat\ncafé\n".encode("latin-1")), "en")
    with pytest.raises(SourceError, match="line 3 contains a NUL byte"):
        read_wordlist_packed(io.BytesIO(b"cat\ndog\nca\0t\n"), "en")


def test_overlong_utf8_is_not_read_as_a_letter():
    packed = pack_lines(b"\xc1\x81B\nAB\n", "AB")
    assert list(packed.words) == ["AB"] and [n for n, _s, _e in packed.left] == [1]


def test_packed_words_are_a_sequence():
    packed = pack_lines("кот\nдом\nКОТ\n".encode(), "ДКМОТ", {"к": "К", "о": "О", "т": "Т", "д": "Д", "м": "М"})
    assert packed.duplicates == 1 and packed.read == 3
    words = packed.words
    assert len(words) == 2 and words[0] == "ДОМ" and words[-1] == "КОТ" and words[:5] == ["ДОМ", "КОТ"]
    with pytest.raises(IndexError):
        words[2]


def test_corrupt_records_are_refused(tmp_path):
    good = pack_lines(b"AB\nBA\n", "AB").words
    with pytest.raises(GraphError, match="not sorted"):
        build(PackedWords(good.records[16:] + good.records[:16], "AB"), "AB", tmp_path / "x.kwg")
    with pytest.raises(GraphError, match="corrupt"):
        build(PackedWords(b"\x09\x09" + bytes(14), "AB"), "AB", tmp_path / "x.kwg")
    # packed for another alphabet: read as strings, checked as any word
    assert build(good, "ABC", tmp_path / "y.kwg").word_count == 2


def test_one_or_two_threads_build_the_same_file(tmp_path):
    alphabet = get_ruleset("ru").alphabet
    words = sorted({"".join(alphabet[(i * 7 + k * 3) % len(alphabet)] for k in range(2 + i % 12)) for i in range(3000)})
    packed = pack_lines("\n".join(words).encode(), alphabet)
    one = build(packed.words, alphabet, tmp_path / "one.kwg", threads=1)
    two = build(packed.words, alphabet, tmp_path / "two.kwg", threads=2)
    strings = build(words, alphabet, tmp_path / "str.kwg", threads=2)
    assert one.content_hash == two.content_hash == strings.content_hash
    assert (tmp_path / "one.kwg").read_bytes() == (tmp_path / "two.kwg").read_bytes()
    with WordGraph.load(tmp_path / "two.kwg") as graph:
        assert sorted(graph.words()) == sorted(words)


def test_the_builder_takes_a_second_thread_when_it_may_use_two_cpus(monkeypatch):
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1})
    assert build_threads() == 2
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {3})
    assert build_threads() == 1


def test_the_graph_bench_reads_a_list_packed(tmp_path, capsys):
    from lexicon import bench_graph  # noqa: PLC0415 (only this test runs the bench)

    path = tmp_path / "list.txt"
    path.write_text("CAT\nDOG\nCAT\nC4T\nZEBRA\n", encoding="utf-8")
    figures = bench_graph.bench(path, "ABCDEFGHIJKLMNOPQRSTUVWXYZ", lookups=100)
    assert figures["word_count"] == 3 and figures["input_words"] == 5 and figures["skipped_words"] == 1
    assert figures["compile_s"] >= figures["build_s"] and figures["peak_rss_mb"] > 0
    assert bench_graph.main([str(path), "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "--lookups", "50", "--json"]) == 0
    assert '"word_count": 3' in capsys.readouterr().out
