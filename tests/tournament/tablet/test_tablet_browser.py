"""The player tablet in headless Chromium against a live server: login (QR link), rack, clock on the server's
time, slip, receipt, replacement, results; a slip survives a network cut and is stored exactly once; a slip
that arrives after the deadline is refused on screen; a paper slip the arbiter ticked late says it was handed in
late.

The arbiter's side is driven through :mod:`tournament.services`; Celery is eager and the solver is the
word-list reference solver (the live server runs in a thread of this process).
"""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.tools.browser import REAL_TIME, SHOTS, new_page
from tournament import services
from tournament.models import Round, Slip

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def login(page, code: str):
    page.goto(f"{page.base}/tablet/login/?code={code}")  # the URL of the player's QR code
    page.wait_for_url(re.compile(r".*/tablet/$"))
    page.wait_for_selector("#status:not([data-phase=loading])")


def clock_seconds(page) -> int:
    minutes, seconds = page.inner_text("#clock").split(":")
    return int(minutes) * 60 + int(seconds)


def slip_in(page, word: str, coords: str = "", score: int | None = None, blanks=()):
    page.fill("#slip-word", word)
    for i in blanks:
        page.click(f"#blank-tiles .tile:nth-child({i + 1})")
    page.fill("#slip-coords", coords)
    page.fill("#slip-score", "" if score is None else str(score))
    page.click("#slip-submit")


def wait_receipt(page, text: str, kind: str = "ok", timeout: float = 10_000):
    """The receipt card in state ``kind`` (ok, pending, refused) showing ``text``."""
    page.wait_for_function(
        "([kind, text]) => { const r = document.querySelector('#receipt');"
        " return r && !r.hidden && r.classList.contains(kind) && r.innerText.includes(text); }",
        arg=[kind, text], timeout=timeout)
    return page.inner_text("#receipt")


def outbox(page, reg) -> list:
    return page.evaluate(f"JSON.parse(localStorage.getItem('duplicate.tablet.outbox.open-test.{reg.table_number}') || '[]')")


def wait_until(predicate, timeout=10.0, step=0.1):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


# -- tests ----------------------------------------------------------------------------------------------------


def test_login_rack_clock_slip_receipt_and_replacement(chromium, live_server, hall):
    reg, code = hall.players[0]
    rnd = hall.draw()
    # the tablet's own clock is 67 minutes slow: the countdown must follow the server's clock anyway
    page = new_page(chromium, live_server, skew_seconds=-67 * 60)
    page.goto(f"{page.base}/tablet/")
    assert page.url.endswith("/tablet/login/")  # no token yet
    page.fill("#login-code", "WRONGCODE1")
    page.click("#login-submit")
    page.wait_for_selector("#login-message.error")
    login(page, code)
    assert "code=" not in page.url
    assert page.evaluate("localStorage.getItem('duplicate.tablet.token')")
    assert any(c["name"] == "tablet_token" for c in page.context.cookies())
    assert page.get_attribute("#status", "data-phase") == "drawn"
    assert page.locator("#rack .tile.empty").count() == 7  # the rack is not shown before the round opens
    assert page.is_disabled("#slip-submit")

    started = time.monotonic()
    hall.open(rnd)
    page.wait_for_selector("#status[data-phase=open]", timeout=REAL_TIME * 1000)
    assert time.monotonic() - started <= REAL_TIME + 0.3
    assert "".join(page.locator("#rack .tile .l").all_inner_texts()) == "CATSROE"
    assert page.locator("#rack .tile .v").all_inner_texts()[0] == "3"  # C = 3 points
    page.wait_for_timeout(300)
    left = clock_seconds(page)
    real = (Round.objects.get(pk=rnd.pk).deadline - timezone.now()).total_seconds()
    assert abs(left - real) <= 2, (left, real)
    assert page.locator("#board .sq").count() == 225 and page.inner_text("#board .lbl.row >> nth=7") == "H"

    # hand in a slip: a receipt with the time received
    slip_in(page, "CARTS", "H4", 20)
    page.wait_for_selector("#receipt.ok")
    slip = Slip.objects.get(registration=reg)
    received = timezone.localtime(slip.received_at).strftime("%H:%M:%S")
    assert received in page.inner_text("#receipt") and "H4 CARTS 20" in page.inner_text("#receipt")
    assert (slip.word, slip.coordinates, slip.announced_score, slip.is_current) == ("CARTS", "H4", 20, True)
    assert page.inner_text("#slip-submit") == "Replace the slip"
    # the typed move is previewed on the board, nothing says whether it is right
    assert page.locator("#board .tile.ghost").count() == 5
    assert "points" not in page.inner_text("#receipt")

    # replace it, marking a blank by tapping the letter: the last slip counts
    slip_in(page, "CATS", "H5", 11, blanks=[3])
    wait_receipt(page, "H5 CATs 11")
    current = Slip.objects.get(registration=reg, is_current=True)
    assert (current.word, current.version, Slip.objects.filter(registration=reg).count()) == ("CATs", 2, 2)
    assert "version 2" in page.inner_text("#receipt")

    # a reload keeps the login and shows the slip that counts
    page.reload()
    page.wait_for_selector("#receipt.ok")
    assert "H5 CATs 11" in page.inner_text("#receipt") and page.input_value("#slip-word") == "CATs"

    # publication: own move and verdict, the top, round score, total, rank
    started = time.monotonic()
    hall.finish(rnd)
    page.wait_for_selector("#result:not([hidden])", timeout=REAL_TIME * 1000)
    assert time.monotonic() - started <= REAL_TIME + 0.3
    result = page.inner_text("#result")
    assert "H5 CATs 11" in result and "H4 CARTS — 20 points" in result
    figures = page.locator(".tb-res-figures dd").all_inner_texts()
    verdict = reg.verdicts.get(round=rnd)
    assert figures[0].startswith(str(verdict.awarded)) and figures[2].startswith("1")
    assert page.locator("#board .sq.new").count() == 5  # the top's tiles, highlighted
    assert page.js_errors == []


def test_slip_survives_a_network_cut_and_is_stored_once(chromium, live_server, hall):
    reg, code = hall.players[1]
    hall.open(hall.draw())
    page = new_page(chromium, live_server, width=390, height=844, is_mobile=True)
    login(page, code)
    page.wait_for_selector("#status[data-phase=open]")
    keys = []
    page.on("request", lambda r: keys.append(r.headers.get("idempotency-key")) if r.url.endswith("/api/tablet/slip/") else None)

    page.route("**/api/tablet/slip/", lambda route: route.abort("internetdisconnected"))
    slip_in(page, "CARTS", "", 20)  # round 1: coordinates are optional
    page.wait_for_selector("#receipt.pending")
    assert "not sent yet" in page.inner_text("#receipt").lower()
    [kept] = outbox(page, reg)
    assert kept["word"] == "CARTS" and not Slip.objects.exists()
    page.reload()  # the slip waits in localStorage, across a reload too
    page.wait_for_selector("#receipt.pending")
    assert len(keys) >= 2 and set(keys) == {kept["key"]}

    page.unroute("**/api/tablet/slip/")
    page.wait_for_selector("#receipt.ok", timeout=20_000)
    assert outbox(page, reg) == []
    assert Slip.objects.filter(idempotency_key=f"tablet:{reg.pk}:{kept['key']}").count() == 1
    assert Slip.objects.filter(registration=reg).count() == 1
    assert set(keys) == {kept["key"]}

    # the answer is lost after the server stored the slip: the retry (same key) gets the same slip back
    calls = []

    def lose_first_answer(route):
        calls.append(route.request.headers.get("idempotency-key"))
        if len(calls) == 1:
            route.fetch()
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route("**/api/tablet/slip/", lose_first_answer)
    slip_in(page, "CATS", "", 10)
    wait_receipt(page, "CATS 10", timeout=20_000)
    assert len(calls) >= 2 and len(set(calls)) == 1
    assert Slip.objects.filter(idempotency_key=f"tablet:{reg.pk}:{calls[0]}").count() == 1
    assert list(Slip.objects.filter(registration=reg).values_list("word", "is_current").order_by("version")) == [
        ("CARTS", False), ("CATS", True)]
    assert page.js_errors == []


def test_slip_after_the_deadline_is_refused_on_screen(chromium, live_server, hall):
    reg, code = hall.players[2]
    rnd = hall.open(hall.draw())
    page = new_page(chromium, live_server)
    login(page, code)
    page.wait_for_selector("#status[data-phase=open]")
    page.route("**/api/tablet/slip/", lambda route: route.abort("internetdisconnected"))
    slip_in(page, "CARTS", "H4", 20)
    page.wait_for_selector("#receipt.pending")

    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=1))  # time is over
    page.wait_for_selector("#over-banner:not([hidden])", timeout=REAL_TIME * 1000 + 500)
    assert page.is_hidden("#slip-form") and page.inner_text("#clock") == "0:00"
    page.unroute("**/api/tablet/slip/")  # the network is back, the slip arrives late
    page.wait_for_selector("#receipt.refused", timeout=20_000)
    text = page.inner_text("#receipt")
    assert "Slip refused" in text and "after the deadline" in text and "H4 CARTS 20" in text
    slip = Slip.objects.get(registration=reg)
    assert slip.late and not slip.is_current
    assert outbox(page, reg) == []
    page.reload()
    page.wait_for_selector("#receipt.refused")  # the server's own record says so too
    assert page.js_errors == []


def test_a_paper_slip_ticked_late_is_shown_as_handed_in_late(chromium, live_server, hall):
    """The runner brings a player's paper slip after the judging and the arbiter ticks it late: the tablet shows it
    as it shows a late slip of its own (kept as late, counts as missing), but handed in late, not "reached the
    server after the deadline" — the player's tablet sent nothing."""
    reg, code = hall.players[1]
    rnd = hall.open(hall.draw())
    page = new_page(chromium, live_server)
    login(page, code)
    page.wait_for_selector("#status[data-phase=open]")
    services.rounds.close_round(rnd, hall.alice, force=True)
    services.judging.judge_round(rnd, hall.alice)
    page.wait_for_selector("#over-banner:not([hidden])", timeout=REAL_TIME * 1000 + 500)

    services.slips.submit_slip(rnd, reg, word="CARTS", coordinates="H4", score=20, source=Slip.Source.PAPER,
                               actor=hall.alice, idempotency_key="paper-late", marked_late=True)
    page.wait_for_selector("#receipt.refused", timeout=REAL_TIME * 1000 + 500)  # the round judged again
    text = page.inner_text("#receipt")
    assert "H4 CARTS 20" in text and "Your paper slip was handed in after the deadline" in text
    assert "reached the server" not in text
    assert page.js_errors == []


def test_the_coordinate_hint_of_a_refused_slip_uses_the_tournaments_rows(chromium, live_server, hall):
    """Issue 14: the hint said "H8 (horizontal) or 8H (vertical)" in a tournament written with Cyrillic rows."""
    hall.t.coordinate_script = "cyrillic"
    hall.t.save()
    reg, code = hall.players[3]
    hall.open(hall.draw())
    page = new_page(chromium, live_server)
    login(page, code)
    page.wait_for_selector("#status[data-phase=open]")
    slip_in(page, "CARTS", "Z99", 20)
    page.wait_for_selector("#form-message:not([hidden])")
    hint = page.inner_text("#form-message")
    assert "Г8" in hint and "8Г" in hint and "H8" not in hint and "8H" not in hint
    assert not Slip.objects.filter(registration=reg).exists() and page.js_errors == []


def test_assisted_mode_places_tiles_and_scores(chromium, live_server, hall):
    hall.t.assisted_mode = True
    hall.t.save()
    reg, code = hall.players[3]
    hall.open(hall.draw())
    page = new_page(chromium, live_server)
    login(page, code)
    page.wait_for_selector("#status[data-phase=open]")
    rack = {letter: i + 1 for i, letter in enumerate("CATSROE")}

    def place(letter, col):
        page.click(f"#rack .tile:nth-child({rack[letter]})")
        page.click(f"#board .sq[data-r='7'][data-c='{col}']")

    place("C", 3)
    place("T", 5)
    page.wait_for_function("() => document.querySelector('#assist-result').innerText.includes('gap')")
    page.click("#board .sq[data-r='7'][data-c='5']")  # take the T back
    for letter, col in (("A", 4), ("R", 5), ("T", 6), ("S", 7)):
        place(letter, col)
    page.wait_for_selector(".tb-assist-result.ok")
    assert page.inner_text("#assist-result") == "H4 CARTS — 20 points"
    assert page.locator("#rack .tile.used").count() == 5
    page.click("#assist-use")
    assert (page.input_value("#slip-word"), page.input_value("#slip-coords"), page.input_value("#slip-score")) == (
        "CARTS", "H4", "20")
    page.click("#slip-submit")
    page.wait_for_selector("#receipt.ok")
    assert Slip.objects.get(registration=reg).text == "H4 CARTS 20"
    assert page.js_errors == []


def test_screenshots(chromium, live_server, hall):
    """Tablet at 1024×768 and on a 390×844 phone (looked at by hand: /tmp/shots)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    rnd = hall.open(hall.draw())
    for (_reg, code), (w, h, name) in zip(hall.players, [(1024, 768, "tablet-1024"), (390, 844, "tablet-phone-390")],
                                          strict=False):
        page = new_page(chromium, live_server, width=w, height=h, is_mobile=w < 500)
        login(page, code)
        page.wait_for_selector("#status[data-phase=open]")
        slip_in(page, "CARTS", "H4", 20, blanks=[2])
        page.wait_for_selector("#receipt.ok")
        page.screenshot(path=str(SHOTS / f"test-{name}.png"))
        page.context.close()
    hall.finish(rnd)
    page = new_page(chromium, live_server, width=390, height=844, is_mobile=True)
    login(page, hall.players[0][1])
    page.wait_for_selector("#result:not([hidden])")
    page.screenshot(path=str(SHOTS / "test-tablet-phone-results-390.png"))
    assert page.is_hidden("#slip-form") and page.is_hidden("#receipt")  # the results say it all
    assert page.js_errors == []
