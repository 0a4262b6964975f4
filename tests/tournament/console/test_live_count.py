"""Bug 1 of issue 14: the live slip count of a big hall (600 slips of 1,000 players), and the missing tables
shown as runs ("201–240, 305") on every page that lists them."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.tools.world import PREPARED
from tournament import labels, services

from .bighall import bulk_players, bulk_slips

pytestmark = [pytest.mark.django_db]

#: Tables with a slip: 600 of 1,000, leaving 201–240, 305 and 642–1000 without one.
HANDED = [*range(1, 201), *range(241, 305), *range(306, 642)]
MISSING = "201\u2013240, 305, 642\u20131000"


@pytest.mark.parametrize(("tables", "text"), [
    ([], ""), ([7], "7"), ([1, 2, 3, 5], "1\u20133, 5"), ([5, 3, 2, 1, 3], "1\u20133, 5"),
    ([4, 5, 9, 10, 11, 20], "4\u20135, 9\u201311, 20"), (range(201, 1001), "201\u20131000"),
])
def test_table_ranges(tables, text):
    assert labels.table_ranges(tables) == text


@pytest.fixture
def open_round(alice, tournament, eager):
    """1,000 players (bulk), round 1 of a prepared game open, 600 slips in."""
    regs = bulk_players(tournament, 1000)
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    by_table = {r.table_number: r for r in regs}
    bulk_slips(rnd, [by_table[t] for t in HANDED], "CARTS", "H4", 20)
    return rnd


def test_live_state_counts_every_slip_of_a_big_hall(client, alice, tournament, open_round):
    client.force_login(alice)
    live = client.get(reverse("arbiter:live", args=[tournament.slug, 1])).json()
    assert (live["count"], live["players"]) == (600, 1000)
    assert len(live["missing"]) == 400 and live["missing"][:2] == [201, 202]
    assert live["missing_text"] == MISSING
    api = client.get(reverse("api:arbiter-round-count", args=[open_round.pk])).json()  # the API agrees
    assert (api["received"], api["missing"]) == (live["count"], live["missing"])


def test_game_and_paper_slip_pages_say_600_of_1000_and_list_runs(client, alice, tournament, open_round):
    client.cookies["django_language"] = "en"
    client.force_login(alice)
    game = client.get(reverse("arbiter:game", args=[tournament.slug, 1])).content.decode()
    assert re.search(r'id="live-count">600</span> / <span id="live-players">1000<', game)
    assert MISSING in game and "(400)" in game
    assert "<li>1000</li>" not in game and "<li>201</li>" not in game
    assert "Only the first 200 slips by table are listed" in game
    paper = client.get(reverse("arbiter:slips", args=[tournament.slug, 1])).content.decode()
    assert "600 of 1000 slips received." in paper
    assert MISSING in paper and "<li>201</li>" not in paper
