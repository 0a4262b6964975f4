"""Issue 38, "Accessibility": every page audited with axe-core in headless Chromium at tablet (800×1280) and laptop
(1280×800) size — no serious or critical violation — and the tablet's own checks: touch targets of 44 × 44 px,
landmarks (main, banner, navigation where there is one), headings that never skip a level.

The world: the judged Ukrainian hall of test_hall_language (two rounds published, the third drawn), its arbiter
staff (the lexicon upload page too). The console, lexicon, printing and display pages are read in one browser
page, each audited at both sizes; the tablet is followed from its login page through the third round (waiting, the
rack with a slip typed, the receipt, the result) to the end of the game, which the training pages then play again
(the list, a run, a club session).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.rules import get_ruleset
from tests.paths import LEXICONS
from tests.tools.axe import TOUCH, audit, heading_jumps, outline, small_targets
from tests.tools.browser import SHOTS, arbiter_page, new_page
from tests.tools.wordlist_solver import WordListSolver
from tests.tournament.web.test_hall_language import console_pages, lexicon_pages, played_hall
from tournament import labels, services
from tournament.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("local_cache")]

TABLET = {"width": 800, "height": 1280}
LAPTOP = {"width": 1280, "height": 800}
SIZES = {"tablet": TABLET, "laptop": LAPTOP}


@pytest.fixture
def uk_hall(alice, monkeypatch, eager):
    """The judged Ukrainian hall, its third round drawn; returns it and a tablet's access code."""
    t, _regs, code = played_hall("uk", alice, monkeypatch, eager)
    alice.is_staff = alice.is_superuser = True
    alice.save()
    return t, code


def visit(page: Any, path: str, *, wait: str | None = None) -> None:
    page.goto(page.base + path, wait_until="load")
    if wait:
        page.wait_for_selector(wait)


def axe_both_sizes(page: Any, name: str) -> list[str]:
    """axe's serious and critical violations of the page as it is, at tablet then laptop size."""
    found = []
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        found += audit(page, f"{name} [{size}]")
    return found


def tablet_checks(page: Any, name: str) -> list[str]:
    """A tablet screen at both sizes: axe, the touch targets; the landmarks and the headings' order."""
    found = []
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        found += audit(page, f"{name} [{size}]") + small_targets(page, f"{name} [{size}]")
    seen = outline(page)
    found += [f"{name}: no {role} landmark" for role in ("main", "banner")
              if seen["landmarks"].count(role) != 1]
    if not seen["headings"] or seen["headings"][0] != 1:
        found.append(f"{name}: the first heading is not an h1 ({seen['headings']})")
    found += [f"{name}: headings skip a level, {jump}" for jump in heading_jumps(seen["headings"])]
    return found


def report(found: list[str]) -> str:
    return f"{len(found)} accessibility problems:\n" + "\n".join(found)


def test_console_lexicon_printing_and_display_pages(chromium, live_server, alice, eager, uk_hall):
    t, _code = uk_hall
    with eager(execute=False):
        services.rounds.open_round(alice, Round.objects.get(game__tournament=t, number=3))
    job = Client()
    job.force_login(alice)
    printing = job.post(reverse("pdf:request", args=[t.slug]), {"kind": "slips"}).url
    found: list[str] = []
    outside = new_page(chromium, live_server, **LAPTOP)
    for path in (reverse("home"), reverse("login"), reverse("display:index")):
        visit(outside, path)
        found += axe_both_sizes(outside, path)
    visit(outside, reverse("display:display", args=[t.slug]), wait="#display[data-phase=open]")
    found += axe_both_sizes(outside, "display")
    page = arbiter_page(chromium, live_server, alice, language="uk", **LAPTOP)
    review = reverse("arbiter:review", args=[t.slug, 1])
    pages = [path for path in console_pages(t) if not path.startswith(f"{review}?round=2")]
    for path in [*pages, *lexicon_pages(), printing]:
        visit(page, path)
        found += axe_both_sizes(page, path)
    assert not found, report(found)
    assert outside.js_errors == [] and page.js_errors == []


def test_the_tablet_from_login_to_the_end_of_the_game_and_training(chromium, live_server, alice, eager, monkeypatch,
                                                                    uk_hall):
    t, code = uk_hall
    game = t.games.get()
    rnd = Round.objects.get(game=game, number=3)
    page = new_page(chromium, live_server, **TABLET)
    visit(page, reverse("tablet:login"))
    found = tablet_checks(page, "tablet login")
    page.fill("#login-code", code)
    page.click("#login-submit")
    page.wait_for_selector("#status[data-phase=drawn]")
    found += tablet_checks(page, "tablet waiting")
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    page.wait_for_selector("#status[data-phase=open]")
    where, word = rnd.top_moves[0]["move"].split(" ", 1)
    page.fill("#slip-word", word)
    page.fill("#slip-coords", labels.tournament_style(t).coordinate(where))
    page.fill("#slip-score", str(rnd.top_moves[0]["score"]))
    found += tablet_checks(page, "tablet rack and slip")
    page.click("#slip-submit")
    page.wait_for_selector("#receipt.ok")
    found += tablet_checks(page, "tablet receipt")
    services.rounds.close_round(rnd, alice, force=True)
    services.judging.judge_round(rnd, alice)
    services.rounds.publish_round(alice, rnd)
    page.wait_for_selector("#result:not([hidden])")
    found += tablet_checks(page, "tablet result")
    services.games.finish_game(alice, game, why="зала зачиняється")
    page.wait_for_selector("#game-over:not([hidden])")
    found += tablet_checks(page, "tablet game over")
    assert page.js_errors == []
    found += training_pages(chromium, live_server, game, monkeypatch)
    assert not found, report(found)


def training_pages(chromium: Any, live_server: Any, game: Any, monkeypatch: Any) -> list[str]:
    """The finished game played again: the list of games, a run (a round's rack and slip), a club session (the
    leader's page, a player's waiting page)."""
    from tournament.training import clubs
    from tournament.training import services as training

    words = frozenset((LEXICONS / "sim-uk.txt").read_text(encoding="utf-8").split())
    monkeypatch.setattr(training, "lexicon_tools", lambda _game: (WordListSolver(get_ruleset("uk"), words), words))
    game.refresh_from_db()
    played = training.from_tournament_game(game)
    run = training.next_round(training.start_run(played, "Тарас"))
    club = clubs.open_club(played, "Клуб «Ерудит»")
    page = new_page(chromium, live_server, **TABLET)
    visit(page, f"{reverse('training:index')}?lang=uk")
    found = axe_both_sizes(page, "training list")
    page.fill("#join-code", club.code)
    page.fill("#join-name", "Ірина")
    page.click("form:has(#join-code) button[type=submit]")
    page.wait_for_selector("#club-wait")
    found += axe_both_sizes(page, "training club, a player waiting")
    visit(page, reverse("training:club_lead", args=[club.code, club.leader_key]) + "?lang=uk")
    found += axe_both_sizes(page, "training club, the leader")
    visit(page, reverse("training:club", args=[club.code]) + "?lang=uk")
    found += axe_both_sizes(page, "training club, its table")
    visit(page, reverse("training:run", args=[run.code]) + "?lang=uk", wait="#rack .tile")
    page.fill("#slip-word", "СЛОВО")
    found += axe_both_sizes(page, "training run")
    assert page.js_errors == []
    return found


def test_touch_targets_are_measured(chromium, live_server):
    """The touch-target check measures: a 30 px button is named, a 44 px one is not."""
    page = new_page(chromium, live_server, **TABLET)
    visit(page, reverse("tablet:login"))
    page.evaluate("""(touch) => {
      const small = document.body.appendChild(document.createElement("button"));
      small.id = "small-one"; small.textContent = "x"; small.style.height = "30px"; small.style.width = "60px";
      const big = document.body.appendChild(document.createElement("button"));
      big.id = "big-one"; big.textContent = "y"; big.style.height = big.style.width = touch + "px";
    }""", TOUCH)
    found = small_targets(page, "probe")
    assert any("#small-one 60×30" in line for line in found), found
    assert not any("#big-one" in line for line in found), found


# -- the tablet at 200 % and in its reading setting ------------------------------------------------------------

#: The rack, the slip's fields and the hand-in button: each seen whole, inside the page's width, clipped by no
#: scrolling or hidden-overflow box around it, and none over another.
LAID_OUT = """(selectors) => {
  const problems = [], boxes = [], width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width) problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
  for (const selector of selectors) {
    const items = [...document.querySelectorAll(selector)];
    if (!items.length) problems.push(`${selector}: missing`);
    items.forEach((e, i) => {
      const name = `${selector}[${i}]`, box = e.getBoundingClientRect();
      if (!box.width || !box.height || getComputedStyle(e).visibility !== "visible") { problems.push(`${name}: not seen`); return; }
      if (box.left < -0.5 || box.right > width + 0.5) problems.push(`${name}: outside the page (${box.left}–${box.right} of ${width})`);
      if (e.scrollWidth > e.clientWidth + 1 && e.tagName !== "INPUT") problems.push(`${name}: its text is cut (${e.scrollWidth} > ${e.clientWidth})`);
      for (let up = e.parentElement; up; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (style.overflowX === "visible" && style.overflowY === "visible") continue;
        const around = up.getBoundingClientRect();
        if (box.left < around.left - 0.5 || box.right > around.right + 0.5 || box.top < around.top - 0.5 || box.bottom > around.bottom + 0.5)
          problems.push(`${name}: cut off by ${up.tagName.toLowerCase()}.${[...up.classList].join(".")}`);
      }
      for (const [other, seen] of boxes) {
        if (box.left < seen.right - 0.5 && seen.left < box.right - 0.5 && box.top < seen.bottom - 0.5 && seen.top < box.bottom - 0.5)
          problems.push(`${name} overlaps ${other}`);
      }
      boxes.push([name, box]);
    });
  }
  return problems;
}"""
SLIP_PARTS = ["#rack .tile", "#slip-word", "#slip-coords", "#slip-score", "#slip-submit"]


def tablet_in_open_round(chromium: Any, live_server: Any, hall: Any, language: str) -> Any:
    """A tablet (800×1280) in ``language``, logged in to the hall's open first round, a slip typed."""
    _reg, code = hall.players[0]
    hall.open(hall.draw())
    page = new_page(chromium, live_server, **TABLET)
    page.context.add_cookies([{"name": "tablet_lang", "value": language, "url": live_server.url}])
    page.goto(f"{page.base}/tablet/login/?code={code}")
    page.wait_for_selector("#status[data-phase=open]")
    page.fill("#slip-word", "CARTS")
    page.fill("#slip-coords", "H4")
    page.fill("#slip-score", "20")
    return page


def font_size(page: Any, px: int) -> None:
    """The browser's default font size, as a reader who needs large letters sets it on his device (it lasts as
    long as the debugging session that set it: the page holds it)."""
    page.font_session = getattr(page, "font_session", None) or page.context.new_cdp_session(page)
    page.font_session.send("Page.setFontSizes", {"fontSizes": {"standard": px, "fixed": px}})


def shoot(page: Any, name: str) -> None:
    """The whole page, seen in a viewport as high as the page (Playwright's full-page screenshot would drop the
    font size set through the debugging protocol)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    viewport = page.viewport_size
    page.evaluate("window.scrollTo(0, 0)")
    page.set_viewport_size({"width": viewport["width"],
                            "height": max(viewport["height"], page.evaluate("document.documentElement.scrollHeight"))})
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    page.screenshot(path=str(SHOTS / f"a11y-{name}.png"))
    page.set_viewport_size(viewport)


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_the_tablet_at_twice_the_font_size(language, chromium, live_server, hall):
    """The rack, the slip's fields and the hand-in button whole, apart and inside the screen with the device's
    font size at 200 %, with and without large print. Screenshots of the tablet in its normal look, in large print
    and at 200 % go to ``SHOTS`` (a11y-tablet-*.png)."""
    page = tablet_in_open_round(chromium, live_server, hall, language)
    shoot(page, f"tablet-normal-{language}")
    assert page.evaluate(LAID_OUT, SLIP_PARTS) == []
    page.click("[data-view-toggle]")
    shoot(page, f"tablet-large-{language}")
    page.click("[data-view-toggle]")
    font_size(page, 32)
    assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == "32px"
    assert page.evaluate("getComputedStyle(document.body).fontSize") == "34px"  # the tablet's text follows it
    problems = page.evaluate(LAID_OUT, SLIP_PARTS)
    shoot(page, f"tablet-200-{language}")
    assert page.locator("#rack .tile").count() == 7
    assert not problems, "\n".join(problems)
    page.click("[data-view-toggle]")  # and large print on top of it
    problems = page.evaluate(LAID_OUT, SLIP_PARTS)
    shoot(page, f"tablet-200-large-{language}")
    assert not problems, "\n".join(problems)
    assert page.js_errors == []
    page.context.close()


def view_of(page: Any) -> dict[str, Any]:
    return page.evaluate("""() => ({classes: [...document.documentElement.classList].sort(),
      pressed: [...document.querySelectorAll('[data-view-toggle]')].map((b) => b.getAttribute('aria-pressed')),
      before_body: window.__view_before_body})""")


#: What the classes of <html> were when <body> began: the setting is in place before anything is painted.
BEFORE_BODY = """new MutationObserver((changes, watcher) => {
  if (document.body) { window.__view_before_body = [...document.documentElement.classList].sort(); watcher.disconnect(); }
}).observe(document, {childList: true, subtree: true});"""
ON = {"classes": ["tb-contrast", "tb-large"], "pressed": ["true"], "before_body": ["tb-contrast", "tb-large"]}
OFF = {"classes": [], "pressed": ["false"], "before_body": []}


def test_the_reading_setting_is_kept_on_the_tablet(chromium, live_server, hall):
    _reg, code = hall.players[1]
    page = new_page(chromium, live_server, **TABLET)
    page.add_init_script(BEFORE_BODY)
    page.context.add_cookies([{"name": "tablet_lang", "value": "uk", "url": live_server.url}])
    visit(page, reverse("tablet:login"))
    assert view_of(page) == OFF
    assert page.inner_text("[data-view-toggle]").split() == ["Aa", "Великий", "шрифт"]
    page.click("[data-view-toggle]")
    assert view_of(page)["classes"] == ON["classes"]
    shoot(page, "tablet-login-large-uk")
    found = tablet_checks(page, "tablet login, large print")
    page.reload()
    assert view_of(page) == ON
    page.fill("#login-code", code)
    page.click("#login-submit")
    page.wait_for_selector("#status[data-phase=none]")
    assert view_of(page) == ON
    hall.open(hall.draw())
    page.wait_for_selector("#status[data-phase=open]")
    page.fill("#slip-word", "CARTS")
    found += tablet_checks(page, "tablet rack and slip, large print")
    page.click("#logout")
    page.click("#logout-yes")
    page.wait_for_selector("#login-form")
    assert view_of(page) == ON  # a logout keeps it: the setting is the device's
    page.goto(f"{page.base}/tablet/login/?code={code}")
    page.wait_for_selector("#status[data-phase=open]")
    assert view_of(page) == ON
    page.click("[data-view-toggle]")  # off again, and so it stays
    page.reload()
    page.wait_for_selector("#status[data-phase=open]")
    assert view_of(page) == OFF
    assert not found, report(found)
    assert page.js_errors == []
    page.context.close()
