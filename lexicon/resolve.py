"""``open_lexicon(name_or_path, ruleset)``: the word graph a command or a worker should use.

Accepts, in this order:

* a registered lexicon name (its latest ready version), or ``NAME:vN`` for one version;
* a path to a compiled word graph (``.kwg``: recognised by its magic bytes);
* a path to a plain word list (UTF-8, one word per line), compiled once into
  ``LEXICON_DIR/cache/`` under the sha256 of the file (and the rule set), so
  the next call only maps the cached graph.

The result is a :class:`~lexicon.graph.WordGraph` (``word in graph``; the solver
uses its edge array), loaded once per process and verified at its first load.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError

from scoring.rules import RulesError, get_ruleset

from .files import file_sha256, publish_graph
from .graph import MAGIC, GraphError, WordGraph, build, upgrade
from .models import Lexicon, LexiconError, load_graph_file
from .packedlists import read_wordlist_packed
from .services import get_lexicon
from .sources import SourceError

CACHE_SUBDIR = "cache"


class LexiconNotFound(Exception):
    """No lexicon answers to the name or path (or it cannot be used); one line for humans."""


def _lexicon_dir() -> Path:
    return Path(settings.LEXICON_DIR)


def _registered(name: str) -> Lexicon | None:
    """The ready Lexicon row for ``name`` (or ``name:vN``), or None if no such name is registered."""
    base = name.split(":", 1)[0].split("@", 1)[0]
    try:
        if not Lexicon.objects.filter(name=base).exists():
            return None
        return get_lexicon(name)
    except LexiconError as exc:
        raise LexiconNotFound(str(exc)) from None
    except DatabaseError:
        return None  # no database (or not migrated): only paths can be resolved


def _is_graph_file(path: Path) -> bool:
    with open(path, "rb") as f:
        return f.read(len(MAGIC) - 2) == MAGIC[:-2]


def _check_alphabet(graph: WordGraph, ruleset_id: str | None, what: str) -> None:
    if ruleset_id is None:
        return
    alphabet = get_ruleset(ruleset_id).alphabet
    if graph.alphabet != alphabet:
        raise LexiconNotFound(
            f"{what} is a word graph over the letters {graph.alphabet!r}, not those of the rule set {ruleset_id!r}"
        )


def compiled_wordlist(path: Path, ruleset_id: str, *, skip_capitalised: bool = True) -> Path:
    """The cached compiled graph of the word list at ``path`` (built now if missing)."""
    sha = file_sha256(path)
    flag = "caps-skipped" if skip_capitalised else "caps-kept"
    folder = _lexicon_dir() / CACHE_SUBDIR
    cached = folder / f"{sha}-{ruleset_id}-{flag}.kwg"
    if cached.is_file():
        try:  # compiled by an earlier version (format or anagram section): rewritten in place, same words
            upgrade(cached)
        except GraphError as exc:
            raise LexiconNotFound(f"the cached compiled list {cached} is unusable: {exc}") from None
        return cached
    try:
        words, skipped = read_wordlist_packed(path, ruleset_id, skip_capitalised=skip_capitalised)
    except SourceError as exc:
        raise LexiconNotFound(str(exc)) from None
    if not words:
        raise LexiconNotFound(f"the word list {path} holds no usable word for {ruleset_id} ({skipped.summary()})")
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=".build-", suffix=".kwg", dir=folder)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        info = build(words, get_ruleset(ruleset_id).alphabet, tmp)
        publish_graph(tmp, cached, info.content_hash)
    except GraphError as exc:
        raise LexiconNotFound(f"the word list {path} cannot be compiled: {exc}") from None
    finally:
        tmp.unlink(missing_ok=True)
    return cached


def open_lexicon(name_or_path: str | os.PathLike[str], ruleset: str | None = None) -> WordGraph:
    """The word graph for a lexicon name, a compiled graph file or a word-list file."""
    text = str(name_or_path).strip()
    if not text:
        raise LexiconNotFound("no lexicon given (a lexicon name, a .kwg file or a word-list file)")
    if ruleset is not None:
        try:
            get_ruleset(ruleset)
        except RulesError as exc:
            raise LexiconNotFound(str(exc)) from None

    path = Path(text).expanduser()
    looks_like_path = os.sep in text or path.suffix in {".txt", ".kwg", ".dic", ".lst"}
    if not looks_like_path or not path.exists():
        row = _registered(text)
        if row is not None:
            if ruleset is not None and row.ruleset != ruleset:
                raise LexiconNotFound(f"lexicon {row.label} is for the rule set {row.ruleset!r}, not {ruleset!r}")
            try:
                return row.graph()
            except LexiconError as exc:
                raise LexiconNotFound(str(exc)) from None
    if not path.exists():
        raise LexiconNotFound(f"{text!r} is neither a registered lexicon nor an existing file")
    if not path.is_file():
        raise LexiconNotFound(f"{text} is not a file")
    try:
        if _is_graph_file(path):
            graph = load_graph_file(path)
            _check_alphabet(graph, ruleset, str(path))
            return graph
    except OSError as exc:
        raise LexiconNotFound(f"cannot read {path}: {exc.strerror or exc}") from None
    except LexiconError as exc:
        raise LexiconNotFound(str(exc)) from None
    if ruleset is None:
        raise LexiconNotFound(f"{path} is a word list: give the rule set to compile it for")
    cached = compiled_wordlist(path, ruleset)
    try:
        return load_graph_file(cached)
    except LexiconError:
        # a damaged cache entry: move it aside (never overwrite) and compile again
        cached.rename(cached.with_name(f"{cached.name}.corrupt-{os.getpid()}"))
    try:
        return load_graph_file(compiled_wordlist(path, ruleset))
    except LexiconError as exc:
        raise LexiconNotFound(str(exc)) from None
