"""What the console writes for a Ukrainian or Russian hall where the values are data: the import page's example
line in the page's language, the audit log's values through their labels (a variant's name, the time per move as
"2:00", a rule set's name), a tablet slip's author named (the table and the player), and the reason a rack went
back into the bag in the page's language, never the engine's English."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from tests.tools.world import PREPARED
from tournament import services
from tournament.models import Tournament

pytestmark = [pytest.mark.django_db]


def hall(alice, lexicon_row, language: str) -> Tournament:
    return services.tournaments.create_tournament(alice, name="Кубок", slug=f"kubok-{language}", ruleset="en",
                                                  lexicon=lexicon_row, arbiters=[alice], language=language)


def visible(html: str) -> str:
    """The page's text as a person reads it (tags dropped, entities read)."""
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


@pytest.mark.parametrize("language, native, foreign", [
    ("uk", "Петренко Іван", ("Иванов", "Спартак", "Smith")),
    ("ru", "Иванов Иван", ("Петренко", "Smith")),
    ("pl", "Kowalski Jan", ("Иванов", "Smith")),
])
def test_the_import_example_line_is_in_the_pages_language(client, alice, lexicon_row, language, native, foreign):
    t = hall(alice, lexicon_row, language)
    client.force_login(alice)
    page = client.get(reverse("arbiter:import", args=[t.slug])).content.decode()
    placeholder = re.search(r'placeholder="([^"]*)"', page)
    assert placeholder is not None
    assert native in unescape(placeholder.group(1))
    assert not any(word in placeholder.group(1) for word in foreign)


def audit_text(client, t: Tournament) -> str:
    return visible(client.get(reverse("arbiter:audit", args=[t.slug])).content.decode())


def test_audit_values_are_shown_through_their_labels(client, alice, lexicon_row):
    t = hall(alice, lexicon_row, "uk")
    services.games.create_game(alice, t, prepared_racks=PREPARED, variant="joker", seconds_per_move=120)
    services.tournaments.update_tournament(alice, t, {"seconds_per_move": 60})
    client.force_login(alice)
    text = audit_text(client, t)
    assert "варіант: Джокер" in text and "joker" not in text
    assert "час на хід: 2:00" in text and "час на хід: 1:00" in text
    assert not re.search(r"час на хід: \d+\b(?!:)", text)
    assert "набір правил: en — English" in text or "en — English" in text


def test_a_tablet_slip_names_its_player_not_the_system(client, alice, lexicon_row, eager):
    t = hall(alice, lexicon_row, "uk")
    reg, _code = services.players.register_player(alice, t, name="Іван Петренко")
    game = services.games.create_game(alice, t, prepared_racks=PREPARED)
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    services.slips.submit_slip(rnd, reg, word="CARTS", coordinates="H4", score=20)  # the tablet: no user
    client.force_login(alice)
    page = client.get(reverse("arbiter:audit", args=[t.slug]) + "?action=slip").content.decode()
    row = visible(re.search(r'<tr data-action="slip.submit">.*?</tr>', page, re.S).group(0))
    assert "стіл 1 — Іван Петренко (планшет)" in row and "система" not in row


def test_a_rack_sent_back_says_why_in_the_pages_language(client, alice, lexicon_row, eager):
    t = hall(alice, lexicon_row, "uk")
    game = services.games.create_game(alice, t)
    with eager(execute=True):
        assert services.rounds.draw_round(alice, game, typed_rack="BCDFGHJ") is None  # no vowel: back in the bag
    client.force_login(alice)
    text = audit_text(client, t)
    assert "BCDFGHJ (замало голосних)" in text
    assert not re.search(r"rounds 1|a rack needs|vowel|consonant|relaxed", text)


def test_a_topping_time_reads_as_a_time(alice, lexicon_row):
    from django.utils import translation

    from tournament.console.audit import Presenter

    presenter = Presenter(hall(alice, lexicon_row, "uk"))
    with translation.override("uk"):
        assert presenter.field("slip.topping_time", "seconds") == "час топінгу"
        assert presenter.value("slip.topping_time", "seconds", 102) == "1:42"
        assert presenter.value("slip.topping_time", "seconds", None) == "—"
