"""The camera of the documentation's screenshots: the halls of the five languages, the browsers of strangers (a
locale and a time zone that are none of the halls'), and a photograph cropped to what matters, in 256 colours, with
the text the page showed kept for the checks."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from tests.tools.browser import arbiter_page, new_page
from tests.tournament.rehearsal.stage import HallSpec

#: Every screenshot of a language, as the guides reference them (docs/<language>/img/<name>.png).
NAMES = ("console-tournament", "console-round", "console-paper", "console-review", "console-standings",
         "tablet-login", "tablet-rack", "tablet-receipt", "tablet-result", "display", "training")
LANGUAGES = ("ru", "uk", "pl", "fr", "en")
TABLET, SCREEN = (800, 1280), (1280, 800)
#: The browsers' locale and zone: none of the halls' (a page that follows the device instead of the hall shows it).
BROWSER = {"locale": "de-DE", "timezone_id": "America/New_York"}

HALLS = {
    "ru": HallSpec("ru", "Europe/Moscow", "Кубок Волги", "Самара", "Эрудит",
                   ("Анна Зайцева", "Борис Орлов", "Вера Щукина"), "последний тур дня", "бланк проверен"),
    "uk": HallSpec("uk", "Europe/Kyiv", "Кубок Дніпра", "Дніпро", "Ерудит",
                   ("Олена Коваль", "Іван Ґудзь", "Марія Шевчук"), "останній тур дня", "бланк перевірено"),
    "pl": HallSpec("pl", "Europe/Warsaw", "Puchar Wisły", "Kraków", "Literaki",
                   ("Anna Nowak", "Piotr Wiśniewski", "Katarzyna Zając"), "ostatnia runda dnia", "kartka sprawdzona"),
    "fr": HallSpec("fr", "Europe/Paris", "Open de Lyon", "Lyon", "Scrabble Club Lyonnais",
                   ("Claire Martin", "Julien Bernard", "Sophie Dubois"), "dernière manche du jour",
                   "bulletin vérifié"),
    "en": HallSpec("en", "Europe/London", "Riverside Open", "York", "Riverside Club",
                   ("Emma Clarke", "James Walker", "Olivia Hughes"), "the day's last round", "slip checked"),
}
#: Three more players of each hall (their slips come in beside the photographed tablets').
MORE_PLAYERS = {
    "ru": ("Григорий Лебедев", "Дарья Соколова", "Егор Морозов"),
    "uk": ("Тарас Бондар", "Ірина Мельник", "Богдан Ткачук"),
    "pl": ("Tomasz Lewandowski", "Magdalena Wójcik", "Paweł Kamiński"),
    "fr": ("Nicolas Petit", "Camille Durand", "Antoine Moreau"),
    "en": ("Thomas Wright", "Sarah Green", "Daniel Hall"),
}


@dataclass
class Shot:
    """One photograph taken: its file, the page's language and the text it showed (``innerText``)."""

    path: Path
    lang: str
    text: str


@dataclass
class Camera:
    """Pages of strangers' browsers, and the photographs of one hall into ``folder``."""

    chromium: Any
    live_server: Any
    folder: Path
    shots: dict[str, Shot] = field(default_factory=dict)
    pages: list[Any] = field(default_factory=list)

    def tablet(self, **options: Any) -> Any:
        return self.opened(new_page(self.chromium, self.live_server, width=TABLET[0], height=TABLET[1], **BROWSER,
                                    **options))

    def screen(self) -> Any:
        return self.opened(new_page(self.chromium, self.live_server, width=SCREEN[0], height=SCREEN[1], **BROWSER))

    def console(self, user: Any, language: str) -> Any:
        return self.opened(arbiter_page(self.chromium, self.live_server, user, language=language, width=SCREEN[0],
                                        height=SCREEN[1], **BROWSER))

    def opened(self, page: Any) -> Any:
        self.pages.append(page)
        return page

    def close(self) -> None:
        """Every page closed with its browser context (a tablet left open would go on polling the next hall)."""
        for page in self.pages:
            page.context.close()
        self.pages.clear()

    def take(self, page: Any, name: str, *, top: str | None = None, bottom: str | None = None,
             height: int | None = None) -> Shot:
        """The page as its person sees it, from the top of the element ``top`` (else of the page) down to the bottom of
        the element ``bottom``, or ``height`` pixels, or the window's height (whichever is least), written as
        ``<name>.png`` in 256 colours."""
        assert name in NAMES, name
        page.wait_for_load_state("load")
        page.wait_for_timeout(200)  # the scripts' first render
        page.evaluate("() => window.scrollTo(0, 0)")
        if top is not None:
            page.evaluate("(s) => window.scrollTo(0, document.querySelector(s).getBoundingClientRect().top - 12)", top)
        size = page.viewport_size
        end = min(height or size["height"], size["height"])
        if bottom is not None:
            end = min(end, int(page.evaluate("(s) => document.querySelector(s).getBoundingClientRect().bottom", bottom)) + 12)
        png = page.screenshot(clip={"x": 0, "y": 0, "width": size["width"], "height": end}, animations="disabled",
                              caret="hide")
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"{name}.png"
        save_small(png, path)
        shot = Shot(path, page.evaluate("() => document.documentElement.lang"), page.inner_text("body"))
        self.shots[name] = shot
        return shot


def save_small(png: bytes, path: Path) -> None:
    """A screenshot in 256 colours without dithering (a page's flat colours survive it; the file is a third the size,
    and the same page gives the same bytes)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(path, optimize=True)
