"""A pymorphy3 dictionary read from its own files, without the morphological analyser.

The installed package (``pymorphy3-dicts-ru``, ``pymorphy3-dicts-uk``) holds the compiled
dictionary: ``words.dawg`` (every word form with its readings, a paradigm id and a form index),
``paradigms.array`` (for each form of a paradigm: its suffix, tag and prefix), the gramtab
(the tags), ``suffixes.json`` and the paradigm prefixes. :func:`open_dictionary` loads those;
:meth:`MorphDictionary.scan` walks ``words.dawg`` in C (:mod:`lexicon._dawgdic`), the way
pymorphy3's ``iter_known_words`` does in Python, in about a second instead of a minute.

Pure Python + the C extension; no Django.
"""

from __future__ import annotations

import array
import json
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from . import _dawgdic

__all__ = ["DictionaryError", "FormScan", "LETTER_FAIL", "MorphDictionary", "grammemes_of", "open_dictionary"]

#: The code of a skipped form whose letters or length are not playable (see :meth:`MorphDictionary.scan`).
LETTER_FAIL: int = _dawgdic.LETTER_FAIL
GRAMTAB = "gramtab-opencorpora-int.json"


class DictionaryError(Exception):
    """The dictionary is not installed or cannot be read; the message says why, for humans."""


class FormScan(NamedTuple):
    """What :meth:`MorphDictionary.scan` found."""

    accepted: bytes  #: the accepted forms in UTF-8, each followed by a new line
    skipped: bytes  #: the other forms kept (see :meth:`MorphDictionary.scan`), each followed by a new line
    codes: bytes  #: one per skipped form kept: LETTER_FAIL, or the code of its first reading
    counts: dict[int, int]  #: all the skipped forms by code
    entries: int  #: readings read (keys of words.dawg)


def grammemes_of(tag: str) -> frozenset[str]:
    """The grammemes of a gramtab tag (``"NOUN,anim,masc sing,nomn"``), as pymorphy3's ``Tag.grammemes``."""
    return frozenset(tag.replace(" ", ",", 1).split(","))


@dataclass(frozen=True)
class MorphDictionary:
    path: Path
    meta: dict[str, Any]
    tags: list[str]  #: the gramtab: tag id -> tag
    paradigms: array.array[int]  #: every paradigm's u16 values, one paradigm after the other
    starts: array.array[int]  #: where each paradigm starts in ``paradigms``, then the end
    suffixes: list[str]
    prefixes: list[str]  #: the paradigm prefixes

    @property
    def words_dawg(self) -> Path:
        return self.path / "words.dawg"

    def scan(
        self,
        tag_codes: bytes,
        letters: str,
        *,
        apostrophe: bool = False,
        proper_lemmas: frozenset[str] = frozenset(),
        proper_code: int = 0,
        keep: int = 10,
    ) -> FormScan:
        """Every distinct word form, accepted or skipped with a code.

        ``tag_codes`` gives, per tag id, 0 when a reading with that tag counts, else a code 1..254 (the
        reason it does not). With ``proper_lemmas``, a reading whose lemma (pymorphy3's normal form) is
        one of them does not count either (code ``proper_code``). A form is accepted when its letters
        are ``letters`` (and, with ``apostrophe``, apostrophes between letters: ' ’ ʼ, written ') and
        it has 2..15 tiles and some reading counts. Of the forms left out, all those of code LETTER_FAIL
        and the first ``keep`` of every other code are kept, in dictionary order; all are counted.
        """
        if len(tag_codes) != len(self.tags):
            raise ValueError(f"{len(tag_codes)} tag codes for a gramtab of {len(self.tags)} tags")
        lemmas = None
        if proper_lemmas:
            proper = "".join(f"{lemma}\n" for lemma in sorted(proper_lemmas)).encode("utf-8")
            lemmas = ([s.encode("utf-8") for s in self.suffixes], [p.encode("utf-8") for p in self.prefixes],
                      proper, proper_code)
        try:
            data = self.words_dawg.read_bytes()
        except OSError as exc:
            raise DictionaryError(f"cannot read {self.words_dawg}: {exc.strerror or exc}") from None
        try:
            found = _dawgdic.scan_forms(data, self.paradigms, self.starts, tag_codes, letters, apostrophe, lemmas,
                                          keep)
        except ValueError as exc:
            raise DictionaryError(f"{self.words_dawg}: {exc}") from None
        return FormScan(*found)


def dictionary_path(lang: str) -> Path:
    """Where pymorphy3 finds the dictionary of ``lang`` (its ``PYMORPHY2_DICT_PATH`` first, as its analyser)."""
    try:
        from pymorphy3 import MorphAnalyzer  # noqa: PLC0415 (only the package sources need pymorphy3)
    except ImportError as exc:  # pragma: no cover - a dependency of the project
        raise DictionaryError(f"pymorphy3 is not installed: {exc}") from None
    try:
        return Path(MorphAnalyzer.choose_dictionary_path(lang=lang))
    except ValueError as exc:
        raise DictionaryError(
            f"the pymorphy3 dictionary for {lang!r} is not installed (pip install pymorphy3-dicts-{lang}): {exc}"
        ) from None


def _read_paradigms(path: Path) -> tuple[array.array[int], array.array[int]]:
    data = path.read_bytes()
    (count,) = struct.unpack_from("<H", data, 0)
    values: array.array[int] = array.array("H")
    starts: array.array[int] = array.array("I")
    at = 2
    for _ in range(count):
        (n,) = struct.unpack_from("<H", data, at)
        at += 2
        if at + 2 * n > len(data):
            raise DictionaryError(f"{path} is truncated")
        starts.append(len(values))
        part = array.array("H", data[at : at + 2 * n])
        if struct.pack("=H", 1) != struct.pack("<H", 1):  # pragma: no cover - big-endian machines
            part.byteswap()
        values.extend(part)
        at += 2 * n
    starts.append(len(values))
    return values, starts


def open_dictionary(lang: str, path: str | Path | None = None) -> MorphDictionary:
    """Loads the dictionary of ``lang`` (from ``path``, default where pymorphy3 finds it)."""
    folder = Path(path) if path is not None else dictionary_path(lang)
    try:
        meta = dict(json.loads((folder / "meta.json").read_text(encoding="utf-8")))
        version = str(meta.get("format_version", "0"))
        if version.split(".")[0] != "2":
            raise DictionaryError(f"{folder} is dictionary format {version}; this code reads format 2.x")
        tags = json.loads((folder / GRAMTAB).read_text(encoding="utf-8"))
        paradigms, starts = _read_paradigms(folder / "paradigms.array")
        suffixes = json.loads((folder / "suffixes.json").read_text(encoding="utf-8"))
        options = meta.get("compile_options") or {}
        if "paradigm_prefixes" in options:
            prefixes = list(options["paradigm_prefixes"])
        else:
            prefixes = json.loads((folder / "paradigm-prefixes.json").read_text(encoding="utf-8"))
    except OSError as exc:
        raise DictionaryError(f"cannot read the pymorphy3 dictionary in {folder}: {exc.strerror or exc}") from None
    except (ValueError, struct.error) as exc:
        raise DictionaryError(f"the pymorphy3 dictionary in {folder} is corrupt: {exc}") from None
    return MorphDictionary(folder, meta, tags, paradigms, starts, suffixes, prefixes)
