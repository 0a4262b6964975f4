"""Issue 35 item 12: a name holding bidi controls (U+202E turns "Ivan\u202eNOSLIW Petrov" around on a page) or
other invisible controls is stored and printed without them, whichever way it came in: the console's form,
the CSV import, the arbiter API, a tournament, a training run, an arbiter."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from rest_framework.test import APIClient

from tournament import services
from tournament.models import Player, Tournament
from tournament.models.names import clean_name
from tournament.printing import build as pdf
from tournament.printing import spec as specs

TRICK = "Ivan\u202eNOSLIW Petrov"
SHOWN = "IvanNOSLIW Petrov"
CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\x00\x1b\u00ad\ufeff"


def test_controls_are_stripped_and_joiners_kept():
    assert clean_name(TRICK) == SHOWN
    assert clean_name("".join(f"A{c}" for c in CONTROLS) + "B") == "A" * len(CONTROLS) + "B"
    assert clean_name("Anna\nMaria\tK") == "Anna Maria K"  # a break between words is a space
    assert clean_name("می\u200cخواهم") == "می\u200cخواهم"  # ZWNJ spells Persian words
    assert clean_name("👩\u200d💻 Ёлкин Пётр") == "👩\u200d💻 Ёлкин Пётр"
    assert clean_name("Łukasz Żółć") == "Łukasz Żółć"


@pytest.mark.django_db
def test_every_way_in_stores_the_name_without_the_control(client, alice, tournament, tmp_path):
    client.force_login(alice)
    client.post(reverse("arbiter:players", args=[tournament.slug]),
                {"form": "player", "name": TRICK, "club": "Club\u2066X\u2069"})
    client.post(reverse("arbiter:import", args=[tournament.slug]),
                {"text": "Anna\u202eATSIRHC Kowalska;Kra\u200fków\nBoris\u2067 Ivanov;Kyiv\n"})
    api = APIClient()
    api.force_authenticate(alice)
    answer = api.post(f"/api/arbiter/tournaments/{tournament.slug}/registrations/",
                      {"name": "Jean\u202dDupont\u202c"}, format="json")
    assert answer.status_code == 201, answer.content
    names = sorted(Player.objects.values_list("name", flat=True))
    assert names == ["AnnaATSIRHC Kowalska", "Boris Ivanov", SHOWN, "JeanDupont"]
    assert sorted(Player.objects.values_list("club", flat=True)) == ["", "ClubX", "Kraków", "Kyiv"]
    # the same name with a control in it is the same player
    again = client.post(reverse("arbiter:players", args=[tournament.slug]),
                        {"form": "player", "name": "Ivan‮NOSLIW⁩ Petrov"})
    assert "name" in again.context["player_form"].errors and Player.objects.count() == 4
    renamed = services.tournaments.create_tournament(alice, name="Open\u202e 2026", slug="open-2", ruleset="en",
                                                     lexicon=tournament.lexicon, arbiters=[alice])
    assert Tournament.objects.get(pk=renamed.pk).name == renamed.name == "Open 2026"
    arbiter = get_user_model().objects.create_user("carol\u200e", password="x", first_name="Ca\u202erol")
    arbiter.refresh_from_db()
    assert (arbiter.username, arbiter.first_name) == ("carol", "Carol")
    Player.objects.filter(name=SHOWN).update(club="Bad\u202eClub")
    assert Player.objects.get(name=SHOWN).club == "BadClub"

    out = tmp_path / "cards.pdf"
    pdf.build(specs.make_spec(tournament, "cards"), out=out, base_url="http://hall.test")
    tool = shutil.which("pdftotext")
    if tool is None:
        pytest.fail("pdftotext is needed: apt-get install poppler-utils")
    text = subprocess.run([tool, "-raw", "-enc", "UTF-8", str(out), "-"], capture_output=True, check=True,
                          text=True).stdout
    assert SHOWN in text and not any(c in text for c in CONTROLS)



@pytest.mark.django_db
def test_names_stored_before_are_cleaned_by_the_migration(alice, tournament):
    """Rows written before names were cleaned (raw SQL here: the field cleans every save) lose their controls."""
    from importlib import import_module

    from django.apps import apps
    from django.db import connection

    player = Player.objects.create(name="Ann")
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {Player._meta.db_table} SET name = %s, club = %s WHERE id = %s",
                       [TRICK, "Club\u2066X\u2069", player.pk])
        cursor.execute(f"UPDATE {Tournament._meta.db_table} SET venue = %s WHERE id = %s", ["Hall\u202e A", tournament.pk])
    assert Player.objects.values_list("name", flat=True).get(pk=player.pk) == TRICK
    import_module("tournament.migrations.0017_names_without_controls").clean_names(apps, None)
    assert Player.objects.values_list("name", "club").get(pk=player.pk) == (SHOWN, "ClubX")
    assert Tournament.objects.values_list("venue", flat=True).get(pk=tournament.pk) == "Hall A"
