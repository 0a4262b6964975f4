"""The hall display in headless Chromium: it follows the arbiter by itself (draw, open, publish, end of the
game) within the real-time limit, with the countdown on the server's clock; screenshot at 1920×1080."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
from django.utils import timezone

from scoring.board import Board
from scoring.coords import Coord, CoordError, format_coord, parse_coord, square_name
from scoring.rules import get_ruleset
from tests.tools.browser import REAL_TIME, SHOTS, new_page
from tournament import labels, services
from tournament.models import Game, Round
from tournament.services import signs

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def changes_within(page, selector: str, action) -> float:
    """Runs ``action`` (the arbiter) and waits until ``selector`` is on the display; returns the delay."""
    started = time.monotonic()
    action()
    page.wait_for_selector(selector, timeout=REAL_TIME * 1000)
    delay = time.monotonic() - started
    assert delay <= REAL_TIME + 0.3, delay
    return delay


def test_display_follows_the_rounds_by_itself(chromium, live_server, hall):  # noqa: F811
    page = new_page(chromium, live_server, width=1920, height=1080, skew_seconds=400)  # projector clock off by 6'40"
    page.goto(f"{page.base}/display/{hall.t.slug}/")
    page.wait_for_selector("#display[data-phase=none]")
    assert page.inner_text("#phase") == "Waiting for the first round"
    assert page.locator("#board .sq").count() == 225

    delays = []
    rnd = None

    def draw():
        nonlocal rnd
        rnd = hall.draw()

    delays.append(changes_within(page, "#display[data-phase=drawn]", draw))
    assert page.is_hidden("#rack") and page.inner_text("#round-label") == "Game 1 · round 1"

    delays.append(changes_within(page, "#display[data-phase=open]", lambda: hall.open(rnd)))
    assert "".join(page.locator("#rack .tile .l").all_inner_texts()) == "CATSROE"
    page.wait_for_timeout(300)
    minutes, seconds = page.inner_text("#clock").split(":")
    real = (Round.objects.get(pk=rnd.pk).deadline - timezone.now()).total_seconds()
    assert abs(int(minutes) * 60 + int(seconds) - real) <= 2
    assert page.is_hidden("#previous")

    reg = hall.players[0][0]
    services.slips.submit_slip(rnd, reg, word="CARTS", coordinates="H4", score=20)
    delays.append(changes_within(page, "#display[data-phase=published]", lambda: hall.finish(rnd)))
    assert page.inner_text("#previous-move") == "H4 CARTS" and page.inner_text("#previous-score") == "20 points"
    assert page.locator("#board .sq.new").count() == 5 and page.locator("#board .sq .tile").count() == 5
    # the arbiter types the next rack from the bag: the hall hears it (on the server's clock, the projector's is off)
    delays.append(changes_within(page, "#display[data-typing='1']", lambda: signs.rack_typing(hall.game)))
    assert page.inner_text("#phase") == "The arbiter is typing the rack drawn from the bag…"

    rnd2 = None

    def draw2():
        nonlocal rnd2
        rnd2 = hall.draw()

    delays.append(changes_within(page, "#display[data-phase=drawn]", draw2))
    assert page.inner_text("#previous-label") == "Top of round 1"  # the previous top stays up
    delays.append(changes_within(page, "#display[data-phase=open]", lambda: hall.open(rnd2)))
    assert "".join(page.locator("#rack .tile .l").all_inner_texts()) == "SORDEZ"  # + the blank

    # end of the game: the standings come up and scroll
    def end_game():
        services.rounds.cancel_round(hall.alice, rnd2, why="the game ends here (test)")
        Game.objects.filter(pk=hall.game.pk).update(status=Game.Status.FINISHED)

    delays.append(changes_within(page, "#display[data-phase=standings]", end_game))
    rows = page.locator("#standings-rows tr")
    assert rows.count() == len(hall.players)
    assert rows.nth(0).inner_text().split("\t")[:3] == ["1", f"{reg.player.name} · Club", "20"]
    last = rows.nth(rows.count() - 1).inner_text().split("\t")
    assert last[3] == "\u221220" and last[4] == "0.0"  # a deficit with a minus sign, as the PDFs print it
    assert page.evaluate("[Duplicate.text.number(87.5, 'uk', 1), Duplicate.text.number(-3, 'fr')]") == ["87,5", "\u22123"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "test-display-standings-1920.png"))
    assert page.js_errors == []
    print("display delays (s):", [round(d, 2) for d in delays])


def test_display_screenshot(chromium, live_server, hall):  # noqa: F811
    rnd = hall.open(hall.draw())
    services.slips.submit_slip(rnd, hall.players[0][0], word="CARTS", coordinates="H4", score=20)
    hall.finish(rnd)
    hall.open(hall.draw())
    page = new_page(chromium, live_server, width=1920, height=1080)
    page.goto(f"{page.base}/display/{hall.t.slug}/?lang=ru")
    page.wait_for_selector("#display[data-phase=open]")
    assert page.inner_text("#phase") == "Сдавайте бланки" and page.inner_text("#previous-label") == "Топ хода 1"
    assert page.inner_text("#previous-score") == "20 очков" and page.inner_text("#round-label") == "Партия 1 · ход 2"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "test-display-1920.png"))
    assert page.js_errors == []


#: (rule set, convention, row letters) of the board configs the shared scripts are checked with.
STYLES = [("ru", "duplicate", "cyrillic"), ("ru", "duplicate", "latin"), ("en", "english", "latin"),
          ("en", "duplicate", "latin")]


def test_shared_scripts_apply_the_servers_coordinate_style(chromium, live_server, hall):  # noqa: F811
    """coords.js writes moves, start squares and square names as tournament.labels / scoring.coords do, and
    reads typed coordinates as the server does, for every style; board.js reads a FEN as scoring.board."""
    page = new_page(chromium, live_server)
    page.goto(f"{page.base}/display/{hall.t.slug}/")
    page.wait_for_selector("#display[data-phase=none]")
    configs = [labels.board_config(SimpleNamespace(ruleset=r, convention=c, coordinate_script=script))
               for r, c, script in STYLES]
    moves = ["H8 WORD", "8H WORD", "A1 AB", "O15 AB", "1O AB", "K12 XY"]
    typed = ["H8", "8h", "З8", "8З", "A15", "P1", "A16", "H", "88"]
    out = page.evaluate("""([configs, moves, typed]) => configs.map((b) => ({
        moves: moves.map((m) => Duplicate.coords.move(b, m)),
        typed: typed.map((t) => Duplicate.coords.parse(b, t)),
        squares: [[7, 3], [0, 14]].map(([r, c]) => Duplicate.coords.square(b, r, c)),
        starts: [[7, 3, false], [7, 3, true]].map(([r, c, v]) => Duplicate.coords.text(b, r, c, v)),
    }))""", [configs, moves, typed])
    for (ruleset, convention, language), config, got in zip(STYLES, configs, out, strict=True):
        style = labels.script_style(convention, language)
        assert got["moves"] == [style.move(m) for m in moves], (ruleset, convention, language)
        expected = []
        for text in typed:
            try:
                c = parse_coord(text, cyrillic=config["cyrillic_input"], convention=convention)
                expected.append({"row": c.row, "col": c.col, "vertical": c.vertical})
            except CoordError:
                expected.append(None)
        assert got["typed"] == expected, (ruleset, convention, language)
        names = [square_name(r, c, convention, style.cyrillic) for r, c in [(7, 3), (0, 14)]]
        assert got["squares"] == names
        assert got["starts"] == [format_coord(Coord(7, 3, v), convention=convention, cyrillic=style.cyrillic)
                                 for v in (False, True)]
    assert out[0]["moves"][0] == "З8 WORD" and out[2]["moves"][0] == "8H WORD"  # the styles differ indeed

    fen = "3КАрТ*7/15/15/15/15/15/15/15/15/15/15/15/15/12ЇЄ1/Я14"  # a blank р, a blank apostrophe
    board = Board.from_fen(get_ruleset("uk"), fen)
    squares = page.evaluate("(fen) => Duplicate.board.parseFen(fen)", fen)
    assert squares == [[{"letter": t.letter, "blank": t.blank} if (t := board.tile(r, c)) else None
                        for c in range(15)] for r in range(15)]
    assert page.js_errors == []
