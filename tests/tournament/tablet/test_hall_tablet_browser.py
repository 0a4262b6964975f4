"""The tablet of a Ukrainian hall on a device that is not the developer's: Chromium in English (en-US) and in
New York's time zone, the server in Warsaw's, the hall in Kyiv's (issue 34, the tablet's part).

The receipt's time is the hall's; a slip typed and not handed in survives a reload; a word that runs off the
board is said before it is sent; the tablet says when the arbiter types the rack drawn from the bag; logging
out asks first and leads to the login page in the hall's language; a card replaced by a new one is told so; in
a tournament of several games the results give the tournament's total and rank and each finished game's, a
correction included. Screenshots (800×1280, 390×844, 1366×768) go to SHOTS.
"""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from scoring.rules import get_ruleset
from tests.paths import LEXICONS
from tests.tools.browser import REAL_TIME, SHOTS, arbiter_page, new_page
from tests.tools.wordlist_solver import WordListSolver
from tournament import labels, services
from tournament.live import version as live_version
from tournament.models import Round, Slip

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DEVICE = {"locale": "en-US", "timezone_id": "America/New_York"}
SIZES = {"tablet": (800, 1280), "phone": (390, 844), "laptop": (1366, 768)}


@pytest.fixture
def kyiv(settings, monkeypatch, eager, alice):
    """A Ukrainian hall in Kyiv (Cyrillic rows, Ukrainian rule set and words) on a server in Warsaw."""
    from lexicon.models import Lexicon

    settings.TIME_ZONE = "Europe/Warsaw"
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "hall-tablet-browser"}}
    live_version.reset()
    ruleset = get_ruleset("uk")
    words = frozenset((LEXICONS / "sim-uk.txt").read_text(encoding="utf-8").split())
    solver = WordListSolver(ruleset, words)
    monkeypatch.setattr(services.solving, "round_tools", lambda tournament: (solver, words))
    lexicon = Lexicon.objects.create(name="sim-uk", ruleset="uk", status=Lexicon.Status.READY, version=1,
                                     content_hash="1" * 64, file_path="sim-uk.kwg")
    t = services.tournaments.create_tournament(alice, name="Кубок зали", slug="kubok-zaly", ruleset="uk",
                                               lexicon=lexicon, language="uk", arbiters=[alice],
                                               time_zone="Europe/Kyiv")
    players = [services.players.register_player(alice, t, name=n) for n in ("Олена Коваль", "Іван Ґудзь")]
    game = services.games.create_game(alice, t, seed=11)
    return t, players, game


def draw_and_open(alice, game, eager) -> Round:
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    with eager(execute=False):
        return services.rounds.open_round(alice, rnd)


def publish(alice, rnd: Round) -> Round:
    services.rounds.close_round(rnd, alice, force=True)
    services.judging.judge_round(rnd, alice)
    return services.rounds.publish_round(alice, rnd)


def shoot(page, name: str) -> None:
    """Screenshots of the page at the three sizes (the same tablet: one session)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(200)
        page.screenshot(path=str(SHOTS / f"tablet-{name}-{size}.png"), full_page=True)
    page.set_viewport_size({"width": 800, "height": 1280})


def logged_in(chromium, live_server, code: str, width: int = 800, height: int = 1280):
    page = new_page(chromium, live_server, width=width, height=height, **DEVICE)
    page.goto(f"{page.base}/tablet/login/?code={code}")  # the QR card
    page.wait_for_url(re.compile(r".*/tablet/$"))
    page.wait_for_selector("#status:not([data-phase=loading])")
    assert page.get_attribute("html", "lang") == "uk"
    return page


def open_round(page, alice, game, eager) -> tuple[Round, str, str, int]:
    """The round drawn and opened, seen on the tablet: (round, its top's coordinates and word, its score)."""
    rnd = draw_and_open(alice, game, eager)
    page.wait_for_selector("#status[data-phase=open]", timeout=REAL_TIME * 1000)
    where, word = rnd.top_moves[0]["move"].split(" ", 1)
    return rnd, where, word, rnd.top_moves[0]["score"]


def test_the_receipt_tells_the_halls_time(chromium, live_server, kyiv, alice, eager):
    t, ((reg, code), _other), game = kyiv
    page = logged_in(chromium, live_server, code)
    _rnd, where, word, score = open_round(page, alice, game, eager)
    page.fill("#slip-word", word)
    page.fill("#slip-coords", labels.tournament_style(t).coordinate(where))
    page.fill("#slip-score", str(score))
    page.click("#slip-submit")
    page.wait_for_selector("#receipt.ok")
    slip = Slip.objects.get(registration=reg)
    kyiv_time = timezone.localtime(slip.received_at, labels.zone_of("Europe/Kyiv")).strftime("%H:%M:%S")
    assert f"Бланк отримано о {kyiv_time}" in page.inner_text("#receipt"), page.inner_text("#receipt")
    assert page.js_errors == []


def test_a_word_running_off_the_board_is_said_before_it_is_sent(chromium, live_server, kyiv, alice, eager):
    t, ((reg, code), _other), game = kyiv
    page = logged_in(chromium, live_server, code)
    _rnd, where, word, score = open_round(page, alice, game, eager)
    start = 17 - len(word)  # its last letter on column 16
    page.fill("#slip-word", word)
    page.fill("#slip-coords", f"Д{start}")
    page.fill("#slip-score", str(score))
    hint = page.locator("#slip-hint")
    hint.wait_for(state="visible")
    assert hint.inner_text() == f"«{word}» від Д{start} виходить за край дошки: остання літера опинилася б у стовпці 16."
    page.click("#slip-submit")  # the first press says it again and sends nothing
    page.wait_for_selector("#form-message.warn:not([hidden])")
    assert "ще раз" in page.inner_text("#form-message")
    shoot(page, "off-board")
    page.wait_for_timeout(300)
    assert not Slip.objects.filter(registration=reg).exists()
    page.click("#slip-submit")  # the second sends it as it is (a reversed direction still earns its points)
    page.wait_for_selector("#receipt.ok")
    assert Slip.objects.get(registration=reg).coordinates == f"Д{start}"
    page.fill("#slip-coords", labels.tournament_style(t).coordinate(where))
    assert hint.is_hidden()
    assert page.js_errors == []


def test_a_slip_typed_and_not_handed_in_survives_a_reload(chromium, live_server, kyiv, alice, eager):
    t, ((reg, code), _other), game = kyiv
    page = logged_in(chromium, live_server, code, 390, 844)
    _rnd, where, word, score = open_round(page, alice, game, eager)
    coordinates = labels.tournament_style(t).coordinate(where)
    page.fill("#slip-word", word)
    page.fill("#slip-coords", coordinates)
    page.fill("#slip-score", str(score))
    page.reload()  # F5
    page.wait_for_selector("#status[data-phase=open]")
    assert (page.input_value("#slip-word"), page.input_value("#slip-coords"), page.input_value("#slip-score")) == (
        word, coordinates, str(score))
    page.click("#slip-submit")
    page.wait_for_selector("#receipt.ok")
    draft = f"duplicate.tablet.draft.{t.slug}.{reg.table_number}"
    assert page.evaluate(f"localStorage.getItem('{draft}')") is None  # handed in: no draft left
    page.fill("#slip-score", str(score + 1))  # a replacement being typed, then a reload again
    page.reload()
    page.wait_for_selector("#receipt.ok")
    assert page.input_value("#slip-score") == str(score + 1)
    assert page.js_errors == []


def test_the_tablet_says_when_the_arbiter_types_the_rack(chromium, live_server, kyiv, alice, eager):
    t, ((reg, code), _other), game = kyiv
    page = logged_in(chromium, live_server, code)
    rnd, _where, _word, _score = open_round(page, alice, game, eager)
    publish(alice, rnd)
    page.wait_for_selector("#result:not([hidden])", timeout=REAL_TIME * 1000)
    assert page.inner_text("#phase") == "Підсумки ходу"
    # the arbiter types the tiles he drew from the bag into the console's draw form (in Ukrainian)
    console = arbiter_page(chromium, live_server, alice, language="uk", width=1366, height=768)
    console.goto(f"{console.base}/arbiter/t/{t.slug}/g/{game.number}/")
    console.type("#id_typed_rack", "АБ")
    page.wait_for_selector("#status[data-typing='1']", timeout=REAL_TIME * 1000)
    assert page.inner_text("#phase") == "Суддя вводить підставку, витягнуту з мішка…"
    assert page.is_visible("#result") and page.locator("#rack .tile.empty").count() == 7
    assert "Підсумки ходу" not in page.inner_text("body") and page.inner_text("#result h2") == "Хід 1: підсумки"
    shoot(page, "typing")
    with eager(execute=True):
        services.rounds.draw_round(alice, game)
    page.wait_for_selector("#status[data-phase=drawn]", timeout=REAL_TIME * 1000)
    assert page.get_attribute("#status", "data-typing") == ""
    assert page.js_errors == [] and console.js_errors == []


def test_logging_out_asks_first_and_the_login_page_speaks_the_halls_language(chromium, live_server, kyiv, alice,
                                                                              lexicon_row):
    t, ((reg, code), _other), _game = kyiv
    services.tournaments.create_tournament(alice, name="Other", slug="other", ruleset="en", lexicon=lexicon_row,
                                           language="en")  # a hall of another language on this server
    page = logged_in(chromium, live_server, code)
    page.click("#logout")
    page.wait_for_selector("#logout-confirm")
    assert page.inner_text("#logout-no") == "Залишитися" and page.inner_text("#logout-yes") == "Вийти"
    page.screenshot(path=str(SHOTS / "tablet-logout-tablet.png"))
    page.click("#logout-no")
    assert not page.locator("#logout-confirm").count() and page.url.endswith("/tablet/")
    page.click("#logout")
    page.keyboard.press("Escape")
    assert not page.locator("#logout-confirm").count()
    page.click("#logout")
    page.click("#logout-yes")
    page.wait_for_url(re.compile(r".*/tablet/login/\?hall=kubok-zaly$"))
    assert page.get_attribute("html", "lang") == "uk" and page.inner_text("h1") == "Увійти"
    assert page.js_errors == []


def test_a_replaced_card_is_told_so(chromium, live_server, kyiv, alice):
    t, ((reg, code), _other), _game = kyiv
    services.players.issue_access_codes(alice, [reg])
    page = new_page(chromium, live_server, width=800, height=1280, **DEVICE)
    page.goto(f"{page.base}/tablet/login/?code={code}")  # the old card's QR code
    page.wait_for_selector("#login-message.error")
    assert page.get_attribute("html", "lang") == "uk"
    assert page.inner_text("#login-message").startswith("Цю картку замінено новою")
    page.screenshot(path=str(SHOTS / "tablet-replaced-card-tablet.png"))
    page.fill("#login-code", "23456789AB")  # a code never issued
    page.click("#login-submit")
    page.wait_for_function("() => document.querySelector('#login-message').innerText.startsWith('Неправильний')")
    assert page.js_errors == []


def test_results_give_the_tournament_and_each_finished_game_corrected(chromium, live_server, kyiv, alice, eager):
    t, ((reg, code), _other), first = kyiv
    rnd = draw_and_open(alice, first, eager)
    where, word = rnd.top_moves[0]["move"].split(" ", 1)
    services.slips.submit_slip(rnd, reg, word=word, coordinates=where, score=rnd.top_moves[0]["score"])
    old = publish(alice, rnd)
    services.games.finish_game(alice, first, why="кінець")
    second = services.games.create_game(alice, t, seed=12)
    publish(alice, draw_and_open(alice, second, eager))

    page = new_page(chromium, live_server, width=800, height=1280, **DEVICE)
    page.goto(f"{page.base}/tablet/login/?code={code}")
    page.wait_for_selector("#result:not([hidden])")
    first_total = old.chosen_score
    text = page.inner_text("#result")
    assert "Сума за турнір" in text and "Місце в турнірі" in text and "Партія 1" in text
    assert f"{first_total} (сума топів {first_total}) · місце 1 з 2" in text
    shoot(page, "tournament")

    # the arbiter corrects game 1 (published long ago) while game 2 runs: the tablet shows it
    verdict = old.verdicts.get(registration=reg)
    services.judging.override_verdict(alice, verdict, awarded=first_total - 7, warning=False, why="перевірено")
    page.wait_for_function("t => document.querySelector('#result').innerText.includes(t)",
                           arg=f"{first_total - 7} (сума топів {first_total})", timeout=REAL_TIME * 1000)
    assert f"Сума за турнір\n{first_total - 7}" in page.inner_text("#result")
    # game 2 over: its final figures, then the tournament's and game 1's
    services.games.finish_game(alice, second, why="кінець")
    page.wait_for_selector("#game-over .tb-res-tournament", timeout=REAL_TIME * 1000)
    over = page.inner_text("#game-over")
    assert over.startswith("Партію 2 закінчено")
    assert "Місце в турнірі" in over and f"{first_total - 7} (сума топів {first_total}) · місце 1 з 2" in over
    assert page.js_errors == []
