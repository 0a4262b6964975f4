"""The texts of a build report in the page's language: the graph layer stores codes and English notes.

A skip reason is shown by its code (``too_short``…); a note by the pattern it was written with
(lexicon/sources.py), any other note as written.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .graph import MAX_WORD_LENGTH, MIN_WORD_LENGTH
from .skips import REASONS
from .sources import PACKAGE_SOURCES


def reason_label(reason: str) -> str:
    """Why words were left out (a code of :data:`lexicon.skips.REASONS`), in the active language."""
    labels = {
        "foreign_letter": _("a letter that is not in the tile set"),
        "misplaced_apostrophe": _("apostrophe not between two letters"),
        "too_short": ngettext("shorter than %(n)d tile", "shorter than %(n)d tiles", MIN_WORD_LENGTH)
        % {"n": MIN_WORD_LENGTH},
        "too_long": ngettext("longer than %(n)d tile", "longer than %(n)d tiles", MAX_WORD_LENGTH)
        % {"n": MAX_WORD_LENGTH},
        "capitalised": _("written with a capital letter (proper noun or abbreviation)"),
        "duplicate": _("the same word again (after upper-casing and normalising)"),
        "excluded_tag": _("only readings as a proper noun, abbreviation, initial or misspelling"),
        "proper_lemma": _("lemma spelt only with a capital letter in the hunspell dictionary"),
        "not_nominative_noun": _("not a common noun in the nominative (singular, or plural of a plural-only noun)"),
    }
    return labels.get(reason) or REASONS.get(reason, reason)


#: The notes a build writes (lexicon/sources.py), each with its text in the active language.
NOTES: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (re.compile(r"ё may be written е: ([\d,\u202f ]+) spellings with Е added$"),
     lambda m: _("ё may be written е: %(n)s spellings with Е added") % {"n": m.group(1)}),
    (re.compile(r"hunspell dictionaries read: (.+)$"),
     lambda m: _("hunspell dictionaries read: %(files)s") % {"files": m.group(1)}),
    (re.compile(r"no hunspell dictionary installed: proper-noun lemmas untagged by pymorphy3 kept$"),
     lambda m: _("no hunspell dictionary installed: proper-noun lemmas untagged by pymorphy3 kept")),
    (re.compile(r"the list is written in capitals: “skip capitalised words” did not apply$"),
     lambda m: _("the list is written in capitals: “skip capitalised words” did not apply")),
    (re.compile(r"the file holds no words$"), lambda m: _("the file holds no words")),
]


def package_source_text(key: str) -> str:
    """What an installed package source holds (``sources.PACKAGE_SOURCES``), in the active language."""
    texts = {
        "ru": _("all word forms of OpenCorpora (pymorphy3-dicts-ru), no proper nouns or abbreviations"),
        "ru-nouns": _("common nouns, nominative singular + plural-only nouns (Эрудит convention)"),
        "uk": _("all word forms of VESUM (pymorphy3-dicts-uk), no proper nouns or abbreviations"),
    }
    return texts.get(key) or PACKAGE_SOURCES[key][1]


def note_text(note: str) -> str:
    """A note of a build report in the active language (as written when it matches no known note)."""
    for pattern, text in NOTES:
        found = pattern.match(note)
        if found:
            return text(found)
    return note


__all__ = ["note_text", "package_source_text", "reason_label"]
