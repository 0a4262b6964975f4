"""Word-list files read for the graph builder: the words of :func:`lexicon.sources.read_wordlist`, and its
report, read in C without a Python string per word (:func:`read_wordlist_packed`).

Pure Python + the ``lexicon._graph`` C extension; no Django.
"""

from __future__ import annotations

import heapq
import io
import os
from typing import BinaryIO

from scoring.rules import APOSTROPHES, RuleSet, get_ruleset

from .graph import PackedLines, PackedWords, pack_lines
from .sources import (
    ListReader,
    ProgressFn,
    SourceResult,
    WordNormalizer,
    decode_line,
    opened,
    read_wordlist,
)

__all__ = ["read_wordlist_packed"]


def read_wordlist_packed(
    source: str | os.PathLike[str] | BinaryIO,
    ruleset: str | RuleSet,
    *,
    skip_capitalised: bool = False,
    progress: ProgressFn | None = None,
) -> SourceResult:
    """:func:`read_wordlist` for the graph builder: the same words (as :class:`~lexicon.graph.PackedWords`,
    sorted, when it can) and the same report, without a Python string per word.

    The whole file is read in C (:func:`~lexicon.graph.pack_lines`); only the lines it cannot read as
    words go through :func:`read_wordlist`'s line reader. A list where that reader would accept one of
    them, or with a word twice, and lists for a rule set that folds accents, are read by
    :func:`read_wordlist` (their reports need every line).
    """
    rs = ruleset if isinstance(ruleset, RuleSet) else get_ruleset(ruleset)
    extra = _input_letters(rs)
    if rs.fold_accents or extra is None:
        return read_wordlist(source, rs, skip_capitalised=skip_capitalised, progress=progress)
    with opened(source) as (stream, name):
        if progress is not None:
            progress(0.0)
        data = stream.read()
    packed = pack_lines(data, rs.alphabet, extra, capitalised_apart=skip_capitalised)
    reader = ListReader(rs, skip_capitalised)
    reader.lines_read = packed.read
    left_capitalised: list[tuple[int, str]] = []
    for number, start, end in packed.left:
        before = len(reader.capitalised)
        reader.line(decode_line(data[start:end], number, name))
        if len(reader.capitalised) > before:
            left_capitalised.append((number, reader.capitalised[-1]))
    words = _packed_words(packed, reader, left_capitalised, data, name)
    result = reader.finish() if words is not None else None
    if words is None or result is None or reader.accepted:
        return read_wordlist(io.BytesIO(data), rs, skip_capitalised=skip_capitalised, progress=progress)
    if progress is not None:
        progress(1.0)
    return SourceResult(words, result.skipped)


def _packed_words(packed: PackedLines, reader: ListReader, left_capitalised: list[tuple[int, str]], data: bytes,
                  name: str) -> PackedWords | None:
    """The words of a packed list, and the capitalised lines in ``reader`` for its report (all of them, in
    order, when they are left out); None when the list needs the line-by-line reader."""
    reader.has_lower = reader.has_lower or packed.has_lower
    if not packed.capitalised_read:
        return packed.words if not packed.duplicates else None
    if reader.has_lower:  # the capitalised lines are left out: all reported, in order
        if packed.duplicates or packed.capitalised_lines is None:  # None: only a line left had lower case
            return None
        merged = [(number, decode_line(data[start:end], number, name).strip())
                  for number, start, end in packed.capitalised_lines]
        reader.capitalised = [raw for _number, raw in heapq.merge(merged, left_capitalised)]
        return packed.words
    if len(packed.words) or packed.capitalised_duplicates:  # a list in capitals: every line is a word
        return None
    reader.capitalised_elsewhere = True
    return packed.capitalised


def _input_letters(ruleset: RuleSet) -> dict[str, str] | None:
    """Characters other than its letters that a word list may write a letter of ``ruleset`` with, and the letter:
    each letter's lower case, and for the apostrophe tile the other apostrophes (as :class:`WordNormalizer`).
    None when a letter itself does not read as that letter."""
    norm = WordNormalizer(ruleset)
    if any(norm.normalize(c) != c for c in ruleset.alphabet):
        return None
    candidates = [c.lower() for c in ruleset.alphabet] + (list(APOSTROPHES) if norm.apostrophe else [])
    found = {}
    for c in candidates:
        if len(c) == 1 and c not in norm.letters and len(tile := norm.normalize(c)) == 1 and tile in norm.letters:
            found[c] = tile
    return found
