"""A 7-among-8 round on a tablet whose browser speaks another language (en-US, New York): a slip of all 8 tiles is
refused at once, and the tablet says why in the tournament's Ukrainian — the server's reason, not the browser's
language; 7 of them are received. Screenshots at 800×1280, 390×844 and 1366×768 in SHOTS_DIR."""

from __future__ import annotations

import re

import pytest

from tests.tools.browser import SHOTS, new_page
from tests.tournament.services.test_slip_tiles import RACK, uk_hall  # noqa: F401 (the fixture)
from tests.tournament.tablet.test_tablet_browser import login, slip_in
from tournament.models import Slip

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_eight_tiles_are_refused_on_the_tablet_in_its_language(chromium, live_server, uk_hall):  # noqa: F811
    SHOTS.mkdir(parents=True, exist_ok=True)
    _t, _game, rnd, _regs, code = uk_hall
    for width, height in ((800, 1280), (390, 844), (1366, 768)):
        page = new_page(chromium, live_server, width=width, height=height, locale="en-US",
                        timezone_id="America/New_York")
        login(page, code)
        page.wait_for_selector("#status[data-phase=open]")
        slip_in(page, RACK, "З2", 80)
        page.wait_for_selector("#receipt.refused:not([hidden])")
        said = page.inner_text("#receipt")
        assert "8 плиток" in said and "не більше 7" in said, said
        assert not re.search(r"[A-Za-z]{2,}", said), said
        assert said.count("не прийнято") == 1, said  # said once, in the head: the text under it says why
        page.locator("#receipt").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"eight-tiles-refused-uk-{width}.png"))
        assert not Slip.objects.filter(round=rnd).exists()
        assert not page.js_errors
        page.context.close()
    page = new_page(chromium, live_server, width=800, height=1280, locale="en-US", timezone_id="America/New_York")
    login(page, code)
    page.wait_for_selector("#status[data-phase=open]")
    slip_in(page, RACK[:7], "З2", 80)
    page.wait_for_selector("#receipt.ok:not([hidden])")
    assert Slip.objects.filter(round=rnd, word=RACK[:7]).count() == 1
    page.context.close()
