"""``./hall screenshots`` for one language, into a temporary folder: every screenshot the guides reference is
written, small, of its size, and every page it shows speaks the hall's language (``tests/tools/seen.py``)."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.utils.translation import get_language_info
from PIL import Image

from tests.tools.seen import foreign_words, latin_coordinates, wrong_plurals

from .camera import HALLS, MORE_PLAYERS, NAMES, SCREEN, TABLET, Camera
from .play import photograph

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The guides ask for files of at most about 150 kB.
MAX_BYTES = 150_000


def test_the_screenshots_of_a_ukrainian_hall(chromium, live_server, alice, eager, monkeypatch, settings, tmp_path):
    language = "uk"
    camera = Camera(chromium, live_server, tmp_path / language / "img")
    photograph(language, camera, alice, monkeypatch, settings)
    assert sorted(p.name for p in camera.folder.iterdir()) == sorted(f"{name}.png" for name in NAMES)
    spec = HALLS[language]
    names = (spec.name, spec.venue, spec.club, *spec.players, *MORE_PLAYERS[language],
             *(get_language_info(code)["name_local"] for code, _name in django_settings.LANGUAGES))
    problems = []
    for name, shot in camera.shots.items():
        width, height = Image.open(shot.path).size
        expected = TABLET if name.startswith(("tablet", "training")) else SCREEN
        if width != expected[0] or height > expected[1]:
            problems.append(f"{name}: {width}×{height}, not within {expected[0]}×{expected[1]}")
        if shot.path.stat().st_size > MAX_BYTES:
            problems.append(f"{name}: {shot.path.stat().st_size} bytes")
        if shot.lang != language:
            problems.append(f"{name}: the page's language is {shot.lang!r}")
        problems += [f"{name}: {p}" for p in latin_coordinates(shot.text) + foreign_words(shot.text, language, names)
                     + wrong_plurals(shot.text, language)]
    assert not problems, "\n".join(problems)
