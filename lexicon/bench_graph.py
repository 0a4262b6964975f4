"""Figures for the compiled word graph: build time, peak memory, file size, load time, lookups.

``bench(...)`` returns a dict (used by ``manage.py lexicon bench NAME``); run as
``python -m lexicon.bench_graph WORDLIST ALPHABET [--out FILE] [--no-gaddag] [--json]``
to print them. Pure Python, no Django.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

from .graph import MAX_NODES, MAX_WORD_LENGTH, MIN_WORD_LENGTH, WordGraph, build, build_threads, pack_lines
from .memory import reset_peak_rss, rss_mb

__all__ = ["bench", "main"]


def _read_words(source: str | os.PathLike[str] | Iterable[str], alphabet: str) -> tuple[Sequence[str], int, int]:
    """The words of ``source`` that are 2..15 letters of ``alphabet``, and how many lines / words were read
    and skipped. A file is read in C, packed (:func:`~lexicon.graph.pack_lines`): no Python string per word."""
    if isinstance(source, str | os.PathLike):
        with open(source, "rb") as f:
            packed = pack_lines(f.read(), alphabet)
        return packed.words, packed.read + len(packed.left), len(packed.left)
    raw = list(source)
    pattern = re.compile(f"[{re.escape(alphabet)}]{{{MIN_WORD_LENGTH},{MAX_WORD_LENGTH}}}")
    words = [w for w in raw if pattern.fullmatch(w)]
    return words, len(raw), len(raw) - len(words)


def bench(
    source: str | os.PathLike[str] | Iterable[str],
    alphabet: str,
    *,
    out: str | os.PathLike[str] | None = None,
    gaddag: bool = True,
    lookups: int = 200_000,
    seed: int = 1,
    threads: int | None = None,
) -> dict[str, float | int | str | bool]:
    """Builds the graph of ``source`` (a word-list file, one word a line, or an iterable of
    words) and measures it. Words that are not 2..15 alphabet letters are skipped (and counted).

    The graph is written to ``out`` (kept) or to a temporary file (deleted). Peak RSS is the
    high-water mark of the whole process during the build (Linux: reset just before it), so it
    includes the words read (a file: packed, 16 bytes a word); ``rss_before_mb`` is the level
    before the build.
    """
    threads = threads or build_threads()
    figures: dict[str, float | int | str | bool] = {"alphabet_size": len(alphabet), "gaddag": gaddag, "threads": threads}
    started, cpu = time.perf_counter(), time.process_time()
    exact = reset_peak_rss()
    words, read, skipped = _read_words(source, alphabet)
    figures["input_words"] = read
    figures["skipped_words"] = skipped
    figures["read_s"] = round(time.perf_counter() - started, 3)

    with tempfile.TemporaryDirectory(prefix="graph-bench-") as tmp:
        path = Path(out) if out is not None else Path(tmp) / "bench.kwg"
        figures["rss_before_mb"] = round(rss_mb("VmRSS"), 1)
        info = build(words, alphabet, path, gaddag=gaddag, threads=threads)
        figures["peak_rss_mb"] = round(rss_mb("VmHWM") if exact else rss_mb("ru_maxrss"), 1)
        figures["peak_rss_exact"] = exact
        figures["build_s"] = round(info.seconds, 3)
        figures["compile_s"] = round(time.perf_counter() - started, 3)  # read + build: the list to the file
        figures["compile_cpu_s"] = round(time.process_time() - cpu, 3)  # of every thread
        figures["word_count"] = info.word_count
        figures["node_count"] = info.node_count
        figures["index_use"] = round(info.node_count / MAX_NODES, 4)
        figures["file_mb"] = round(info.file_size / 1e6, 2)
        figures["content_hash"] = info.content_hash

        t = time.perf_counter()
        WordGraph.load(path, verify=False).close()
        figures["load_noverify_s"] = round(time.perf_counter() - t, 4)
        t = time.perf_counter()
        graph = WordGraph.load(path, verify=True)
        figures["load_s"] = round(time.perf_counter() - t, 4)

        rng = random.Random(seed)
        present = [words[i] for i in rng.choices(range(len(words)), k=lookups // 2)]
        absent = []
        for w in (words[i] for i in rng.choices(range(len(words)), k=lookups - len(present))):
            i = rng.randrange(len(w))
            absent.append(w[:i] + rng.choice(alphabet) + w[i + 1 :])
        sample = present + absent
        rng.shuffle(sample)

        t = time.perf_counter()
        hits = 0
        for w in sample:
            if w in graph:
                hits += 1
        elapsed = time.perf_counter() - t
        figures["lookups_per_s"] = round(len(sample) / elapsed)
        figures["lookup_hits"] = hits
        assert all(w in graph for w in present[:1000])

        t = time.perf_counter()
        graph.contains_many(sample)
        figures["contains_many_per_s"] = round(len(sample) / (time.perf_counter() - t))

        t = time.perf_counter()
        listed = sum(1 for _ in graph.words())
        figures["words_iter_s"] = round(time.perf_counter() - t, 3)
        assert listed == info.word_count
        graph.close()
        if out is None:
            path.unlink(missing_ok=True)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m lexicon.bench_graph", description=__doc__.splitlines()[0]
    )
    parser.add_argument("wordlist", help="word list: UTF-8, one word a line")
    parser.add_argument("alphabet", help="the letters in code order, e.g. ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    parser.add_argument("--out", help="keep the graph in this file")
    parser.add_argument("--no-gaddag", action="store_true", help="DAWG only")
    parser.add_argument("--lookups", type=int, default=200_000)
    parser.add_argument("--threads", type=int, choices=(1, 2),
                        help="2: sort in a second thread (default: 2 when the process may use two CPUs)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    figures = bench(
        args.wordlist, args.alphabet, out=args.out, gaddag=not args.no_gaddag, lookups=args.lookups,
        threads=args.threads,
    )
    if args.json:
        print(json.dumps(figures, ensure_ascii=False))
    else:
        width = max(map(len, figures))
        for key, value in figures.items():
            print(f"{key:<{width}}  {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
