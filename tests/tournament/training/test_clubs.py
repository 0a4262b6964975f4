"""Club sessions: the leader starts each round for every run at once, late joiners, the session's table."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from scoring.judge import SlipParts
from tournament.models import TrainingClub, TrainingRun
from tournament.training import clubs, services

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(finished_game):
    game, _regs = finished_game
    return clubs.open_club(services.from_tournament_game(game), " Club de Lviv ")


def test_the_leader_starts_each_round_for_every_run_at_once(club):
    a, b = clubs.join(club, "Anna"), clubs.join(club, "Bohdan")
    assert club.name == "Club de Lviv" and a.club == club and not services.is_playing(a)
    with pytest.raises(services.TrainingError):
        services.next_round(a)  # in a club the leader starts the rounds
    t0 = timezone.now()
    club = clubs.start_round(club, now=t0)
    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.round, a.started_at, b.round, b.started_at) == (1, t0, 1, t0)
    services.hand_in(a, SlipParts("CARTS", "H4", 20), now=t0 + timedelta(seconds=30))
    with pytest.raises(services.TrainingError):  # Bohdan is still playing and the clock runs
        clubs.start_round(club, now=t0 + timedelta(seconds=60))
    assert [r.handed_in for r in clubs.table(club)] == [True, False]
    later = t0 + timedelta(seconds=club.game.seconds_per_move + services.GRACE_SECONDS + 1)
    club = clubs.start_round(club, now=later)  # the time is over: Bohdan's round 1 is judged without a slip
    b.refresh_from_db()
    assert (b.round, len(b.results), b.results[0]["reason"]) == (2, 1, "no_slip")
    services.hand_in(b, SlipParts("CaRDS", "4H", 14), now=later + timedelta(seconds=10))
    services.hand_in(TrainingRun.objects.get(pk=a.pk), None, now=later + timedelta(seconds=20))
    assert clubs.is_over(club)
    with pytest.raises(services.TrainingError):
        clubs.start_round(club, now=later + timedelta(seconds=30))
    rows = clubs.table(club)
    assert [(r.rank, r.name, r.score.total) for r in rows] == [(1, "Anna", 20), (2, "Bohdan", 14)]
    assert rows[0].score.percentage == round(100 * 20 / 34, 2)


def test_a_player_who_joins_late_has_the_rounds_he_missed_counted_as_missing(club):
    t0 = timezone.now()
    clubs.start_round(club, now=t0)
    club.refresh_from_db()
    late = clubs.join(club, "Late", now=t0 + timedelta(seconds=20))  # round 1 still runs: he plays it
    assert (late.round, late.started_at, late.results) == (1, t0, [])
    after = t0 + timedelta(seconds=club.game.seconds_per_move + services.GRACE_SECONDS + 1)
    later = clubs.join(club, "Later", now=after)  # round 1 is over: counted as missing
    assert ([r["reason"] for r in later.results], services.is_playing(later)) == (["no_slip"], False)
    clubs.start_round(club, now=after)
    later.refresh_from_db()
    assert (later.round, len(later.results)) == (2, 1)


def test_the_leader_page_needs_its_key_and_the_club_plays_through_the_pages(club):
    client = Client()
    assert client.get(f"/training/club/{club.code}/lead/wrong/").status_code == 404
    page = client.get(f"/training/club/{club.code}/lead/{club.leader_key}/?lang=en").content.decode()
    assert club.code in page and "Start the first round for everyone" in page
    run_url = client.post("/training/club/join/", {"code": club.code.lower(), "name": "Mira"})["Location"]
    run = TrainingRun.objects.get(club=club)
    assert run_url == f"/training/run/{run.code}/"
    assert 'id="club-wait"' in client.get(run_url).content.decode()
    before = client.get(f"/training/run/{run.code}/state/").json()["signature"]
    client.post(f"/training/club/{club.code}/lead/{club.leader_key}/start/")
    assert client.get(f"/training/run/{run.code}/state/").json()["signature"] != before
    assert 'id="slip-form"' in client.get(run_url).content.decode()
    assert "Mira" in client.get(f"/training/club/{club.code}/?lang=en").content.decode()
    assert client.post("/training/club/join/", {"code": "NOPE", "name": "X"}).status_code == 404


def test_a_club_is_opened_from_the_list(finished_game):
    game, _regs = finished_game
    client = Client()
    assert f'value="g{game.pk}"' in client.get("/training/").content.decode()
    response = client.post("/training/club/open/", {"game": f"g{game.pk}", "club": "Kyiv"})
    club = TrainingClub.objects.get()
    assert response["Location"] == f"/training/club/{club.code}/lead/{club.leader_key}/"
    assert client.post("/training/club/open/", {"game": f"g{game.pk}", "club": ""}).status_code == 400
    assert TrainingClub.objects.count() == 1


def test_a_slip_written_for_a_round_already_over_is_not_judged_on_the_next(club):
    run = clubs.join(club, "Slow")
    t0 = timezone.now()
    clubs.start_round(club, now=t0)
    club.refresh_from_db()
    after = t0 + timedelta(seconds=club.game.seconds_per_move + services.GRACE_SECONDS + 1)
    clubs.start_round(club, now=after)
    with pytest.raises(services.TrainingError):
        services.hand_in(run, SlipParts("CARTS", "H4", 20), now=after, round_number=1)
    run.refresh_from_db()
    assert (run.round, [r["reason"] for r in run.results]) == (2, ["no_slip"])
