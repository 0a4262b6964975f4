"""manage.py lexicon …, the build services, the Celery task and lexicon resolution."""

from __future__ import annotations

import io
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from lexicon import services
from lexicon.files import format_version
from lexicon.graph import build
from lexicon.models import Lexicon, LexiconError, forget_graphs
from lexicon.resolve import LexiconNotFound, open_lexicon
from lexicon.tasks import build_uploaded_lexicon
from tests.paths import ROOT

FIXTURES = ROOT / "fixtures" / "lexicons"
SHARED = Path(os.environ.get("SHARED_DIR", ROOT.parent / "shared"))
MAKE_WORDLIST = SHARED / "bench" / "wordlists" / "make_wordlist.py"
BENCH_LISTS = Path(os.environ.get("BENCH_WORDLISTS", "/work/wl"))

#: building lexicons is file and CPU work: its few queries (a Lexicon row) run on the embedded default only
pytestmark = pytest.mark.one_backend



def run(*args) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("lexicon", *map(str, args), stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def fails(*args) -> str:
    with pytest.raises(CommandError) as info:
        run(*args)
    assert info.value.returncode == 2
    message = str(info.value)
    assert "\n" not in message
    return message


def graph_files(lexdir: Path) -> list[Path]:
    return sorted((lexdir / "graphs").glob("*.kwg")) if (lexdir / "graphs").exists() else []


def stray_files(lexdir: Path) -> list[Path]:
    return [p for p in lexdir.rglob("*") if p.is_file() and "uploads" not in p.parts]


# -- import, list, check, export ---------------------------------------------------------------


@pytest.mark.django_db
def test_import_reports_skipped_words_and_records_a_version(lexdir):
    out, _ = run("import", "--ruleset", "en", "--name", "en-test", FIXTURES / "en.txt")
    row = Lexicon.latest("en-test")
    assert row.version == 1 and row.status == "ready" and row.progress == 100
    assert row.word_count == 11  # London is left out: lower-case list, capitalised word
    assert row.ruleset == "en"
    assert row.file_path == f"graphs/{row.content_hash}.kwg"
    assert row.absolute_path.stat().st_size == row.file_size
    assert row.report["accepted"] == 11
    skipped = row.report["skipped"]
    assert skipped["count"] == 6
    assert skipped["by_reason"]["foreign_letter"]["examples"] == ["café (É)", "naïve (Ï)", "don't (')"]
    assert skipped["by_reason"]["capitalised"]["examples"] == ["London"]
    assert row.report["figures"]["peak_rss_mb"] > 0
    assert "café (É)" in out and "11 words" in out and row.content_hash[:12] in out

    out, _ = run("import", "--ruleset", "en", "--name", "en-test", FIXTURES / "en.txt", "--keep-capitalised")
    second = Lexicon.latest("en-test")
    assert second.version == 2 and second.word_count == 12
    assert Lexicon.objects.get(name="en-test", version=1).word_count == 11  # the old version is untouched


@pytest.mark.django_db
def test_same_words_reuse_the_file_and_never_overwrite_it(lexdir):
    run("import", "--ruleset", "ru", "--name", "a", FIXTURES / "ru.txt")
    first = Lexicon.latest("a")
    stat = first.absolute_path.stat()
    run("import", "--ruleset", "ru", "--name", "b", FIXTURES / "ru.txt")
    second = Lexicon.latest("b")
    assert second.content_hash == first.content_hash and second.file_path == first.file_path
    assert second.report["figures"]["reused_file"] is True
    assert first.absolute_path.stat().st_mtime_ns == stat.st_mtime_ns
    assert len(graph_files(lexdir)) == 1


@pytest.mark.django_db
def test_check_prints_one_line_per_word(lexdir):
    run("import", "--ruleset", "uk", "--name", "uk-mini", FIXTURES / "uk.txt")
    out, _ = run("check", "uk-mini", "ґудзик", "м’ясо", "мʼясо", "київ", "ЁЛКА", "Я")
    assert out.splitlines() == [
        "ҐУДЗИК valid", "М'ЯСО valid", "М'ЯСО valid", "КИЇВ invalid", "ЁЛКА invalid", "Я invalid",
    ]
    out, _ = run("check", "uk-mini:v1", "ЇЖАК")
    assert out == "ЇЖАК valid\n"


@pytest.mark.django_db
def test_import_export_round_trip_is_exact(lexdir, tmp_path):
    words = sorted({"ЁЖ", "ЁЛКА", "ЯМА", "АБАЖУР", "ЕЛЬ", "ЪЕЗД", "ОБЪЁМ", "ЭХО", "ЩИ", "ДОМ", "ДОМА", "ДОМОВОЙ"})
    source = tmp_path / "sorted.txt"
    source.write_text("\n".join(words) + "\n", encoding="utf-8")
    run("import", "--ruleset", "ru", "--name", "rt", source)
    target = tmp_path / "out.txt"
    _, err = run("export", "rt", target)
    assert target.read_bytes() == source.read_bytes()
    assert "12 words" in err
    out, _ = run("export", "rt", "-")
    assert out.encode() == source.read_bytes()


@pytest.mark.django_db
def test_export_sorts_by_code_point(lexdir, tmp_path):
    # Ё (U+0401) sorts before А by code point, though the tile order puts it after Е
    run("import", "--ruleset", "ru", "--name", "order", FIXTURES / "ru.txt")
    target = tmp_path / "o.txt"
    run("export", "order", target)
    lines = target.read_text(encoding="utf-8").splitlines()
    assert lines == sorted(lines) and lines[0] == "ЁЖ"
    assert target.read_bytes().endswith(b"\n")


@pytest.mark.django_db
def test_list_shows_lexicons_and_installed_sources(lexdir):
    run("import", "--ruleset", "fr", "--name", "fr-mini", FIXTURES / "fr.txt")
    row = Lexicon.latest("fr-mini")
    out, _ = run("list")
    assert "fr-mini" in out and row.hash_prefix in out and "ready" in out
    assert "pymorphy3-dicts-ru" in out and "ru-nouns" in out


@pytest.mark.django_db
def test_bench_prints_figures(lexdir):
    run("import", "--ruleset", "en", "--name", "en-mini", FIXTURES / "en.txt")
    out, _ = run("bench", "en-mini", "--lookups", "1000")
    for key in ["build_s", "build_peak_rss_mb", "file_mb", "load_s", "lookups_per_s"]:
        assert key in out


# -- bad input: exit 2, one line, nothing half-created ------------------------------------------


@pytest.mark.django_db
def test_bad_input_exits_2_with_one_line(lexdir, tmp_path):
    assert "no ready lexicon named 'nope'" in fails("check", "nope", "A")
    assert "word list not found" in fails("import", "--ruleset", "en", "--name", "x", tmp_path / "missing.txt")
    assert "invalid lexicon name" in fails("import", "--ruleset", "en", "--name", "a b", FIXTURES / "en.txt")
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("cat\ncafé\n".encode("latin-1"))
    assert "line 2 is not valid UTF-8" in fails("import", "--ruleset", "en", "--name", "l1", latin1)
    assert "no lexicon 'nope' version 3" in fails("export", "nope:v3", tmp_path / "x.txt")
    assert Lexicon.objects.count() == 0
    assert stray_files(lexdir) == []


@pytest.mark.django_db
def test_a_failed_build_leaves_no_row_and_no_file(lexdir, tmp_path):
    foreign = tmp_path / "foreign.txt"
    foreign.write_text("straße\nß\nüber\n", encoding="utf-8")
    message = fails("import", "--ruleset", "en", "--name", "de", foreign)
    assert "no word was accepted" in message and "foreign letter" in message
    assert not Lexicon.objects.exists()
    assert stray_files(lexdir) == []


@pytest.mark.django_db
def test_export_to_a_missing_folder_is_refused(lexdir, tmp_path):
    run("import", "--ruleset", "en", "--name", "e", FIXTURES / "en.txt")
    assert "does not exist" in fails("export", "e", tmp_path / "no" / "such" / "dir.txt")


def test_argument_errors_exit_2_from_the_shell():
    result = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "lexicon", "import", "--ruleset", "xx", "--name", "a", "b"],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )
    assert result.returncode == 2
    assert "invalid choice: 'xx'" in result.stderr


# -- corrupt files ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_truncated_graph_is_refused_with_a_clear_message(lexdir):
    run("import", "--ruleset", "en", "--name", "en-mini", FIXTURES / "en.txt")
    row = Lexicon.latest("en-mini")
    data = row.absolute_path.read_bytes()
    row.absolute_path.write_bytes(data[: len(data) - 40])
    forget_graphs()
    message = fails("check", "en-mini", "CAT")
    assert "en-mini v1" in message and "truncated" in message
    with pytest.raises(LexiconError, match="truncated"):
        row.graph()


@pytest.mark.django_db
def test_corrupt_graph_is_refused_with_a_clear_message(lexdir):
    run("import", "--ruleset", "en", "--name", "en-mini", FIXTURES / "en.txt")
    row = Lexicon.latest("en-mini")
    data = bytearray(row.absolute_path.read_bytes())
    data[-3] ^= 0x5A
    row.absolute_path.write_bytes(bytes(data))
    forget_graphs()
    assert "corrupt" in fails("check", "en-mini", "CAT")
    with pytest.raises(LexiconNotFound, match="corrupt"):
        open_lexicon(str(row.absolute_path), "en")


@pytest.mark.django_db
def test_upgrade_rewrites_format_1_files_in_place(lexdir):
    """A file of the earlier format (no anagram section) still serves its lexicon; `lexicon upgrade`
    rewrites it in the current format under the same name and content hash, the record kept."""
    run("import", "--ruleset", "en", "--name", "en-mini", FIXTURES / "en.txt")
    row = Lexicon.latest("en-mini")
    words = list(row.graph().words())
    current = row.absolute_path.read_bytes()
    build(words, "ABCDEFGHIJKLMNOPQRSTUVWXYZ", row.absolute_path, anagram_rack=None)
    old = bytearray(row.absolute_path.read_bytes())
    struct.pack_into("<I", old, 8, 1)  # format 1: the same bytes without the section, version 1
    row.absolute_path.write_bytes(bytes(old))
    forget_graphs()
    assert format_version(row.absolute_path) == 1
    assert "valid" in run("check", "en-mini", "CAT")[0]  # still loads
    out, _ = run("upgrade")
    assert f"{row.absolute_path}: upgraded" in out and "1 of 1 compiled files upgraded to format 2" in out
    assert row.absolute_path.read_bytes() == current  # exactly what the import wrote
    row.refresh_from_db()
    assert row.file_size == len(current) and row.content_hash == Lexicon.latest("en-mini").content_hash
    forget_graphs()
    assert row.graph().anagram_section() is not None
    assert run("upgrade")[0] == "compiled lexicons: all 1 in format 2\n"


@pytest.mark.django_db
def test_bench_open_times_open_to_first_solve_in_fresh_processes(lexdir):
    run("import", "--ruleset", "en", "--name", "en-mini", FIXTURES / "en.txt")
    path = Lexicon.latest("en-mini").absolute_path
    out = io.StringIO()
    call_command("bench_open", "--ruleset", "en", "--lexicon", str(path), "--runs", "1", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[1].split("\t")[:7] == ["mode", "run", "open_s", "solver_s", "solve_s", "total_s", "cpu_s"]
    for mode in ("checked", "verified"):
        run_line = next(line.split("\t") for line in lines if line.startswith(f"{mode}\t1\t"))
        assert run_line[-2:] == ["2", "mapped"]  # format 2: the index mapped, not built
        total = float(run_line[5])
        assert 0 < total < 5 and total >= float(run_line[2])
        assert any(line.startswith(f"{mode}\tmedian\t") for line in lines)


@pytest.mark.django_db
def test_a_replaced_file_does_not_pass_for_the_recorded_one(lexdir):
    run("import", "--ruleset", "en", "--name", "one", FIXTURES / "en.txt")
    run("import", "--ruleset", "en", "--name", "two", FIXTURES / "judge-en.txt")
    one, two = Lexicon.latest("one"), Lexicon.latest("two")
    one.absolute_path.unlink()
    os.link(two.absolute_path, one.absolute_path)
    forget_graphs()
    with pytest.raises(LexiconError, match="the record says"):
        one.graph()


# -- services: check_words, graph cache ------------------------------------------------------------


@pytest.mark.django_db
def test_check_words_and_the_per_process_graph_cache(lexdir):
    row = services.import_wordlist("fr-mini", "fr", FIXTURES / "fr.txt")
    assert services.check_words(row, ["cœur", "Noël", "garçon", "søren", "x"]) == [
        ("COEUR", True), ("NOEL", True), ("GARCON", True), ("SØREN", False), ("X", False),
    ]
    assert row.graph() is Lexicon.objects.get(pk=row.pk).graph()  # loaded once per process


@pytest.mark.django_db
def test_package_source_checks(lexdir):
    with pytest.raises(LexiconError, match="rule set 'ru', not 'en'"):
        services.build_lexicon(None, "en", "ru")
    with pytest.raises(LexiconError, match="unknown source"):
        services.build_lexicon(None, None, "de")
    with pytest.raises(LexiconError, match="Russian sources only"):
        services.build_lexicon(None, None, "uk", yo_as_e=True)
    assert "hunspell dictionary not found" in fails("build", "uk", "--hunspell", "/nonexistent.dic")
    assert not Lexicon.objects.exists()


# -- resolve -----------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_open_lexicon_by_name_graph_file_or_word_list(lexdir, tmp_path):
    row = services.import_wordlist("judge", "en", FIXTURES / "judge-en.txt")
    by_name = open_lexicon("judge", "en")
    assert "CAT" in by_name and by_name.content_hash == row.content_hash
    assert open_lexicon(str(row.absolute_path), "en") is by_name
    with pytest.raises(LexiconNotFound, match="for the rule set 'en', not 'ru'"):
        open_lexicon("judge", "ru")
    with pytest.raises(LexiconNotFound, match="not those of the rule set 'ru'"):
        open_lexicon(str(row.absolute_path), "ru")

    plain = tmp_path / "words.txt"
    plain.write_text("quiz\nzebra\n", encoding="utf-8")
    graph = open_lexicon(str(plain), "en")
    assert "QUIZ" in graph and "CAT" not in graph
    cached = list((lexdir / "cache").glob("*.kwg"))
    assert len(cached) == 1
    mtime = cached[0].stat().st_mtime_ns
    forget_graphs()
    assert "ZEBRA" in open_lexicon(str(plain), "en")
    assert cached[0].stat().st_mtime_ns == mtime  # compiled once

    with pytest.raises(LexiconNotFound, match="neither a registered lexicon nor an existing file"):
        open_lexicon("/nonexistent/words.txt", "en")
    with pytest.raises(LexiconNotFound, match="give the rule set"):
        open_lexicon(str(plain))


# -- the Celery task ----------------------------------------------------------------------------------


def _pending(lexdir: Path, text: str, name: str = "up", ruleset: str = "en") -> Lexicon:
    (lexdir / "uploads").mkdir(exist_ok=True)
    (lexdir / "uploads" / f"{name}.txt").write_text(text, encoding="utf-8")
    return Lexicon.objects.create(
        name=name, ruleset=ruleset, input_path=f"uploads/{name}.txt",
        options={"kind": "file", "skip_capitalised": True, "original_name": f"{name}.txt"},
    )


@pytest.mark.django_db
def test_task_builds_once_and_is_idempotent(lexdir):
    row = _pending(lexdir, "cat\ndog\nLondon\ncafé\n")
    assert build_uploaded_lexicon(row.pk) == "ready"
    row.refresh_from_db()
    assert row.status == "ready" and row.version == 1 and row.word_count == 2 and row.progress == 100
    assert row.report["skipped"]["by_reason"]["capitalised"]["count"] == 1
    assert row.options["original_name"] == "up.txt" and row.options["kind"] == "file"
    assert "up.txt" in row.source
    hash_before = row.content_hash
    assert build_uploaded_lexicon(row.pk) == "skipped"  # a second delivery does nothing
    row.refresh_from_db()
    assert row.version == 1 and row.content_hash == hash_before
    assert build_uploaded_lexicon(999_999) == "skipped"


@pytest.mark.django_db
def test_task_failure_marks_the_row_failed_without_files(lexdir):
    row = _pending(lexdir, "über\n")
    assert build_uploaded_lexicon(row.pk) == "failed"
    row.refresh_from_db()
    assert row.status == "failed" and row.version is None
    assert "no word was accepted" in row.error
    assert graph_files(lexdir) == []
    assert list((lexdir / "tmp").glob("*")) == []


@pytest.mark.django_db
def test_task_claims_only_pending_rows(lexdir):
    row = _pending(lexdir, "cat\n")
    Lexicon.objects.filter(pk=row.pk).update(status="building")
    assert build_uploaded_lexicon(row.pk) == "skipped"  # someone else is building it


# -- make_wordlist.py output and the real packages ------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.skipif(not MAKE_WORDLIST.is_file(), reason="shared bench scripts not available")
def test_importing_make_wordlist_output_keeps_its_count(lexdir, tmp_path):
    out = tmp_path / "pl.txt"
    printed = subprocess.run(
        [sys.executable, str(MAKE_WORDLIST), "pl", str(out), str(FIXTURES / "pl.txt")],
        capture_output=True, text=True, check=True,
    ).stdout
    run("import", "--ruleset", "pl", "--name", "pl-made", out)
    row = Lexicon.latest("pl-made")
    assert row.word_count == int(printed.strip()) == 8
    assert row.report["skipped"]["count"] == 0
    exported = tmp_path / "back.txt"
    run("export", "pl-made", exported)
    assert exported.read_bytes() == out.read_bytes()


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize("lang,ruleset", [("en", "en"), ("pl", "pl"), ("ru", "ru"), ("uk", "uk")])
def test_bench_lists_import_with_the_same_count(lexdir, lang, ruleset):
    path = BENCH_LISTS / f"{lang}.txt"
    if not path.is_file():
        pytest.skip(f"{path} not generated here")
    expected = sum(1 for _ in open(path, encoding="utf-8"))
    run("import", "--ruleset", ruleset, "--name", f"{lang}-bench", path)
    row = Lexicon.latest(f"{lang}-bench")
    assert row.word_count == expected
    assert row.report["skipped"]["count"] == 0


@pytest.mark.slow
@pytest.mark.django_db
def test_build_ru_from_the_package(lexdir, tmp_path):
    out, _ = run("build", "ru")
    row = Lexicon.latest("ru")
    assert row.word_count == 2_342_497  # exactly make_wordlist.py ru
    assert row.source.startswith("pymorphy3-dicts-ru ")
    out, _ = run("check", "ru", "ёлка", "ножницы", "здоровы", "кофе", "москва", "мвд", "елка")
    assert out.splitlines() == [
        "ЁЛКА valid", "НОЖНИЦЫ valid", "ЗДОРОВЫ valid", "КОФЕ valid", "МОСКВА invalid", "МВД invalid",
        "ЕЛКА invalid",
    ]
    out, _ = run("bench", "ru", "--lookups", "20000")
    assert "lookups_per_s" in out


@pytest.mark.slow
@pytest.mark.django_db
def test_build_ru_nouns_and_uk_from_the_packages(lexdir):
    run("build", "ru-nouns")
    out, _ = run("check", "ru-nouns", "ножницы", "здоровы", "ёлка", "москва")
    assert out.splitlines() == ["НОЖНИЦЫ valid", "ЗДОРОВЫ invalid", "ЁЛКА valid", "МОСКВА invalid"]
    run("build", "uk")
    out, _ = run("check", "uk", "ґудзик", "м'ясо", "м’ясо", "києва", "львів", "київ")
    # київ stays: it is also the genitive plural of «кий» (cue), a common noun (as in the bench list)
    assert out.splitlines() == [
        "ҐУДЗИК valid", "М'ЯСО valid", "М'ЯСО valid", "КИЄВА invalid", "ЛЬВІВ invalid", "КИЇВ valid",
    ]
    row = Lexicon.latest("uk")
    assert abs(row.word_count - 2_828_032) < 1000
