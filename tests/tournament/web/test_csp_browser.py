"""Issue 15: the strict Content-Security-Policy in headless Chromium. The main pages of a Ukrainian hall with a
round open — the console's round control and players, the tablet, the display, the home page — load without one
violation (no inline style or script refused) and keep their looks; so do Django's admin, the API's browsable pages
and the Swagger UI. Screenshots at tablet (800×1280) and laptop (1366×768) size go to ``SHOTS`` (csp-*.png)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.tools.browser import SHOTS, arbiter_page, new_page
from tests.tournament.web.test_hall_language import console_pages, lexicon_pages, played_hall
from tournament import services
from tournament.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("local_cache")]

SIZES = {"tablet": {"width": 800, "height": 1280}, "laptop": {"width": 1366, "height": 768}}
#: Records every violation the page reports (the listener is installed before any of the page's own scripts).
LISTEN = ("window.__csp = []; document.addEventListener('securitypolicyviolation', (e) => window.__csp.push("
          "[e.effectiveDirective, e.blockedURI, e.sample, e.sourceFile + ':' + e.lineNumber].join(' ')));")
REFUSED = re.compile(r"Content Security Policy|Refused to (apply|execute|load|connect|frame)", re.I)


def watched(page: Any) -> Any:
    """``page`` with its violations recorded: the events (``window.__csp``) and Chromium's console reports."""
    page.add_init_script(LISTEN)
    page.csp_console = []
    page.on("console", lambda m: page.csp_console.append(m.text) if REFUSED.search(m.text) else None)
    return page


def violations(page: Any) -> list[str]:
    return page.csp_console + page.evaluate("window.__csp || []")


def shoot(page: Any, path: str, name: str, *, wait: str | None = None) -> None:
    page.goto(page.base + path)
    page.wait_for_load_state("networkidle")
    if wait:
        page.wait_for_selector(wait)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"csp-{name}.png"), full_page=True)


def style(page: Any, selector: str, prop: str) -> str:
    return page.eval_on_selector(selector, f"(e) => getComputedStyle(e).getPropertyValue('{prop}')")


@pytest.fixture
def open_hall(alice, monkeypatch, eager):
    """The Ukrainian hall of test_hall_language, its third round open; returns it and a tablet's access code."""
    t, _regs, code = played_hall("uk", alice, monkeypatch, eager)
    rnd = Round.objects.get(game__tournament=t, number=3)
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    alice.is_staff = alice.is_superuser = True
    alice.save()
    return t, code


@pytest.mark.parametrize("size", list(SIZES))
def test_main_pages_keep_their_looks_under_the_policy(size, chromium, live_server, alice, open_hall):
    t, code = open_hall
    viewport = SIZES[size]
    console = watched(arbiter_page(chromium, live_server, alice, language="uk", **viewport))
    shoot(console, reverse("arbiter:game", args=[t.slug, 1]), f"game-{size}", wait="#live")
    assert style(console, "header.topbar", "display") == "flex"
    assert style(console, ".rack-tiles span", "width") == style(console, ".rack-tiles span", "height") != "auto"
    assert style(console, "main h1", "margin-top") == "0px"  # was style="margin:0"
    shoot(console, reverse("arbiter:players", args=[t.slug]), f"players-{size}")
    assert style(console, "main h2", "margin-top") == "0px"
    shoot(console, reverse("home"), f"home-{size}")
    assert console.js_errors == [] and violations(console) == []

    tablet = watched(new_page(chromium, live_server, **viewport))
    tablet.goto(f"{tablet.base}/tablet/login/?code={code}")
    tablet.wait_for_url(re.compile(r".*/tablet/$"))
    tablet.wait_for_selector("#status[data-phase=open]")
    tablet.fill("#slip-word", "слово")
    tablet.wait_for_load_state("networkidle")
    SHOTS.mkdir(parents=True, exist_ok=True)
    tablet.screenshot(path=str(SHOTS / f"csp-tablet-{size}.png"), full_page=True)
    assert style(tablet, "#slip-word", "text-transform") == "none"  # was style="text-transform:none"
    assert tablet.input_value("#slip-word") == "слово"
    assert tablet.js_errors == [] and violations(tablet) == []

    display = watched(new_page(chromium, live_server, **viewport))
    shoot(display, f"/display/{t.slug}/", f"display-{size}", wait="#display[data-phase=open]")
    assert display.js_errors == [] and violations(display) == []


def test_every_other_page_admin_api_and_swagger_under_the_policy(chromium, live_server, alice, open_hall):
    """The other pages of the console, lexicon and print, then Django's admin, the API's browsable pages and the
    Swagger UI (an operation opened): their scripts run and nothing is refused."""
    t, _code = open_hall
    page = watched(arbiter_page(chromium, live_server, alice, language="uk", **SIZES["laptop"]))
    job = Client()
    job.force_login(alice)
    pages = console_pages(t) + lexicon_pages() + [job.post(reverse("pdf:request", args=[t.slug]), {"kind": "slips"}).url]
    for path in pages:
        page.goto(page.base + path, wait_until="load")  # deferred scripts have run; a violation is reported soon after
        page.wait_for_timeout(150)
        assert violations(page) == [], path
    shoot(page, "/admin/", "admin")
    shoot(page, "/admin/lexicon/lexicon/", "admin-list")
    shoot(page, f"/admin/auth/user/{alice.pk}/change/", "admin-change")
    shoot(page, reverse("api:arbiter-games", args=[t.slug]), "api-browsable")
    assert page.locator("form#get-form").is_visible() and style(page, ".navbar", "display") == "block"
    shoot(page, "/api/docs/", "api-docs", wait=".swagger-ui .opblock")
    page.click(".swagger-ui .opblock-summary")
    page.wait_for_selector(".swagger-ui .opblock-body")
    assert page.js_errors == [] and violations(page) == []
