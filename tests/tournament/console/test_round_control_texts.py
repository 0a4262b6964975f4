"""Issue 34, the round control page as the arbiter reads it: a redrawn rack shown as drawn (never "leftover +
drawn" adding up to 9 tiles), the late slips counted apart from the missing tables, a second game started while
another is in play only after a warning, and the keys of the legend written as key combinations."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.tools.world import run_round
from tournament import services

pytestmark = [pytest.mark.django_db]


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


def text_of(html: str) -> str:
    """The page's words without its tags (what a person reads), spaces folded."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.fixture
def redrawn(alice, tournament, regs, eager):
    """Round 1 (CATSROE) published with H4 CARTS, leaving OE; round 2 typed OE+AAIIU (seven vowels: every tile back
    into the bag), then drawn again by the computer: seven new tiles."""
    game = services.games.create_game(alice, tournament, seed=5)
    first = run_round(alice, game, eager, {}, typed="CATSROE")
    services.rounds.publish_round(alice, first)
    with eager(execute=True):
        assert services.rounds.draw_round(alice, game, typed_rack="AAIIU") is None
        rnd = services.rounds.draw_round(alice, game)
    assert rnd is not None and rnd.leftover == "OE" and len(rnd.drawn) == 7
    return game, rnd


def test_a_redrawn_rack_is_shown_as_drawn_with_its_leftover_back_in_the_bag(client, alice, tournament, redrawn):
    game, rnd = redrawn
    client.force_login(alice)
    page = text_of(client.get(reverse("arbiter:game", args=[tournament.slug, game.number])).content.decode())
    assert f"Kept: OE + drawn: {rnd.drawn}" not in page  # 2 + 7 tiles: the leftover is in the bag again
    assert f"Drawn: {rnd.drawn} (the leftover OE went back into the bag with the redraw)" in page


def test_a_rack_without_redraw_says_what_was_kept_and_what_was_drawn(client, alice, tournament, regs, eager):
    game = services.games.create_game(alice, tournament, seed=5)
    first = run_round(alice, game, eager, {}, typed="CATSROE")
    services.rounds.publish_round(alice, first)
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game, typed_rack="BCDFG")
    client.force_login(alice)
    page = text_of(client.get(reverse("arbiter:game", args=[tournament.slug, game.number])).content.decode())
    assert rnd.leftover == "OE" and "Kept: OE + drawn: BCDFG" in page


@pytest.fixture
def late_slip(alice, tournament, regs, eager):
    """Round 1 of 4 players: table 1 handed in on time, the round closed, then table 2's tablet slip came late."""
    game = services.games.create_game(alice, tournament, seed=5)
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game, typed_rack="CATSROE")
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    services.slips.submit_slip(rnd, regs[0], word="CARTS", coordinates="H4", score=20)
    services.rounds.close_round(rnd, alice, force=True)
    assert services.slips.submit_slip(rnd, regs[1], word="CARTS", coordinates="H4", score=20).late
    return game, rnd


def test_late_slips_are_counted_apart_and_their_tables_are_not_missing(client, alice, tournament, regs, late_slip):
    game, rnd = late_slip
    client.force_login(alice)
    live = client.get(reverse("arbiter:live", args=[tournament.slug, game.number])).json()
    assert (live["count"], live["players"], live["late"], live["late_text"]) == (1, 4, [2], "1 late")
    assert live["missing"] == [3, 4] and live["missing_text"] == "3\u20134"
    page = text_of(client.get(reverse("arbiter:game", args=[tournament.slug, game.number])).content.decode())
    assert "Slips received 1 / 4 · 1 late" in page
    assert "Missing tables (2) 3–4" in page and "Late (not counted): 2" in page
    paper = text_of(client.get(reverse("arbiter:slips", args=[tournament.slug, game.number])).content.decode())
    assert "1 of 4 slips received. 1 late" in paper and "Late (not counted): 2" in paper


def test_a_new_game_while_another_is_played_is_created_only_once_the_arbiter_confirms(
        client, alice, tournament, regs, late_slip):
    game, rnd = late_slip  # game 1: round 1 closed
    client.force_login(alice)
    create = reverse("arbiter:game_create", args=[tournament.slug])
    response = client.post(create, {"seed": "11", "variant": "classic"})
    page = text_of(response.content.decode())
    assert response.status_code == 200 and tournament.games.count() == 1  # not created: the arbiter is asked
    assert "Another game of this tournament is still being played." in page
    assert "Game 1: round 1 is closed." in page and "Create the game anyway" in page
    assert 'value="11"' in response.content.decode()  # the form keeps what was typed
    response = client.post(create, {"seed": "11", "variant": "classic", "confirm": "1"})
    assert response.status_code == 302 and tournament.games.count() == 2
    assert tournament.games.get(number=2).seed == 11


def test_a_new_game_after_the_others_ended_is_created_at_once(client, alice, tournament, regs, eager):
    game = services.games.create_game(alice, tournament, seed=5)
    client.force_login(alice)
    create = reverse("arbiter:game_create", args=[tournament.slug])
    page = text_of(client.get(reverse("arbiter:tournament", args=[tournament.slug])).content.decode())
    assert "still being played" not in page
    response = client.post(create, {"variant": "classic"})
    assert response.status_code == 200 and "Game 1 is not ended yet." in text_of(
        response.content.decode())
    services.games.finish_game(alice, game, why="time")
    assert client.post(create, {"variant": "classic"}).status_code == 302 and tournament.games.count() == 2
