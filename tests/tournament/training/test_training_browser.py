"""A training game played on one tablet in headless Chromium: the list of games, a run started by name,
the slip typed with the start square tapped on the board, the result of the round (top, score, deficit,
best moves), a round whose clock runs out (sent by the page itself, judged without a slip), and the end
screen with the would-be rank among the players who played the game live. Screenshots in Ukrainian
(tablet, 800x1280) and Russian (laptop, 1366x768) go to SHOTS_DIR."""

from __future__ import annotations

import re

import pytest

from tests.tools.browser import SHOTS, new_page
from tournament.models import TrainingGame, TrainingRun
from tournament.training import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_training_game_played_on_a_tablet_to_its_end(chromium, live_server, finished_game):
    game, _regs = finished_game
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = new_page(chromium, live_server, width=800, height=1280)
    page.goto(f"{page.base}/training/?lang=uk")
    page.screenshot(path=str(SHOTS / "training-index-uk-800.png"), full_page=True)
    page.fill(f"#name-g{game.pk}", "Тарас")
    page.click(f"form:has(#name-g{game.pk}) button[type=submit]")
    page.wait_for_url(re.compile(r".*/training/run/\w+/$"))
    run = TrainingRun.objects.get()
    # a short clock, so that the second round runs out while the test waits
    TrainingGame.objects.filter(pk=run.game_id).update(seconds_per_move=4)
    page.click("#next-round")
    page.wait_for_selector("#slip-form")
    assert page.locator("#rack .tile").count() == 7
    assert re.fullmatch(r"0:0[0-4]", page.inner_text("#clock"))
    page.click('#board .sq[data-r="7"][data-c="3"]')  # row H, column 4: the start square, across
    assert page.input_value("#slip-coords") == "H4"
    page.fill("#slip-word", "CARTS")
    page.fill("#slip-score", "20")
    assert page.locator("#board .tile.ghost").count() == 5
    page.screenshot(path=str(SHOTS / "training-round-uk-800.png"), full_page=True)
    page.click("#slip-submit")
    page.wait_for_selector("#result")
    assert "20" in page.inner_text("#your-points") and page.inner_text("#top-move") == "H4 CARTS"
    assert page.inner_text("#deficit").startswith("0") and page.locator("#best-moves tr").count() > 1
    page.screenshot(path=str(SHOTS / "training-result-uk-800.png"), full_page=True)
    page.click("#next-round")
    page.wait_for_selector("#slip-form")
    page.fill("#slip-word", "ZA")  # typed, never handed in: the clock runs out
    page.wait_for_selector("#final", timeout=15_000)
    run.refresh_from_db()
    assert [(r["awarded"], r["reason"]) for r in run.results] == [(20, "first_round"), (0, "no_slip")]
    assert page.inner_text("#final-total") == "20"
    compared = services.comparison(run)
    assert compared is not None and compared.players == 3
    assert f"місце {compared.rank}." in page.inner_text("#would-be-rank")
    page.screenshot(path=str(SHOTS / "training-final-uk-800.png"), full_page=True)
    assert not page.js_errors, page.js_errors


def test_the_training_pages_on_a_laptop_in_russian(chromium, live_server, finished_game):
    game, _regs = finished_game
    run = services.next_round(services.start_run(services.from_tournament_game(game), "Ольга"))
    page = new_page(chromium, live_server, width=1366, height=768)
    page.goto(f"{page.base}/training/?lang=ru")
    page.screenshot(path=str(SHOTS / "training-index-ru-1366.png"), full_page=True)
    page.goto(f"{page.base}/training/run/{run.code}/?lang=ru")
    page.wait_for_selector("#rack .tile")
    page.screenshot(path=str(SHOTS / "training-round-ru-1366.png"))
    page.fill("#slip-word", "CARTS")
    page.click("#slip-submit")
    page.wait_for_selector("#result")
    page.screenshot(path=str(SHOTS / "training-result-ru-1366.png"), full_page=True)
    assert not page.js_errors, page.js_errors


def test_a_club_session_starts_the_round_on_a_waiting_tablet(chromium, live_server, finished_game):
    from tournament.training import clubs

    game, _regs = finished_game
    club = clubs.open_club(services.from_tournament_game(game), "Клуб «Эрудит»")
    leader = new_page(chromium, live_server, width=1366, height=768)
    tablet = new_page(chromium, live_server, width=800, height=1280)
    tablet.goto(f"{tablet.base}/training/?lang=ru")
    tablet.fill("#join-code", club.code.lower())
    tablet.fill("#join-name", "Ирина")
    tablet.click("form:has(#join-code) button[type=submit]")
    tablet.wait_for_selector("#club-wait")
    tablet.screenshot(path=str(SHOTS / "training-club-wait-ru-800.png"), full_page=True)
    leader.goto(f"{leader.base}/training/club/{club.code}/lead/{club.leader_key}/?lang=ru")
    assert "Ирина" in leader.inner_text("#club-table")
    leader.click("#club-start")
    leader.wait_for_selector("#club-table")
    tablet.wait_for_selector("#slip-form", timeout=8_000)  # the waiting tablet follows by itself
    assert tablet.locator("#rack .tile").count() == 7
    tablet.fill("#slip-word", "CARTS")
    tablet.fill("#slip-coords", "H4")
    tablet.fill("#slip-score", "20")
    tablet.click("#slip-submit")
    tablet.wait_for_selector("#club-wait")
    leader.wait_for_function("() => document.querySelector('#club-table').innerText.includes('✓')", timeout=8_000)
    leader.screenshot(path=str(SHOTS / "training-club-lead-ru-1366.png"), full_page=True)
    assert not tablet.js_errors and not leader.js_errors, (tablet.js_errors, leader.js_errors)
