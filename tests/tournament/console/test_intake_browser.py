"""Issue 14, in the browser: paper slips typed at speed in a Ukrainian tournament (the table's player shown as
its number is typed, refusals next to the field, a replacement confirmed with Enter), the players page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from lexicon.models import Lexicon
from tests.tools.browser import SHOTS, arbiter_page
from tournament import services
from tournament.models import Slip

pytestmark = [pytest.mark.django_db(transaction=True)]

NAMES = ("Іван Петренко", "Олена Коваль", "Марія Шевченко", "Богдан Зінченко-Ярошевський")


@pytest.fixture
def uk_hall(alice, eager):
    lexicon = Lexicon.objects.create(name="uk-test", ruleset="uk", status=Lexicon.Status.READY, version=1,
                                     content_hash="1" * 64, file_path="none.kwg")
    t = services.tournaments.create_tournament(alice, name="Кубок Полтави", slug="kubok-poltavy", ruleset="uk",
                                               lexicon=lexicon, arbiters=[alice], language="uk")
    regs = [services.players.register_player(alice, t, name=n, club="Полтава")[0] for n in NAMES]
    game = services.games.create_game(alice, t, prepared_racks=["МОРИСТУ", "АБВГДЕЖ"])
    with eager(execute=False):  # the solver of the tests knows English words only: the rack stays unsolved
        rnd = services.rounds.draw_round(alice, game)
        services.rounds.open_round(alice, rnd)
    return t, regs, rnd


def test_paper_slips_at_speed_in_ukrainian(chromium, live_server, alice, uk_hall):
    t, regs, rnd = uk_hall
    services.slips.submit_slip(rnd, regs[1], word="МОРИСТУ", coordinates="Н2", score=70)
    page = arbiter_page(chromium, live_server, alice, language="uk", width=1366, height=768)
    page.goto(page.base + reverse("arbiter:slips", args=[t.slug, 1]))
    assert page.evaluate("document.activeElement.id") == "id_table"
    page.keyboard.type("1")
    assert page.inner_text("#table-name").endswith(f"1: {NAMES[0]}")
    page.keyboard.type("7")
    assert page.locator("#table-name.unknown").count() == 1
    page.keyboard.press("Backspace")
    for text in ("МОРИСТУ", "Н16", "70"):
        page.keyboard.press("Tab")
        page.keyboard.type(text)
    page.keyboard.press("Enter")
    page.wait_for_selector("#id_coordinates[aria-invalid=true]")
    assert page.input_value("#id_word") == "МОРИСТУ" and page.input_value("#id_coordinates") == "Н16"
    assert page.evaluate("document.activeElement.id") == "id_coordinates"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "intake-slips-refused-uk-1366.png"), full_page=True)
    page.fill("#id_coordinates", "Н2")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "id_table"
    assert Slip.objects.get(round=rnd, registration=regs[0]).coordinates == "Н2"

    page.keyboard.type("2")  # a slip for a table that has one: confirmation, showing it
    assert "МОРИСТУ" in page.inner_text("#table-name")
    for text in ("МОРИСТ", "8Н", "24"):
        page.keyboard.press("Tab")
        page.keyboard.type(text)
    page.keyboard.press("Enter")
    page.wait_for_selector("#replace-button")
    assert "Н2 МОРИСТУ 70" in page.inner_text(".replace-box")
    assert page.evaluate("document.activeElement.id") == "replace-button"
    page.screenshot(path=str(SHOTS / "intake-slips-replace-uk-1366.png"), full_page=True)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'id_table'")
    assert Slip.objects.get(round=rnd, registration=regs[1], is_current=True).word == "МОРИСТ"
    page.screenshot(path=str(SHOTS / "intake-slips-uk-1366.png"), full_page=True)
    assert page.js_errors == []


def test_players_page_in_ukrainian(chromium, live_server, alice, uk_hall):
    t, _regs, _rnd = uk_hall
    page = arbiter_page(chromium, live_server, alice, language="uk", width=1366, height=768)
    url = page.base + reverse("arbiter:players", args=[t.slug])
    page.goto(url)
    page.fill("#id_name", "Нова Гравчиня")
    page.click("form:has(input[value=player]) button[type=submit]")
    page.wait_for_selector(".codes")
    assert page.url == url and "(5)" in page.inner_text("h1")
    page.screenshot(path=str(SHOTS / "intake-players-uk-1366.png"), full_page=True)
    page.reload()
    assert page.locator(".codes td.code").count() == 5 and t.registrations.count() == 5  # until handed out
    page.fill("#id_name", "олена  коваль")
    page.click("form:has(input[value=player]) button[type=submit]")
    page.wait_for_selector("#id_name[aria-invalid=true]")
    page.screenshot(path=str(SHOTS / "intake-players-duplicate-uk-1366.png"), full_page=True)
    assert t.registrations.count() == 5 and page.js_errors == []
