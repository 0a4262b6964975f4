"""The rehearsal's stage: a hall on a live server whose every clock and language differs on purpose, and the eyes
that read each screen as its person does.

* the server's zone is Europe/Warsaw; the tournament's is the hall's (Kyiv, Yekaterinburg); the browsers speak
  en-US and live in America/New_York — a time shown in any zone but the hall's is a defect;
* every page is read as ``innerText`` (what the person sees, after the scripts ran), and checked: the page's
  language is the hall's, no Latin row letter in a Cyrillic hall, no English sentence of ours and no word of the
  other Cyrillic language, every time of day in the hall's zone, counts in their plural form;
* each state is photographed at the size its person uses and at the other one (tablet 800×1280, laptop
  1366×768; a phone 390×844 for the phone's own states) under ``var/rehearsal/<language>/`` of the checkout (``REHEARSAL_DIR`` to change it).
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils.translation import get_language_info

from tests.paths import LEXICONS, ROOT
from tests.tools.browser import new_page
from tests.tools.seen import Clocks, foreign_words, latin_coordinates, wrong_plurals

#: Where the photographs go (the checkout's var/rehearsal/, whatever var dir the test run uses).
SHOTS = Path(os.environ.get("REHEARSAL_DIR", ROOT / "var" / "rehearsal"))
SERVER_ZONE = "Europe/Warsaw"
BROWSER = {"locale": "en-US", "timezone_id": "America/New_York"}
TABLET, LAPTOP, PHONE = (800, 1280), (1366, 768), (390, 844)


@dataclass(frozen=True)
class HallSpec:
    """One hall of the rehearsal: its language, rule set, zone, names (Cyrillic, of its own language)."""

    language: str
    zone: str
    name: str
    venue: str
    club: str
    players: tuple[str, str, str]
    why_end: str
    why_override: str

    @property
    def words(self) -> Path:
        return LEXICONS / f"sim-{self.language}.txt"


HALLS = {
    "uk": HallSpec("uk", "Europe/Kyiv", "Кубок Полтави", "Полтава", "Ерудит",
                   ("Олена Коваль", "Іван Ґудзь", "Марія Шевчук"), "зала зачиняється", "бланк перевірено"),
    "ru": HallSpec("ru", "Asia/Yekaterinburg", "Кубок Урала", "Екатеринбург", "Эрудит",
                   ("Анна Зайцева", "Борис Орлов", "Вера Щукина"), "зал закрывается", "бланк проверен"),
}


@dataclass
class Eyes:
    """Reads screens for one hall and keeps every defect found (the test lists them all at the end)."""

    hall: HallSpec
    live_server: Any
    chromium: Any
    problems: list[str] = field(default_factory=list)
    shots: list[Path] = field(default_factory=list)
    looked: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.folder = SHOTS / self.hall.language
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder.mkdir(parents=True)
        self.clocks = Clocks(self.hall.zone, (SERVER_ZONE, BROWSER["timezone_id"], "UTC"))

    def page(self, size: tuple[int, int] = TABLET, **options: Any) -> Any:
        """A browser page of a person of this hall: en-US, New York, as a stranger's device is."""
        page = new_page(self.chromium, self.live_server, width=size[0], height=size[1], **BROWSER, **options)
        page.size = size
        return page

    def look(self, page: Any, state: str, *, allowed: tuple[str, ...] = (), other: tuple[int, int] | None = None) -> str:
        """Reads the page as its person does, checks it, photographs it at its size and at ``other`` (the laptop
        for a tablet's state, the tablet for the console's). Returns the visible text."""
        page.wait_for_load_state("load")
        page.wait_for_timeout(150)  # the scripts' first render
        text = page.evaluate("() => document.body.innerText")
        where = f"{len(self.looked) + 1:02d} {state}"
        self.looked.append(state)
        lang = page.evaluate("() => document.documentElement.lang")
        if lang != self.hall.language:
            self.problems.append(f"{where}: the page's language is {lang!r}, not the hall's {self.hall.language!r}")
        names = tuple(get_language_info(code)["name_local"] for code, _name in settings.LANGUAGES)  # a picker's
        found = (latin_coordinates(text) + foreign_words(text, self.hall.language, allowed + names)
                 + self.clocks.wrong_times(text, datetime.now(UTC)) + wrong_plurals(text, self.hall.language))
        self.problems += [f"{where}: {p}" for p in found]
        if page.js_errors:
            self.problems.append(f"{where}: script errors {page.js_errors}")
            page.js_errors.clear()
        self.photograph(page, f"{len(self.looked):02d}-{state}", other)
        return text

    def photograph(self, page: Any, name: str, other: tuple[int, int] | None) -> None:
        size = page.size
        page.evaluate("() => window.scrollTo(0, 0)")  # a full page from its top (a sticky bar stays in its place)
        sizes = [size] + ([other] if other else [LAPTOP if size != LAPTOP else TABLET])
        for w, h in sizes:
            if (w, h) != size:
                page.set_viewport_size({"width": w, "height": h})
                page.wait_for_timeout(100)
            path = self.folder / f"{name}-{w}x{h}.png"
            page.screenshot(path=str(path), full_page=True)
            self.shots.append(path)
        if sizes[-1] != size:
            page.set_viewport_size({"width": size[0], "height": size[1]})

    def expect(self, condition: bool, what: str) -> None:
        """A fact of the play that must hold (recorded, so that one run lists every defect)."""
        if not condition:
            self.problems.append(f"{len(self.looked):02d} {self.looked[-1] if self.looked else '-'}: {what}")


def reopen(page: Any) -> None:
    """The page opened again at its address (a page that reloads itself may abort the first try: tried again, as a
    person presses F5 again)."""
    for attempt in range(4):
        try:
            page.goto(page.url, wait_until="load")
            return
        except Exception:  # noqa: BLE001 (Playwright's net::ERR_ABORTED, or a page the browser replaced meanwhile)
            if attempt == 3:
                raise
            page.wait_for_timeout(300)


def latin(coordinate: str) -> str:
    """A stored coordinate (Latin rows) as a player with a Latin keyboard types it: lower case ("h8", "8h")."""
    return coordinate.lower()


def cyrillic(coordinate: str) -> str:
    """A stored coordinate as the arbiter types it on a Cyrillic keyboard: З8, 8З."""
    latin_rows, cyrillic_rows = "ABCDEFGHIJKLMNO", "АБВГДЕЖЗИКЛМНОП"
    return re.sub(r"[A-O]", lambda m: cyrillic_rows[latin_rows.index(m.group(0))], coordinate)
