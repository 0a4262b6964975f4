"""The printing tests' world: four players with Cyrillic and Polish names, a game of two published rounds,
and a private MEDIA_ROOT and cache for every test."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.cache import cache

from tests.tools.world import PREPARED, run_round
from tournament import services

PEOPLE = [
    # name, club, category, series
    ("Іван Ґудзь", "Київ", "senior", "A"),
    ("Łukasz Żółć", "Kraków", "junior", "A"),
    ("Ёлкин Пётр", "Спартак", "veteran", "B"),
    ("Jean Dupont", "Paris", "senior", "B"),
]
BASE_URL = "http://192.168.1.10:8000"


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "pdf-tests"}}
    cache.clear()
    yield Path(settings.MEDIA_ROOT)
    cache.clear()


@pytest.fixture
def people(alice, tournament):
    """Four players; the codes they were given at registration."""
    out = []
    for name, club, cat, series in PEOPLE:
        reg, code = services.players.register_player(alice, tournament, name=name, club=club, category=cat, series=series)
        out.append((reg, code))
    return out


@pytest.fixture
def played(alice, tournament, people, eager):
    """Game 1, two rounds published. Totals: Іван 20+14=34 (a warning), Łukasz 12+14=26, Jean 0+14=14,
    Ёлкин 10+0=10 (a warning); tops 20 + 14 = 34."""
    ivan, lukasz, yolkin, jean = (reg for reg, _code in people)
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    r1 = run_round(alice, game, eager, {ivan: "H4 CARTS 20", lukasz: "CATS 12", yolkin: "ACT 11"})
    services.rounds.publish_round(alice, r1)
    r2 = run_round(alice, game, eager, {ivan: "4H CARDS 10", lukasz: "4H CaRDS 14", jean: "4H CaRDS 14"})
    services.rounds.publish_round(alice, r2)
    game.refresh_from_db()
    return game
