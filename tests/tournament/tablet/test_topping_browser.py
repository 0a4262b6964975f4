"""A topping round on two tablets in headless Chromium (issue 17): one tablet hands in a wrong move (told at
once: not the top, try again — the clock keeps running), then the top; the other hands in the top directly.
Each is told its time; the arbiter's times page and standings show both times in the right order.
Screenshots (Russian, tablet 800×1280, console 1366×768) in SHOTS_DIR."""

from __future__ import annotations

import time

import pytest

from tests.tools.browser import SHOTS, arbiter_page, new_page
from tests.tournament.tablet.test_tablet_browser import clock_seconds, login
from tournament import services
from tournament.models import Round, Slip

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sub_top(rnd: Round) -> str:
    top = rnd.top_moves[0]["score"]
    best: dict[str, int] = {}
    for m in rnd.top_moves:
        word = m["move"].split()[1]
        best[word] = max(best.get(word, 0), m["score"])
    return next(m["move"] for m in rnd.top_moves if best[m["move"].split()[1]] < top)


def attempt(page, move: str) -> None:
    coords, word = move.split()
    page.fill("#slip-word", word)
    page.fill("#slip-coords", coords)
    page.click("#slip-submit")


def test_a_topping_round_on_two_tablets(chromium, live_server, hall):
    SHOTS.mkdir(parents=True, exist_ok=True)
    t = hall.t
    t.language = "ru"
    t.save()
    hall.game = services.games.create_game(hall.alice, t, prepared_racks=["CATSROE"], variant="topping")
    rnd = hall.open(hall.draw())
    top, wrong = rnd.top_moves[0]["move"], sub_top(rnd)
    (reg_a, code_a), (reg_b, code_b) = hall.players[:2]
    a = new_page(chromium, live_server, width=800, height=1280)
    b = new_page(chromium, live_server, width=800, height=1280)
    login(a, code_a)
    login(b, code_b)
    for page in (a, b):
        page.wait_for_selector("#status[data-phase=open]")
        assert page.is_hidden("#slip-score")  # topping: the points are the server's
    # b: the top at once
    attempt(b, top)
    b.wait_for_selector("#topping.ok:not([hidden]) .tb-topping-time")
    assert b.is_hidden("#slip-form")
    # a: a wrong move first — told at once, the form stays and the clock keeps running
    attempt(a, wrong)
    a.wait_for_selector("#topping.bad:not([hidden])")
    assert a.is_visible("#slip-form") and a.inner_text("#status").strip()
    shown = a.inner_text("#topping")
    points = Slip.objects.get(registration=reg_a, round=rnd).points
    assert str(points) in shown and wrong.split()[1] in shown
    first = clock_seconds(a)
    a.screenshot(path=str(SHOTS / "topping-tablet-wrong-ru-800.png"))
    time.sleep(1.2)  # a tops a whole second after b
    assert clock_seconds(a) < first
    attempt(a, top)
    a.wait_for_selector("#topping.ok:not([hidden]) .tb-topping-time")
    assert a.is_hidden("#slip-form")
    a.screenshot(path=str(SHOTS / "topping-tablet-top-ru-800.png"))
    # the times the tablets show are the server's
    rows = services.topping.results_for(rnd)
    secs_a, secs_b = rows[reg_a.pk].topped_seconds, rows[reg_b.pk].topped_seconds
    assert secs_a is not None and secs_b is not None and secs_b < secs_a
    assert f"0:{secs_a:02d}" in a.inner_text("#topping") and f"0:{secs_b:02d}" in b.inner_text("#topping")
    # a reload keeps the answer (the tablet's state says topped)
    a.reload()
    a.wait_for_selector("#topping.ok:not([hidden])")
    assert a.js_errors == [] and b.js_errors == []

    # the hall display tells how many have topped
    display = new_page(chromium, live_server, width=1366, height=768)
    display.goto(f"{display.base}/display/{t.slug}/")
    display.wait_for_selector("#topped:not([hidden])")
    assert "2" in display.inner_text("#topped") and "4" in display.inner_text("#topped")
    display.screenshot(path=str(SHOTS / "topping-display-ru-1366.png"))
    assert display.js_errors == []

    services.rounds.close_round(rnd, hall.alice, force=True)
    console = arbiter_page(chromium, live_server, hall.alice, language="ru", width=1366, height=768)
    console.goto(f"{console.base}/arbiter/t/{t.slug}/g/{hall.game.number}/times/")
    console.wait_for_selector("#time-standings")
    order = console.eval_on_selector_all("#time-standings tbody tr", "rows => rows.map(r => r.dataset.table)")
    assert order[:2] == [str(reg_b.table_number), str(reg_a.table_number)]
    first_row = console.inner_text(f"#time-standings tr[data-table='{reg_b.table_number}']")
    assert f"0:{secs_b:02d}" in first_row
    assert "2" in console.inner_text("#topped-count")
    attempts = console.inner_text(f"#round-times tr[data-table='{reg_a.table_number}']").split()[-1]
    assert attempts == "2"
    console.screenshot(path=str(SHOTS / "topping-console-ru-1366.png"), full_page=True)
    console.goto(f"{console.base}/arbiter/t/{t.slug}/standings/?game={hall.game.number}")
    order = console.eval_on_selector_all("#topping-standings tbody tr", "rows => rows.map(r => r.dataset.table)")
    assert order[:2] == [str(reg_b.table_number), str(reg_a.table_number)]
    assert console.js_errors == []
    # published: the tablet keeps the player's time above the round's results
    services.judging.judge_round(rnd, hall.alice)
    services.rounds.publish_round(hall.alice, rnd)
    a.reload()
    a.wait_for_selector("#result:not([hidden])")
    assert f"0:{secs_a:02d}" in a.inner_text("#topping.ok")
    a.screenshot(path=str(SHOTS / "topping-tablet-published-ru-800.png"), full_page=True)
    # the results rank by total time: A topped after B, so A is second whatever the points
    figures = a.eval_on_selector_all("#result .tb-res-figures dd", "dds => dds.map(d => d.firstChild.textContent)")
    assert figures[2:] == [f"0:{secs_a:02d}", "2"], figures  # after the round score and the points
    assert "Общее время" in a.inner_text("#result")
    assert a.js_errors == []
