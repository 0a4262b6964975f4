"""Arbiter game control beyond the round cycle: no legal move → redraw, ending a game, arbiter's penalties."""

from __future__ import annotations

import pytest

from tests.tools.world import run_round
from tournament import services
from tournament.errors import ServiceError
from tournament.models import AuditLog, Game, Penalty, Round

pytestmark = pytest.mark.django_db


def test_a_rack_without_a_legal_move_goes_back_to_the_bag_and_is_redrawn(alice, tournament, eager):
    game = services.games.create_game(alice, tournament, seed=7)
    with eager(execute=True):
        stuck = services.rounds.draw_round(alice, game, typed_rack="UUQVVWW")
    stuck.refresh_from_db()
    assert stuck.solver_status == Round.SolverStatus.NO_MOVE and stuck.move_count == 0
    with eager(execute=True):
        fresh = services.rounds.redraw_no_move(alice, stuck)
    stuck.refresh_from_db()
    assert stuck.status == Round.Status.CANCELLED
    assert fresh is not None and fresh.number == 1 and fresh.status == Round.Status.DRAWN
    assert fresh.rack != "UUQVVWW"
    game.refresh_from_db()
    kinds = [e["kind"] for e in game.state["log"]]
    assert "no_move" in kinds
    entry = AuditLog.objects.get(action="round.no_move")
    assert entry.before["rack"] == "UUQVVWW" and entry.after["returned_to_bag"] is True


def test_redraw_is_refused_when_the_rack_has_moves(alice, tournament, eager):
    game = services.games.create_game(alice, tournament, prepared_racks=["CATSROE"])
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    with pytest.raises(ServiceError) as exc:
        services.rounds.redraw_no_move(alice, rnd)
    assert exc.value.code == "has_moves"


def test_the_arbiter_ends_a_game_and_warnings_become_penalties(alice, tournament, regs, eager):
    tournament.free_warnings = 0
    tournament.save()
    game = services.games.create_game(alice, tournament, prepared_racks=["CATSROE", "OE+DRSZ?"])
    first = regs[0]
    rnd = run_round(alice, game, eager, {first: "H4 CARTS 99"})  # wrong score: a warning
    services.rounds.publish_round(alice, rnd)
    with pytest.raises(ServiceError) as exc:
        services.games.finish_game(alice, game, why="")
    assert exc.value.code == "why_missing"
    services.games.finish_game(alice, game, why="prepared racks used up")
    game.refresh_from_db()
    assert (game.status, game.end_reason) == (Game.Status.FINISHED, "arbiter")
    penalty = Penalty.objects.get(game=game, registration=first)
    assert penalty.kind == Penalty.Kind.WARNINGS and penalty.points == tournament.warning_penalty
    assert AuditLog.objects.filter(action="game.finish").exists()
    with pytest.raises(ServiceError) as exc:
        services.games.finish_game(alice, game, why="again")
    assert exc.value.code == "game_over"


def test_a_game_with_a_pending_round_cannot_be_ended(alice, tournament, eager):
    game = services.games.create_game(alice, tournament, prepared_racks=["CATSROE"])
    with eager(execute=True):
        services.rounds.draw_round(alice, game)
    with pytest.raises(ServiceError) as exc:
        services.games.finish_game(alice, game, why="time")
    assert exc.value.code == "round_pending"


def test_arbiter_penalty_counts_in_the_standings_and_is_audited(alice, tournament, regs, eager):
    game = services.games.create_game(alice, tournament, prepared_racks=["CATSROE", "OE+DRSZ?"])
    reg = regs[1]
    services.rounds.publish_round(alice, run_round(alice, game, eager, {reg: "H4 CARTS 20"}))
    before = {row.registration.pk: row.total for row in services.standings.game_standings(game)}[reg.pk]
    services.games.add_penalty(alice, game, reg, points=10, reason="talking during the round")
    after = {row.registration.pk: row.total for row in services.standings.game_standings(game)}[reg.pk]
    assert after == before - 10
    log = AuditLog.objects.get(action="penalty.add")
    assert log.after == {"table": reg.table_number, "points": 10, "reason": "talking during the round"}
    for points, reason, code in [(0, "x", "bad_points"), (5, " ", "why_missing"), (True, "x", "bad_points")]:
        with pytest.raises(ServiceError) as exc:
            services.games.add_penalty(alice, game, reg, points=points, reason=reason)
        assert exc.value.code == code
