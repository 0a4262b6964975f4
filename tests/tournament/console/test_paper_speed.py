"""Issue 14: paper entry at ≥ 20 slips a minute for a practised typist. Twenty slips are typed with the keyboard
alone (table, word, coordinates, score, Enter; the focus comes back to the table), and the time the page itself
takes is printed (run with ``-s``): what is left of the minute is the typist's."""

from __future__ import annotations

import time

import pytest
from django.urls import reverse

from lexicon.models import Lexicon
from tests.tools.browser import arbiter_page
from tournament import services
from tournament.models import Slip

pytestmark = [pytest.mark.django_db(transaction=True)]

SLIPS = 20


def test_twenty_paper_slips_by_keyboard_alone(chromium, live_server, alice, eager):
    lexicon = Lexicon.objects.create(name="uk-speed", ruleset="uk", status=Lexicon.Status.READY, version=1,
                                     content_hash="2" * 64, file_path="uk-speed.kwg")
    t = services.tournaments.create_tournament(alice, name="Швидкість", slug="shvydkist", ruleset="uk",
                                               lexicon=lexicon, arbiters=[alice], language="uk")
    regs = [services.players.register_player(alice, t, name=f"Гравець {n:02}")[0] for n in range(1, SLIPS + 5)]
    game = services.games.create_game(alice, t, prepared_racks=["МОРИСТУ"])
    with eager(execute=False):
        rnd = services.rounds.draw_round(alice, game)
        services.rounds.open_round(alice, rnd)
    page = arbiter_page(chromium, live_server, alice, language="uk", width=1366, height=768)
    page.goto(page.base + reverse("arbiter:slips", args=[t.slug, 1]))
    typed = 0
    started = time.perf_counter()
    for table in range(1, SLIPS + 1):
        assert page.evaluate("document.activeElement.id") == "id_table"
        keys = [str(table), "МОРИСТУ", "Н2" if table % 2 else "2Н", str(60 + table)]
        page.keyboard.type(keys[0])
        for text in keys[1:]:
            page.keyboard.press("Tab")
            page.keyboard.type(text)
        typed += sum(len(k) for k in keys) + len(keys)  # the texts, the Tabs and the Enter
        with page.expect_navigation():
            page.keyboard.press("Enter")
        page.wait_for_function("() => document.activeElement && document.activeElement.id === 'id_table'")
    elapsed = time.perf_counter() - started
    saved = Slip.objects.filter(round=rnd, is_current=True).count()
    assert saved == SLIPS
    assert {s.announced_score for s in Slip.objects.filter(round=rnd)} == {60 + n for n in range(1, SLIPS + 1)}
    print(f"\npaper entry: {SLIPS} slips, {typed} keys, {elapsed:.1f} s of page time "
          f"({elapsed / SLIPS:.2f} s a slip); at 20 slips a minute the typist has "
          f"{(60 - elapsed) / SLIPS:.2f} s a slip ({typed / SLIPS:.0f} keys)")
    assert page.js_errors == []
    del regs
