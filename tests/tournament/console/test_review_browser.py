"""A round of 1,000 players in the browser (issue 14): 600 slips in, the console counts 600 / 1000 in the
page's language and lists the missing tables as runs; then the arbiter corrects a verdict of an earlier,
published round on the review page, and the standings page, the player's tablet state and the standings
PDF follow. Screenshots of the review page in Ukrainian at laptop and tablet sizes go to ``SHOTS``."""

from __future__ import annotations

import re
import shutil
import subprocess
import time

import pytest
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from tests.tools.browser import SHOTS, arbiter_page
from tournament.live import version as live_version
from tournament.models import Verdict
from tournament.printing import build as pdf
from tournament.printing import spec as specs

from .bighall import bulk_players, bulk_slips

pytestmark = [pytest.mark.django_db]

#: Tables with a slip in round 2: 600 of 1,000.
HANDED = [*range(1, 201), *range(241, 305), *range(306, 642)]
MISSING = "201\u2013240, 305, 642\u20131000"


def tablet_state(code: str) -> dict:
    """The JSON a player's tablet polls."""
    api = APIClient()
    token = api.post("/api/tablet/login/", {"code": code}, format="json").json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Tablet {token}")
    live_version.expire()
    return api.get("/api/tablet/state/").json()


def pdf_line(tournament, tmp_path, name: str) -> str:
    """The line of ``name`` in the text of the game's standings PDF (built, or taken from the cache)."""
    out = tmp_path / f"standings-{time.monotonic_ns()}.pdf"
    pdf.build(specs.make_spec(tournament, "standings", game=1), out=out)
    text = subprocess.run([shutil.which("pdftotext") or "pdftotext", "-layout", "-enc", "UTF-8", str(out), "-"],
                          capture_output=True, check=True).stdout.decode()
    return next(line for line in text.splitlines() if name in line)


def test_a_round_of_1000_players_then_a_correction_of_a_published_round(chromium, live_server, hall, settings,
                                                                         tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    started = time.monotonic()
    (ivan, ivan_code), *_ = hall.players
    regs = [p[0] for p in hall.players] + bulk_players(hall.t, 996, first_table=5)[4:]
    by_table = {r.table_number: r for r in regs}
    # round 1: Иван's word is not in the lexicon (0); 599 players play the top; published
    r1 = hall.open(hall.draw())
    bulk_slips(r1, [ivan], "TSAC", "H4", 20)
    bulk_slips(r1, regs[1:600], "CARTS", "H4", 20)
    hall.finish(r1)
    # round 2: 600 slips in while open
    r2 = hall.open(hall.draw())
    bulk_slips(r2, [by_table[t] for t in HANDED], "CaRDS", "4H", 14)

    page = arbiter_page(chromium, live_server, hall.alice, language="uk", width=1366, height=900)
    page.goto(page.base + reverse("arbiter:game", args=[hall.t.slug, 1]))
    with translation.override("uk"):
        received, missing = translation.gettext("Slips received"), translation.gettext("Missing tables")
    assert received != "Slips received"  # the page speaks Ukrainian
    heading = page.inner_text("#live h2")
    assert heading.startswith(received) and re.search(r"600\s*/\s*1000$", heading), heading
    assert missing in page.inner_text("#live") and page.inner_text("#live-missing") == MISSING
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "console-live-1000-uk.png"), full_page=False)
    page.goto(page.base + reverse("arbiter:slips", args=[hall.t.slug, 1]))
    assert MISSING in page.inner_text("main") and "<li>201</li>" not in page.content()

    hall.finish(r2)
    before = tablet_state(ivan_code)["result"]
    line_before = pdf_line(hall.t, tmp_path, ivan.player.name)
    # the arbiter corrects Иван's round 1 (published, no longer current) on the review page
    page.goto(page.base + reverse("arbiter:review", args=[hall.t.slug, 1]))
    page.select_option("#review-round", "1")
    page.wait_for_url(re.compile(r"round=1"))
    page.fill("#jump-table", "1")
    page.click("#jump button[type=submit]")
    page.wait_for_url(re.compile(r"table=1\b"))
    verdict = Verdict.objects.get(round=r1, registration=ivan)
    row = page.locator(f"#v{verdict.pk}")
    assert row.locator("details.fix").get_attribute("open") is not None
    row.locator("input[type=number]").fill("20")
    row.locator("input[type=text]").fill("слово знайдено в словнику")
    row.locator("button[type=submit]").click()
    page.wait_for_selector(".msg-success")
    verdict.refresh_from_db()
    assert (verdict.awarded, verdict.automatic) == (20, False)

    after = tablet_state(ivan_code)["result"]
    assert after["total"] == before["total"] + 20 and after["rank"] < before["rank"], (before, after)
    line_after = pdf_line(hall.t, tmp_path, ivan.player.name)
    assert line_after != line_before and str(after["total"]) in line_after.split(), (line_before, line_after)
    page.goto(page.base + reverse("arbiter:standings", args=[hall.t.slug]) + "?game=1")
    page.fill("#standings-q", "иван")
    shown = page.locator("tr[data-find]:not([hidden])")
    assert shown.count() == 1 and str(after["total"]) in shown.inner_text().split()
    page.screenshot(path=str(SHOTS / "standings-search-uk.png"))
    assert page.js_errors == []
    assert time.monotonic() - started < 60


@pytest.mark.parametrize(("width", "height", "name"), [(1366, 768, "laptop"), (800, 1280, "tablet")])
def test_review_page_screenshots_in_ukrainian(chromium, live_server, hall, width, height, name):
    """The review page of 1,000 players in Ukrainian, with a correction form open (look at the pictures)."""
    bulk_players(hall.t, 996, first_table=5)
    regs = list(hall.t.registrations.order_by("table_number"))
    r1 = hall.open(hall.draw())
    bulk_slips(r1, regs[:300], "CARTS", "H4", 20)
    bulk_slips(r1, regs[300:500], "CARTS", "H4", 25)
    bulk_slips(r1, regs[500:600], "TSAC", "H4", 20)
    hall.finish(r1)
    page = arbiter_page(chromium, live_server, hall.alice, language="uk", width=width, height=height)
    page.goto(page.base + reverse("arbiter:review", args=[hall.t.slug, 1]) + "?round=1&show=warnings")
    page.locator("details.fix summary").first.click()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"review-uk-{name}.png"))
    page.screenshot(path=str(SHOTS / f"review-uk-{name}-full.png"), full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the review page scrolls sideways by {overflow}px at {width}px"
    assert page.js_errors == []
