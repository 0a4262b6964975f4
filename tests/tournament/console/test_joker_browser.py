"""A Joker game in headless Chromium, in Russian: the console's game page (the variant's badge, the replaced blank)
and the rack with its blank on a tablet at 1024×768 and on the hall display, which also tells the previous top's
replaced blank (screenshots in SHOTS_DIR)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.tools.browser import SHOTS, arbiter_page, new_page
from tournament import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_joker_game_in_the_console_on_a_tablet_and_the_display(chromium, live_server, alice, tournament, sim_eager):
    SHOTS.mkdir(parents=True, exist_ok=True)
    tournament.language = "ru"
    tournament.save()
    players = [services.players.register_player(alice, tournament, name=n, club="Клуб")
               for n in ("Иван Петров", "Марія Шевченко")]
    game = services.games.create_game(alice, tournament, seed=1, variant="joker")

    def play(publish: bool):
        with sim_eager(execute=True):
            rnd = services.rounds.draw_round(alice, game)
        with sim_eager(execute=False):
            services.rounds.open_round(alice, rnd)
        if publish:
            services.rounds.close_round(rnd, alice, force=True)
            services.judging.judge_round(rnd, alice)
            services.rounds.publish_round(alice, rnd)
        return rnd

    play(publish=True)  # round 1: H4 VIsTA, the blank replaced by an S from the bag
    page = arbiter_page(chromium, live_server, alice, language="ru")
    page.goto(page.base + reverse("arbiter:game", args=[tournament.slug, game.number]))
    assert page.is_visible("#game-variant") and page.is_visible("#blank-replaced") and page.is_visible("#joker-rule")
    assert "? → S" in page.inner_text("#blank-replaced")
    page.screenshot(path=str(SHOTS / "test-joker-console-ru.png"), full_page=True)

    result = new_page(chromium, live_server, width=1024, height=768)
    result.goto(f"{result.base}/tablet/login/?code={players[1][1]}")
    result.wait_for_selector("#result:not([hidden]) .tb-res-replaced")
    assert result.inner_text(".tb-res-replaced") == "? → S"  # the player replaces the blank on their own board too
    result.screenshot(path=str(SHOTS / "test-joker-tablet-result-1024-ru.png"))
    assert not result.js_errors
    result.context.close()

    rnd = play(publish=False)  # round 2 open: NR+?DLEL, the blank back on the rack
    assert len(rnd.rack) == 7 and rnd.rack.count("?") == 1
    page.reload()
    page.screenshot(path=str(SHOTS / "test-joker-console-open-ru.png"), full_page=True)
    page.context.close()

    tablet = new_page(chromium, live_server, width=1024, height=768)
    tablet.goto(f"{tablet.base}/tablet/login/?code={players[0][1]}")
    tablet.wait_for_url(re.compile(r".*/tablet/$"))
    tablet.wait_for_selector("#status[data-phase=open]")
    assert tablet.locator("#rack .tile").count() == 7 and tablet.locator("#rack .tile.joker").count() == 1
    tablet.screenshot(path=str(SHOTS / "test-joker-tablet-1024-ru.png"))
    assert not tablet.js_errors
    tablet.context.close()

    display = new_page(chromium, live_server, width=1280, height=720)
    display.goto(f"{display.base}/display/{tournament.slug}/")
    display.wait_for_selector("#rack .tile")
    assert display.locator("#rack .tile").count() == 7
    assert display.inner_text("#previous-replaced") == "? → S"  # round 1's top: its blank is now an S tile
    display.screenshot(path=str(SHOTS / "test-joker-display-ru.png"))
    assert not display.js_errors
    display.context.close()
