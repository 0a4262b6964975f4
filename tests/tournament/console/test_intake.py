"""Issue 14, what the arbiter types: paper slips (late tick, checks, confirmed replacement, the table's player),
players registered once (POST/redirect/GET, duplicate names), logout, short names, the favicon."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from tests.tools.world import PREPARED
from tournament import services
from tournament.models import Player, Slip, Tournament, Verdict

pytestmark = [pytest.mark.django_db]


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


@pytest.fixture
def open_round(alice, tournament, regs, eager):
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    return rnd


def slip_url(tournament) -> str:
    return reverse("arbiter:slips", args=[tournament.slug, 1])


def key_of(page: str) -> str:
    return re.search(r'name="key" value="([0-9a-f]+)"', page).group(1)


# -- bug 3: the late tick ------------------------------------------------------------------------------------


def test_a_slip_ticked_late_in_an_open_round_is_judged_late(client, alice, tournament, regs, open_round, eager):
    client.force_login(alice)
    url = slip_url(tournament)
    response = client.post(url, {"table": 1, "word": "CARTS", "coordinates": "H4", "score": 20, "late": "on",
                                 "key": "a1"})
    assert response.status_code == 302
    slip = Slip.objects.get(round=open_round, registration=regs[0])
    assert slip.late and not slip.is_current
    services.rounds.close_round(open_round, alice, force=True)
    services.judging.judge_round(open_round, alice)
    verdict = Verdict.objects.get(round=open_round, registration=regs[0])
    assert (verdict.awarded, verdict.reason) == (0, "late")


def test_a_late_tick_after_an_early_close_is_late_and_keeps_the_on_time_slip(client, alice, tournament, regs,
                                                                             open_round):
    services.slips.submit_slip(open_round, regs[1], word="CARTS", coordinates="H4", score=20)
    services.rounds.close_round(open_round, alice, force=True)  # closed before the deadline
    client.force_login(alice)
    client.post(slip_url(tournament), {"table": 2, "word": "CAST", "coordinates": "H5", "score": 12, "late": "on",
                                       "key": "a2"})
    late = Slip.objects.get(round=open_round, registration=regs[1], word="CAST")
    assert late.late and not late.is_current
    assert Slip.objects.get(round=open_round, registration=regs[1], is_current=True).word == "CARTS"


# -- paper slips: checks, confirmation, keyboard data ---------------------------------------------------------


@pytest.mark.parametrize(("field", "value", "message"), [
    ("coordinates", "Z99", "the letter must be one of A–O"),
    ("coordinates", "H16", "is off the board"),
    ("coordinates", "16H", "is off the board"),
    ("coordinates", "Z9", "the letter must be one of A–O"),
    ("coordinates", "ЁЁ", "is not a coordinate"),
    ("word", "A" * 40, "at most 15 letters"),
    ("word", "CAT5", "is not a letter of this tournament"),
    ("table", "99999999999", "tables go from 1 to 4"),
    ("table", "0", "greater than or equal to 1"),
])
def test_impossible_slips_are_refused_next_to_the_field_and_kept(client, alice, tournament, regs, open_round,
                                                                 field, value, message):
    client.force_login(alice)
    form = {"table": "3", "word": "CARTS", "coordinates": "H4", "score": "20", "key": "b1", field: value}
    response = client.post(slip_url(tournament), form)
    page = response.content.decode()
    assert response.status_code == 200 and message in page
    assert not Slip.objects.filter(round=open_round).exists()
    assert f'value="{value}"' in page  # what the typist typed stays in the form
    errors = re.search(rf'id="id_{field}".*?<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', page, re.S)
    assert errors and message in errors.group(1), "the message is next to its field"


def test_replacing_a_slip_by_paper_needs_confirmation(client, alice, tournament, regs, open_round):
    services.slips.submit_slip(open_round, regs[2], word="CARTS", coordinates="H4", score=20)
    client.force_login(alice)
    url = slip_url(tournament)
    form = {"table": "3", "word": "CAST", "coordinates": "H5", "score": "12", "key": "c1"}
    first = client.post(url, form)
    page = first.content.decode()
    assert first.status_code == 200
    assert "already has a slip" in page and "H4 CARTS 20" in page and regs[2].player.name in page
    current = Slip.objects.get(round=open_round, registration=regs[2], is_current=True)
    assert current.word == "CARTS" and Slip.objects.filter(round=open_round).count() == 1
    assert f'name="replace" value="{current.pk}"' in page and 'value="CAST"' in page
    confirmed = client.post(url, {**form, "replace": str(current.pk)})
    assert confirmed.status_code == 302
    assert Slip.objects.get(round=open_round, registration=regs[2], is_current=True).word == "CAST"
    client.post(url, {**form, "replace": str(current.pk)})  # a double Enter: the same slip, no new question
    assert Slip.objects.filter(round=open_round, registration=regs[2]).count() == 2


def test_a_confirmation_for_another_slip_does_not_replace(client, alice, tournament, regs, open_round):
    old = services.slips.submit_slip(open_round, regs[0], word="CARTS", coordinates="H4", score=20)
    services.slips.submit_slip(open_round, regs[1], word="CARTS", coordinates="H4", score=20)
    client.force_login(alice)
    response = client.post(slip_url(tournament), {"table": "2", "word": "CAST", "key": "c2", "replace": str(old.pk)})
    assert response.status_code == 200 and "already has a slip" in response.content.decode()
    assert Slip.objects.get(round=open_round, registration=regs[1], is_current=True).word == "CARTS"


def test_the_page_knows_each_table_player_and_slip(client, alice, tournament, regs, open_round):
    services.slips.submit_slip(open_round, regs[1], word="CARTS", coordinates="H4", score=20)
    client.force_login(alice)
    page = client.get(slip_url(tournament)).content.decode()
    data = json.loads(re.search(r'<script id="slip-tables" type="application/json">(.*?)</script>', page,
                                re.S).group(1))
    assert data["1"] == [regs[0].player.name, ""]
    assert data["2"] == [regs[1].player.name, "H4 CARTS 20"]
    assert 'id="table-name"' in page and 'max="4"' in page


# -- bug 4: registering a player ------------------------------------------------------------------------------


def test_registering_redirects_and_lists_the_code_to_hand_out(client, alice, tournament, regs):
    client.force_login(alice)
    url = reverse("arbiter:players", args=[tournament.slug])
    response = client.post(url, {"form": "player", "name": "Новий Гравець"})
    assert response.status_code == 302 and response.url == url
    page = client.get(url).content.decode()
    assert "Players <span class=\"muted small\">(5)</span>" in page
    assert "Новий Гравець" in page and "Access codes to hand out" in page
    assert "Access codes to hand out" in client.get(url).content.decode()  # until it is handed out
    assert Player.objects.filter(name="Новий Гравець").count() == 1


def test_a_duplicate_name_is_refused_under_the_field(client, alice, tournament, regs):
    client.force_login(alice)
    url = reverse("arbiter:players", args=[tournament.slug])
    name = regs[0].player.name
    response = client.post(url, {"form": "player", "name": f"  {name.upper()} ", "club": "X"})
    page = response.content.decode()
    assert response.status_code == 200 and "already registered in this tournament" in page
    assert re.search(r'id="id_name".*?errorlist.*?already registered', page, re.S)
    assert 'value="X"' in page
    assert tournament.registrations.count() == 4


# -- bug 13: logout -----------------------------------------------------------------------------------------


def test_logout_goes_to_our_login_page(client, alice):
    client.force_login(alice)
    response = client.post(reverse("logout"), follow=True)
    page = response.content.decode()
    assert response.redirect_chain and response.redirect_chain[-1][0].startswith(reverse("login"))
    assert "quality time" not in page and "Django" not in page
    assert "You are logged out." in page


# -- short names -----------------------------------------------------------------------------------------------


def create_form(lexicon_row, **extra):
    return {"name": "Кубок Полтави", "slug": "", "ruleset": "en", "lexicon": lexicon_row.pk,
            "seconds_per_move": 180, "grace_seconds": 10, "convention": "duplicate", "solo_mode": "auto",
            "solo_bonus": 10, "free_warnings": 2, "free_warnings_fast": 5, "warning_penalty": 5, "tie_break": "none",
            "language": "uk", **extra}


def test_cyrillic_names_make_latin_short_names(client, alice, lexicon_row):
    client.force_login(alice)
    url = reverse("arbiter:tournament_create")
    assert client.post(url, create_form(lexicon_row)).status_code == 302
    assert Tournament.objects.filter(slug="kubok-poltavy").exists()
    # the same name again: a suffix, since the short name was made, not typed
    assert client.post(url, create_form(lexicon_row)).status_code == 302
    assert Tournament.objects.filter(slug="kubok-poltavy-2").exists()
    client.post(url, create_form(lexicon_row, name="Чемпіонат України 2026"))
    assert Tournament.objects.filter(slug="chempionat-ukrainy-2026").exists()
    client.post(url, create_form(lexicon_row, name="Турнир «Щука» — Ёлки"))
    assert Tournament.objects.filter(slug="turnir-shchuka-yolki").exists()
    client.post(url, create_form(lexicon_row, name="Żółć Łódź"))
    assert Tournament.objects.filter(slug="zolc-lodz").exists()


def test_a_typed_short_name_that_is_taken_is_shown_filled_in(client, alice, lexicon_row, tournament):
    client.force_login(alice)
    response = client.post(reverse("arbiter:tournament_create"), create_form(lexicon_row, slug=tournament.slug))
    page = response.content.decode()
    assert response.status_code == 200 and "This short name is taken" in page
    assert re.search(rf'name="slug"[^>]*value="{tournament.slug}-2"', page), "a free short name proposed"
    assert Tournament.objects.count() == 1


# -- favicon -------------------------------------------------------------------------------------------------------


def test_favicon(client, alice):
    response = client.get("/favicon.ico")
    assert response.status_code in (200, 301, 302)
    page = client.get(reverse("login")).content.decode()
    assert 'rel="icon"' in page and "favicon.svg" in page
