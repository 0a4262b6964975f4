"""Building, importing, exporting and querying lexicons.

Every build reads a word source (:mod:`lexicon.sources`), compiles the word
graph (:mod:`lexicon.graph`) into ``LEXICON_DIR/graphs/<content hash>.kwg``
and records a :class:`~lexicon.models.Lexicon` row with the next version of
its name. Files are never overwritten (a second build of the same words
reuses the file), and a failed build leaves no ready row and no stray file.
Domain errors raise :class:`LexiconError` with a message for humans.
"""

from __future__ import annotations

import os
import random
import re
import tempfile
import time
import uuid
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from scoring.rules import RulesError, get_ruleset, ruleset_ids

from . import limits, packedlists, sources
from .files import file_sha256, publish_graph
from .graph import BuildInfo, GraphError, WordGraph, build
from .memory import peak_rss_mb, reset_peak_rss
from .models import BuildOptions, BuildReport, InputFile, Lexicon, LexiconError, lexicon_dir, load_graph_file
from .skips import SkipReport
from .sources import SourceError, SourceResult, WordNormalizer

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

__all__ = [
    "LexiconError",
    "build_lexicon",
    "import_wordlist",
    "import_debian_list",
    "run_build",
    "export",
    "check_words",
    "bench",
    "validate_name",
]

ProgressCallback = Callable[[int, str], None]

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
GRAPHS_SUBDIR = "graphs"
TMP_SUBDIR = "tmp"
UPLOADS_SUBDIR = "uploads"

#: Share of the progress bar for reading the source; the graph build takes the rest.
READ_SHARE = 80


# -- validation ------------------------------------------------------------------------


def validate_name(name: str) -> str:
    name = (name or "").strip()
    if not NAME_RE.match(name):
        raise LexiconError(
            f"invalid lexicon name {name!r}: use 1–64 letters, digits, '.', '_' or '-' (e.g. ru, ru-nouns, en-bench)"
        )
    return name


def validate_ruleset(ruleset: str) -> str:
    try:
        get_ruleset(ruleset)
    except RulesError:
        raise LexiconError(f"unknown rule set {ruleset!r} (known: {', '.join(ruleset_ids())})") from None
    return ruleset


# -- progress and memory ------------------------------------------------------------------


class _Progress:
    """Maps a source's 0..1 progress onto 0..100, saves it on the row (throttled) and calls back."""

    def __init__(self, row: Lexicon | None, callback: ProgressCallback | None):
        self.row = row
        self.callback = callback
        self.last = -1
        self.last_saved = 0.0

    def __call__(self, percent: int, stage: str) -> None:
        percent = max(0, min(100, int(percent)))
        if percent == self.last:
            return
        self.last = percent
        now = time.monotonic()
        if self.row is not None and self.row.pk and (now - self.last_saved >= 0.5 or percent in (0, 100)):
            self.last_saved = now
            Lexicon.objects.filter(pk=self.row.pk).update(progress=percent, updated_at=timezone.now())
        if self.callback is not None:
            self.callback(percent, stage)

    def reading(self, fraction: float) -> None:
        self(int(fraction * READ_SHARE), "reading")


# -- files ----------------------------------------------------------------------------------


def _graph_relpath(content_hash: str) -> str:
    return f"{GRAPHS_SUBDIR}/{content_hash}.kwg"


# -- the build ---------------------------------------------------------------------------------


def _compile(
    *,
    name: str,
    ruleset: str,
    source_text: str,
    options: BuildOptions,
    read: Callable[[Callable[[float], None]], SourceResult],
    row: Lexicon | None,
    created_by: User | None = None,
    progress_callback: ProgressCallback | None = None,
    input_file: InputFile | None = None,
) -> Lexicon:
    """Reads, compiles, stores the file and saves the row (``row`` if given, else a new one)."""
    progress = _Progress(row, progress_callback)
    started = time.perf_counter()
    exact_rss = reset_peak_rss()
    progress(0, "reading")
    try:
        result = read(progress.reading)
    except SourceError as exc:
        raise LexiconError(str(exc)) from None
    read_seconds = time.perf_counter() - started
    words, skipped = result
    if not words:
        raise LexiconError(f"no word was accepted, nothing to build ({skipped.summary()})")

    alphabet = get_ruleset(ruleset).alphabet
    base = lexicon_dir()
    tmp_dir = base / TMP_SUBDIR
    tmp_dir.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix="build-", suffix=".kwg", dir=tmp_dir)
    os.close(fd)
    tmp = Path(tmp_name)
    final: Path | None = None
    created_file = False
    try:
        progress(READ_SHARE, "compiling")
        try:
            info = build(words, alphabet, tmp, gaddag=True)
        except GraphError as exc:
            raise LexiconError(f"the word graph cannot be built: {exc}") from None
        word_count = len(words)
        del words, result
        progress(95, "storing")
        relpath = _graph_relpath(info.content_hash)
        final = base / relpath
        created_file = publish_graph(tmp, final, info.content_hash)
        graph = load_graph_file(final, info.content_hash, f"lexicon {name}")
        if graph.word_count != word_count:
            raise LexiconError(
                f"the compiled graph holds {graph.word_count:,} words, {word_count:,} were accepted (builder error)"
            )
        total_seconds = time.perf_counter() - started
        report = _report(word_count, skipped, info, read_seconds=read_seconds, total_seconds=total_seconds,
                         exact_rss=exact_rss, reused_file=not created_file, input_file=input_file)
        target = row if row is not None else Lexicon(created_by=created_by)
        _make_ready(target, name=name, ruleset=ruleset, source_text=source_text, options=options, info=info,
                    relpath=relpath, report=report)
        _save_with_next_version(target)
        if not final.exists():  # a concurrent failed build of the same content removed it
            publish_graph(tmp, final, info.content_hash)
        progress(100, "ready")
        return target
    except BaseException:
        if created_file and final is not None:
            if not Lexicon.objects.filter(content_hash=final.stem, status=Lexicon.Status.READY).exists():
                final.unlink(missing_ok=True)
        raise
    finally:
        tmp.unlink(missing_ok=True)


def _report(word_count: int, skipped: SkipReport, info: BuildInfo, *, read_seconds: float, total_seconds: float,
            exact_rss: bool, reused_file: bool, input_file: InputFile | None) -> BuildReport:
    """What a build records: the words accepted, those left out and why, and its figures."""
    report: BuildReport = {
        "accepted": word_count,
        "skipped": skipped.to_dict(),
        "figures": {
            "read_s": round(read_seconds, 3),
            "graph_s": round(info.seconds, 3),
            "build_s": round(total_seconds, 3),
            "peak_rss_mb": peak_rss_mb(exact_rss),
            "peak_rss_exact": exact_rss,
            "file_mb": round(info.file_size / 1e6, 2),
            "node_count": info.node_count,
            "reused_file": reused_file,
        },
    }
    if input_file:
        report["input"] = input_file
    return report


def _make_ready(target: Lexicon, *, name: str, ruleset: str, source_text: str, options: BuildOptions,
                info: BuildInfo, relpath: str, report: BuildReport) -> None:
    """Fills the row of a finished build (not saved): its graph file, figures and status ready; the options
    are added to those the row had."""
    target.name = name
    target.ruleset = ruleset
    target.source = source_text
    target.options = {**(target.options or {}), **options}
    target.word_count = report["accepted"]
    target.node_count = info.node_count
    target.content_hash = info.content_hash
    target.file_path = relpath
    target.file_size = info.file_size
    target.build_seconds = report["figures"]["build_s"]
    target.built_at = timezone.now()
    target.status = Lexicon.Status.READY
    target.progress = 100
    target.report = report
    target.error = ""


def _save_with_next_version(row: Lexicon) -> None:
    for _attempt in range(10):
        try:
            with transaction.atomic():
                last = Lexicon.objects.filter(name=row.name).aggregate(v=Max("version"))["v"] or 0
                row.version = last + 1
                if row.pk:
                    row.save(force_update=True)
                else:
                    row.save(force_insert=True)
            return
        except IntegrityError:
            row.version = None
            if not row.pk:
                row.id = None
            continue
    raise LexiconError(f"cannot give {row.name!r} a new version number (too many concurrent builds?)")


def build_lexicon(
    name: str | None,
    ruleset: str | None,
    source: str,
    *,
    yo_as_e: bool = False,
    hunspell_paths: Iterable[str | os.PathLike[str]] | None = None,
    created_by: User | None = None,
    progress_callback: ProgressCallback | None = None,
    lexicon: Lexicon | None = None,
) -> Lexicon:
    """Builds a lexicon from an installed package source: ``ru``, ``ru-nouns`` or ``uk``.

    ``name`` defaults to the source (``ru-yo`` for ru with ``yo_as_e``); ``ruleset``
    defaults to the source's and must match it.
    """
    if source not in sources.PACKAGE_SOURCES:
        raise LexiconError(f"unknown source {source!r} (known: {', '.join(sources.PACKAGE_SOURCES)})")
    source_ruleset = sources.PACKAGE_SOURCES[source][0]
    ruleset = validate_ruleset(ruleset or source_ruleset)
    if ruleset != source_ruleset:
        raise LexiconError(f"the source {source!r} gives words of the rule set {source_ruleset!r}, not {ruleset!r}")
    if yo_as_e and source_ruleset != "ru":
        raise LexiconError("the option “ё may be written е” applies to Russian sources only")
    name = validate_name(name or (f"{source}-yo" if yo_as_e else source))
    dics = None if hunspell_paths is None else [str(p) for p in hunspell_paths]
    if dics:
        for p in dics:
            if not Path(p).is_file():
                raise LexiconError(f"hunspell dictionary not found: {p}")
    options: BuildOptions = {"kind": "package", "source": source, "yo_as_e": yo_as_e}
    if source == "uk":
        used = dics if dics is not None else [str(p) for p in sources.default_hunspell_paths()]
        options["hunspell"] = used
    description = sources.describe_package_source(source)
    if source == "uk" and options.get("hunspell"):
        description += "; hunspell " + ", ".join(Path(p).name for p in options["hunspell"])

    def read(progress: sources.ProgressFn) -> SourceResult:
        return sources.package_source(source, yo_as_e=yo_as_e, hunspell_paths=dics, progress=progress)

    return _compile(
        name=name,
        ruleset=ruleset,
        source_text=description,
        options=options,
        read=read,
        row=lexicon,
        created_by=created_by,
        progress_callback=progress_callback,
    )


def import_wordlist(
    name: str,
    ruleset: str,
    path: str | os.PathLike[str],
    *,
    skip_capitalised: bool = False,
    source_label: str | None = None,
    extra_options: BuildOptions | None = None,
    created_by: User | None = None,
    progress_callback: ProgressCallback | None = None,
    lexicon: Lexicon | None = None,
) -> Lexicon:
    """Builds a lexicon from a word-list file (UTF-8, one word per line) for ``ruleset``."""
    name = validate_name(name)
    ruleset = validate_ruleset(ruleset)
    path = Path(path)
    if not path.is_file():
        raise LexiconError(f"word list not found: {path}")
    try:
        sha = file_sha256(path)
        size = path.stat().st_size
    except OSError as exc:
        raise LexiconError(f"cannot read the word list {path}: {exc.strerror or exc}") from None
    try:  # refused before reading it for the build: its size, then its words and edges in one pass
        limits.check_file(path)
    except OSError as exc:
        raise LexiconError(f"cannot read the word list {path}: {exc.strerror or exc}") from None
    label = source_label or path.name
    options: BuildOptions = {"kind": "file", "skip_capitalised": skip_capitalised, "file_sha256": sha,
                             **(extra_options or {})}

    def read(progress: sources.ProgressFn) -> SourceResult:
        return packedlists.read_wordlist_packed(path, ruleset, skip_capitalised=skip_capitalised, progress=progress)

    return _compile(
        name=name,
        ruleset=ruleset,
        source_text=f"{label} (sha256 {sha[:12]}…)",
        options=options,
        read=read,
        row=lexicon,
        created_by=created_by,
        progress_callback=progress_callback,
        input_file={"file": label, "bytes": size, "sha256": sha},
    )


def import_debian_list(
    key: str,
    *,
    name: str | None = None,
    skip_capitalised: bool = True,
    created_by: User | None = None,
    progress_callback: ProgressCallback | None = None,
    lexicon: Lexicon | None = None,
) -> Lexicon:
    """Builds a lexicon from an installed Debian word list (``pl``, ``fr``, ``en-us``, ``en-gb``).

    Capitalised words (proper nouns, abbreviations) are left out by default, as in the bench lists.
    """
    try:
        entry = sources.debian_list(key)
    except SourceError as exc:
        raise LexiconError(str(exc)) from None
    return import_wordlist(
        name or key,
        entry.ruleset,
        entry.path,
        skip_capitalised=skip_capitalised,
        source_label=entry.describe(),
        extra_options={"kind": "debian", "source": key},
        created_by=created_by,
        progress_callback=progress_callback,
        lexicon=lexicon,
    )


def run_build(row: Lexicon, progress_callback: ProgressCallback | None = None) -> Lexicon:
    """Builds a claimed row (status building) from what its options and input say.

    On failure the row is marked failed with the message, and LexiconError is raised.
    """
    opts = row.options or {}
    kind = opts.get("kind", "file")
    try:
        if kind == "package":
            return build_lexicon(
                row.name,
                row.ruleset,
                opts.get("source", ""),
                yo_as_e=bool(opts.get("yo_as_e")),
                created_by=row.created_by,
                progress_callback=progress_callback,
                lexicon=row,
            )
        if kind == "debian":
            return import_debian_list(
                opts.get("source", ""),
                name=row.name,
                skip_capitalised=bool(opts.get("skip_capitalised", True)),
                progress_callback=progress_callback,
                lexicon=row,
            )
        if not row.input_path:
            raise LexiconError("the lexicon record names no input file")
        upload = lexicon_dir() / row.input_path
        return import_wordlist(
            row.name,
            row.ruleset,
            upload,
            skip_capitalised=bool(opts.get("skip_capitalised")),
            source_label=opts.get("original_name") or upload.name,
            progress_callback=progress_callback,
            lexicon=row,
        )
    except LexiconError as exc:
        _mark_failed(row, str(exc))
        raise
    except Exception as exc:
        _mark_failed(row, f"unexpected error: {type(exc).__name__}: {exc}")
        raise


def _mark_failed(row: Lexicon, message: str) -> None:
    row.status = Lexicon.Status.FAILED
    row.error = message
    row.version = None
    Lexicon.objects.filter(pk=row.pk).update(
        status=Lexicon.Status.FAILED, error=message, version=None, updated_at=timezone.now()
    )


def save_upload(chunks: Iterable[bytes], original_name: str) -> str:
    """Stores an uploaded list under LEXICON_DIR/uploads; returns the path relative to LEXICON_DIR."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(original_name or "list.txt").name)[:80] or "list.txt"
    folder = lexicon_dir() / UPLOADS_SUBDIR
    folder.mkdir(parents=True, exist_ok=True)
    rel = f"{UPLOADS_SUBDIR}/{uuid.uuid4().hex}-{safe}"
    target = lexicon_dir() / rel
    with open(target, "xb") as out:
        for chunk in chunks:
            out.write(chunk)
    return rel


# -- using a lexicon --------------------------------------------------------------------------


def get_lexicon(name: str, version: int | None = None) -> Lexicon:
    """``name`` (latest ready version), ``name`` + version, or ``name:v3`` / ``name@3``."""
    match = re.match(r"^(.+?)(?:[:@]v?(\d+))$", name)
    if version is None and match:
        name, version = match.group(1), int(match.group(2))
    if version is None:
        return Lexicon.latest(name)
    row = Lexicon.objects.filter(name=name, version=version).first()
    if row is None:
        raise LexiconError(f"no lexicon {name!r} version {version}")
    if not row.is_ready:
        raise LexiconError(f"lexicon {row.label} is not ready (status: {row.status})")
    return row


def split_words(text: str) -> list[str]:
    """Words typed in a box: separated by spaces, commas, semicolons or new lines."""
    return [w for w in re.split(r"[\s,;]+", text or "") if w]


def check_words(lexicon: Lexicon, words: Iterable[str]) -> list[tuple[str, bool]]:
    """Each word (upper-cased, normalised as tiles) and whether the lexicon holds it."""
    normalizer = WordNormalizer(get_ruleset(lexicon.ruleset))
    graph = lexicon.graph()
    shown: list[str] = []
    lookup: list[str] = []
    for raw in words:
        word = normalizer.normalize(raw.strip())
        shown.append(word)
        lookup.append(word if normalizer.check(word) is None else "")
    found = graph.contains_many(lookup)
    return [(w, bool(ok) and bool(q)) for w, q, ok in zip(shown, lookup, found, strict=True)]


def export(lexicon: Lexicon, target: str | os.PathLike[str] | None = None, stream: SupportsWrite[str] | None = None) -> int:
    """Writes the words sorted by Unicode code point, one per line, UTF-8, final newline.

    To a file path (written atomically) or a text ``stream``. Returns the word count.
    """
    words = sorted(lexicon.graph().words())
    text = "\n".join(words) + "\n" if words else ""
    if stream is not None:
        stream.write(text)
        return len(words)
    if target is None:
        raise LexiconError("export needs a file")
    path = Path(target)
    if path.is_dir():
        raise LexiconError(f"{path} is a directory; give a file name")
    if not path.parent.is_dir():
        raise LexiconError(f"the folder {path.parent} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return len(words)


def bench(lexicon: Lexicon, *, lookups: int = 200_000, seed: int = 1) -> dict[str, str | int | float | None]:
    """Figures: build time and peak memory (from the build record), file size, and load time
    and lookups per second measured now."""
    figures_at_build = (lexicon.report or {}).get("figures", {})
    path = lexicon.absolute_path
    out: dict[str, str | int | float | None] = {
        "name": lexicon.label,
        "words": lexicon.word_count,
        "graph_edges": lexicon.node_count,
        "build_s": lexicon.build_seconds,
        "build_read_s": figures_at_build.get("read_s"),
        "build_graph_s": figures_at_build.get("graph_s"),
        "build_peak_rss_mb": figures_at_build.get("peak_rss_mb"),
        "file_mb": round(lexicon.file_size / 1e6, 2),
    }
    try:
        t = time.perf_counter()
        graph = WordGraph.load(path, verify=True)
        out["load_s"] = round(time.perf_counter() - t, 4)
        t = time.perf_counter()
        WordGraph.load(path, verify=False).close()
        out["load_noverify_s"] = round(time.perf_counter() - t, 4)
    except GraphError as exc:
        raise LexiconError(f"lexicon {lexicon.label}: {exc}") from None
    try:
        t = time.perf_counter()
        words = list(graph.words())
        out["words_iter_s"] = round(time.perf_counter() - t, 3)
        rng = random.Random(seed)
        half = lookups // 2
        present = rng.choices(words, k=half)
        alphabet = graph.alphabet
        absent = []
        for w in rng.choices(words, k=lookups - half):
            i = rng.randrange(len(w))
            absent.append(w[:i] + rng.choice(alphabet) + w[i + 1 :])
        sample = present + absent
        rng.shuffle(sample)
        del words
        t = time.perf_counter()
        hits = sum(1 for w in sample if w in graph)
        out["lookups_per_s"] = round(len(sample) / (time.perf_counter() - t))
        t = time.perf_counter()
        graph.contains_many(sample)
        out["contains_many_per_s"] = round(len(sample) / (time.perf_counter() - t))
        out["lookup_sample"] = len(sample)
        out["lookup_hits"] = hits
    finally:
        graph.close()
    return out


__all__ += ["SkipReport", "get_lexicon", "split_words", "save_upload"]
