"""A club session's clock as the leader and the players see it: it counts down while a round is being played, and
shows nothing once every slip is in, between rounds and when the game is over — never a time left beside
"Game over"."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from scoring.judge import SlipParts
from tests.tools.browser import SHOTS, new_page
from tournament.training import clubs, services

LEADER = "/training/club/{code}/lead/{key}/?lang={lang}"


def page_config(html: str) -> dict:
    found = re.search(r'<script id="training-config" type="application/json">(.*?)</script>', html, re.S)
    assert found, html[:300]
    return json.loads(found.group(1))


@pytest.fixture
def club(finished_game):
    game, _regs = finished_game
    return clubs.open_club(services.from_tournament_game(game), "Клуб «Эрудит»")


@pytest.mark.django_db
def test_the_leader_page_has_a_clock_only_while_a_slip_is_awaited(club):
    client = Client()
    url = LEADER.format(code=club.code, key=club.leader_key, lang="ru")
    run = clubs.join(club, "Ірина")
    t0 = timezone.now()
    clubs.start_round(club, now=t0)
    club.refresh_from_db()
    assert page_config(client.get(url).content.decode())["deadline"]  # round 1 is played: its clock runs
    signature = client.get(f"/training/club/{club.code}/state/").json()["signature"]
    run.refresh_from_db()
    services.hand_in(run, SlipParts("CARTS", "H4", 20), now=t0 + timedelta(seconds=5))
    html = client.get(url).content.decode()
    assert page_config(html)["deadline"] is None  # every slip is in: between rounds
    assert "Начать ход 2 для всех" in html
    assert client.get(f"/training/club/{club.code}/state/").json()["signature"] != signature
    clubs.start_round(club, now=timezone.now())
    run.refresh_from_db()
    services.hand_in(run, SlipParts("CaRDS", "4H", 14))
    html = client.get(url).content.decode()
    assert "Партия окончена" in html and page_config(html)["deadline"] is None  # over while the clock would run
    assert page_config(client.get(f"/training/club/{club.code}/?lang=ru").content.decode())["deadline"] is None
    run_page = client.get(f"/training/run/{run.code}/?lang=ru").content.decode()
    assert "Партия окончена" in run_page and page_config(run_page)["deadline"] is None


@pytest.mark.django_db
def test_the_leader_page_gives_the_players_an_address_their_tablets_can_open(club, monkeypatch):
    from tournament.web import address

    monkeypatch.setattr(address, "lan_address", lambda: "192.168.7.7")
    url = LEADER.format(code=club.code, key=club.leader_key, lang="ru")
    html = Client().get(url, HTTP_HOST="localhost:8106").content.decode()
    assert "http://192.168.7.7:8106/training/" in html and "localhost" not in html


@pytest.mark.django_db
def test_the_page_moves_on_when_the_time_of_a_round_runs_out(club):
    clubs.join(club, "Slow")
    t0 = timezone.now() - timedelta(seconds=club.game.seconds_per_move - 1)
    clubs.start_round(club, now=t0)
    club.refresh_from_db()
    running = f"/training/club/{club.code}/state/"
    before = Client().get(running).json()["signature"]
    club.started_at = t0 - timedelta(seconds=services.GRACE_SECONDS + 5)  # the time and its grace are over
    club.save(update_fields=["started_at"])
    assert Client().get(running).json()["signature"] != before  # the waiting leader page reloads


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_no_countdown_beside_game_over_in_a_browser(chromium, live_server, club):
    run = clubs.join(club, "Ірина")
    leader = new_page(chromium, live_server, width=1366, height=768, locale="en-US",
                      timezone_id="America/New_York")
    clubs.start_round(club)
    run.refresh_from_db()
    services.hand_in(run, SlipParts("CARTS", "H4", 20))
    clubs.start_round(club)
    leader.goto(f"{leader.base}{LEADER.format(code=club.code, key=club.leader_key, lang='uk')}")
    leader.wait_for_function("() => /\\d:\\d\\d/.test(document.querySelector('#clock').innerText)")
    run.refresh_from_db()
    services.hand_in(run, SlipParts("CaRDS", "4H", 14))  # the last slip: the page follows by itself
    leader.wait_for_function("() => document.querySelector('#club-round').innerText.includes('Партію закінчено')",
                             timeout=8_000)
    leader.wait_for_timeout(1200)
    assert leader.inner_text("#clock").strip() == "", leader.inner_text("#clock")
    leader.screenshot(path=str(SHOTS / "training-club-over-uk-1366.png"), full_page=True)
    tablet = new_page(chromium, live_server, width=390, height=844, locale="en-US", timezone_id="America/New_York")
    tablet.goto(f"{tablet.base}/training/run/{run.code}/?lang=uk")
    assert "Партію закінчено" in tablet.inner_text("#round-label") and tablet.inner_text("#clock").strip() == ""
    tablet.screenshot(path=str(SHOTS / "training-club-over-uk-390.png"), full_page=True)
    assert not leader.js_errors and not tablet.js_errors, (leader.js_errors, tablet.js_errors)
