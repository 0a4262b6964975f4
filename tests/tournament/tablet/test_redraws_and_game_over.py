"""Issue 14, bugs 8 and 11 on the screens' data: a redraw is shown with its reason and how the rack came
(drawn or typed); after the game's end the tablet says game over with the player's final total and rank,
the display says why the game ended (the arbiter's own words)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.tools.world import run_round
from tournament import services
from tournament.live import version as live_version
from tournament.tablet.strings import tablet_strings

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_cache")]


@pytest.fixture(autouse=True)
def fresh_versions(monkeypatch):
    monkeypatch.setattr(live_version, "VERSION_TTL", 0)


def tablet_of(code: str) -> APIClient:
    token = APIClient().post("/api/tablet/login/", {"code": code}, format="json").json()["token"]
    tablet = APIClient()
    tablet.credentials(HTTP_AUTHORIZATION=f"Tablet {token}")
    return tablet


def test_a_redraw_is_on_the_tablet_and_the_display_with_its_reason(client, alice, tournament, eager):
    _reg, code = services.players.register_player(alice, tournament, name="Ann")
    game = services.games.create_game(alice, tournament, seed=0)  # the first rack RURSCGF has no vowel
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    state = tablet_of(code).get("/api/tablet/state/").json()
    assert state["round"]["rack_source"] == "random"
    assert state["round"]["redraws"] == [{"rack": "RURSCGF", "reason": "vowels"}]
    shown = client.get(f"/display/{tournament.slug}/state.json").json()
    assert shown["round"]["redraws"] == [{"rack": "RURSCGF", "reason": "vowels"}]
    assert shown["round"]["rack_source"] == "random" and shown["round"]["rack"] is None  # not before the open
    services.rounds.cancel_round(alice, rnd, why="test")
    with eager(execute=True):
        services.rounds.draw_round(alice, game, typed_rack="CATSROE")
    assert tablet_of(code).get("/api/tablet/state/").json()["round"]["rack_source"] == "typed"


def test_the_tablet_texts_say_drawn_or_typed_and_name_the_reasons():
    s = tablet_strings()
    assert s["status_drawn_random"] != s["status_drawn_typed"]
    assert set(s["redraw_reasons"]) == {"vowels", "consonants", "vowels_consonants", "no_move"}
    assert "%(rack)s" in s["redrawn"] and "%(reason)s" in s["redrawn"]
    assert "arbiter" in s["end_reasons"] and s["game_over"]


def test_after_the_game_the_tablet_says_game_over_with_the_final_total_and_rank(client, alice, tournament, eager):
    ann, code = services.players.register_player(alice, tournament, name="Ann")
    services.players.register_player(alice, tournament, name="Bob")
    game = services.games.create_game(alice, tournament, prepared_racks=["CATSROE"])
    services.rounds.publish_round(alice, run_round(alice, game, eager, {ann: "H4 CARTS 20"}))
    tablet = tablet_of(code)
    assert tablet.get("/api/tablet/state/").json()["game_over"] is None
    services.games.finish_game(alice, game, why="time is called")
    state = tablet.get("/api/tablet/state/").json()
    assert state["game_over"] == {"game": 1, "reason": "arbiter", "note": "time is called", "total": 20,
                                  "top_total": 20, "rank": 1, "players": 2}
    shown = client.get(f"/display/{tournament.slug}/state.json").json()
    assert shown["game"]["end_reason"] == "arbiter" and shown["game"]["end_note"] == "time is called"
    assert shown["standings"]["rows"][0]["name"] == "Ann"
