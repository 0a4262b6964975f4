"""Browser tests' tools: headless Chromium (Debian's, driven by Playwright), a live hall, a page."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from tests.tools.world import PREPARED
from tournament import services
from tournament.live import version as live_version
from tournament.models import Round

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync"]
SHOTS = Path(os.environ.get("SHOTS_DIR", "/tmp/shots"))
#: Every arbiter action must reach the screens within this many seconds.
REAL_TIME = 2.0

@pytest.fixture(scope="module")
def chromium():
    """Headless Chromium for one test module.

    Playwright's sync API keeps an event loop running in this thread: Django's "async context" guard is
    lifted while the browser is up (the ORM calls of the tests are synchronous anyway).
    """
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover
        pytest.skip("playwright is not installed (.venv/bin/pip install playwright)")
    if not Path(CHROMIUM).exists():  # pragma: no cover
        pytest.skip(f"{CHROMIUM} is missing (apt-get install -y chromium)")
    saved = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    pw = sync_playwright().start()
    try:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    except Exception as exc:  # pragma: no cover
        pw.stop()
        _restore(saved)
        pytest.skip(f"chromium cannot start: {exc}")
    yield browser
    browser.close()
    pw.stop()
    _restore(saved)


def _restore(saved: str | None) -> None:
    if saved is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:  # pragma: no cover
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = saved


@pytest.fixture
def hall(monkeypatch, settings, eager, tournament, alice):
    """A live tournament (English rule set and language) with 4 players, their codes, and a prepared game."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "browser-tests"}}
    live_version.expire()
    live_version.reset()
    tournament.language = "en"
    tournament.save()
    players = []
    for name in ("Иван Петров", "Ołena Kowalczyk", "Jean Dupont", "Марія Шевченко"):
        reg, code = services.players.register_player(alice, tournament, name=name, club="Club")
        players.append((reg, code))
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    return Hall(tournament, alice, players, game, eager)


class Hall:
    def __init__(self, tournament, alice, players, game, eager):
        self.t, self.alice, self.players, self.game, self.eager = tournament, alice, players, game, eager

    def draw(self) -> Round:
        with self.eager(execute=True):
            return services.rounds.draw_round(self.alice, self.game)

    def open(self, rnd: Round) -> Round:
        with self.eager(execute=False):
            return services.rounds.open_round(self.alice, rnd)

    def finish(self, rnd: Round) -> Round:
        services.rounds.close_round(rnd, self.alice, force=True)
        services.judging.judge_round(rnd, self.alice)
        return services.rounds.publish_round(self.alice, rnd)


def page_scripts(html: str) -> list[str]:
    """The scripts a page loads (static/js/<name>.js, in order); an inline script fails the test (JSON blocks
    are data, not scripts)."""
    tags = re.findall(r"<script\b([^>]*)>", html)
    assert all("src=" in tag or 'type="application/json"' in tag for tag in tags), tags
    return re.findall(r'<script src="/static/js/([\w-]+)\.js" defer>', html)


def new_page(chromium, live_server, *, width=1024, height=768, skew_seconds=0, **options):
    context = chromium.new_context(viewport={"width": width, "height": height}, has_touch=True, **options)
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors
    if skew_seconds:  # a tablet whose clock is wrong
        page.add_init_script(f"(() => {{ const now = Date.now.bind(Date); Date.now = () => now() + {skew_seconds * 1000}; }})()")
    page.base = live_server.url
    return page


def arbiter_page(chromium: Any, live_server: Any, user: Any, *, language: str = "en", **options: Any) -> Any:
    """A page logged in to the arbiter console as ``user`` (a session made by Django's test client), reading
    the console in ``language``."""
    client = Client()
    client.force_login(user)
    page = new_page(chromium, live_server, **options)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url},
                              {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
    return page
