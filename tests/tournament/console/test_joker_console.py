"""The Joker variant in the console: the new-game form, the game's pages, the Joker rack refusals, a replaced blank."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tournament import gamestate, services
from tournament.models import Game, Round

pytestmark = [pytest.mark.django_db]


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_new_game_form_offers_the_variant(client, alice, tournament):
    client.force_login(alice)
    page = client.get(reverse("arbiter:tournament", args=[tournament.slug])).content.decode()
    assert 'name="variant"' in page and '<option value="joker">Joker</option>' in page
    assert '<option value="classic" selected>Classic</option>' in page
    create = reverse("arbiter:game_create", args=[tournament.slug])
    client.post(create, {"variant": "scrabblette", "seed": "1"})
    assert not Game.objects.exists()  # refused by the form
    client.post(create, {"seed": "1", "prepared": ""})  # a form without the field (an old page): classic
    client.post(create, {"variant": "joker", "seed": "1", "prepared": "", "confirm": "1"})  # game 1 is played: confirmed
    classic, joker = Game.objects.order_by("number")
    assert (classic.variant, joker.variant) == ("classic", "joker")
    assert "variant" not in classic.state and joker.state["variant"] == "joker"
    assert gamestate.load(joker).variant.id == "joker"
    listing = text(client.get(reverse("arbiter:tournament", args=[tournament.slug])))
    assert "Game 2 Joker" in listing and "Game 1 Joker" not in listing
    assert 'id="game-variant"' not in client.get(reverse("arbiter:game", args=[tournament.slug, 1])).content.decode()
    page = client.get(reverse("arbiter:game", args=[tournament.slug, 2])).content.decode()
    assert 'id="game-variant"' in page and 'id="joker-rule"' in page
    assert ">Joker</span>" in page


def test_typed_rack_refused_by_the_joker_rule_is_explained(client, alice, tournament, eager):
    client.force_login(alice)
    game = services.games.create_game(alice, tournament, seed=1, variant="joker")
    action = reverse("arbiter:round_action", args=[tournament.slug, game.number])
    no_blank = client.post(action, {"action": "draw", "typed_rack": "CATSROE"}, follow=True)
    assert "The rack «CATSROE» has no blank: in the Joker game every rack holds one while one is left." in text(no_blank)
    two = client.post(action, {"action": "draw", "typed_rack": "CATS??E"}, follow=True)
    assert "The rack «CATS??E» has two blanks: in the Joker game a rack holds one." in text(two)
    assert not Round.objects.filter(game=game).exists()
    with eager(execute=True):
        client.post(action, {"action": "draw", "typed_rack": "CATSRO?"})
    assert Round.objects.get(game=game).rack == "CATSRO?"


def test_a_replaced_blank_is_shown_after_publication(client, alice, tournament, regs, sim_eager):
    """Seed 1: round 1's top H4 VIsTA plays the blank as S; the bag holds an S: it goes on the board."""
    client.force_login(alice)
    game = services.games.create_game(alice, tournament, seed=1, variant="joker")
    with sim_eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    assert rnd is not None and "?" in rnd.rack
    with sim_eager(execute=False):
        services.rounds.open_round(alice, rnd)
    services.rounds.close_round(rnd, alice, force=True)
    services.judging.judge_round(rnd, alice)
    services.rounds.publish_round(alice, rnd)
    rnd.refresh_from_db()
    assert rnd.chosen_move == "H4 VIsTA"
    page = text(client.get(reverse("arbiter:game", args=[tournament.slug, game.number])))
    assert "? → S" in page
    assert ("Joker game: on the board, replace the blank of round 1 by the tile from the bag (? → S); the blank "
            "goes back into the bag and onto the next rack.") in page
    game.refresh_from_db()
    assert gamestate.replaced_blanks(game) == {1: "S"}
