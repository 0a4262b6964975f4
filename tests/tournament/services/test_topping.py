"""The topping variant's services: the open waits for the top, attempts judged at once on the server clock,
a late attempt and a topped player's further attempts refused, the arbiter's time, the results."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.tools.world import PREPARED
from tournament import services
from tournament.errors import Code, ServiceError
from tournament.models import AuditLog, Round, Slip
from tournament.services import topping

pytestmark = pytest.mark.django_db


def split(move: str) -> tuple[str, str]:
    coord, word = move.split()
    return coord, word


def wrong_move(rnd: Round) -> str:
    """A legal move of the round whose word scores less than the top wherever it goes."""
    top = rnd.top_moves[0]["score"]
    best: dict[str, int] = {}
    for m in rnd.top_moves:
        word = m["move"].split()[1]
        best[word] = max(best.get(word, 0), m["score"])
    return next(m["move"] for m in rnd.top_moves if best[m["move"].split()[1]] < top)


@pytest.fixture
def game(alice, tournament):
    return services.games.create_game(alice, tournament, prepared_racks=PREPARED, variant="topping")


@pytest.fixture
def players(alice, tournament):
    return [services.players.register_player(alice, tournament, name=n)[0] for n in ("A", "B", "C")]


def opened(alice, game, eager, *, ago: int = 0) -> Round:
    """Round drawn and solved, opened ``ago`` seconds back on the server clock."""
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    if ago:
        Round.objects.filter(pk=rnd.pk).update(opened_at=timezone.now() - timedelta(seconds=ago),
                                               deadline=timezone.now() - timedelta(seconds=ago) + timedelta(seconds=180))
    rnd.refresh_from_db()
    return rnd


def test_a_topping_round_opens_only_once_its_top_is_known(alice, game, eager):
    with eager(execute=False):  # the solver task does not run
        rnd = services.rounds.draw_round(alice, game)
    with pytest.raises(ServiceError) as caught:
        services.rounds.open_round(alice, rnd)
    assert caught.value.code == Code.TOP_UNKNOWN and "1" in caught.value.message
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.DRAWN and rnd.opened_at is None
    services.solving.solve_round(rnd)
    with eager(execute=False):
        assert services.rounds.open_round(alice, rnd).status == Round.Status.OPEN


def test_attempts_judged_at_once_and_timed_on_the_server_clock(alice, game, players, eager):
    rnd = opened(alice, game, eager, ago=42)
    a, b, _c = players
    coord, word = split(wrong_move(rnd))
    wrong, created = topping.attempt(rnd, a, "a1", word=word, coordinates=coord)
    assert created and not wrong.topped and wrong.seconds is None and wrong.points is not None
    assert wrong.points < rnd.top_moves[0]["score"] and wrong.attempts == 1
    coord, word = split(rnd.top_moves[0]["move"])
    top, _ = topping.attempt(rnd, a, "a2", word=word, coordinates=coord)
    assert top.topped and top.points == rnd.top_moves[0]["score"] and top.attempts == 2
    assert 42 <= top.seconds <= 45
    # a retry of the same attempt answers the same; a further attempt is refused and stores nothing
    again, created = topping.attempt(rnd, a, "a2", word=word, coordinates=coord)
    assert not created and again.slip.pk == top.slip.pk and again.topped
    with pytest.raises(ServiceError) as caught:
        topping.attempt(rnd, a, "a3", word=word, coordinates=coord)
    assert caught.value.code == Code.ALREADY_TOPPED
    assert Slip.objects.filter(round=rnd, registration=a).count() == 2
    # every attempt kept, in server-time order, the topped one flagged
    rows = list(Slip.objects.filter(round=rnd, registration=a).order_by("received_at"))
    assert [s.topped for s in rows] == [False, True] and rows[0].received_at <= rows[1].received_at
    # b: an unreadable attempt is not the top (no points)
    bad, _ = topping.attempt(rnd, b, "b1", word="ZZZZQ", coordinates="H8")
    assert not bad.topped and bad.points is None
    assert topping.topped_count(rnd) == 1


def test_a_late_attempt_is_kept_but_does_not_count(alice, game, players, eager):
    rnd = opened(alice, game, eager)
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    rnd.refresh_from_db()
    coord, word = split(rnd.top_moves[0]["move"])
    late, _ = topping.attempt(rnd, players[0], "late", word=word, coordinates=coord)
    assert late.slip.late and not late.topped and late.seconds is None
    assert topping.results_for(rnd)[players[0].pk].topped_seconds is None


def test_results_limit_and_penalty_and_the_arbiters_time(alice, game, players, eager):
    rnd = opened(alice, game, eager, ago=30)
    a, b, c = players
    coord, word = split(rnd.top_moves[0]["move"])
    topping.attempt(rnd, a, "a1", word=word, coordinates=coord)
    with pytest.raises(ServiceError) as caught:
        topping.record_time(alice, rnd, b, 181)
    assert caught.value.code == Code.BAD_TIME
    topping.record_time(alice, rnd, b, 75, word=word)  # a paper slip's time, typed by the arbiter
    assert AuditLog.objects.filter(action="slip.topping_time").count() == 1
    services.rounds.close_round(rnd, alice, force=True)
    lines = {x.player: x for x in topping.game_lines(game)}
    assert 30 <= lines[a.pk].total <= 33 and lines[a.pk].rank == 1 and lines[a.pk].topped == 1
    assert lines[b.pk].total == 75 and lines[b.pk].rank == 2 and lines[b.pk].attempts == 1  # his paper slip
    assert lines[c.pk].total == 180 + 60 and lines[c.pk].rank == 3 and lines[c.pk].topped == 0
    # the arbiter corrects: b did not top after all (his latest entry wins)
    topping.record_time(alice, rnd, b, None)
    assert topping.results_for(rnd)[b.pk].topped_seconds is None
    assert topping.results_for(rnd)[b.pk].attempts == 1  # a correction is not an attempt
    # the paper slip's move counts for his points (round 1: the word's best score); a time alone is no slip
    services.judging.judge_round(rnd, alice)
    assert rnd.verdicts.get(registration=b).awarded == rnd.top_moves[0]["score"]
    assert rnd.verdicts.get(registration=c).reason == "no_slip"


@pytest.mark.parametrize(("text", "seconds"), [("0:42", 42), ("12:05", 725), ("42", 42)])
def test_parse_time(text, seconds):
    assert topping.parse_time(text) == seconds


@pytest.mark.parametrize("text", ["", "0:7", "1:60", "a:10", "-5", "1:2:3"])
def test_parse_time_refuses(text):
    with pytest.raises(ServiceError) as caught:
        topping.parse_time(text)
    assert caught.value.code == Code.BAD_TIME


def test_a_paper_slip_is_recorded_as_a_time_not_as_a_slip(client, alice, game, players, eager):
    rnd = opened(alice, game, eager)
    reg = players[0]
    with pytest.raises(ServiceError) as caught:
        services.slips.submit_slip(rnd, reg, word="CARTS", coordinates="H4", score=20, source=Slip.Source.PAPER,
                                   actor=alice)
    assert caught.value.code == Code.TOPPING_PAPER
    assert not Slip.objects.filter(round=rnd).exists()
    client.force_login(alice)
    client.cookies["django_language"] = "en"
    page = client.get(f"/arbiter/t/{game.tournament.slug}/g/{game.number}/slips/", follow=True)
    assert page.redirect_chain[-1][0].endswith(f"/g/{game.number}/times/")
    assert "recorded as a time" in page.content.decode()
