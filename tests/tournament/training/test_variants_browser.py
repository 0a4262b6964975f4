"""Training a Joker and a 7-among-8 game in headless Chromium on a browser set to another language and zone
(en-US, New York), the pages in Russian: the list names each game's variant, a 7-among-8 round shows its rack of 8
and takes a slip, a Joker round's result shows the blank replaced after the top ("? → S"). Screenshots at
800×1280, 390×844 and 1366×768 in SHOTS_DIR."""

from __future__ import annotations

import re

import pytest

from tests.tools.browser import SHOTS, new_page
from tests.tournament.training.test_variants import play
from tournament import gamestate, services
from tournament.training import services as training

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SIZES = ((800, 1280), (390, 844), (1366, 768))


def test_variants_in_training_on_a_tablet(chromium, live_server, alice, tournament, sim_eager):
    SHOTS.mkdir(parents=True, exist_ok=True)
    tournament.language = "ru"
    tournament.save()
    eight = play(alice, services.games.create_game(alice, tournament, seed=1, variant="7among8"), sim_eager, most=2)
    joker = services.games.create_game(alice, tournament, seed=1, variant="joker")
    joker = play(alice, joker, sim_eager, until=lambda g: bool(gamestate.replaced_blanks(g)), most=28)
    number, letters = next(iter(gamestate.replaced_blanks(joker).items()))
    options = {"locale": "en-US", "timezone_id": "America/New_York"}
    for width, height in SIZES:
        page = new_page(chromium, live_server, width=width, height=height, **options)
        page.goto(f"{page.base}/training/?lang=ru")  # the list belongs to no tournament: the reader picks
        shown = page.inner_text("main")
        assert "7 из 8" in shown and "Джокер" in shown, shown
        page.screenshot(path=str(SHOTS / f"training-variants-index-ru-{width}.png"), full_page=True)
        page.context.close()
    # 7-among-8: a rack of 8 on the run page, a slip of the top judged as the top
    tg = training.from_tournament_game(eight)
    top = tg.rounds[0]["top"].split()
    for width, height in SIZES:
        page = new_page(chromium, live_server, width=width, height=height, **options)
        run = training.start_run(tg, f"Ян {width}")
        page.goto(f"{page.base}/training/run/{run.code}/")
        page.click("#next-round")
        page.wait_for_selector("#slip-form")
        assert page.locator("#rack .tile").count() == 8
        assert "7 из 8" in page.inner_text("#round-label")
        page.screenshot(path=str(SHOTS / f"training-7among8-round-ru-{width}.png"), full_page=True)
        page.fill("#slip-word", top[1])
        page.fill("#slip-coords", top[0])
        page.fill("#slip-score", str(tg.rounds[0]["score"]))
        page.click("#slip-submit")
        page.wait_for_selector("#result")
        assert str(tg.rounds[0]["score"]) in page.inner_text("#your-points")
        page.screenshot(path=str(SHOTS / f"training-7among8-result-ru-{width}.png"), full_page=True)
        assert not page.js_errors, page.js_errors
        page.context.close()
    # Joker: the round whose blank was replaced says so after the top
    tj = training.from_tournament_game(joker)
    run = training.start_run(tj, "Олег")
    for _ in range(number - 1):
        run = training.next_round(run)
        training.hand_in(run, None)
        run.refresh_from_db()
    for width, height in SIZES:
        page = new_page(chromium, live_server, width=width, height=height, **options)
        page.goto(f"{page.base}/training/run/{run.code}/")
        if page.locator("#next-round").count():
            page.click("#next-round")
            page.wait_for_selector("#slip-form")
            page.fill("#slip-word", "ZZ")
            page.fill("#slip-coords", "H8")
            page.click("#slip-submit")
        page.wait_for_selector("#top-replaced")
        assert re.search(rf"\? → {letters[0]}", page.inner_text("#result"))
        page.screenshot(path=str(SHOTS / f"training-joker-result-ru-{width}.png"), full_page=True)
        assert not page.js_errors, page.js_errors
        page.context.close()
