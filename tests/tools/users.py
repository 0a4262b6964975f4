"""Named test users and players of the tournament tests."""

from __future__ import annotations

from django.contrib.auth import get_user_model

ARBITER = "alice"  # arbiter of the tournament under test
OTHER_ARBITER = "bob"  # arbiter of another tournament
PLAYERS = [
    # name, club, category, series
    ("Иван Петров", "Спартак", "senior", "A"),
    ("Ołena Kowalczyk", "Kraków", "junior", "A"),
    ("Jean Dupont", "Paris", "senior", "B"),
    ("Марія Шевченко", "Київ", "veteran", "B"),
]


def user(name: str):
    return get_user_model().objects.get_or_create(username=name)[0]
