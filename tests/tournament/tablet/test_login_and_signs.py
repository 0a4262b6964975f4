"""The tablets hear that the arbiter is typing the rack drawn from the bag."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.tools.world import PREPARED
from tournament import services
from tournament.live import version as live_version
from tournament.services import signs

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_cache")]


def test_the_tablets_hear_that_the_arbiter_is_typing_the_rack(client, alice, tournament, eager, monkeypatch):
    from tests.tools.world import run_round

    monkeypatch.setattr(live_version, "VERSION_TTL", 0)
    reg, code = services.players.register_player(alice, tournament, name="Ann")
    token = APIClient().post("/api/tablet/login/", {"code": code}, format="json").json()["token"]
    tablet = APIClient()
    tablet.credentials(HTTP_AUTHORIZATION=f"Tablet {token}")
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    client.force_login(alice)
    typing = f"/arbiter/t/{tournament.slug}/g/{game.number}/typing/"
    version = client.get(f"/tablet/version/{tournament.slug}/")["ETag"]

    assert client.post(typing).json() == {"shown": True}  # no round yet: the first rack is being typed
    assert client.get(f"/tablet/version/{tournament.slug}/", HTTP_IF_NONE_MATCH=version).status_code == 200
    until = tablet.get("/api/tablet/state/").json()["rack_typing_until"]
    left = (timezone.datetime.fromisoformat(until) - timezone.now()).total_seconds()
    assert signs.RACK_TYPING_SECONDS - 5 < left <= signs.RACK_TYPING_SECONDS
    # his next keys within RACK_TYPING_RENEW seconds change nothing the screens show
    version = client.get(f"/tablet/version/{tournament.slug}/")["ETag"]
    assert client.post(typing).json() == {"shown": True}
    assert client.get(f"/tablet/version/{tournament.slug}/", HTTP_IF_NONE_MATCH=version).status_code == 304

    # the draw: the round's own state (no sign); its publication: a sign typed before it is stale
    rnd = run_round(alice, game, eager, {reg: "H4 CARTS 20"})
    assert tablet.get("/api/tablet/state/").json()["rack_typing_until"] is None
    services.rounds.publish_round(alice, rnd)
    assert tablet.get("/api/tablet/state/").json()["rack_typing_until"] is None
    assert client.post(typing).json() == {"shown": True}
    state = tablet.get("/api/tablet/state/").json()
    assert state["round"]["status"] == "published" and state["rack_typing_until"] is not None
    assert state["result"]["total"] == 20  # the last round's results stay on the tablet

    # a round drawn and not published, or the game over: no sign (the form is not there)
    with eager(execute=True):
        services.rounds.draw_round(alice, game)
    assert client.post(typing).json() == {"shown": False}
    assert client.post(f"/arbiter/t/{tournament.slug}/g/99/typing/").status_code == 404
    assert client.get(typing).status_code == 405


def test_a_sign_counts_only_after_the_last_publication():
    now = timezone.now()
    assert signs.rack_typing_until(None, None) is None
    assert signs.rack_typing_until(now, None) == now + timedelta(seconds=signs.RACK_TYPING_SECONDS)
    assert signs.rack_typing_until(now, now - timedelta(seconds=1)) is not None
    assert signs.rack_typing_until(now - timedelta(seconds=1), now) is None
