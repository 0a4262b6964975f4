"""No tracked file tells the story of its own development: documents and comments say how things are, with the
command and the date of a figure; the way there is what ``git log`` keeps.

The patterns are the diary's own words ("stop 33's runs", "before this change", "this session", a CI
"landing"), precise enough to leave the game's words alone (the previous rack, a round that stops, a
session of a club, the hall's home page)."""

from __future__ import annotations

import re
import subprocess

from tests.paths import ROOT

HISTORY = [
    # "stop 33's", "stops 24 to 32", "stop-41"; not "stops 3 s later" nor kill's "-STOP 1234"
    (re.compile(r"(?<![-\w])stops?[ -]\d+(?![\d.,]*\s*(?:s|ms|µs|seconds?|minutes?|min)\b)", re.IGNORECASE),
     "a stop's number"),
    (re.compile(r"\bbefore this (?:change|stop|session)\b", re.IGNORECASE), "before this change"),
    (re.compile(r"\bat the previous step\b", re.IGNORECASE), "at the previous step"),
    (re.compile(r"\b(?:previous|this|that|earlier|next) session(?:'s)? machine\b", re.IGNORECASE),
     "a session's machine"),
    (re.compile(r"\b(?:previous|earlier) session\b", re.IGNORECASE), "the previous session"),
    (re.compile(r"\bthis session\b(?! cookie)", re.IGNORECASE), "this session"),
    (re.compile(r"\bthis stop\b", re.IGNORECASE), "this stop"),
    (re.compile(r"\bland(?:ing|ed)\b", re.IGNORECASE), "a landing"),
]
#: This file states the patterns it looks for.
SELF = "tests/docs/test_no_history.py"
BINARY = (".png", ".jpg", ".jpeg", ".gif", ".pdf", ".ico", ".woff", ".woff2", ".ttf", ".mo", ".kwg", ".zip", ".gz",
          ".sqlite3", ".so")


def tracked_text_files() -> list[str]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [name for name in listed.decode().split("\0") if name and name != SELF and not name.endswith(BINARY)]


def history_lines(name: str, text: str) -> list[str]:
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for pattern, what in HISTORY:
            if pattern.search(line):
                found.append(f"{name}:{number}: {what}: {line.strip()[:140]}")
    return found


def test_no_tracked_file_tells_the_development_history():
    found = []
    for name in tracked_text_files():
        path = ROOT / name
        if not path.is_file():
            continue  # deleted in the work tree, not yet committed
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        found += history_lines(name, text)
    assert not found, "development history in tracked files:\n" + "\n".join(found)


def test_the_patterns_find_the_diary_and_leave_the_game_alone():
    diary = ["Stop 33's three runs each", "the code before stop 32", "stop-41 figures", "before this change",
             "at the previous step", "on this session's machine", "this stop adds", "stop 29's landing",
             "what has landed", "the previous session's notes"]
    for line in diary:
        assert history_lines("x", line), line
    game = ["the previous rack's leftover", "a round stops at the deadline", "the club session's leader",
            "the hall's home page", "the tournament last opened in the arbiter's session", "a redraw stops 3 s later"]
    for line in game:
        assert not history_lines("x", line), line
