"""The people of the rehearsal and what they do with their hands: the arbiter at his console (a laptop, typing in
Cyrillic), two players on their tablets (an 800×1280 tablet typing Latin coordinates, a phone), the hall display.
Each action is what the person does on the page — click, type, reload — never a call behind the page's back.
"""

from __future__ import annotations

import re
from typing import Any

from .stage import LAPTOP, PHONE, TABLET, Eyes, cyrillic, latin, reopen
from .world import World


class Arbiter:
    """The arbiter's console in one browser page."""

    def __init__(self, world: World, eyes: Eyes):
        self.w, self.eyes = world, eyes
        self.page = eyes.page(LAPTOP)
        self.base = f"/arbiter/t/{world.slug}"

    def go(self, path: str = "/") -> Any:
        self.page.goto(f"{self.page.base}{self.base}{path}")
        return self.page

    def log_in(self) -> None:
        """A fresh console login (no language cookie, an en-US browser): the page speaks the hall's language."""
        p = self.page
        p.goto(f"{p.base}/arbiter/login/?next={self.base}/")
        self.eyes.look(p, "console-login", other=TABLET)
        p.fill("#id_username", self.w.arbiter.get_username())
        p.fill("#id_password", self.w.password)
        p.click("form.stack button[type=submit]")
        p.wait_for_url(re.compile(rf".*{self.base}/$"))

    def new_game(self, variant: str, seed: int) -> None:
        p = self.go("/")
        p.evaluate("() => { const d = document.getElementById('new-game'); if (d) d.open = true; }")
        p.select_option("#id_variant", variant)
        p.fill("#id_seed", str(seed))
        p.click("#new-game button[type=submit]")
        p.wait_for_url(re.compile(r".*/g/\d+/$"))

    def action(self, number: int, action: str) -> None:
        """A round action of the game page (open, close, judge, publish): its button, as the arbiter clicks it."""
        p = self.go(f"/g/{number}/")
        p.click(f"button[name=action][value={action}]")
        p.wait_for_load_state("load")

    def draw(self, number: int, typed: str = "") -> None:
        """The draw form: empty (the computer draws) or the tiles drawn from the bag, typed key by key."""
        p = self.go(f"/g/{number}/")
        field = p.locator("#draw-form input[name=typed_rack]")
        if typed:
            field.press_sequentially(typed, delay=60)
        p.click("#draw-form button[type=submit]")
        p.wait_for_load_state("load")

    def type_rack_slowly(self, number: int, typed: str) -> Any:
        """The arbiter types the rack drawn from the bag and has not sent it yet."""
        p = self.go(f"/g/{number}/")
        p.locator("#draw-form input[name=typed_rack]").press_sequentially(typed, delay=80)
        return p

    def close_judge_publish(self, number: int) -> None:
        for action in ("close", "judge", "publish"):
            self.action(number, action)

    def end_game(self, number: int, why: str) -> None:
        p = self.go(f"/g/{number}/")
        box = p.locator("details:has(button[value=finish]), details:has(input[value=finish])").first
        box.locator("summary").click()
        box.locator("textarea, input[type=text]").first.fill(why)
        box.locator("button[type=submit]").click()
        p.wait_for_load_state("load")

    def paper_slip(self, number: int, table: int, word: str, coordinates: str, score: int) -> Any:
        p = self.go(f"/g/{number}/slips/")
        p.fill("#id_table", str(table))
        p.fill("#id_word", word)
        p.locator("#id_coordinates").press_sequentially(cyrillic(coordinates), delay=40)
        p.fill("#id_score", str(score))
        return p

    def correct(self, number: int, round_number: int, table: int, add: int, why: str) -> None:
        """The review page: a published verdict of a player corrected (points + ``add``, with a note)."""
        p = self.go(f"/g/{number}/review/?round={round_number}&table={table}")
        row = p.locator("table.review-table tbody tr").first  # the one table's verdict, its form open
        points = row.locator("input[name$=awarded]")
        points.fill(str(int(points.input_value() or 0) + add))
        row.locator("input[name$=why], textarea[name$=why]").first.fill(why)
        row.locator("form.override button[type=submit]").click()
        p.wait_for_load_state("load")


class Tablet:
    """A player's tablet (or phone): its own page, its own storage."""

    def __init__(self, eyes: Eyes, code: str, *, phone: bool = False):
        self.eyes = eyes
        self.page = eyes.page(PHONE, is_mobile=True) if phone else eyes.page(TABLET)
        self.code = code

    def log_in_by_qr(self) -> None:
        p = self.page
        p.goto(f"{p.base}/tablet/login/?code={self.code}")  # the URL of the card's QR code
        p.wait_for_url(re.compile(r".*/tablet/$"))
        p.wait_for_selector("#status:not([data-phase=loading])")

    def log_in_by_hand(self, state: str) -> None:
        p = self.page
        p.goto(f"{p.base}/tablet/login/")
        self.eyes.look(p, state)
        p.fill("#login-code", self.code)
        p.click("#login-submit")
        p.wait_for_url(re.compile(r".*/tablet/$"))
        p.wait_for_selector("#status:not([data-phase=loading])")

    def reload(self) -> None:
        """F5."""
        reopen(self.page)

    def phase(self, phase: str, timeout: float = 10_000) -> None:
        self.page.wait_for_selector(f"#status[data-phase={phase}]", timeout=timeout)

    def type_slip(self, word: str, coordinates: str, score: int | None) -> None:
        """Types a slip as a player with a Latin keyboard does (coordinates in lower-case Latin letters)."""
        p = self.page
        p.fill("#slip-word", word)
        p.fill("#slip-coords", "")
        p.locator("#slip-coords").press_sequentially(latin(coordinates), delay=30)
        if score is not None:  # topping: the tablet asks no score
            p.fill("#slip-score", str(score))

    def hand_in(self, kind: str = "ok") -> str:
        p = self.page
        p.click("#slip-submit")
        p.wait_for_selector(f"#receipt.{kind}")
        return p.inner_text("#receipt")

    def results(self) -> str:
        self.page.wait_for_selector("#result:not([hidden])")
        return self.page.inner_text("#result")


def display(eyes: Eyes, slug: str) -> Any:
    page = eyes.page(LAPTOP)
    page.goto(f"{page.base}/display/{slug}/")
    page.wait_for_timeout(500)
    return page
