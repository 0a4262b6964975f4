"""Fast games (RULES §4): a game of 2:00 or 1:00 a move inside a tournament of 3:00 — its rounds' deadlines, its
free warnings (from the 6th each costs), the console's game form, the API, the tablet's clock and the player sheet."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from scoring import sheet
from tests.tools.api import A, arbiter_client, error, ok
from tests.tools.world import PREPARED
from tournament import services
from tournament.errors import ServiceError
from tournament.live import tablet
from tournament.models import Game, Penalty, Round, Verdict
from tournament.services import reading

pytestmark = pytest.mark.django_db


def warned_round(game, number, regs, warned):
    rnd = Round.objects.create(game=game, number=number, rack="ABCDEFG", status=Round.Status.PUBLISHED,
                               chosen_move="H8 X", chosen_score=10)
    for reg in regs:
        Verdict.objects.create(registration=reg, round=rnd, awarded=10, warning=reg in warned, reason="ok")


def test_what_is_fast():
    assert [sheet.is_fast(s) for s in (180, 150, 120, 60)] == [False, False, True, True]
    assert sheet.free_warnings(fast=True) == 5 and sheet.free_warnings(fast=False) == 3


def test_a_fast_game_has_its_own_time_and_more_free_warnings(alice, tournament, regs, eager):
    normal = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    fast = services.games.create_game(alice, tournament, prepared_racks=PREPARED, seconds_per_move=60)
    same = services.games.create_game(alice, tournament, prepared_racks=PREPARED, seconds_per_move=180)
    assert (normal.time_per_move, normal.fast, normal.free_warnings) == (180, False, 3)
    assert (fast.seconds_per_move, fast.time_per_move, fast.fast, fast.free_warnings) == (60, 60, True, 5)
    assert same.seconds_per_move is None  # the tournament's own time is not stored as the game's
    ivan, olena = regs[0], regs[1]
    for game in (normal, fast):
        for n in range(1, 7):  # Ivan: 6 warnings; Ołena: 5
            warned_round(game, n, (ivan, olena), (ivan, olena) if n <= 5 else (ivan,))
        services.games.apply_warning_penalties(game)
    normal_pen = dict(Penalty.objects.filter(game=normal).values_list("registration_id", "points"))
    fast_pen = dict(Penalty.objects.filter(game=fast).values_list("registration_id", "points"))
    assert normal_pen == {ivan.pk: 15, olena.pk: 10}  # from the 4th
    assert fast_pen == {ivan.pk: 5}  # from the 6th
    assert Penalty.objects.get(game=fast).reason == "6 warnings, 5 free: 1 × 5"
    tournament.free_warnings_fast = 6  # the option, as a federation may set it
    tournament.save()
    fast.tournament.refresh_from_db()
    services.games.apply_warning_penalties(fast)
    assert not Penalty.objects.filter(game=fast).exists()


def test_a_fast_round_closes_after_its_own_time(alice, tournament, regs, eager):
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED, seconds_per_move=120)
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    assert tablet.compute_shared(tournament)["round"]["seconds_per_move"] == 120  # the tablet's clock before opening
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    rnd.refresh_from_db()
    assert rnd.deadline - rnd.opened_at == timedelta(seconds=120)


def test_a_bad_time_is_refused_and_creates_nothing(alice, tournament):
    with pytest.raises(ServiceError) as exc:
        services.games.create_game(alice, tournament, seed=1, seconds_per_move=90)
    assert exc.value.code == "bad_time_per_move"
    assert not Game.objects.exists()


def test_api_creates_and_reads_a_fast_game(alice, tournament):
    client = arbiter_client(alice)
    game = ok(client.post(f"{A}/tournaments/{tournament.slug}/games/", {"seed": 3, "seconds_per_move": 60},
                          format="json"), 201)
    assert (game["seconds_per_move"], game["fast"], game["free_warnings"]) == (60, True, 5)
    plain = ok(client.post(f"{A}/tournaments/{tournament.slug}/games/", {"seed": 4}, format="json"), 201)
    assert (plain["seconds_per_move"], plain["fast"], plain["free_warnings"]) == (180, False, 3)
    error(client.post(f"{A}/tournaments/{tournament.slug}/games/", {"seed": 5, "seconds_per_move": 90},
                      format="json"), 400)
    assert Game.objects.count() == 2


def test_console_offers_the_time_and_shows_a_fast_game(client, alice, tournament):
    client.cookies["django_language"] = "en"
    client.force_login(alice)
    page = client.get(reverse("arbiter:tournament", args=[tournament.slug])).content.decode()
    assert "the tournament&#x27;s: 3:00" in page and '<option value="60">1:00</option>' in page
    assert "5 instead of 3" in page
    response = client.post(reverse("arbiter:game_create", args=[tournament.slug]), {"seconds_per_move": "60"})
    game = Game.objects.get()
    assert response.status_code == 302 and game.seconds_per_move == 60
    page = client.get(reverse("arbiter:game", args=[tournament.slug, game.number])).content.decode()
    assert 'id="game-time"' in page and "Fast game" in page and "5 free warnings" in page
    client.post(reverse("arbiter:game_create", args=[tournament.slug]), {"seconds_per_move": "75"})
    assert Game.objects.count() == 1  # refused by the form, nothing created


def test_player_sheet_counts_the_fast_games_free_warnings(alice, tournament, regs):
    fast = services.games.create_game(alice, tournament, seed=1, seconds_per_move=60)
    warned_round(fast, 1, regs[:2], regs[:1])
    sheet_ = reading.player_sheet(regs[0])
    assert [g.free_warnings for g in sheet_.games] == [5]
