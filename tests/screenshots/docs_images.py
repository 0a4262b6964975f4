"""What ``./hall screenshots`` runs (a pytest module outside the suite: its name is not ``test_*``): each language's
screenshots into ``SCREENSHOTS_DIR/<language>/img/`` (the checkout's ``docs/``), for the languages of
``SCREENSHOT_LANGUAGES`` (all five by default)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.paths import ROOT

from .camera import LANGUAGES, NAMES, Camera
from .play import photograph

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUT = Path(os.environ.get("SCREENSHOTS_DIR", ROOT / "docs"))


@pytest.mark.parametrize("language", os.environ.get("SCREENSHOT_LANGUAGES", " ".join(LANGUAGES)).split())
def test_the_documentation_s_screenshots(language, chromium, live_server, alice, eager, monkeypatch, settings):
    assert language in LANGUAGES, f"{language!r} is none of {LANGUAGES}"
    camera = Camera(chromium, live_server, OUT / language / "img")
    photograph(language, camera, alice, monkeypatch, settings)
    assert sorted(camera.shots) == sorted(NAMES)
