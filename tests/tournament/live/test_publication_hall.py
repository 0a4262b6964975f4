"""The hall a stream process reads at a publication (:func:`tournament.live.tablet.stream_hall`): when the one
change since the hall it read before is the publication, the slips and verdicts are those of that hall (no
query of the verdicts, one small look for a slip stored since); any other change in between, and they are
read again."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournament import live, services
from tournament.live import tablet
from tournament.live import version as versions
from tournament.models import Verdict

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def judged(alice, tournament, eager):
    """A round closed and judged: Anna handed nothing in, Boris a slip; both tablets logged in."""
    from tests.tools.world import PREPARED

    anna, code_a = services.players.register_player(alice, tournament, name="Anna")
    boris, code_b = services.players.register_player(alice, tournament, name="Boris")
    services.players.login(code_a)
    services.players.login(code_b)
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    services.slips.submit_slip(rnd, boris, word="CARTS", coordinates="H4", score=20)
    services.rounds.close_round(rnd, alice, force=True)
    services.judging.judge_round(rnd, alice)
    return rnd, anna, boris


def read(tournament) -> tablet.JudgedHall:
    hall = tablet.stream_hall(tournament.pk, versions.version_of(tournament.pk, fresh=True))
    assert hall is not None
    return hall


def verdict_queries(queries: CaptureQueriesContext) -> int:
    """The hall's reads of the verdicts (their explanations: the standings read only the points)."""
    return sum(Verdict._meta.db_table in q["sql"] and "explanation" in q["sql"] for q in queries.captured_queries)


def publish(alice, rnd, eager) -> None:
    with eager(execute=True):
        services.rounds.publish_round(alice, rnd)


def test_the_publication_takes_the_slips_and_verdicts_of_the_hall_read_before(alice, tournament, eager, judged):
    rnd, anna, boris = judged
    before = read(tournament)
    before_version = versions.version_of(tournament.pk, fresh=True)
    publish(alice, rnd, eager)
    with CaptureQueriesContext(connection) as queries:
        after = read(tournament)
    assert after.round["status"] == "published"
    assert after.verdicts is before.verdicts and after.slips is before.slips
    assert verdict_queries(queries) == 0
    # made by each process from its own judged hall: not shipped through the cache (10,000 slips and verdicts)
    published = versions.version_of(tournament.pk, fresh=True)
    assert cache.get(f"tablet-hall:{tablet.cache_name(tournament)}:{published}:{rnd.pk}") is None
    assert cache.get(f"tablet-hall:{tablet.cache_name(tournament)}:{before_version}:{rnd.pk}") is not None
    live.reset()  # read from nothing, the same hall
    fresh = read(tournament)
    assert fresh.slips == after.slips and fresh.verdicts == after.verdicts
    assert after.slips[boris.pk]["word"] == "CARTS" and anna.pk not in after.slips


def test_a_slip_stored_since_is_read(alice, tournament, eager, judged):
    """A tablet's late slip is quiet (the version stays): the publication still shows it."""
    rnd, anna, _boris = judged
    read(tournament)
    services.slips.submit_slip(rnd, anna, word="CART", coordinates="H4", score=12)
    publish(alice, rnd, eager)
    after = read(tournament)
    assert after.slips[anna.pk]["word"] == "CART" and after.slips[anna.pk]["late"] is True


def test_a_verdict_changed_in_between_is_read(alice, tournament, eager, judged):
    """The override moved the version: the hall read before it is not the publication's previous one."""
    rnd, _anna, boris = judged
    read(tournament)
    verdict = Verdict.objects.get(round=rnd, registration=boris)
    services.judging.override_verdict(alice, verdict, awarded=7, warning=True, why="smudged")
    publish(alice, rnd, eager)
    with CaptureQueriesContext(connection) as queries:
        after = read(tournament)
    assert verdict_queries(queries) >= 1
    assert after.verdicts[boris.pk]["awarded"] == 7 and after.verdicts[boris.pk]["warning"] is True



def test_each_stream_event_is_the_players_state_as_the_api_gives_it(alice, tournament, eager, judged):
    """The events are written from parts (what every player shares once, then each player's own keys): the same
    JSON object as ``GET /api/tablet/state/``, at the judged round and at its publication, for a player with a
    slip and one without."""
    from rest_framework.renderers import JSONRenderer

    rnd, anna, boris = judged

    def same_as_the_api() -> None:
        hall = read(tournament)
        players = {reg.pk: (reg.pk, reg.player.name, reg.table_number) for reg in (anna, boris)}
        events = tablet.stream_events(hall, versions.version_of(tournament.pk, fresh=True), players)
        for reg in (anna, boris):
            reg.refresh_from_db()
            event, api = json.loads(events[reg.pk]), json.loads(JSONRenderer().render(tablet.state_for(reg)))
            for state in (event, api):  # their clocks: a moment apart
                state.pop("server_time")
                state["round"].pop("seconds_left")
            assert event == api

    same_as_the_api()
    publish(alice, rnd, eager)
    same_as_the_api()
    assert json.loads(tablet.stream_state(read(tournament), versions.version_of(tournament.pk, fresh=True),
                                          (boris.pk, "Boris", boris.table_number)))["result"]["round_score"] == 20
