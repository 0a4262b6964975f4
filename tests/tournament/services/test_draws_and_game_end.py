"""Issue 14, bugs 8–11 through the services: redraws in the round's draw log, a typed physical rack (new tiles
only or the whole rack), a cancelled round drawn again from a new seed, the arbiter's reason for ending a game."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tests.tools.world import run_round
from tournament import gamestate, labels, services
from tournament.errors import ServiceError
from tournament.models import AuditLog, Game, Round

pytestmark = pytest.mark.django_db


def draw(alice, game, eager, typed=None) -> Round:
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game, typed_rack=typed)
    assert rnd is not None
    rnd.refresh_from_db()
    return rnd


# -- bug 8: every rack sent back is in the round's draw log, with why ------------------------------------------


def test_a_random_redraw_is_in_the_log_with_its_reason(alice, tournament, eager):
    game = services.games.create_game(alice, tournament, seed=0)  # the first rack RURSCGF has no vowel
    rnd = draw(alice, game, eager)
    assert rnd.rack == "EEXZRTR"
    assert gamestate.redraws(rnd) == [{"rack": "RURSCGF", "reason": "vowels"}]
    assert gamestate.rack_source(rnd) == "random"


def test_the_game_page_shows_the_redraws(alice, tournament, eager, client):
    tournament.language = "en"
    tournament.save(update_fields=["language"])
    game = services.games.create_game(alice, tournament, seed=0)
    draw(alice, game, eager)
    client.force_login(alice)
    html = client.get(reverse("arbiter:game", args=[tournament.slug, game.number])).content.decode()
    assert "Rack redrawn: RURSCGF — too few vowels" in html


def test_an_invalid_typed_rack_and_a_rack_without_move_are_shown_with_the_next_rack(alice, tournament, eager):
    game = services.games.create_game(alice, tournament, seed=7)
    with eager(execute=True):
        assert services.rounds.draw_round(alice, game, typed_rack="BCDFGHA") is None  # one vowel: back to the bag
    rnd = draw(alice, game, eager, typed="UUQVVWW")
    assert gamestate.redraws(rnd) == [{"rack": "BCDFGHA", "reason": "vowels"}]
    assert gamestate.rack_source(rnd) == "typed"
    with eager(execute=True):
        fresh = services.rounds.redraw_no_move(alice, rnd)
    assert fresh is not None
    fresh.refresh_from_db()
    assert gamestate.redraws(fresh)[-1] == {"rack": "UUQVVWW", "reason": "no_move"}
    assert gamestate.rack_source(fresh) == "random"


# -- bug 9: a physical rack: the new tiles only, or the whole rack -------------------------------------------------


def test_a_typed_rack_takes_the_new_tiles_only_or_the_whole_rack(alice, tournament, eager, regs):
    game = services.games.create_game(alice, tournament, seed=7)
    rnd = run_round(alice, game, eager, {regs[0]: "CARTS 20"}, typed="CATSROE")
    services.rounds.publish_round(alice, rnd)  # H4 CARTS: O and E are kept
    game.refresh_from_db()
    assert gamestate.next_draw(game) == ("OE", 5)
    with pytest.raises(ServiceError) as exc, translation.override("en"):
        services.rounds.draw_round(alice, game, typed_rack="DOES")
    assert exc.value.code == "wrong_size"
    assert "has 4 tiles: type the tiles drawn from the bag (5; the leftover OE is added)" in exc.value.message
    with pytest.raises(ServiceError) as exc:
        services.rounds.draw_round(alice, game, typed_rack="DDRSTTA")  # 7 tiles without the leftover
    assert exc.value.code == "leftover_missing" and "OE" in exc.value.message
    new_only = draw(alice, game, eager, typed="DOESR")
    assert (new_only.rack, new_only.leftover, new_only.drawn) == ("OEDOESR", "OE", "DOESR")
    services.rounds.cancel_round(alice, new_only, why="typed again")
    game.refresh_from_db()
    whole = draw(alice, game, eager, typed="OEDOESR")
    assert (whole.rack, whole.leftover, whole.drawn) == ("OEDOESR", "OE", "DOESR")


def test_the_game_page_shows_the_leftover_and_the_rule(alice, tournament, eager, regs, client):
    tournament.language = "en"
    tournament.save(update_fields=["language"])
    game = services.games.create_game(alice, tournament, seed=7)
    services.rounds.publish_round(alice, run_round(alice, game, eager, {regs[0]: "CARTS 20"}, typed="CATSROE"))
    client.force_login(alice)
    html = client.get(reverse("arbiter:game", args=[tournament.slug, game.number])).content.decode()
    assert 'id="next-leftover"' in html and "Type the 5 tiles drawn from the bag (the leftover OE is added)" in html


# -- bug 10: a cancelled round drawn again gives another rack ----------------------------------------------------


def test_a_cancelled_round_drawn_again_gives_another_rack_from_a_new_seed(alice, tournament, eager):
    game = services.games.create_game(alice, tournament, seed=12345)
    first = draw(alice, game, eager)
    services.rounds.cancel_round(alice, first, why="the rack was seen before the round")
    game.refresh_from_db()
    again = draw(alice, game, eager)
    assert again.number == 1 and again.rack != first.rack
    new_seed = AuditLog.objects.get(action="round.cancel").after["new_seed"]
    assert gamestate.bag_seed(game) == new_seed != 12345
    assert {e["seed"] for e in again.draw_log} == {new_seed}  # the log says which bag the rack came from


# -- bug 11: the arbiter's reason is kept ---------------------------------------------------------------------------


def test_the_arbiter_s_reason_for_ending_a_game_is_kept_and_shown(alice, tournament, eager, regs):
    game = services.games.create_game(alice, tournament, prepared_racks=["CATSROE"])
    services.rounds.publish_round(alice, run_round(alice, game, eager, {regs[0]: "CARTS 20"}))
    services.games.finish_game(alice, game, why="time is called at 18:00")
    game.refresh_from_db()
    assert (game.status, game.end_reason, game.end_note) == (Game.Status.FINISHED, "arbiter", "time is called at 18:00")
    with translation.override("en"):
        assert labels.end_text(game.end_reason, game.end_note) == "ended by the arbiter: time is called at 18:00"
