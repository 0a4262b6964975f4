"""The console's paper-slip entry in Chromium, in each hall's language, at tablet and laptop widths (issue 34): each
field's label stays inside its own field and apart from the next one ("Координати:Бали:" and "КоординатыОчки:" ran
together at 800 px, a long label spilling over its neighbour). Screenshots go to ``SHOTS``."""

from __future__ import annotations

from itertools import pairwise

import pytest
from django.urls import reverse

from lexicon import services as lexicon_services
from lexicon.models import forget_graphs
from tests.paths import ROOT
from tests.tools.browser import SHOTS, arbiter_page
from tournament import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: A phone, a tablet, a small laptop, a laptop.
WIDTHS = ((390, 844), (800, 1280), (1024, 768), (1366, 768))
#: Room between two labels side by side, in CSS pixels.
APART = 6

LABELS = """() => [...document.querySelectorAll('#slip-form .entry label[for]')].map(label => {
    const text = document.createRange();
    text.selectNodeContents(label);
    const ink = text.getBoundingClientRect(), field = label.parentElement.getBoundingClientRect();
    return {text: label.innerText, left: ink.left, right: ink.right, top: ink.top, bottom: ink.bottom,
            fieldLeft: field.left, fieldRight: field.right, clipped: label.scrollWidth > label.clientWidth + 1};
})"""


@pytest.fixture
def hall(request, alice, eager, settings, tmp_path):
    """A tournament in ``request.param``'s language, Cyrillic rows for the Cyrillic ones; round 1 open."""
    language = request.param
    settings.LEXICON_DIR = tmp_path / "lexicons"
    settings.LEXICON_DIR.mkdir()
    forget_graphs()
    lexicon = lexicon_services.import_wordlist("en-club", "en", ROOT / "fixtures" / "lexicons" / "judge-en.txt")
    t = services.tournaments.create_tournament(
        alice, name="Кубок", slug=f"paper-{language}", ruleset="en", lexicon=lexicon, arbiters=[alice],
        language=language, coordinate_script="cyrillic" if language in ("uk", "ru") else "latin")
    for n in range(1, 4):
        services.players.register_player(alice, t, name=f"Гравець {n}")
    game = services.games.create_game(alice, t, seed=5)
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game, typed_rack="CATSROE")
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    yield t
    forget_graphs()


def apart(labels: list[dict]) -> list[str]:
    """What is wrong with the labels as laid out: a label out of its field, cut, or touching its neighbour."""
    wrong = []
    for label in labels:
        if label["clipped"]:
            wrong.append(f"{label['text']!r} is cut")
        if label["left"] < label["fieldLeft"] - 0.5 or label["right"] > label["fieldRight"] + 0.5:
            wrong.append(f"{label['text']!r} runs out of its field ({label['right']:.0f} > {label['fieldRight']:.0f})")
    for one, two in pairwise(labels):
        same_line = one["top"] < two["bottom"] and two["top"] < one["bottom"]
        if same_line and two["left"] - one["right"] < APART:
            wrong.append(f"{one['text']!r} and {two['text']!r} run together ({two['left'] - one['right']:.1f} px)")
    return wrong


@pytest.mark.parametrize("hall", ["uk", "ru", "pl", "fr", "en"], indirect=True)
def test_the_paper_entrys_labels_are_apart_at_every_width(chromium, live_server, alice, hall):
    SHOTS.mkdir(parents=True, exist_ok=True)
    t = hall
    page = arbiter_page(chromium, live_server, alice, language=t.language, width=800, height=1280,
                        locale="en-US", timezone_id="America/New_York")
    page.goto(page.base + reverse("arbiter:slips", args=[t.slug, 1]))
    page.fill("#id_table", "3")
    assert page.get_attribute("html", "lang") == t.language
    for width, height in WIDTHS:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)
        labels = page.evaluate(LABELS)
        assert len(labels) == 4, labels
        page.screenshot(path=str(SHOTS / f"console-paper-entry-{t.language}-{width}.png"))
        assert not apart(labels), (width, apart(labels))
        wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert wide <= 0, (width, wide)
    # a slip refused by the form: its reasons wrap under their fields, the labels stay apart
    page.set_viewport_size({"width": 800, "height": 1280})
    page.fill("#id_word", "CARTS")
    page.fill("#id_coordinates", "Ы99")
    page.fill("#id_score", "20")
    page.click("#save-button")
    page.wait_for_selector(".entry .errorlist")
    page.screenshot(path=str(SHOTS / f"console-paper-entry-error-{t.language}-800.png"))
    assert not apart(page.evaluate(LABELS))
    assert page.locator("#id_word").bounding_box()["width"] > 200
    assert page.js_errors == []
    page.context.close()
