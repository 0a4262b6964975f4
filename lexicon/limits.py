"""A word list refused before it is built: its size, its word count and the edges its graph would need.

A list is read in 1 MB pieces and never held whole here. It is refused as soon as one figure passes its
limit, with the limits in the message (in the active language): the file's size (:data:`MAX_BYTES`, known
before reading), its lines (:data:`MAX_WORDS`, counted while reading) and a running estimate of the word
graph's edges (:data:`MAX_EDGES`, the 24-bit format's 16,777,216, counted while reading).

The estimate: a word adds to the graph about as many edges as its letters that its neighbour in sorted order
does not share with it (``new``, over the words of 2–15 letters of the first :data:`SAMPLE_LINES` lines
sorted) say about how much the list shares. Measured (``limits.check_file(LIST)``, 2026-11-29, the 2-core machine at load 15): Debian's Polish
list (``/usr/share/dict/polish``: 60.4 MB, 4,327,699 lines; its build 4,889,307 edges for 3,276,062
accepted words, 1.49 a word) brings 2.1 new letters a word over the whole list, 1.68 in its first 100,000
lines; random words of 2–15 letters 6.1, their graph 27–31 edges a word. The estimate per line is
``0.2 × new ** 2.74`` (the curve through those two points): 0.83 for the Polish list, estimated at 3.58 M
edges and accepted (checked in 1.2 s, 92 MB peak RSS of the process); 5,000,000 random words of 2–15
letters (47.5 MB) are refused after 662,294 lines, estimated at 19.2 M edges, in 0.9 s. The builder's exact count stays the last word.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .graph_file import MAX_NODES
from .models import LexiconError

MAX_BYTES = 100 * 1024 * 1024
MAX_WORDS = 6_000_000
MAX_EDGES = MAX_NODES
SAMPLE_LINES = 100_000
CHUNK = 1024 * 1024


class ListTooLarge(LexiconError):
    """A word list over a limit; the message names the limits."""


@dataclass
class ListFigures:
    """What reading a list found: bytes, lines, new letters a word in the sample, the estimated edges."""

    bytes: int = 0
    lines: int = 0
    new_per_word: float = 0.0
    edges: int = 0


def words_text(n: int) -> str:
    """``n`` words, in the active language's plural form and digit grouping."""
    return ngettext("%(n)s word", "%(n)s words", n) % {"n": number_format(n, force_grouping=True)}


def edges_text(n: int) -> str:
    """``n`` edges of a word graph, as :func:`words_text`."""
    return ngettext("%(n)s edge", "%(n)s edges", n) % {"n": number_format(n, force_grouping=True)}


def limits_text() -> str:
    """The limits, as the upload form and every refusal say them."""
    return _("A word list may have at most %(mb)s MB, %(words)s and a word graph of %(edges)s.") % {
        "mb": MAX_BYTES // (1024 * 1024), "words": words_text(MAX_WORDS), "edges": edges_text(MAX_EDGES)}


def edges_per_word(new_per_word: float) -> float:
    """The graph's edges a line adds, estimated from the new letters a word brings (the module's figures)."""
    return 0.2 * new_per_word ** 2.74


def new_letters(sample: list[bytes]) -> float:
    """The letters a word of ``sample`` does not share with its predecessor in sorted order, on average; only
    the lines the builder could take count (2–15 letters once decoded: a Cyrillic letter is one, not two)."""
    words = sorted({w for w in (line.decode("utf-8", "replace").strip() for line in sample) if 2 <= len(w) <= 15})
    if not words:
        return 0.0
    new, previous = 0, b""
    for word in words:
        wide = word.encode("utf-32-be")  # four bytes a letter: shared bytes // 4 are shared letters
        new += len(word) - _shared(wide, previous) // 4
        previous = wide
    return new / len(words)


def _shared(a: bytes, b: bytes) -> int:
    """How many first bytes ``a`` and ``b`` share (one XOR of big integers, not a loop over the bytes)."""
    n = min(len(a), len(b))
    differ = int.from_bytes(a[:n], "big") ^ int.from_bytes(b[:n], "big")
    return n - (differ.bit_length() + 7) // 8


def _too_large(why: str) -> ListTooLarge:
    return ListTooLarge(f"{why} {limits_text()}")


def check_size(size: int) -> None:
    """ListTooLarge when ``size`` bytes are over the limit (before reading anything)."""
    if size > MAX_BYTES:
        raise _too_large(_("The word list has %(mb)s MB.") % {"mb": number_format(round(size / (1024 * 1024)),
                                                                                          force_grouping=True)})


def check_chunks(chunks: Iterable[bytes]) -> ListFigures:
    """Reads a list's pieces once, refusing it (ListTooLarge) at the first figure over a limit. Lines are
    counted as line breaks (C speed); only the sample's lines are split apart."""
    figures = ListFigures()
    sample: list[bytes] = []
    per_word = 0.0
    last = b"\n"
    for chunk in chunks:
        figures.bytes += len(chunk)
        check_size(figures.bytes)
        figures.lines += chunk.count(b"\n")
        last = chunk[-1:] or last
        if len(sample) < SAMPLE_LINES:  # (the sample's first 100,000 lines cannot pass MAX_EDGES by themselves)
            sample.extend(line.strip() for line in chunk.split(b"\n")[: SAMPLE_LINES - len(sample)])
            if len(sample) >= SAMPLE_LINES:
                figures.new_per_word = new_letters(sample)
                per_word = edges_per_word(figures.new_per_word)
        _check_running(figures, per_word)
    if last != b"\n":  # the last line without its break
        figures.lines += 1
    if len(sample) < SAMPLE_LINES:
        figures.new_per_word = new_letters(sample)
        per_word = edges_per_word(figures.new_per_word)
    _check_running(figures, per_word)
    return figures


def _check_running(figures: ListFigures, per_word: float) -> None:
    if figures.lines > MAX_WORDS:
        raise _too_large(_("The word list has more than %(words)s.") % {"words": words_text(MAX_WORDS)})
    figures.edges = round(figures.lines * per_word)
    if figures.edges > MAX_EDGES:
        raise _too_large(_("The word graph of the first %(words)s of the list would need about %(edges)s.")
                         % {"words": words_text(figures.lines), "edges": edges_text(figures.edges)})


def read_chunks(path: Path) -> Iterator[bytes]:
    """A file's pieces of :data:`CHUNK` bytes."""
    with open(path, "rb") as stream:
        while chunk := stream.read(CHUNK):
            yield chunk


def check_file(path: str | os.PathLike[str]) -> ListFigures:
    """A list file checked against the limits: its size first, then while reading it."""
    path = Path(path)
    check_size(path.stat().st_size)
    return check_chunks(read_chunks(path))


__all__ = ["MAX_BYTES", "MAX_EDGES", "MAX_WORDS", "ListFigures", "ListTooLarge", "check_chunks", "check_file",
           "check_size", "edges_per_word", "edges_text", "limits_text", "new_letters", "words_text"]
