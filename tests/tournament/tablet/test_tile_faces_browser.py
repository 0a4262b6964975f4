"""A tile's value never touches its letter (issue 34: on the blank picker's small tiles the "10" of Щ ran into the
letter's tail). The tablet of a Russian and a Ukrainian hall, in Chromium at tablet, laptop and phone size: every
letter of the hall's tile set typed into the slip (the picker's tiles, each as a tile and as a blank), the same
letters on the rack and on the board; then every tile of the other rule sets (pl, fr, en) the same way; and the hall
display's rack and board on a 16:9 and a 4:3 projector. The check is
made on the pixels: each tile photographed with its value hidden, with its letter hidden and with both hidden;
the value's ink must keep at least a pixel away from the letter's. Screenshots go to ``SHOTS``."""

from __future__ import annotations

import io
import re

import pytest

from scoring.rules import get_ruleset
from tests.tools.browser import SHOTS, new_page
from tests.tournament.tablet.test_game_end_browser import DEVICE, topping_hall  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = ((800, 1280), (1366, 768), (390, 844))
#: A pixel is ink when one of its channels differs from the bare tile's by more than this.
INK = 90

#: The tiles ``tiles`` ([letter, blank, value or null for the hall's own]) drawn as the page draws them (board.js
#: tile) on the board's squares (the others emptied) and, ``picker``, on the blank picker (else the slip's own tiles
#: stay); ``racked`` on the rack (#rack; ``eight``: a 7-among-8 game's smaller tiles; a tablet's line wraps to hold
#: them all). ``config``: the page's JSON config.
PLACE = """([tiles, racked, eight, picker, config]) => {
    const D = window.Duplicate, own = JSON.parse(document.getElementById(config).textContent).board;
    const face = ([letter, blank, value]) => D.board.tile(value === null ? own : Object.assign({}, own,
        {values: {[letter]: value}, colours: {}}), letter, blank);
    const rack = document.getElementById('rack');
    rack.innerHTML = '';
    rack.hidden = false;
    rack.classList.toggle('eight', eight);
    rack.style.flexWrap = 'wrap';
    racked.forEach(t => rack.appendChild(face(t)));
    const squares = [...document.querySelectorAll('#board .sq')];
    squares.forEach(sq => { sq.innerHTML = ''; sq.classList.remove('has-tile', 'new'); });
    tiles.forEach((t, i) => { squares[i].classList.add('has-tile'); squares[i].appendChild(face(t)); });
    if (picker) {
        const box = document.getElementById('blank-tiles');
        box.innerHTML = '';
        tiles.forEach(t => box.appendChild(face(t)));
    }
}"""
#: The slip's word typed at once, as many letters as it takes (the field keeps 20 when typed by hand).
TYPE = """word => { const input = document.getElementById('slip-word');
    input.value = word; input.dispatchEvent(new Event('input', {bubbles: true})); }"""
#: Each tile's box in the page (CSS pixels from the page's top left), by where it is.
BOXES = """() => Object.fromEntries(['#blank-tiles', '#rack', '#board'].filter(where => document.querySelector(where))
    .map(where =>
    [where, [...document.querySelectorAll(where + ' .tile')].map(t => {
        const r = t.getBoundingClientRect();
        return [t.querySelector('.l').textContent, Math.round(r.left + scrollX), Math.round(r.top + scrollY),
                Math.round(r.width), Math.round(r.height)];
    })]))"""
SHOW = """([letter, value]) => document.querySelectorAll('.tile').forEach(t => {
    t.querySelector('.l').style.visibility = letter ? '' : 'hidden';
    const v = t.querySelector('.v');
    if (v) v.style.visibility = value ? '' : 'hidden';
})"""


def photograph(page, letter: bool, value: bool):
    from PIL import Image

    page.evaluate(SHOW, [letter, value])
    return Image.open(io.BytesIO(page.screenshot(full_page=True))).convert("RGB")


def ink(image, bare):
    """The pixels (255) where ``image`` has ink that ``bare`` has not."""
    from PIL import ImageChops

    r, g, b = ImageChops.difference(image, bare).split()
    return ImageChops.lighter(ImageChops.lighter(r, g), b).point(lambda v: 255 if v > INK else 0)


def touching(page, what: str) -> list[str]:
    """Each tile of the picker, the rack and the board whose value's ink touches its letter's (or is none): the
    letter's ink grown by a pixel all round must not meet the value's."""
    from PIL import ImageChops, ImageFilter

    page.wait_for_timeout(100)
    boxes = page.evaluate(BOXES)
    bare, letters, values = photograph(page, False, False), photograph(page, True, False), photograph(page, False, True)
    both = photograph(page, True, True)
    drawn, value = ink(letters, bare), ink(values, bare)
    met = ImageChops.multiply(drawn.filter(ImageFilter.MaxFilter(3)), value)
    wrong = []
    for where, tiles in boxes.items():
        for letter, x, y, w, h in tiles:
            box = (x, y, x + w, y + h)
            if met.crop(box).getbbox() or not value.crop(box).getbbox() or not drawn.crop(box).getbbox():
                touched = met.crop(box).histogram()[255]
                wrong.append(f"{what}: {where} {letter!r}: {touched} px of its value touch it")
                name = re.sub(r"\W+", "-", f"{what} {where} {ord(letter)}")  # the tile, 8 times its size, to look at
                both.crop(box).resize((8 * w, 8 * h)).save(SHOTS / f"tile-touching-{name}.png")
    return wrong


@pytest.mark.parametrize("topping_hall", ["ru", "uk"], indirect=True)
def test_no_tile_value_touches_its_letter(chromium, live_server, topping_hall):  # noqa: F811
    t, _game, _rnd, code = topping_hall
    SHOTS.mkdir(parents=True, exist_ok=True)
    own = [letter for letter in get_ruleset(t.language).values if letter != "?"]
    others = [[letter, False, value] for language in ("pl", "fr", "en")
              for letter, value in get_ruleset(language).values.items() if letter != "?"]
    page = new_page(chromium, live_server, width=800, height=1280, **DEVICE)
    page.goto(f"{page.base}/tablet/login/?code={code}")
    page.wait_for_url(re.compile(r".*/tablet/$"))
    page.wait_for_selector("#status[data-phase=open]")
    wrong = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(TYPE, "".join(own))  # the picker: each letter as a tile
        assert page.locator("#blank-tiles .tile").count() == len(own)
        tiles = [[c, False, None] for c in own]
        page.evaluate(PLACE, [tiles, tiles, False, False, "tablet-config"])
        wrong += touching(page, f"{width}px")
        page.screenshot(path=str(SHOTS / f"tile-faces-{t.language}-{width}.png"), full_page=True)
        page.evaluate(TYPE, "".join(own).lower())  # each letter as a blank; a 7-among-8 game's rack
        page.evaluate(PLACE, [[[c, True, None] for c in own] + tiles, tiles, True, False, "tablet-config"])
        wrong += touching(page, f"{width}px, blanks and a rack of 8")
        page.evaluate(PLACE, [others, others, False, True, "tablet-config"])
        wrong += touching(page, f"{width}px, pl fr en")
    assert not wrong, "\n".join(wrong)
    assert page.js_errors == []


@pytest.mark.parametrize("topping_hall", ["ru", "uk"], indirect=True)
def test_no_tile_value_touches_its_letter_on_the_hall_display(chromium, live_server, topping_hall):  # noqa: F811
    """The hall display's board and rack (a rack of 7 and of 8), on a 16:9 and a 4:3 projector."""
    t, _game, _rnd, _code = topping_hall
    own = [[letter, False, None] for letter in get_ruleset(t.language).values if letter != "?"]
    others = [[letter, False, value] for language in ("pl", "fr", "en")
              for letter, value in get_ruleset(language).values.items() if letter != "?"]
    page = new_page(chromium, live_server, width=1920, height=1080, **DEVICE)
    page.goto(f"{page.base}/display/{t.slug}/")
    page.wait_for_selector("#rack .tile")
    # the rack's rows below the screen's end photographed too: the page may grow (the tiles keep their size)
    page.evaluate("() => { document.body.style.overflow = 'visible'; "
                  "document.querySelector('.dp-layout').style.height = 'auto'; }")
    wrong = []
    for width, height in ((1920, 1080), (1366, 768), (1024, 768)):
        page.set_viewport_size({"width": width, "height": height})
        for tiles, which in ((own, t.language), (others, "pl fr en")):
            for eight in (False, True):  # a rack of 7, a 7-among-8 game's of 8
                page.evaluate(PLACE, [tiles, tiles, eight, False, "display-config"])
                wrong += touching(page, f"display {width}px {which}{', a rack of 8' if eight else ''}")
        page.screenshot(path=str(SHOTS / f"tile-faces-display-{t.language}-{width}.png"))
    assert not wrong, "\n".join(wrong)
    assert page.js_errors == []
