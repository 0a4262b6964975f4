"""The 7-among-8 variant in the console: the new-game form offers it, the game's pages say it, a typed rack holds 8."""

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


def test_new_game_form_offers_7among8(client, alice, tournament):
    client.force_login(alice)
    page = client.get(reverse("arbiter:tournament", args=[tournament.slug])).content.decode()
    assert '<option value="7among8">7-among-8</option>' in page and "7-among-8: racks of 8 tiles" in page
    client.post(reverse("arbiter:game_create", args=[tournament.slug]), {"variant": "7among8", "seed": "1"})
    game = Game.objects.get()
    assert game.variant == "7among8" and game.state["variant"] == "7among8"
    assert gamestate.load(game).ruleset.rack_size == 8
    page = client.get(reverse("arbiter:game", args=[tournament.slug, 1]))
    html = page.content.decode()
    assert 'id="game-variant"' in html and ">7-among-8</span>" in html and 'id="eight-rule"' in html
    assert "Type the 8 tiles drawn from the bag" in text(page)


def test_typed_racks_hold_8_tiles(client, alice, tournament, eager):
    client.force_login(alice)
    game = services.games.create_game(alice, tournament, seed=1, variant="7among8")
    action = reverse("arbiter:round_action", args=[tournament.slug, game.number])
    seven = client.post(action, {"action": "draw", "typed_rack": "CATSROE"}, follow=True)
    assert "«CATSROE» has 7 tiles: type the tiles drawn from the bag (8)." in text(seven)
    nine = client.post(action, {"action": "draw", "typed_rack": "CATSROEND"}, follow=True)
    assert "«CATSROEND» has 9 tiles: type the tiles drawn from the bag (8)." in text(nine)
    assert not Round.objects.filter(game=game).exists()
    with eager(execute=True):
        client.post(action, {"action": "draw", "typed_rack": "CATSROEN"})
    assert Round.objects.get(game=game).rack == "CATSROEN"
