"""Issue 34, defect 1: what a page gives its coordinate inputs' script (static/js/coords.js) — the echo's texts in
the page's language, and on the paper slip page (no board) the tournament's rows and conventions."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from lexicon.models import Lexicon
from tournament import services

pytestmark = pytest.mark.django_db


def json_block(html: str, block: str) -> dict:
    match = re.search(rf'<script id="{block}" type="application/json">(.*?)</script>', html, re.S)
    assert match, f"no {block} block"
    return json.loads(match.group(1))


@pytest.fixture
def kubok(alice, eager):
    lexicon = Lexicon.objects.create(name="uk-echo", ruleset="uk", status=Lexicon.Status.READY, version=1,
                                     content_hash="3" * 64, file_path="none.kwg")
    t = services.tournaments.create_tournament(alice, name="Кубок", slug="kubok", ruleset="uk", lexicon=lexicon,
                                               arbiters=[alice], language="uk")
    services.players.register_player(alice, t, name="Іван Петренко")
    game = services.games.create_game(alice, t, prepared_racks=["МОРИСТУ"])
    with eager(execute=False):
        services.rounds.open_round(alice, services.rounds.draw_round(alice, game))
    return t


def test_every_screen_has_the_echo_texts_in_its_language(client, kubok):
    texts = json_block(client.get(f"/display/{kubok.slug}/").content.decode(), "coord-texts")
    assert set(texts) == {"across", "down", "bad", "no_letter"}
    assert texts["across"] == "%(coord)s — рядок %(row)s, стовпець %(col)s, по горизонталі"
    assert "%(typed)s" in texts["no_letter"] and "немає літери" in texts["no_letter"]


def test_the_paper_slip_page_gives_its_script_the_tournaments_rows(alice, kubok):
    console = Client()
    console.force_login(alice)
    console.cookies["django_language"] = "en"  # the arbiter reads English: the rows stay the tournament's
    html = console.get(reverse("arbiter:slips", args=[kubok.slug, 1])).content.decode()
    config = json_block(html, "coord-config")
    assert config == {"rows": list("АБВГДЕЖЗИКЛМНОП"), "cols": [str(n) for n in range(1, 16)],
                      "convention": "duplicate", "cyrillic": True, "cyrillic_input": True}
    assert json_block(html, "coord-texts")["across"] == "%(coord)s — row %(row)s, column %(col)s, horizontal"


def test_a_saved_paper_slip_is_confirmed_with_its_row_letter_marked(alice, kubok):
    console = Client()
    console.force_login(alice)
    url = reverse("arbiter:slips", args=[kubok.slug, 1])
    answer = console.post(url, {"table": "1", "word": "УМИТО", "coordinates": "h9", "score": "20", "key": "k1"},
                          follow=True)
    flash = answer.content.decode().split('<ul class="messages">')[1].split("</ul>")[0]
    assert '<span class="coord-letter">З</span>9 УМИТО 20' in flash, flash  # a Latin h9 is the row З
