"""The lexicon pages and the audit log in the browser, in Ukrainian at laptop size: the console's menu, no
overflow, no script error, nothing in English of ours. Screenshots go to ``SHOTS``."""

from __future__ import annotations

import pytest

from lexicon import services as lexicon_services
from lexicon.models import forget_graphs
from tests.paths import ROOT
from tests.tools.browser import SHOTS, arbiter_page
from tests.tools.pagetext import english_sentences
from tests.tools.world import judged_first_round
from tournament import services
from tournament.models import Verdict

pytestmark = [pytest.mark.django_db]

LAPTOP = {"width": 1366, "height": 768}


@pytest.fixture
def ukrainian(alice, eager, settings, tmp_path):
    """A Ukrainian tournament (Kyiv time, Cyrillic rows) over a real word list; round 1 judged, one verdict
    overridden, published."""
    settings.LEXICON_DIR = tmp_path / "lexicons"
    settings.LEXICON_DIR.mkdir()
    forget_graphs()
    lexicon = lexicon_services.import_wordlist("en-club", "en", ROOT / "fixtures" / "lexicons" / "judge-en.txt")
    alice.is_staff = True
    alice.save()
    t = services.tournaments.create_tournament(alice, name="Кубок Полтави", slug="kubok", ruleset="en",
                                               lexicon=lexicon, arbiters=[alice], language="uk",
                                               time_zone="Europe/Kyiv", coordinate_script="cyrillic")
    rnd, _players = judged_first_round(alice, t, eager, ("H4 CARTS 20", "CAST 12"), names=("Олена", "Петро"))
    verdict = Verdict.objects.filter(round=rnd).order_by("registration__table_number").first()
    services.judging.override_verdict(alice, verdict, awarded=7, warning=False, why="бланк під столом")
    rnd.refresh_from_db()
    services.rounds.publish_round(alice, rnd)
    yield t
    forget_graphs()


def look(page, path: str, name: str) -> str:
    """Opens ``path``, checks the page fits the laptop's width, saves a screenshot; returns the HTML."""
    page.goto(page.base + path)
    page.wait_for_load_state("networkidle")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, (path, overflow)
    assert not page.js_errors, page.js_errors
    assert page.locator("header.topbar form[action='/arbiter/logout/'] button").is_visible()
    assert page.locator("#lang-select").is_visible()
    return page.content()


def test_lexicon_pages_and_audit_log_in_ukrainian(chromium, live_server, alice, ukrainian):
    page = arbiter_page(chromium, live_server, alice, language="uk")
    page.set_viewport_size(LAPTOP)
    slug = ukrainian.slug
    audit = look(page, f"/arbiter/t/{slug}/audit/", "audit-uk-laptop")
    assert "{" not in page.locator("table.audit").inner_text()
    assert english_sentences(audit, allowed=("judge-en", "en-club")) == []

    # from the tournament's menu to the word check: the tournament's list, said so
    page.click("header.topbar nav a[href^='/arbiter/lexicons/check/']")
    page.wait_for_load_state("networkidle")
    assert "en-club v1" in page.locator("#lexicon-in-use").inner_text()
    assert "Кубок Полтави" in page.locator("#lexicon-in-use").inner_text()
    page.fill("#id_words", "carts xyzzy")
    page.click("form.check-form button[type=submit]")
    page.wait_for_load_state("networkidle")
    assert page.locator(".verdict.valid").count() == 1 and page.locator(".verdict.invalid").count() == 1
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "lexicon-check-uk-laptop.png"), full_page=True)

    lexicons = look(page, "/arbiter/lexicons/", "lexicon-list-uk-laptop")
    assert english_sentences(lexicons, allowed=("en-club en", "en-club")) == []
    look(page, f"/arbiter/lexicons/{ukrainian.lexicon_id}/", "lexicon-detail-uk-laptop")
    look(page, "/arbiter/lexicons/upload/", "lexicon-upload-uk-laptop")
    # the file field speaks the page's language, not the browser's ("Choose File")
    assert page.locator("label.file-choose").inner_text() == "Вибрати файл…"
    page.set_input_files("#id_file", files=[{"name": "слова.txt", "mimeType": "text/plain", "buffer": b"cat\n"}])
    assert page.locator(".file-name").inner_text() == "слова.txt"
    page.screenshot(path=str(SHOTS / "lexicon-upload-file-uk-laptop.png"))
    # the way back
    page.click("nav.subnav a.back")
    page.wait_for_load_state("networkidle")
    assert page.url.endswith(f"/arbiter/t/{slug}/")
