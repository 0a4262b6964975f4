"""The tablet's outbox across reloads and tabs (headless Chromium, live server): a slip kept while it could not be
sent is sent after a reload, and stored once however many times it is sent — reloaded twice in a row, its
answer lost, the same token open in two tabs — and a slip typed in one tab is not dropped by another tab.

The slip request is cut off with ``page.route`` (the server is up, the tablet's network is not); the server's
side is read from the database.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.tools.browser import new_page
from tests.tournament.tablet.test_tablet_browser import login, outbox, slip_in, wait_receipt, wait_until
from tournament.models import Slip

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLIP_URL = "**/api/tablet/slip/"


class Network:
    """The slip requests of one tab: ``cut`` (no answer), ``lose`` (the server stores, the answer is lost) or
    ``up``; every Idempotency-Key sent."""

    def __init__(self, page, mode: str = "cut"):
        self.mode, self.keys = mode, []
        page.route(SLIP_URL, self.handle)

    def handle(self, route) -> None:
        self.keys.append(route.request.headers.get("idempotency-key"))
        if self.mode == "cut":
            route.abort("internetdisconnected")
        elif self.mode == "lose":
            route.fetch()
            route.abort("connectionreset")
        else:
            route.continue_()


def second_tab(page, network: str = "up"):
    """Another tab of the same browser (same localStorage, same token) and its slip requests."""
    tab = page.context.new_page()
    tab.set_default_timeout(10_000)
    tab.base = page.base
    tab.js_errors = []
    tab.on("pageerror", lambda exc: tab.js_errors.append(str(exc)))
    net = Network(tab, network)
    tab.goto(f"{page.base}/tablet/")
    tab.wait_for_selector("#status:not([data-phase=loading])")
    return tab, net


def stored(reg, rnd) -> list[tuple[str, str, bool]]:
    return list(Slip.objects.filter(registration=reg, round=rnd).order_by("version")
                .values_list("idempotency_key", "word", "is_current"))


def open_tablet(chromium, live_server, hall, player: int):
    reg, code = hall.players[player]
    rnd = hall.open(hall.draw())
    page = new_page(chromium, live_server)
    login(page, code)
    page.wait_for_selector("#status[data-phase=open]")
    return reg, rnd, page


def test_a_kept_slip_is_sent_once_by_the_reloaded_page(chromium, live_server, hall):
    reg, rnd, page = open_tablet(chromium, live_server, hall, 0)
    net = Network(page, "cut")
    slip_in(page, "CARTS", "H4", 20)
    page.wait_for_selector("#receipt.pending")
    [kept] = outbox(page, reg)
    assert stored(reg, rnd) == []

    net.mode = "up"  # the network is back; the page is reloaded before its next try
    started = time.monotonic()
    page.reload()
    wait_receipt(page, "H4 CARTS 20", timeout=10_000)
    print(f"\nreload → slip received on screen: {time.monotonic() - started:.2f} s")
    assert "Slip received" in page.inner_text("#receipt")
    assert stored(reg, rnd) == [(f"tablet:{reg.pk}:{kept['key']}", "CARTS", True)]
    assert set(net.keys) == {kept["key"]}
    assert outbox(page, reg) == []
    assert page.js_errors == []
    page.context.close()


def test_two_quick_reloads_a_lost_answer_and_a_second_tab_store_the_slip_once(chromium, live_server, hall):
    reg, rnd, page = open_tablet(chromium, live_server, hall, 1)
    net = Network(page, "cut")
    slip_in(page, "CARTS", "H4", 20)
    page.wait_for_selector("#receipt.pending")
    [kept] = outbox(page, reg)

    # the server stores the slip but the answers never come back, and the page is reloaded twice in a row
    net.mode = "lose"
    page.reload(wait_until="commit")
    try:
        page.reload()
    except PlaywrightError as exc:  # the first navigation was still swapping the page: reload once it is there
        if "Not attached to an active page" not in str(exc):
            raise
        page.wait_for_load_state()
        page.reload()
    page.wait_for_selector("#receipt.pending")
    assert wait_until(lambda: len(stored(reg, rnd)) == 1), "the reloaded page did not send the kept slip"
    assert [i["key"] for i in outbox(page, reg)] == [kept["key"]]  # no answer: still kept
    # the same token in a second tab, whose network is fine: it sends the kept slip too
    tab, net_b = second_tab(page)
    wait_receipt(tab, "H4 CARTS 20", timeout=10_000)
    net.mode = "up"
    wait_receipt(page, "H4 CARTS 20", timeout=40_000)  # the first tab shows it received too

    assert stored(reg, rnd) == [(f"tablet:{reg.pk}:{kept['key']}", "CARTS", True)]
    sent = net.keys + net_b.keys
    assert len(sent) >= 2 and set(sent) == {kept["key"]}
    assert outbox(page, reg) == [] and outbox(tab, reg) == []
    assert page.js_errors == [] and tab.js_errors == []
    page.context.close()


def test_a_slip_typed_in_one_tab_is_not_dropped_by_another_tab(chromium, live_server, hall):
    """Tab A keeps slip 1; tab B (same token) sends it, then keeps slip 2 while its own network is cut. When A's
    late retry of slip 1 is answered, A must not write its old outbox over B's: slip 2 survives B's reload."""
    reg, rnd, page = open_tablet(chromium, live_server, hall, 2)
    net_a = Network(page, "cut")
    slip_in(page, "CARTS", "H4", 20)
    page.wait_for_selector("#receipt.pending")
    [first] = outbox(page, reg)

    tab, net_b = second_tab(page)
    wait_receipt(tab, "H4 CARTS 20")
    net_b.mode = "cut"
    slip_in(tab, "CATS", "H5", 11)
    tab.wait_for_selector("#receipt.pending")
    second = [i for i in outbox(tab, reg) if i["word"] == "CATS"]
    assert len(second) == 1

    net_a.mode = "up"  # tab A's retry of slip 1 is answered now (200: already stored)
    page.wait_for_function("() => document.querySelector('#receipt:not(.pending)')", timeout=40_000)
    tab.reload()  # slip 2 must still be in the outbox (or already sent by tab A)
    tab.wait_for_selector("#status[data-phase=open]")
    net_b.mode = "up"
    tab.evaluate("window.dispatchEvent(new Event('online'))")
    wait_receipt(tab, "H5 CATS 11", timeout=20_000)
    assert stored(reg, rnd) == [(f"tablet:{reg.pk}:{first['key']}", "CARTS", False),
                                (f"tablet:{reg.pk}:{second[0]['key']}", "CATS", True)]
    assert outbox(tab, reg) == []
    assert page.js_errors == [] and tab.js_errors == []
    page.context.close()
