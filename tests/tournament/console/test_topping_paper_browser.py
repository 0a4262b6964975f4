"""Topping in headless Chromium, the console in Russian on a browser set to en-US (New York): the arbiter types a
paper player's time with his slip's move; the round's table counts his attempt, and once the round is published
the standings show his time and his points. Screenshots at 1366×768 and 800×1280 in SHOTS_DIR."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tools.browser import SHOTS, arbiter_page
from tests.tools.world import PREPARED
from tournament import services
from tournament.models import Round
from tournament.services import topping

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_paper_players_time_and_points_on_the_console(chromium, live_server, alice, tournament, eager):
    SHOTS.mkdir(parents=True, exist_ok=True)
    tournament.language = "ru"
    tournament.save()
    tablet, paper = (services.players.register_player(alice, tournament, name=n)[0] for n in ("Анна", "Борис"))
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED, variant="topping")
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    start = timezone.now() - timedelta(seconds=30)
    Round.objects.filter(pk=rnd.pk).update(opened_at=start, deadline=start + timedelta(seconds=180))
    rnd.refresh_from_db()
    coord, word = rnd.top_moves[0]["move"].split()
    topping.attempt(rnd, tablet, "t1", word=word, coordinates=coord)
    page = arbiter_page(chromium, live_server, alice, language="ru", width=1366, height=768, locale="en-US",
                        timezone_id="America/New_York")
    page.goto(page.base + reverse("arbiter:times", args=[tournament.slug, game.number]))
    page.fill("#time-form [name=table]", str(paper.table_number))
    page.fill("#time-form [name=time]", "1:15")
    page.fill("#time-form [name=word]", word)  # round 1: the word
    page.click("#time-form button[type=submit]")
    page.wait_for_selector(f'#round-times tr[data-table="{paper.table_number}"]')
    row = page.inner_text(f'#round-times tr[data-table="{paper.table_number}"]').split()
    assert row[-2:] == ["1:15", "1"], row  # his time, one attempt
    page.screenshot(path=str(SHOTS / "topping-paper-times-ru-1366.png"), full_page=True)
    services.rounds.close_round(rnd, alice, force=True)
    services.judging.judge_round(rnd, alice)
    services.rounds.publish_round(alice, rnd)
    for width, height in ((1366, 768), (800, 1280)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(page.base + reverse("arbiter:standings", args=[tournament.slug]) + f"?game={game.number}")
        times = page.inner_text(f'#topping-standings tr[data-table="{paper.table_number}"]')
        assert "1:15" in times and times.split()[-1] == "1", times
        assert f"Борис\t\t{rnd.top_moves[0]['score']}\t" in page.inner_text("main"), page.inner_text("main")
        page.screenshot(path=str(SHOTS / f"topping-paper-standings-ru-{width}.png"), full_page=True)
    assert not page.js_errors
