"""Issue 34, defects 1 and 2 in Chromium: a Ukrainian hall's coordinates as its players and its arbiter read them,
on devices set to another language and clock (browser en-US, America/New_York; the tournament in Europe/Kyiv).

Every letter of a coordinate is drawn apart — a row З is never read as the digit 3 — on the boards' labels
(tablet, display, console), in every slip and move shown, and in the coordinate inputs (the typed text drawn
with its letter boxed, what it reads as echoed under the field, or why it cannot be read); every slip is shown
in the tournament's rows whatever script it was typed in (a Latin H4 is З4, never an "H4" read as the Cyrillic
Н4, row 13). Screenshots (tablet 800×1280, phone 390×844, laptop 1366×768) in SHOTS_DIR.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from lexicon.models import Lexicon
from lexicon.resolve import open_lexicon
from scoring.solver import solver_for
from tests.paths import LEXICONS
from tests.tools.browser import SHOTS, Hall, arbiter_page, new_page
from tests.tournament.tablet.test_tablet_browser import login
from tournament import services
from tournament.live import version as live_version
from tournament.models import Slip

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIM_UK = LEXICONS / "sim-uk.txt"
ROWS = "АБВГДЕЖЗИКЛМНОП"
LATIN = re.compile(r"[A-Za-z]")
#: A device that is not the hall's: another language, another clock.
ELSEWHERE = {"locale": "en-US", "timezone_id": "America/New_York"}
#: Round 1 of the prepared game: МОРИСТУ, whose top is УМИТО at row З (Latin H), column 4, for 22.
TOP = ("З4", "H4", "УМИТО", 22)


@pytest.fixture
def uk_hall(monkeypatch, settings, eager, alice) -> Hall:
    """A live Ukrainian tournament (Cyrillic rows) in Kyiv's time, 3 players, a prepared game; the solver over the
    3,000 Ukrainian words of ``sim-uk.txt``."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "coordinates-browser"}}
    live_version.expire()
    live_version.reset()
    lexicon = Lexicon.objects.create(name="sim-uk", ruleset="uk", status=Lexicon.Status.READY, version=1,
                                     content_hash="2" * 64, file_path="none.kwg")
    t = services.tournaments.create_tournament(alice, name="Кубок Полтави", slug="kubok-poltavy", ruleset="uk",
                                               lexicon=lexicon, arbiters=[alice], language="uk")
    t.time_zone = "Europe/Kyiv"
    t.save()
    assert t.coordinate_script == "cyrillic"
    graph = open_lexicon(SIM_UK, "uk")
    monkeypatch.setattr(services.solving, "round_tools", lambda tournament: (
        (lambda board, rack: solver_for(board.ruleset, graph).solve(board, rack).moves), graph))
    players = [services.players.register_player(alice, t, name=name, club="Полтава")
               for name in ("Іван Петренко", "Олена Коваль", "Марія Шевченко")]
    game = services.games.create_game(alice, t, prepared_racks=["МОРИСТУ"])
    return Hall(t, alice, players, game, eager)


def labels_of(page, selector: str) -> list[tuple[str, str]]:
    """Each board label: (its text, the text of its boxed letter or "")."""
    return [tuple(pair) for pair in page.evaluate("""(sel) => Array.from(document.querySelectorAll(sel)).map(l => {
        const m = l.querySelector('.coord-letter'); return [l.textContent, m ? m.textContent : ''];
    })""", selector)]


def marked(page, selector: str) -> list[str]:
    """The boxed letters inside an element."""
    return page.eval_on_selector_all(f"{selector} .coord-letter", "els => els.map(e => e.textContent)")


def assert_board_labels(page, board: str = "#board") -> None:
    assert labels_of(page, f"{board} .lbl.row") == [(r, r) for r in ROWS]
    assert labels_of(page, f"{board} .lbl.col") == [(str(c), "") for c in range(1, 16)]


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"coords-{name}.png"), full_page=True)


def test_the_tablet_boxes_every_row_letter_and_shows_slips_in_the_halls_rows(chromium, live_server, uk_hall):
    hall = uk_hall
    rnd = hall.open(hall.draw())
    (reg, code), (other, other_code) = hall.players[:2]
    # a slip typed in Latin letters somewhere else (an older tablet, the API): H4 is row З
    services.slips.submit_slip(rnd, other, word="УМИТО", coordinates="H4", score=22)
    page = new_page(chromium, live_server, width=800, height=1280, **ELSEWHERE)
    login(page, code)
    page.wait_for_selector("#status[data-phase=open]")
    assert_board_labels(page)

    # the coordinates as typed: the letter boxed over the input, what they read as under it
    page.fill("#slip-coords", "h4")
    assert marked(page, ".coord-mirror") == ["h"]
    echo = page.inner_text("#slip-coords-echo")
    assert echo.startswith("З4 — ") and "З" in echo and not LATIN.search(echo), echo
    assert marked(page, "#slip-coords-echo") == ["З", "З"]  # the coordinate's letter and the row's
    page.fill("#slip-coords", "34")  # the digit 3 for the letter З: said at once, before anything is sent
    page.wait_for_selector("#slip-coords-echo.bad")
    assert "«34»" in page.inner_text("#slip-coords-echo") and "А–П" in page.inner_text("#slip-coords-echo")
    page.fill("#slip-coords", "З16")
    assert page.is_visible("#slip-coords-echo.bad") and "«З16»" in page.inner_text("#slip-coords-echo")
    page.fill("#slip-coords", "4h")
    page.press("#slip-coords", "Tab")  # left: written in the hall's rows, the same square
    assert page.input_value("#slip-coords") == "4З" and page.inner_text("#slip-coords-echo").startswith("4З — ")
    # a tap on the start square: the field, its letter and its echo follow
    page.click("#board .sq[data-r='7'][data-c='3']")
    assert marked(page, "#chooser-text") == ["З"] and marked(page, "#choose-h") == ["З"]
    page.click("#choose-h")
    assert page.input_value("#slip-coords") == "З4" and marked(page, ".coord-mirror") == ["З"]
    shot(page, "tablet-typing-uk-800")

    page.fill("#slip-word", "УМИТО")
    page.fill("#slip-score", "22")
    page.click("#slip-submit")
    page.wait_for_selector("#receipt.ok")
    assert "З4 УМИТО 22" in page.inner_text("#receipt") and marked(page, "#receipt") == ["З"]
    assert Slip.objects.get(registration=reg).coordinates == "З4"

    # the other player's tablet: his Latin H4 is shown as the hall reads it
    tablet = new_page(chromium, live_server, width=390, height=844, is_mobile=True, **ELSEWHERE)
    login(tablet, other_code)
    tablet.wait_for_selector("#receipt.ok")
    receipt = tablet.inner_text("#receipt")
    assert "З4 УМИТО 22" in receipt and "H4" not in receipt and marked(tablet, "#receipt") == ["З"]
    shot(tablet, "tablet-receipt-uk-390")

    hall.finish(rnd)
    for p in (page, tablet):
        p.wait_for_selector("#result:not([hidden]) .tb-res-top")
        result = p.inner_text("#result")
        assert "З4 УМИТО 22" in result and "З4 УМИТО — 22" in result and not LATIN.search(result), result
        assert marked(p, "#result") == ["З", "З"]  # your move, the top
    shot(page, "tablet-results-uk-800")
    shot(tablet, "tablet-results-uk-390")
    assert page.js_errors == [] and tablet.js_errors == []


def test_a_slip_waiting_in_the_outbox_is_shown_in_the_halls_rows(chromium, live_server, uk_hall):
    hall = uk_hall
    rnd = hall.open(hall.draw())
    reg, code = hall.players[2]
    page = new_page(chromium, live_server, width=800, height=1280, **ELSEWHERE)
    login(page, code)
    page.wait_for_selector("#status[data-phase=open]")
    page.route("**/api/tablet/slip/", lambda route: route.abort("internetdisconnected"))
    key = f"duplicate.tablet.outbox.{hall.t.slug}.{reg.table_number}"
    page.evaluate("([key, round]) => localStorage.setItem(key, JSON.stringify([{key: 'k1', round: round,"
                  " word: 'УМИТО', coordinates: 'H4', score: 22, made: Date.now()}]))", [key, rnd.pk])
    page.reload()
    page.wait_for_selector("#receipt.pending")
    text = page.inner_text("#receipt")
    assert "З4 УМИТО 22" in text and "H4" not in text and marked(page, "#receipt") == ["З"]
    # the slip put back in the form: in the hall's rows, echoed
    assert page.input_value("#slip-coords") == "З4" and page.inner_text("#slip-coords-echo").startswith("З4 — ")
    assert page.js_errors == []


def test_a_topping_attempt_is_shown_in_the_halls_rows(chromium, live_server, uk_hall):
    hall = uk_hall
    hall.game = services.games.create_game(hall.alice, hall.t, prepared_racks=["МОРИСТУ"], variant="topping")
    rnd = hall.open(hall.draw())
    reg, code = hall.players[0]
    services.topping.attempt(rnd, reg, "attempt-1", word="СУМ", coordinates="H6")  # 14: not the top
    page = new_page(chromium, live_server, width=800, height=1280, **ELSEWHERE)
    login(page, code)
    page.wait_for_selector("#topping.bad:not([hidden])")
    card = page.inner_text("#topping")
    assert "З6 СУМ" in card and "H6" not in card and marked(page, "#topping") == ["З"], card
    assert page.js_errors == []


def test_the_display_and_the_console_box_the_row_letters(chromium, live_server, alice, uk_hall):
    hall = uk_hall
    rnd = hall.open(hall.draw())
    hall.finish(rnd)
    display = new_page(chromium, live_server, width=1366, height=768, **ELSEWHERE)
    display.goto(f"{display.base}/display/{hall.t.slug}/")
    display.wait_for_selector("#previous:not([hidden])")
    assert_board_labels(display)
    assert display.inner_text("#previous-move").startswith("З4 УМИТО") and marked(display, "#previous-move") == ["З"]
    shot(display, "display-uk-1366")

    console = arbiter_page(chromium, live_server, alice, language="uk", width=1366, height=768, **ELSEWHERE)
    console.goto(console.base + reverse("arbiter:board", args=[hall.t.slug, hall.game.number]))
    console.wait_for_selector("#board .lbl.row")
    assert_board_labels(console)
    shot(console, "console-board-uk-1366")
    assert display.js_errors == [] and console.js_errors == []


def test_the_paper_slip_entry_echoes_the_coordinates(chromium, live_server, alice, uk_hall):
    hall = uk_hall
    hall.open(hall.draw())
    page = arbiter_page(chromium, live_server, alice, language="uk", width=1366, height=768, **ELSEWHERE)
    page.goto(page.base + reverse("arbiter:slips", args=[hall.t.slug, hall.game.number]))
    page.keyboard.type("1")
    for text in ("УМИТО", "39"):  # the digit 3 typed for the row З
        page.keyboard.press("Tab")
        page.keyboard.type(text)
    page.wait_for_selector("#id_coordinates-echo.bad")
    assert "«39»" in page.inner_text("#id_coordinates-echo")
    shot(page, "paper-entry-unreadable-uk-1366")
    page.fill("#id_coordinates", "9h")
    echo = page.inner_text("#id_coordinates-echo")
    assert echo.startswith("9З — ") and not LATIN.search(echo) and marked(page, "#id_coordinates-echo") == ["З", "З"]
    assert marked(page, ".coord-mirror") == ["h"]
    page.press("#id_coordinates", "Tab")
    assert page.input_value("#id_coordinates") == "9З"
    shot(page, "paper-entry-uk-1366")
    page.keyboard.type("20")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    slip = Slip.objects.get(registration=hall.players[0][0])
    assert (slip.word, slip.coordinates, slip.announced_score) == ("УМИТО", "9З", 20)
    assert page.js_errors == []
