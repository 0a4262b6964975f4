"""Word forms a word source leaves out (:class:`SkipReport`): counted by reason, with a few examples of each.

No Django.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypedDict

from .graph import MAX_WORD_LENGTH, MIN_WORD_LENGTH

MAX_EXAMPLES = 10

#: Human descriptions of the skip reasons (keys of :class:`SkipReport`).
REASONS = {
    "foreign_letter": "a letter that is not in the tile set",
    "misplaced_apostrophe": "apostrophe not between two letters",
    "too_short": f"shorter than {MIN_WORD_LENGTH} tiles",
    "too_long": f"longer than {MAX_WORD_LENGTH} tiles",
    "capitalised": "written with a capital letter (proper noun or abbreviation)",
    "duplicate": "the same word again (after upper-casing and normalising)",
    "excluded_tag": "only readings as a proper noun, abbreviation, initial or misspelling",
    "proper_lemma": "lemma spelt only with a capital letter in the hunspell dictionary",
    "not_nominative_noun": "not a common noun in the nominative (singular, or plural of a plural-only noun)",
}


@dataclass
class SkipReport:
    """Word forms left out, counted by reason, with a few examples of each."""

    counts: dict[str, int] = field(default_factory=dict)
    examples: dict[str, list[str]] = field(default_factory=dict)
    #: foreign letters found, with the number of words that contain each
    letters: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        return sum(self.counts.values())

    def add(self, reason: str, word: str, detail: str = "") -> None:
        self.counts[reason] = self.counts.get(reason, 0) + 1
        shown = self.examples.setdefault(reason, [])
        if len(shown) < MAX_EXAMPLES:
            shown.append(f"{word} ({detail})" if detail else word)

    def add_foreign(self, word: str, foreign: Iterable[str]) -> None:
        letters = sorted(set(foreign))
        for letter in letters:
            self.letters[letter] = self.letters.get(letter, 0) + 1
        self.add("foreign_letter", word, ", ".join(_show_letter(c) for c in letters))

    def to_dict(self) -> SkipReportDict:
        return {
            "count": self.count,
            "by_reason": {
                reason: {
                    "count": n,
                    "label": REASONS.get(reason, reason),
                    "examples": list(self.examples.get(reason, [])),
                }
                for reason, n in sorted(self.counts.items(), key=lambda kv: -kv[1])
            },
            "foreign_letters": dict(sorted(self.letters.items(), key=lambda kv: -kv[1])),
            "notes": list(self.notes),
        }

    def summary(self) -> str:
        """One line: ``12 skipped: 7 foreign letter, 5 too long``."""
        if not self.counts:
            return "0 skipped"
        parts = [f"{n:,} {reason.replace('_', ' ')}" for reason, n in sorted(self.counts.items(), key=lambda kv: -kv[1])]
        return f"{self.count:,} skipped: " + ", ".join(parts)


class SkippedReason(TypedDict):
    count: int
    label: str
    examples: list[str]


class SkipReportDict(TypedDict):
    """A :class:`SkipReport` as stored with a lexicon (most frequent reasons and letters first)."""

    count: int
    by_reason: dict[str, SkippedReason]
    foreign_letters: dict[str, int]
    notes: list[str]


def _show_letter(c: str) -> str:
    if c.isprintable() and not c.isspace():
        return c
    return f"U+{ord(c):04X}"


__all__ = ["MAX_EXAMPLES", "REASONS", "SkipReport", "SkipReportDict", "SkippedReason"]
