"""Times a tablet shows are in the hall's time zone (the tournament's), not the server's nor the tablet's: a slip's
receipt says when it was received as the console says it. In a tournament of several games the state gives the
tournament's total and rank and each finished game's result, corrections included."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.tools.world import PREPARED
from tournament import services
from tournament.live import tablet as live_tablet
from tournament.models import Slip

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_cache")]


def tablet_of(code: str) -> APIClient:
    token = APIClient().post("/api/tablet/login/", {"code": code}, format="json").json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Tablet {token}")
    return client


def hall_time(written: str, zone: str) -> str:
    """The time of day of an ISO time as written (what the tablet's receipt shows), checked to be ``zone``'s."""
    moment = datetime.fromisoformat(written.replace("Z", "+00:00"))
    assert moment.utcoffset() == timezone.localtime(moment, ZoneInfo(zone)).utcoffset(), written
    return written[11:19]


def test_a_slips_receipt_is_in_the_halls_zone_whatever_the_servers(settings, alice, tournament, eager):
    settings.TIME_ZONE = "Europe/Warsaw"  # the server; the hall is in Kyiv (an hour later)
    tournament.time_zone = "Europe/Kyiv"
    tournament.save()
    reg, code = services.players.register_player(alice, tournament, name="Оксана")
    tablet = tablet_of(code)
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)

    answer = tablet.post("/api/tablet/slip/", {"word": "CARTS", "coordinates": "H4", "score": 20, "round": rnd.pk},
                         format="json", HTTP_IDEMPOTENCY_KEY="k-1").json()
    slip = Slip.objects.get(pk=answer["id"])
    kyiv = timezone.localtime(slip.received_at, ZoneInfo("Europe/Kyiv")).strftime("%H:%M:%S")
    warsaw = timezone.localtime(slip.received_at, ZoneInfo("Europe/Warsaw")).strftime("%H:%M:%S")
    assert kyiv != warsaw
    assert hall_time(answer["received_at"], "Europe/Kyiv") == kyiv  # the answer to the slip
    state = tablet.get("/api/tablet/state/").json()
    assert hall_time(state["slip"]["received_at"], "Europe/Kyiv") == kyiv  # the open round's state

    services.rounds.close_round(rnd, alice, force=True)
    services.judging.judge_round(rnd, alice)
    services.rounds.publish_round(alice, rnd)
    live_tablet.reset()
    state = tablet.get("/api/tablet/state/").json()  # a judged round: every player's slip read at once
    assert state["round"]["status"] == "published"
    assert hall_time(state["slip"]["received_at"], "Europe/Kyiv") == kyiv


def test_the_tablet_gives_the_tournament_and_each_finished_game_corrected(alice, tournament, eager, monkeypatch):
    """Game 1 finished, game 2 under way: with a published round of game 2 the tablet gives the tournament's total
    and rank and game 1's result; a verdict of game 1 corrected after its publication is in the next state."""
    from tests.tools.world import run_round
    from tournament.live import version as live_version

    monkeypatch.setattr(live_version, "VERSION_TTL", 0)
    (ann, ann_code), (ben, ben_code) = (services.players.register_player(alice, tournament, name=n)
                                        for n in ("Ann", "Ben"))
    ann_tablet, ben_tablet = tablet_of(ann_code), tablet_of(ben_code)
    first = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    old = run_round(alice, first, eager, {ann: "H4 CARTS 20", ben: "H4 CARTS 16"})
    services.rounds.publish_round(alice, old)
    assert ann_tablet.get("/api/tablet/state/").json()["tournament_result"] is None  # one game: its own figures say it
    services.games.finish_game(alice, first, why="the prepared racks")
    second = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    new = run_round(alice, second, eager, {ann: "H4 CARTS 20"})
    services.rounds.publish_round(alice, new)

    ann_state, ben_state = (t.get("/api/tablet/state/").json() for t in (ann_tablet, ben_tablet))
    assert (ann_state["result"]["total"], ann_state["result"]["rank"]) == (20, 1)  # game 2
    assert ann_state["tournament_result"] == {"total": 40, "top_total": 40, "rank": 1, "players": 2,
                                              "games": [{"game": 1, "total": 20, "top_total": 20, "rank": 1}]}
    assert ben_state["result"]["total"] == 0  # no slip in game 2
    assert ben_state["tournament_result"]["total"] == 20 and ben_state["tournament_result"]["rank"] == 2
    assert ben_state["tournament_result"]["games"] == [{"game": 1, "total": 20, "top_total": 20, "rank": 1}]

    # the arbiter corrects a verdict of game 1, published long ago: the next state has it
    services.judging.override_verdict(alice, old.verdicts.get(registration=ben), awarded=4, warning=True,
                                      why="a letter misread")
    ben_state = ben_tablet.get("/api/tablet/state/").json()
    assert ben_state["result"]["total"] == 0  # game 2 unchanged
    assert ben_state["tournament_result"] == {"total": 4, "top_total": 40, "rank": 2, "players": 2,
                                              "games": [{"game": 1, "total": 4, "top_total": 20, "rank": 2}]}
