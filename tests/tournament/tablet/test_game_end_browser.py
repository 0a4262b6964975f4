"""The end of a topping game on a tablet and on the hall display, in a Ukrainian and a Russian hall (issue 34): the
topping card keeps the player's time but no longer says to wait for the next rack once the game is over, and the
line that says why the game ended starts with a capital, as a line a person reads does ("Завершена суддею: …", not
"завершена суддею: …"). Screenshots (800×1280, 1366×768) go to ``SHOTS``."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from scoring.game import DuplicateGame
from scoring.rules import get_ruleset
from tests.paths import LEXICONS
from tests.tools.browser import REAL_TIME, SHOTS, new_page
from tests.tools.wordlist_solver import WordListSolver
from tournament import labels, services
from tournament.live import version as live_version
from tournament.tablet.strings import tablet_strings

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DEVICE = {"locale": "en-US", "timezone_id": "America/New_York"}
#: Each hall: its zone, why its arbiter ends the game, and the line the tablet and the display show for it.
HALLS = {
    "uk": ("Europe/Kyiv", "зала зачиняється", "Завершена суддею: зала зачиняється"),
    "ru": ("Asia/Yekaterinburg", "зал закрывается", "Закончена арбитром: зал закрывается"),
}


@pytest.fixture
def topping_hall(request, settings, monkeypatch, eager, alice):
    """A topping game of ``request.param``'s hall (its rule set, words, language and Cyrillic rows), round 1 open on a
    rack with a move."""
    from lexicon.models import Lexicon

    language = request.param
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": f"game-end-{language}"}}
    live_version.reset()
    ruleset = get_ruleset(language)
    words = frozenset((LEXICONS / f"sim-{language}.txt").read_text(encoding="utf-8").split())
    solver = WordListSolver(ruleset, words)
    monkeypatch.setattr(services.solving, "round_tools", lambda tournament: (solver, words))
    lexicon = Lexicon.objects.create(name=f"sim-{language}", ruleset=language, status=Lexicon.Status.READY,
                                     version=1, content_hash="3" * 64, file_path=f"sim-{language}.kwg")
    t = services.tournaments.create_tournament(alice, name="Кубок", slug=f"end-{language}", ruleset=language,
                                               lexicon=lexicon, language=language, arbiters=[alice],
                                               time_zone=HALLS[language][0])
    (_reg, code), _other = (services.players.register_player(alice, t, name=n) for n in ("Олена", "Іван"))
    game = services.games.create_game(alice, t, seed=playable(language, solver), variant="topping")
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    with eager(execute=False):
        rnd = services.rounds.open_round(alice, rnd)
    return t, game, rnd, code


def playable(language: str, solver: WordListSolver) -> int:
    """A bag whose first rack has a move."""
    for seed in range(1, 200):
        bag = DuplicateGame(language, seed, variant="topping")
        rack = bag.draw().rack
        if rack and solver(bag.board, list(rack)):
            return seed
    raise AssertionError("no bag of 200 has a first rack with a move")


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((800, 1280), (1366, 768)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(150)
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)


@pytest.mark.parametrize("topping_hall", ["uk", "ru"], indirect=True)
def test_the_end_of_a_topping_game_on_the_tablet_and_the_display(chromium, live_server, alice, topping_hall):
    t, game, rnd, code = topping_hall
    zone, why, said = HALLS[t.language]
    with translation.override(t.language):
        wait_for_the_rack = str(tablet_strings()["topping_done"])
    page = new_page(chromium, live_server, width=800, height=1280, **DEVICE)
    page.goto(f"{page.base}/tablet/login/?code={code}")
    page.wait_for_url(re.compile(r".*/tablet/$"))
    page.wait_for_selector("#status[data-phase=open]")
    where, word = rnd.top_moves[0]["move"].split(" ", 1)
    page.fill("#slip-word", word)
    page.fill("#slip-coords", labels.tournament_style(t).coordinate(where))
    page.click("#slip-submit")
    page.wait_for_selector("#topping.ok:not([hidden])")
    assert wait_for_the_rack in page.inner_text("#topping")  # the game goes on: the next rack comes
    services.rounds.close_round(rnd, alice, force=True)
    services.judging.judge_round(rnd, alice)
    services.rounds.publish_round(alice, rnd)
    page.wait_for_selector("#result:not([hidden])", timeout=REAL_TIME * 1000)
    assert wait_for_the_rack in page.inner_text("#topping")

    display = new_page(chromium, live_server, width=1366, height=768, **DEVICE)
    display.goto(f"{display.base}/display/{t.slug}/")
    display.wait_for_selector("#rack .tile")
    services.games.finish_game(alice, game, why=why)
    page.wait_for_selector("#game-over:not([hidden])", timeout=REAL_TIME * 1000)
    shoot(page, f"tablet-topping-game-over-{t.language}")
    topping = page.inner_text("#topping")
    assert "0:" in topping and wait_for_the_rack not in topping, topping  # the time stays; no next rack
    assert page.inner_text("#game-over .tb-end-reason") == said
    display.wait_for_selector("#game-end:not([hidden])", timeout=REAL_TIME * 1000)
    assert display.inner_text("#game-end-reason") == said
    display.screenshot(path=str(SHOTS / f"display-game-over-{t.language}-1366.png"))
    assert page.js_errors == [] and display.js_errors == []
