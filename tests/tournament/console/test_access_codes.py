"""Issue 34: the access codes of players added one by one stay readable by the tournament's arbiters until they
are handed out (a tablet logs in with the code, the arbiter marks it handed out, or cards are printed), sealed in
the database (never in clear), shown to no one else."""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.urls import reverse

from tournament.models import AuditLog, CodeKey, Registration, forget_code_keys
from tournament.services import players

pytestmark = [pytest.mark.django_db]

CODE = re.compile(r'<td class="code">([A-Z2-9]{10})</td>')


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


def listed(client, tournament) -> dict[str, str]:
    """The codes to hand out on the players page: {player's name: code}."""
    page = client.get(reverse("arbiter:players", args=[tournament.slug])).content.decode()
    card = page.split('id="codes"', 1)[1].split("</section>", 1)[0] if 'id="codes"' in page else ""
    rows = re.findall(r'<td class="num">\d+</td><td>([^<]+)</td><td class="code">([A-Z2-9]{10})</td>', card)
    return dict(rows)


def test_every_code_of_players_added_one_by_one_stays_readable_until_handed_out(client, alice, tournament):
    client.force_login(alice)
    url = reverse("arbiter:players", args=[tournament.slug])
    for name in ("Оксана", "Тарас", "Ірина"):
        assert client.post(url, {"form": "player", "name": name}).status_code == 302
    codes = listed(client, tournament)
    assert set(codes) == {"Оксана", "Тарас", "Ірина"}  # not only the last one
    for name, code in codes.items():
        assert Registration.objects.get(tournament=tournament, player__name=name).check_access_code(code)
    # Оксана's tablet logs in with her code: it reached her, it leaves the list
    players.login(codes["Оксана"])
    assert set(listed(client, tournament)) == {"Тарас", "Ірина"}
    # the arbiter hands Тарас his code: one button
    taras = Registration.objects.get(tournament=tournament, player__name="Тарас")
    response = client.post(url, {"form": "handed_out", "registration": str(taras.pk)}, follow=True)
    assert "1 access code handed out." in response.content.decode()
    assert set(listed(client, tournament)) == {"Ірина"}
    assert AuditLog.objects.get(action="player.code_handed_out").after == {"tables": [taras.table_number]}
    # the code handed out still works; cards printed issue new codes: nothing left to hand out
    players.login(codes["Тарас"])
    players.issue_access_codes(alice, tournament.registrations.all())
    assert listed(client, tournament) == {}


def test_all_handed_out_at_once_and_a_bad_request_changes_nothing(client, alice, tournament, regs):
    client.force_login(alice)
    url = reverse("arbiter:players", args=[tournament.slug])
    assert len(listed(client, tournament)) == 4
    response = client.post(url, {"form": "handed_out", "registration": "x"}, follow=True)
    assert "Choose the code handed out." in response.content.decode() and len(listed(client, tournament)) == 4
    response = client.post(url, {"form": "handed_out", "registration": "all"}, follow=True)
    assert "4 access codes handed out." in response.content.decode() and listed(client, tournament) == {}
    assert 'id="codes"' not in response.content.decode()


def test_the_codes_are_sealed_in_the_database_and_shown_to_the_tournaments_arbiters_only(client, alice, bob,
                                                                                         tournament):
    reg, code = players.register_player(alice, tournament, name="Anna")
    with connection.cursor() as cursor:  # no column of the row holds the code in clear
        cursor.execute("SELECT * FROM tournament_registration WHERE id = %s", [reg.pk])
        row = cursor.fetchone()
    assert not any(code in str(value) for value in row)
    assert not any(code in json.dumps([a.before, a.after]) for a in AuditLog.objects.all())
    client.force_login(bob)  # an arbiter of other tournaments
    assert client.get(reverse("arbiter:players", args=[tournament.slug])).status_code == 404
    client.force_login(alice)
    assert listed(client, tournament) == {"Anna": code}
    response = client.get(reverse("arbiter:players", args=[tournament.slug]))
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]


def test_a_sealed_code_opens_with_any_code_key_of_the_database_and_not_once_changed():
    sealed = players.seal_code("ABCDEFGHJK")
    assert sealed.startswith(players.SEALED_V1) and "ABCDEFGHJK" not in sealed
    assert players.seal_code("ABCDEFGHJK") != sealed  # a fresh nonce each time
    assert players.unseal_code(sealed) == "ABCDEFGHJK"
    CodeKey.objects.create(key="cd" * 32)  # a newer key (a restore from another hall): the old one still opens it
    forget_code_keys()
    assert players.unseal_code(sealed) == "ABCDEFGHJK"
    flipped = sealed[:-3] + ("A" if sealed[-3] != "A" else "B") + sealed[-2:]
    assert players.unseal_code(flipped) is None
    assert players.unseal_code("") is None and players.unseal_code("1.!!") is None
    CodeKey.objects.exclude(key="cd" * 32).delete()  # the sealing key is gone: nothing to read
    forget_code_keys()
    assert players.unseal_code(sealed) is None


def test_the_csv_import_lists_the_codes_and_keeps_them_on_the_players_page(client, alice, tournament):
    client.force_login(alice)
    response = client.post(reverse("arbiter:import", args=[tournament.slug]), {"text": "Иванов Иван\nПетров Пётр\n"})
    shown = CODE.findall(response.content.decode())
    assert len(shown) == 2 and sorted(listed(client, tournament).values()) == sorted(shown)


def test_a_card_printed_drops_the_sealed_copy(alice, tournament):
    reg, _code = players.register_player(alice, tournament, name="Anna")
    [(_reg, new)] = players.new_access_codes([reg])
    players.save_access_codes(alice, [(reg, new)])
    reg.refresh_from_db()
    assert reg.access_code_sealed == "" and players.codes_to_hand_out(tournament) == []
