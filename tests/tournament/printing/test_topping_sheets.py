"""The papers of a topping game: the standings PDF ranks by total time (before the points), the player sheet
tells the player's total time, rank and each round's time; a paper player's move typed with his time gives his
points and his attempt as a tablet's."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.tools.world import PREPARED
from tests.tournament.printing.test_pdf import build, flat, render
from tournament import services
from tournament.models import Round
from tournament.services import topping

pytestmark = [pytest.mark.django_db]


def test_standings_and_player_sheet_of_a_topping_game(alice, tournament, eager, tmp_path):
    tournament.language = "en"
    tournament.save()
    (a, _), (b, _) = (services.players.register_player(alice, tournament, name=n) for n in ("Anna", "Boris"))
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED, variant="topping")
    for n, ago in ((1, 42), (2, 9)):
        with eager(execute=True):
            rnd = services.rounds.draw_round(alice, game)
        with eager(execute=False):
            services.rounds.open_round(alice, rnd)
        opened = timezone.now() - timedelta(seconds=ago)
        Round.objects.filter(pk=rnd.pk).update(opened_at=opened, deadline=opened + timedelta(seconds=180))
        rnd.refresh_from_db()
        coord, word = rnd.top_moves[0]["move"].split()
        topping.attempt(rnd, a, f"a{n}", word=word, coordinates=coord)  # Anna: 0:42 then 0:09
        if n == 2:  # Boris, on paper: round 1 not topped, round 2 in 1:15 (the arbiter types his slip's move)
            topping.record_time(alice, rnd, b, 75, word=f"{coord} {word}")
            boris_points = rnd.top_moves[0]["score"]
        services.rounds.close_round(rnd, alice, force=True)
        services.judging.judge_round(rnd, alice)
        services.rounds.publish_round(alice, rnd)
    rows = flat(build(tournament, "standings", tmp_path, game=1))
    assert "Topping: standings by total time" in rows
    assert f"1 {a.table_number} Anna 0:51 2 2" in rows  # 42 + 9 s, two tops, two attempts
    assert f"2 {b.table_number} Boris 5:15 1 1" in rows  # 4:00 (limit + penalty) + 1:15, one paper slip
    assert f"2 Boris {boris_points} " in rows  # his points: the verdict on his paper slip
    assert rows.index("Topping: standings by total time") < rows.index("Deficit")  # the times before the points
    render(tmp_path / "standings.pdf", tmp_path / "png")
    sheet = flat(build(tournament, "player-sheet", tmp_path, player=b.player_id))
    assert "Topping: total time 5:15, rank 2, tops 1, attempts 1" in sheet and "1: 4:00 · 2: 1:15" in sheet
