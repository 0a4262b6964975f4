"""A 7-among-8 game in headless Chromium, in Russian: the console's game page (the variant's badge, the rack rule
by the draw form), the rack of 8 on a tablet (8 empty tiles while it is drawn, not open) at 800×1280, at 1366×768 and on a small phone (390×844), each
tile inside the rack's line, and on the hall display (screenshots in SHOTS_DIR)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.tools.browser import SHOTS, arbiter_page, new_page
from tournament import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _rack_fits(page) -> bool:
    """Every tile of the rack lies inside the page and on one line."""
    boxes = [page.locator("#rack .tile").nth(i).bounding_box() for i in range(8)]
    width = page.viewport_size["width"]
    return (
        all(b and b["x"] >= 0 and b["x"] + b["width"] <= width for b in boxes)
        and len({round(b["y"]) for b in boxes}) == 1
    )


def test_7among8_game_in_the_console_on_tablets_and_the_display(
    chromium, live_server, alice, tournament, sim_eager
):
    SHOTS.mkdir(parents=True, exist_ok=True)
    tournament.language = "ru"
    tournament.assisted_mode = True
    tournament.save()
    players = [
        services.players.register_player(alice, tournament, name=n, club="Клуб") for n in ("Иван Петров",)
    ]
    game = services.games.create_game(alice, tournament, seed=1, variant="7among8")

    page = arbiter_page(chromium, live_server, alice, language="ru")
    page.goto(page.base + reverse("arbiter:game", args=[tournament.slug, game.number]))
    assert page.is_visible("#game-variant") and page.is_visible("#eight-rule")
    assert "8" in page.inner_text("#typed-rack-rule")
    page.screenshot(path=str(SHOTS / "test-eight-console-ru.png"), full_page=True)
    page.context.close()

    with sim_eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    drawn = new_page(chromium, live_server, width=390, height=844)  # drawn, not open: 8 empty tiles
    drawn.goto(f"{drawn.base}/tablet/login/?code={players[0][1]}")
    drawn.wait_for_selector("#status[data-phase=drawn]")
    assert drawn.locator("#rack .tile.empty").count() == 8 and _rack_fits(drawn)
    drawn.context.close()
    with sim_eager(execute=False):
        services.rounds.open_round(alice, rnd)
    assert len(rnd.rack) == 8

    for width, height in ((800, 1280), (1366, 768), (390, 844)):
        tablet = new_page(chromium, live_server, width=width, height=height)
        tablet.goto(f"{tablet.base}/tablet/login/?code={players[0][1]}")
        tablet.wait_for_url(re.compile(r".*/tablet/$"))
        tablet.wait_for_selector("#status[data-phase=open]")
        assert tablet.locator("#rack .tile").count() == 8
        assert _rack_fits(tablet), width
        tablet.screenshot(path=str(SHOTS / f"test-eight-tablet-{width}-ru.png"))
        assert not tablet.js_errors
        tablet.context.close()

    display = new_page(chromium, live_server, width=1280, height=720)
    display.goto(f"{display.base}/display/{tournament.slug}/")
    display.wait_for_selector("#rack .tile")
    display.screenshot(path=str(SHOTS / "test-eight-display-ru.png"))
    assert display.locator("#rack .tile").count() == 8 and _rack_fits(display)
    assert not display.js_errors
    display.context.close()
