"""Standings: totals, deficits, percentages, solos, warnings → penalties, ranks with ties and tie-break, groups."""

from __future__ import annotations

import pytest

from tournament import services
from tournament.errors import ServiceError
from tournament.models import Penalty, Round, Solo, Tournament, Verdict

pytestmark = pytest.mark.django_db


def play(game, number, top, awarded: dict, warnings=()):
    """A published round with the given top score and awarded points {registration: points}."""
    rnd = Round.objects.create(game=game, number=number, rack="ABCDEFG", status=Round.Status.PUBLISHED,
                               chosen_move="H8 X", chosen_score=top)
    for reg, points in awarded.items():
        Verdict.objects.create(registration=reg, round=rnd, awarded=points, warning=reg in warnings, reason="ok")
    services.judging.compute_solos(rnd)
    return rnd


@pytest.fixture
def game(alice, tournament):
    return services.games.create_game(alice, tournament, seed=7)


def by_name(rows):
    return {r.player.name: r for r in rows}


def test_totals_deficits_percentages(game, regs):
    ivan, olena, jean, maria = regs
    play(game, 1, 50, {ivan: 50, olena: 40, jean: 0, maria: 25})
    play(game, 2, 30, {ivan: 20, olena: 30, jean: 30, maria: 25})
    rows = by_name(services.standings.game_standings(game))
    iv = rows["Иван Петров"]
    assert (iv.total, iv.top_total, iv.deficit, iv.percentage) == (70, 80, -10, 87.5)
    assert rows["Ołena Kowalczyk"].total == 70
    assert rows["Jean Dupont"].as_dict()["percentage"] == 37.5
    # equal totals share a rank (no tie-break by default)
    assert [(r.player.name, r.rank) for r in services.standings.game_standings(game)] == [
        ("Иван Петров", 1), ("Ołena Kowalczyk", 1), ("Марія Шевченко", 3), ("Jean Dupont", 4)]


def test_unpublished_and_cancelled_rounds_do_not_count(game, regs):
    ivan = regs[0]
    play(game, 1, 50, {ivan: 50})
    r2 = play(game, 2, 30, {ivan: 30})
    Round.objects.filter(pk=r2.pk).update(status=Round.Status.CANCELLED)
    r3 = play(game, 2, 40, {ivan: 40})
    Round.objects.filter(pk=r3.pk).update(status=Round.Status.JUDGED)
    iv = by_name(services.standings.game_standings(game))["Иван Петров"]
    assert (iv.total, iv.top_total) == (50, 50)


def test_tie_break_last_move_backwards(game, regs, tournament):
    ivan, olena, jean, maria = regs
    tournament.tie_break = Tournament.TieBreak.BACKWARDS
    tournament.save()
    play(game, 1, 50, {ivan: 50, olena: 40, jean: 45, maria: 0})
    play(game, 2, 30, {ivan: 20, olena: 30, jean: 25, maria: 0})
    rows = services.standings.game_standings(game)
    # Ivan, Ołena and Jean have 70; last move: Ołena 30 > Jean 25 > Ivan 20
    assert [(r.player.name, r.total, r.rank) for r in rows] == [
        ("Ołena Kowalczyk", 70, 1), ("Jean Dupont", 70, 2), ("Иван Петров", 70, 3), ("Марія Шевченко", 0, 4)]


def test_solos_only_when_on_and_strictly_best(game, regs, tournament):
    ivan, olena, jean, maria = regs
    # 4 players: "auto" means off below 16 players
    r1 = play(game, 1, 50, {ivan: 40, olena: 30, jean: 0, maria: 0})
    assert not Solo.objects.exists()
    tournament.solo_mode = Tournament.SoloMode.ON
    tournament.save()
    game.tournament.refresh_from_db()
    services.judging.compute_solos(Round.objects.get(pk=r1.pk))
    r2 = play(game, 2, 30, {ivan: 30, olena: 30, jean: 0, maria: 0})  # shared best: no solo
    assert list(Solo.objects.values_list("round_id", "registration_id", "points")) == [(r1.pk, ivan.pk, 10)]
    assert not Solo.objects.filter(round=r2).exists()
    iv = by_name(services.standings.game_standings(game))["Иван Петров"]
    assert (iv.awarded, iv.solos, iv.total) == (70, 10, 80)


def test_warnings_become_penalties_at_the_end_of_the_game(game, regs, tournament):
    ivan, olena = regs[0], regs[1]
    for n in range(1, 6):
        play(game, n, 10, {ivan: 10, olena: 10}, warnings=(ivan,) if n <= 5 else ())
    play(game, 6, 10, {ivan: 10, olena: 10}, warnings=(olena,))
    services.games.apply_warning_penalties(game)
    assert list(Penalty.objects.values_list("registration_id", "points")) == [(ivan.pk, 10)]  # 5 warnings, 3 free
    rows = by_name(services.standings.game_standings(game))
    assert (rows["Иван Петров"].total, rows["Иван Петров"].penalties) == (50, 10)
    tournament.free_warnings = 5  # fast games option
    tournament.save()
    game.tournament.refresh_from_db()
    services.games.apply_warning_penalties(game)  # recomputed, not added
    assert not Penalty.objects.exists()


def test_tournament_standings_and_groups(alice, tournament, regs):
    ivan, olena, jean, maria = regs
    g1 = services.games.create_game(alice, tournament, seed=1)
    g2 = services.games.create_game(alice, tournament, seed=2)
    play(g1, 1, 50, {ivan: 50, olena: 30, jean: 40, maria: 10})
    play(g2, 1, 50, {ivan: 20, olena: 50, jean: 40, maria: 50})
    rows = services.standings.tournament_standings(tournament)
    assert [(r.player.name, r.total, r.top_total, r.rank) for r in rows] == [
        ("Ołena Kowalczyk", 80, 100, 1), ("Jean Dupont", 80, 100, 1), ("Иван Петров", 70, 100, 3),
        ("Марія Шевченко", 60, 100, 4)]
    tournament.tie_break = Tournament.TieBreak.BACKWARDS
    tournament.save()
    rows = services.standings.tournament_standings(tournament)
    assert [(r.player.name, r.rank) for r in rows][:2] == [("Ołena Kowalczyk", 1), ("Jean Dupont", 2)]  # last game 50 > 40
    series = services.standings.grouped_standings(tournament, "series")
    assert [(r.player.name, r.rank) for r in series["A"]] == [("Ołena Kowalczyk", 1), ("Иван Петров", 2)]
    clubs = services.standings.grouped_standings(tournament, "club")
    assert set(clubs) == {"Спартак", "Kraków", "Paris", "Київ"}
    cats = services.standings.grouped_standings(tournament, "category")
    assert [r.player.name for r in cats["senior"]] == ["Jean Dupont", "Иван Петров"]
    with pytest.raises(ServiceError):
        services.standings.grouped_standings(tournament, "colour")


def test_access_code_is_stored_hashed(alice, tournament):
    reg, code = services.players.register_player(alice, tournament, name="Иван Петров")
    assert len(code) == 10 and code not in reg.access_code_hash
    assert reg.check_access_code(code.lower()) and not reg.check_access_code("A" * 10)
    token = services.players.issue_tablet_token(reg, code)
    assert services.players.registration_for_token(token).pk == reg.pk
    with pytest.raises(ServiceError):
        services.players.register_player(alice, tournament, name="X", table_number=reg.table_number)


def test_the_halls_standings_are_read_in_queries_that_do_not_grow_with_the_players(alice, tournament, game,
                                                                                  django_assert_max_num_queries):
    """Every tablet's result comes from them at each publication: a query per player (a deferred column read row
    by row) made a 1,500-player publication wait 2.7 s."""
    regs = [services.players.register_player(alice, tournament, name=f"P{i}")[0] for i in range(40)]
    play(game, 1, 50, {reg: i for i, reg in enumerate(regs)})
    with django_assert_max_num_queries(12):
        hall = services.standings.hall_standings(tournament)
    assert [line.player for line in hall.games[game.number][:3]] == [regs[39].pk, regs[38].pk, regs[37].pk]
