"""Training pages in the hall's language on a stranger's device: a browser that speaks English in a server whose
halls all speak Ukrainian gets Ukrainian pages, and a tournament game's title is said in the page's language
whatever the language of the page that first offered it to training."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.judge import SlipParts
from tests.tools.pagetext import visible_text
from tournament.training import services

pytestmark = pytest.mark.django_db


def test_the_index_speaks_the_halls_language_to_an_english_browser(client, finished_game, tournament):
    tournament.language = "uk"
    tournament.save()
    page = client.get(reverse("training:index"), HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    assert page["Content-Language"] == "uk"
    assert "Тренування" in visible_text(page.content.decode())


def test_the_browser_decides_when_the_halls_speak_several_languages(client, finished_game, tournament, alice,
                                                                    lexicon_row):
    from tournament import services as domain

    tournament.language = "uk"
    tournament.save()
    domain.tournaments.create_tournament(alice, name="Open", slug="open-pl", ruleset="en", lexicon=lexicon_row,
                                         language="pl")
    page = client.get(reverse("training:index"), HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    assert page["Content-Language"] == "en"


def test_a_tournament_games_title_in_the_pages_language(client, finished_game, tournament):
    game, _regs = finished_game
    with translation.override("en"):  # first offered to training by an English page
        training = services.from_tournament_game(game)
    run = services.start_run(training, "Тарас")
    page = client.get(reverse("training:run", args=[run.code]) + "?lang=uk")
    text = visible_text(page.content.decode())
    assert f"{tournament.name}, партія {game.number}" in text
    assert f"{tournament.name}, game" not in text


def test_the_letter_of_every_coordinate_is_drawn_apart(client, finished_game, tournament):
    """A training page of a hall that writes its rows in Cyrillic: the slip, the top and the best moves, their
    row letter marked (a row З is never read as the digit 3)."""
    game, _regs = finished_game
    tournament.coordinate_script = "cyrillic"
    tournament.save()
    game.refresh_from_db()
    run = services.next_round(services.start_run(services.from_tournament_game(game), "Тарас"))
    services.hand_in(run, SlipParts("CARTS", "H4", 20))
    page = client.get(reverse("training:run", args=[run.code]) + "?lang=uk").content.decode()
    assert '<span class="coord-letter">З</span>4 CARTS 20' in page  # the slip
    assert '<strong id="top-move"><span class="coord-letter">З</span>4 CARTS</strong>' in page
    assert page.count('<span class="coord-letter">') >= 5  # the explanation and the best moves too
