"""Training pages in the hall's language on a stranger's device: a browser that speaks English in a server whose
halls all speak Ukrainian gets Ukrainian pages, and a tournament game's title is said in the page's language
whatever the language of the page that first offered it to training."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

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
