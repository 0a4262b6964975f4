"""What a person reads on a screen, checked as he would read it: the text ``innerText`` shows (not the HTML the
server sent), in the hall's language and coordinate script, every time in the hall's zone, counts in their
plural form. Used by the rehearsal (``tests/tournament/rehearsal/``); each check returns what is wrong, one
line each, so that a test lists every defect of a page at once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

#: A coordinate with a Latin row letter in the duplicate convention (H8, 8H, 11D): never in a Cyrillic hall.
#: (The first signs of an access code, "5C…", are not one.)
LATIN_COORDINATE = re.compile(r"(?<![\w/.#:-])(?:[A-O](?:1[0-5]|[1-9])|(?:1[0-5]|[1-9])[A-O])(?![\w/.…-])")
#: English words of our sentences (ASCII only: a Cyrillic or Polish sentence never holds them).
ENGLISH = re.compile(
    r"(?<![\w'’-])(the|and|is|are|not|of|to|for|with|from|this|that|was|has|have|your|you|round|rounds|slip|"
    r"slips|rack|score|scores|points?|players?|games?|moves?|warning|warnings|table|tables|close|open|published|"
    r"judge|judged|review|standings|top|tiles?|words?|missing|late|none|save|cancel|print|logout|log out|"
    r"settings|name|club|language|arbiter|lexicon|check|upload|status|draw|drawn|redraw|received|seconds|"
    r"minutes|total|rank|bag|blank|blanks|verdict|verdicts|correct|wrong|place|announced|time|next|start|"
    r"over|wait|waiting|training|run|join|leader|session|code|hand in|replace|typing)(?![\w'’-])",
    re.IGNORECASE)
#: Letters one of the two Cyrillic languages has and the other has not: a Russian word on a Ukrainian page, or
#: the reverse (names and the board's words are the hall's own, in its language).
NOT_IN = {"uk": re.compile(r"[ыэъёЫЭЪЁ]"), "ru": re.compile(r"[іїєґІЇЄҐ]")}
#: A time of day as a page may write it: with seconds (09:07:33, 9:07:33), with a two-digit hour (14:05) or with
#: AM/PM (4:02 AM, a browser's own format). A countdown or a duration ("2:54", "1:05") is none of these.
TIME_OF_DAY = re.compile(r"(?<![\d:.,])(?:([01]?\d|2[0-3]):([0-5]\d):[0-5]\d|([01]\d|2[0-3]):([0-5]\d)(?!:\d)"
                         r"|(1[0-2]|0?\d):([0-5]\d)\s?[AP]M)(?![\d:])")


def latin_coordinates(text: str, allowed: Iterable[str] = ()) -> list[str]:
    keep = set(allowed)
    return [f"Latin coordinate {m.group(0)!r} in …{text[max(0, m.start() - 40):m.end() + 40]!r}…"
            for m in LATIN_COORDINATE.finditer(text) if m.group(0) not in keep]


def foreign_words(text: str, language: str, allowed: Iterable[str] = ()) -> list[str]:
    """English words of ours, and for ru/uk the letters of the other language, line by line."""
    for data in sorted(allowed, key=len, reverse=True):
        text = text.replace(data, " ")
    text = re.sub(r"\bhttps?://\S+", " ", text)  # an address is not a sentence
    found = []
    for line in text.splitlines():
        if language != "en" and (m := ENGLISH.search(line)):
            found.append(f"English {m.group(0)!r} in {line[:160]!r}")
        other = NOT_IN.get(language)
        if other is not None and (m := other.search(line)):
            found.append(f"a letter of another language {m.group(0)!r} in {line[:160]!r}")
    return found


@dataclass(frozen=True)
class Clocks:
    """The zones a rehearsal mismatches on purpose: the hall's, the server's, the browser's (and UTC)."""

    hall: str
    others: tuple[str, ...]

    def wrong_times(self, text: str, now: datetime, slack_minutes: int = 20) -> list[str]:
        """Times of day on the page that are the time of another zone than the hall's (within ``slack_minutes`` of
        its now): a time written in the server's, the browser's or UTC's clock. A countdown or a duration matches
        no zone's now (or the hall's), and passes."""
        found = []
        zones = (self.hall, *self.others)
        nows = {zone: now.astimezone(ZoneInfo(zone)) for zone in zones}
        for m in TIME_OF_DAY.finditer(text):
            hour, minutes = (int(g) for g in next(pair for pair in (m.group(1, 2), m.group(3, 4), m.group(5, 6))
                                                  if pair[0] is not None))
            if m.group(5) is not None and m.group(0).rstrip().endswith("PM") and hour < 12:
                hour += 12
            minute = hour * 60 + minutes
            near = {zone: _minutes_apart(minute, t.hour * 60 + t.minute) for zone, t in nows.items()}
            best = min(near, key=lambda zone: near[zone])
            if near[best] <= slack_minutes and best != self.hall and near[self.hall] > slack_minutes:
                found.append(f"time {m.group(0)} is {best}'s clock, not the hall's ({self.hall}: "
                             f"{nows[self.hall]:%H:%M}) in …{text[max(0, m.start() - 40):m.end() + 20]!r}")
        return found


def _minutes_apart(a: int, b: int) -> int:
    d = abs(a - b) % (24 * 60)
    return min(d, 24 * 60 - d)


#: Nouns counted on the screens, by language: (one, few, many) — the nominative after a bare number.
NOUNS: dict[str, list[tuple[str, str, str]]] = {
    "uk": [("очко", "очки", "очок"), ("фішка", "фішки", "фішок"), ("гравець", "гравці", "гравців"),
           ("бланк", "бланки", "бланків"), ("хід", "ходи", "ходів"), ("гра", "гри", "ігор"),
           ("секунда", "секунди", "секунд"), ("хвилина", "хвилини", "хвилин"), ("слово", "слова", "слів"),
           ("стіл", "столи", "столів"), ("раунд", "раунди", "раундів"), ("топ", "топи", "топів"),
           ("спроба", "спроби", "спроб")],
    "ru": [("очко", "очка", "очков"), ("фишка", "фишки", "фишек"), ("игрок", "игрока", "игроков"),
           ("бланк", "бланка", "бланков"), ("ход", "хода", "ходов"), ("игра", "игры", "игр"),
           ("секунда", "секунды", "секунд"), ("минута", "минуты", "минут"), ("слово", "слова", "слов"),
           ("стол", "стола", "столов"), ("топ", "топа", "топов"), ("попытка", "попытки", "попыток")],
}
#: A preposition before the number governs the noun's case (uk "з 12 гравців", ru "из 12 игроков"): not checked.
PREPOSITIONS = {"з", "із", "зі", "до", "по", "на", "у", "в", "из", "от", "о", "об", "про", "після", "после", "серед", "среди", "між", "между"}


def plural_form(n: int) -> int:
    """The East Slavic plural form of ``n``: 0 one (1, 21…), 1 few (2–4, 22–24…), 2 many (5–20, 25…)."""
    if n % 10 == 1 and n % 100 != 11:
        return 0
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return 1
    return 2


def wrong_plurals(text: str, language: str) -> list[str]:
    """"42 очок", "2 фішок": a number followed by one of :data:`NOUNS` in the form another number takes."""
    forms = NOUNS.get(language)
    if not forms:
        return []
    found = []
    by_word = {word: (i, triple) for triple in forms for i, word in enumerate(triple)}
    for m in re.finditer(r"(?<![\d:.,])(\d+)[ \u00a0]+(\w+)", text):  # on one line: "3 бланки", not "3\nБланк"
        number, word = int(m.group(1)), m.group(2).lower()
        before = re.search(r"(\w+)[ \u00a0]*$", text[:m.start()].rsplit("\n", 1)[-1])
        if word not in by_word or m.group(2)[0].isupper() or (before and before.group(1).lower() in PREPOSITIONS):
            # a capital starts another label ("Хід 1 Фішки витягнуто"), not a counted noun
            continue
        form, triple = by_word[word]
        if len(set(triple)) == 3 and form != plural_form(number):
            found.append(f"plural: {m.group(1)} {m.group(2)!r} should be {triple[plural_form(number)]!r}")
    return found
