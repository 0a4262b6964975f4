"""Word sources for lexicons: installed morphology packages and word-list files.

Pure Python, no Django. Every source returns a :class:`SourceResult`: the
accepted words (upper case, letters of the rule set, 2–15 tiles, no
duplicates) and a :class:`SkipReport` that counts every word form left out,
by reason, with up to :data:`MAX_EXAMPLES` examples each. Nothing is dropped
silently.

Sources:

* ``ru`` — every word form of ``pymorphy3-dicts-ru`` (OpenCorpora) except
  forms all of whose readings are proper nouns, abbreviations, initials,
  misspellings or distortions (:data:`RU_EXCLUDED`); letters а–я and ё only;
  Ё kept as written (``yo_as_e=True`` adds the spelling with Е as well).
* ``ru-nouns`` — the Эрудит convention: common nouns in the nominative
  singular, plus the nominative plural of nouns that have no singular (Pltm).
* ``uk`` — every word form of ``pymorphy3-dicts-uk`` (VESUM) except
  :data:`UK_EXCLUDED` readings and lemmas that the Ukrainian hunspell
  dictionaries spell only with a capital letter.
* word-list files for any rule set (:func:`read_wordlist`), including the
  Debian lists found by :func:`debian_wordlists`.

The pymorphy3 dictionaries are read from their own files (:mod:`lexicon.morphdict`), not through the
analyser: the same forms and readings as pymorphy3's ``iter_known_words``, in a second or two.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import BinaryIO, NamedTuple

from scoring.rules import APOSTROPHES, RuleSet, fold_accents, get_ruleset

from . import morphdict
from .graph import MAX_WORD_LENGTH, MIN_WORD_LENGTH, PackedWords, pack_lines
from .skips import MAX_EXAMPLES, SkipReport

MIN_LEN, MAX_LEN = MIN_WORD_LENGTH, MAX_WORD_LENGTH

#: Readings with any of these grammemes do not make a word form valid.
RU_EXCLUDED = frozenset({"Name", "Surn", "Patr", "Geox", "Orgn", "Trad", "Abbr", "Init", "Erro", "Dist"})
UK_EXCLUDED = frozenset({"Name", "Surn", "Patr", "Abbr", "Init", "Dist"})

RU_LETTERS = frozenset("абвгдеёжзийклмнопрстуфхцчшщъыьэюя")
UK_LETTERS = frozenset("абвгґдеєжзиіїйклмнопрстуфхцчшщьюя")

#: The Debian hunspell dictionary read for the ``uk`` source when installed.
UK_HUNSPELL_DIC = Path("/usr/share/hunspell/uk_UA.dic")

ProgressFn = Callable[[float], None]


class SourceError(Exception):
    """A word source cannot be read; the message says why, for humans."""


class SourceResult(NamedTuple):
    """Accepted words (unique, upper case) and what was left out."""

    words: Sequence[str]  #: a list, or PackedWords from the fast readers
    skipped: SkipReport


# -- pymorphy3 dictionaries ------------------------------------------------------


def package_version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def describe_package_source(kind: str) -> str:
    """``pymorphy3-dicts-ru 2.4.417150.4580142 (pymorphy3 2.0.6)`` and the like."""
    lang = "uk" if kind == "uk" else "ru"
    text = f"pymorphy3-dicts-{lang} {package_version('pymorphy3-dicts-' + lang)} (pymorphy3 {package_version('pymorphy3')})"
    return text


def _tag_codes(dictionary: morphdict.MorphDictionary, excluded: frozenset[str], nouns_only: bool) -> bytes:
    """Per tag id: 0 when a reading with that tag counts, else the index of its reason in :data:`_REASONS`."""
    codes = bytearray()
    for tag in dictionary.tags:
        grammemes = morphdict.grammemes_of(tag)
        if grammemes & excluded:
            codes.append(1)
        elif nouns_only and not _is_nominative_noun(grammemes):
            codes.append(2)
        else:
            codes.append(0)
    return bytes(codes)


#: Why a reading does not count, by code (0: it counts).
_REASONS = ("", "excluded_tag", "not_nominative_noun", "proper_lemma")


def _is_nominative_noun(grammemes: frozenset[str]) -> bool:
    if "NOUN" not in grammemes or "nomn" not in grammemes:
        return False
    if "sing" in grammemes:
        return True
    return "plur" in grammemes and "Pltm" in grammemes


def _letters_check(word: str, letters: frozenset[str], apostrophe: bool) -> tuple[str, str] | None:
    """A (reason, detail) when ``word`` (lower case, as in the dictionary) is not playable."""
    foreign = {c for c in word if c not in letters}
    if apostrophe and foreign == {"'"}:
        if word[0] == "'" or word[-1] == "'" or "''" in word:
            return "misplaced_apostrophe", ""
    elif foreign:
        return "foreign_letter", "".join(sorted(foreign - {"'"} if apostrophe else foreign))
    n = len(word)
    if n < MIN_LEN:
        return "too_short", ""
    if n > MAX_LEN:
        return "too_long", f"{n}"
    return None


def _respell(word: str) -> str:
    """Ukrainian ’ and ʼ written as the apostrophe tile '."""
    return word.replace("\u2019", "'").replace("\u02bc", "'")


def _report_skipped(report: SkipReport, scan: morphdict.FormScan, letters: frozenset[str], apostrophe: bool) -> None:
    """Notes every form the scan left out, with its reason (the examples as the forms come in the dictionary)."""
    skipped = scan.skipped.decode("utf-8").split("\n")
    noted = dict.fromkeys(scan.counts, 0)
    for word, code in zip(skipped, scan.codes, strict=False):
        noted[code] += 1
        if code != morphdict.LETTER_FAIL:
            report.add(_REASONS[code], word)
            continue
        bad = _letters_check(_respell(word) if apostrophe else word, letters, apostrophe)
        if bad is None:  # pragma: no cover - the C scan and _letters_check disagree
            raise SourceError(f"the dictionary scan left out {word!r} for its letters, which are playable")
        kind, detail = bad
        if kind == "foreign_letter":
            report.add_foreign(word, detail)
        else:
            report.add(kind, word, detail)
    for code, count in scan.counts.items():  # the forms counted but not kept (only their number is noted)
        if code != morphdict.LETTER_FAIL and count > noted[code]:
            report.counts[_REASONS[code]] += count - noted[code]


def _pymorphy_source(
    lang: str,
    letters: frozenset[str],
    excluded: frozenset[str],
    *,
    nouns_only: bool = False,
    proper_lemmas: frozenset[str] = frozenset(),
    yo_as_e: bool = False,
    progress: ProgressFn | None = None,
) -> SourceResult:
    """The forms of the dictionary of ``lang``: all readings excluded, or (``nouns_only``) not a nominative
    noun, or of a lemma in ``proper_lemmas``, leave a form out; so do letters that are not ``letters``."""
    apostrophe = lang == "uk"
    if progress is not None:
        progress(0.0)
    try:
        dictionary = morphdict.open_dictionary(lang)
        scan = dictionary.scan(_tag_codes(dictionary, excluded, nouns_only), "".join(sorted(letters)),
                               apostrophe=apostrophe, proper_lemmas=proper_lemmas,
                               proper_code=_REASONS.index("proper_lemma"), keep=MAX_EXAMPLES)
    except morphdict.DictionaryError as exc:
        raise SourceError(str(exc)) from None
    report = SkipReport()
    _report_skipped(report, scan, letters, apostrophe)
    packed = None if yo_as_e else _packed_forms(lang, scan.accepted)
    if packed is not None:
        if progress is not None:
            progress(1.0)
        return SourceResult(packed, report)
    words = scan.accepted.decode("utf-8").upper().split("\n")
    words.pop()  # after the last new line
    if apostrophe:  # ’ and ʼ written ' may meet a form spelt with ' already
        unique = list(dict.fromkeys(words))
        if len(unique) != len(words):
            for w in _duplicates(words):
                report.add("duplicate", w)
            words = unique
    if yo_as_e:
        add_yo_as_e(words, report)
    if progress is not None:
        progress(1.0)
    return SourceResult(words, report)


def _packed_forms(lang: str, accepted: bytes) -> PackedWords | None:
    """The accepted forms (lower case, one a line) packed for the graph builder; None when two are the same word."""
    alphabet = get_ruleset(PACKAGE_SOURCES["uk" if lang == "uk" else "ru"][0]).alphabet
    lower = {c.lower(): c for c in alphabet if len(c.lower()) == 1 and c.lower().upper() == c}
    packed = pack_lines(accepted, alphabet, lower)
    return packed.words if not packed.duplicates and not packed.left else None


def _duplicates(words: list[str]) -> list[str]:
    seen: set[str] = set()
    repeated = []
    for w in words:
        if w in seen:
            repeated.append(w)
        seen.add(w)
    return repeated


def add_yo_as_e(words: list[str], report: SkipReport | None = None) -> int:
    """Adds to ``words`` (in place) the spelling with Е of every word with Ё, when new.

    Returns how many were added (and notes it in ``report``).
    """
    have = set(words)
    added = sorted({w.replace("Ё", "Е") for w in words if "Ё" in w} - have)
    words.extend(added)
    if report is not None:
        report.notes.append(f"ё may be written е: {len(added):,} spellings with Е added")
    return len(added)


def words_ru(*, yo_as_e: bool = False, progress: ProgressFn | None = None) -> SourceResult:
    """All Russian word forms (the ``make_wordlist.py ru`` list with the default options)."""
    return _pymorphy_source("ru", RU_LETTERS, RU_EXCLUDED, yo_as_e=yo_as_e, progress=progress)


def words_ru_nouns(*, yo_as_e: bool = False, progress: ProgressFn | None = None) -> SourceResult:
    """Common nouns, nominative singular (+ nominative plural of plural-only nouns)."""
    return _pymorphy_source("ru", RU_LETTERS, RU_EXCLUDED, nouns_only=True, yo_as_e=yo_as_e, progress=progress)


def hunspell_capitalised_only(paths: Iterable[str | os.PathLike[str]]) -> set[str]:
    """Stems (lower-cased) that the hunspell .dic files spell only with a capital letter.

    The stems of all files are pooled: a stem written in lower case in any of
    them is not a proper-noun lemma.
    """
    capitalised: set[str] = set()
    lower: set[str] = set()
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                next(f, None)  # the first line is the entry count
                for line in f:
                    stem = line.split("/", 1)[0].strip()
                    if stem:
                        (capitalised if stem[0].isupper() else lower).add(stem.lower())
        except OSError as exc:
            raise SourceError(f"cannot read the hunspell dictionary {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError as exc:
            raise SourceError(f"the hunspell dictionary {path} is not UTF-8: {exc}") from None
    return capitalised - lower


def default_hunspell_paths() -> list[Path]:
    return [UK_HUNSPELL_DIC] if UK_HUNSPELL_DIC.is_file() else []


def words_uk(
    *,
    hunspell_paths: Iterable[str | os.PathLike[str]] | None = None,
    progress: ProgressFn | None = None,
) -> SourceResult:
    """All Ukrainian word forms; ``hunspell_paths`` defaults to the Debian uk_UA.dic when installed."""
    paths = default_hunspell_paths() if hunspell_paths is None else list(hunspell_paths)
    proper = frozenset(hunspell_capitalised_only(paths))
    result = _pymorphy_source(
        "uk", UK_LETTERS, UK_EXCLUDED, proper_lemmas=proper, progress=progress
    )
    if paths:
        result.skipped.notes.append("hunspell dictionaries read: " + ", ".join(str(p) for p in paths))
    else:
        result.skipped.notes.append("no hunspell dictionary installed: proper-noun lemmas untagged by pymorphy3 kept")
    return result


#: Package sources by name: (rule set, reader, description of the filter).
PACKAGE_SOURCES = {
    "ru": ("ru", "all word forms of OpenCorpora (pymorphy3-dicts-ru), no proper nouns or abbreviations"),
    "ru-nouns": ("ru", "common nouns, nominative singular + plural-only nouns (Эрудит convention)"),
    "uk": ("uk", "all word forms of VESUM (pymorphy3-dicts-uk), no proper nouns or abbreviations"),
}


def package_source(
    kind: str,
    *,
    yo_as_e: bool = False,
    hunspell_paths: Iterable[str | os.PathLike[str]] | None = None,
    progress: ProgressFn | None = None,
) -> SourceResult:
    """Reads the package source ``kind`` (a key of :data:`PACKAGE_SOURCES`)."""
    if kind == "ru":
        return words_ru(yo_as_e=yo_as_e, progress=progress)
    if kind == "ru-nouns":
        return words_ru_nouns(yo_as_e=yo_as_e, progress=progress)
    if kind == "uk":
        if yo_as_e:
            raise SourceError("the option “ё may be written е” applies to Russian sources only")
        return words_uk(hunspell_paths=hunspell_paths, progress=progress)
    raise SourceError(f"unknown word source {kind!r} (known: {', '.join(PACKAGE_SOURCES)})")


# -- word-list files ---------------------------------------------------------------


class WordNormalizer:
    """Turns a line of a word list into tiles of a rule set, or says why not."""

    def __init__(self, ruleset: RuleSet):
        self.ruleset = ruleset
        self.letters = frozenset(ruleset.alphabet)
        self.apostrophe = "'" in self.letters
        self.fold = ruleset.fold_accents
        self.table = str.maketrans(APOSTROPHES) if self.apostrophe else None

    def normalize(self, raw: str) -> str:
        word = raw.translate(self.table) if self.table else raw
        upper = word.upper()
        if self.fold:
            return upper if upper.isascii() else fold_accents(upper)
        if len(upper) != len(word):
            # ß → SS and the like: a letter without a single capital is not a tile; keep it to report it
            return "".join(c if len(c.upper()) != 1 else c.upper() for c in word)
        return upper

    def check(self, word: str) -> tuple[str, str] | None:
        return _letters_check(word, self.letters - {"'"}, self.apostrophe)


def _is_capitalised(raw: str) -> bool:
    return raw != raw.lower()


def decode_line(raw: bytes, number: int, name: str) -> str:
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SourceError(
            f"{name}: line {number} is not valid UTF-8 (word lists must be UTF-8 text, one word per line)"
        ) from None
    if number == 1 and line.startswith("\ufeff"):
        line = line[1:]
    if "\0" in line:
        raise SourceError(f"{name}: line {number} contains a NUL byte; this is not a text word list")
    return line


def _lines(stream: BinaryIO, name: str, total: int, progress: ProgressFn | None) -> Iterator[str]:
    done = 0
    next_report = 0
    for number, raw in enumerate(stream, start=1):
        done += len(raw)
        yield decode_line(raw, number, name)
        if progress is not None and total and done >= next_report:
            progress(min(done / total, 1.0))
            next_report = done + max(total // 100, 1)
    if progress is not None:
        progress(1.0)


@contextmanager
def opened(source: str | os.PathLike[str] | BinaryIO) -> Iterator[tuple[BinaryIO, str]]:
    """The word list as a binary stream, and its name; a path is opened here and closed afterwards."""
    if not isinstance(source, str | os.PathLike):
        yield source, str(getattr(source, "name", "word list"))
        return
    try:
        stream: BinaryIO = open(source, "rb")  # noqa: SIM115
    except OSError as exc:
        raise SourceError(f"cannot read the word list {source}: {exc.strerror or exc}") from None
    with stream:
        yield stream, str(source)


def _size(stream: BinaryIO) -> int:
    """The stream's size in bytes (0 when unknown: no progress is reported then)."""
    try:
        return os.fstat(stream.fileno()).st_size
    except (OSError, AttributeError, ValueError):
        return 0


def read_wordlist(
    source: str | os.PathLike[str] | BinaryIO,
    ruleset: str | RuleSet,
    *,
    skip_capitalised: bool = False,
    progress: ProgressFn | None = None,
) -> SourceResult:
    """Reads a word list: UTF-8, one word per line (BOM, CRLF, blank lines and
    surrounding spaces tolerated).

    Words are upper-cased; Ukrainian ’ and ʼ read as ``'``; French accents and
    ligatures fold to A–Z. Every word is checked against the rule set's
    letters and 2–15 tiles.

    ``skip_capitalised`` leaves out words written with any capital letter (the
    proper nouns and abbreviations of lower-case lists such as Debian's). It
    only applies when the list has lower-case words at all: in a list written
    entirely in capitals, case says nothing and every word is kept.
    """
    rs = ruleset if isinstance(ruleset, RuleSet) else get_ruleset(ruleset)
    reader = ListReader(rs, skip_capitalised)
    with opened(source) as (stream, name):
        for line in _lines(stream, name, _size(stream), progress):
            reader.line(line)
    return reader.finish()


class ListReader:
    """The lines of a word list, one at a time: the words accepted and the report of the others."""

    def __init__(self, ruleset: RuleSet, skip_capitalised: bool):
        self.norm = WordNormalizer(ruleset)
        self.skip_capitalised = skip_capitalised
        self.report = SkipReport()
        self.accepted: dict[str, None] = {}
        self.capitalised: list[str] = []
        self.has_lower = False
        self.lines_read = 0
        self.capitalised_elsewhere = False  #: capitalised lines read as words by someone else

    def take(self, raw: str) -> None:
        word = self.norm.normalize(raw)
        bad = self.norm.check(word)
        if bad is not None:
            reason, detail = bad
            if reason == "foreign_letter":
                self.report.add_foreign(raw, detail)
            else:
                self.report.add(reason, raw, detail)
        elif word in self.accepted:
            self.report.add("duplicate", raw, word if word != raw else "")
        else:
            self.accepted[word] = None

    def line(self, line: str) -> None:
        raw = line.strip()
        if not raw:
            return
        self.lines_read += 1
        if " " in raw or "\t" in raw:
            self.report.add("foreign_letter", raw, "space")
            self.report.letters["space"] = self.report.letters.get("space", 0) + 1
            return
        if self.skip_capitalised:
            if _is_capitalised(raw):
                self.capitalised.append(raw)
                return
            if not self.has_lower and raw != raw.upper():
                self.has_lower = True
        self.take(raw)

    def finish(self) -> SourceResult:
        report = self.report
        if self.skip_capitalised and (self.capitalised or self.capitalised_elsewhere):
            if self.has_lower:
                for raw in self.capitalised:
                    report.add("capitalised", raw)
            else:
                report.notes.append("the list is written in capitals: “skip capitalised words” did not apply")
                for raw in self.capitalised:
                    self.take(raw)
        if self.lines_read == 0:
            report.notes.append("the file holds no words")
        return SourceResult(list(self.accepted), report)


# -- Debian word lists ------------------------------------------------------------------


@dataclass(frozen=True)
class DebianList:
    key: str
    path: Path
    ruleset: str
    package: str
    label: str

    @property
    def installed(self) -> bool:
        return self.path.is_file()

    def describe(self) -> str:
        version = debian_package_version(self.package)
        return f"Debian {self.package} {version} ({self.path})" if version else f"Debian {self.package} ({self.path})"


DEBIAN_LISTS = (
    DebianList("pl", Path("/usr/share/dict/polish"), "pl", "wpolish", "Polish (Debian wpolish)"),
    DebianList("fr", Path("/usr/share/dict/french"), "fr", "wfrench", "French (Debian wfrench)"),
    DebianList("en-us", Path("/usr/share/dict/american-english"), "en", "wamerican", "American English (Debian wamerican)"),
    DebianList("en-gb", Path("/usr/share/dict/british-english"), "en", "wbritish", "British English (Debian wbritish)"),
)

DPKG_STATUS = Path("/var/lib/dpkg/status")


def debian_package_version(package: str) -> str:
    """The installed version of a Debian package, from the dpkg status file ('' if unknown)."""
    try:
        text = DPKG_STATUS.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    for block in text.split("\n\n"):
        if re.search(rf"^Package: {re.escape(package)}$", block, re.M):
            found = re.search(r"^Version: (.+)$", block, re.M)
            return found.group(1).strip() if found else ""
    return ""


def debian_wordlists(installed_only: bool = True) -> list[DebianList]:
    """The Debian word lists this system knows, those installed by default."""
    return [d for d in DEBIAN_LISTS if d.installed or not installed_only]


def debian_list(key: str) -> DebianList:
    for d in DEBIAN_LISTS:
        if d.key == key:
            if not d.installed:
                raise SourceError(f"the Debian word list {key!r} ({d.path}) is not installed (apt-get install {d.package})")
            return d
    raise SourceError(f"unknown Debian word list {key!r} (known: {', '.join(d.key for d in DEBIAN_LISTS)})")
