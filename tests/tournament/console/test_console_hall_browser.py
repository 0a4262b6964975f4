"""Issue 34, the arbiter's console as a hall's arbiter reads it in Chromium: a Ukrainian tournament with a long name
in Europe/Kyiv, the server in Europe/Warsaw, the browser in en-US and America/New_York, at laptop (1366×768), tablet
(800×1280) and phone (390×844) sizes. The menu stays on one line (the long name cut with an ellipsis, whole in its
title), labels start with a capital letter, the keys read as combinations, the summary names the time zone, the
late slips are counted apart as they come. Screenshots go to ``SHOTS``."""

from __future__ import annotations

import zoneinfo

import pytest
from django.urls import reverse

from lexicon import services as lexicon_services
from lexicon.models import forget_graphs
from tests.paths import ROOT
from tests.tools.browser import SHOTS, arbiter_page
from tournament import services

pytestmark = [pytest.mark.django_db]

LONG_NAME = "Відкритий кубок Полтавської області з подвійного скрабла пам'яті Івана Котляревського"
SIZES = {"laptop": (1366, 768), "tablet": (800, 1280), "phone": (390, 844)}
ELSEWHERE = {"locale": "en-US", "timezone_id": "America/New_York"}


#: Each hall's language, time zone and what its pages say.
HALLS = {
    "uk": {"zone": "Europe/Kyiv", "time_zone_row": "Часовий пояс\tEurope/Kyiv", "kb": " КБ)", "not": "Кб",
           "keys": "Клавіші: Alt+D Витягнути · Alt+O Почати", "received": "Отримано бланків 3 / 12 · 1 бланк із запізненням",
           "in_play": "Партія 1: хід 1 — закрито."},
    "ru": {"zone": "Asia/Yekaterinburg", "time_zone_row": "Часовой пояс\tAsia/Yekaterinburg", "kb": " КБ)",
           "not": "Кб", "keys": "Клавиши: Alt+D Вытянуть · Alt+O Начать",
           "received": "Получено бланков 3 / 12 · 1 бланк с опозданием", "in_play": "Партия 1: ход 1 — закрыт."},
}


@pytest.fixture
def kyiv_hall(alice, eager, settings, tmp_path, request):
    """A tournament of 12 players in Ukrainian (Kyiv time) or, ``hall_language`` "ru", in Russian (Yekaterinburg
    time); the server in Warsaw: game 1's round 1 closed with 4 slips, one of them late; an automatic backup."""
    language = getattr(request, "param", "uk")
    settings.TIME_ZONE = "Europe/Warsaw"
    settings.LEXICON_DIR = tmp_path / "lexicons"
    settings.LEXICON_DIR.mkdir()
    settings.BACKUP_DIR = tmp_path / "stick"
    settings.BACKUP_SECONDS = 180
    forget_graphs()
    lexicon = lexicon_services.import_wordlist("en-club", "en", ROOT / "fixtures" / "lexicons" / "judge-en.txt")
    alice.is_staff = True
    alice.save()
    t = services.tournaments.create_tournament(alice, name=LONG_NAME, slug="poltava", ruleset="en", lexicon=lexicon,
                                               arbiters=[alice], language=language,
                                               time_zone=HALLS[language]["zone"], coordinate_script="cyrillic")
    regs = [services.players.register_player(alice, t, name=f"Гравець {n}")[0] for n in range(1, 13)]
    game = services.games.create_game(alice, t, seed=5)
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game, typed_rack="CATSROE")
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    for reg in regs[:3]:
        services.slips.submit_slip(rnd, reg, word="CARTS", coordinates="H4", score=20)
    services.rounds.close_round(rnd, alice, force=True)
    services.slips.submit_slip(rnd, regs[3], word="CARTS", coordinates="H4", score=20)  # late
    from tournament.backup import automatic

    automatic.back_up(t, reason="periodic")
    yield t, regs, rnd
    forget_graphs()


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def one_line_menu(page, whole: bool) -> None:
    """The menu's links on one line (a long menu scrolls sideways; ``whole``: none hidden), the tournament's link
    cut but there."""
    tops = page.eval_on_selector_all("header.topbar nav a", "links => links.map(a => a.getBoundingClientRect().top)")
    assert max(tops) - min(tops) < 2, tops
    name = page.locator("header.topbar nav a.tournament-name")
    assert name.get_attribute("title") == LONG_NAME and name.bounding_box()["width"] > 60
    if whole:
        assert page.eval_on_selector("header.topbar nav", "nav => nav.scrollWidth - nav.clientWidth") <= 0


def fits(page) -> None:
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')].filter(e => !e.closest('nav')
        && e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))""")
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0, (page.url, wide)


def print_codes_only(page) -> None:
    """"Print this list" prints the codes' card alone, every code of it (no scrolling box cuts the list)."""
    page.evaluate("""() => { window.print = () => {
        window.printed = [document.body.classList.contains('print-one'),
                          document.getElementById('codes').classList.contains('print-this')]; }; }""")
    page.click("#codes button[data-print=codes]")
    assert page.evaluate("window.printed") == [True, True]
    assert not page.evaluate("document.body.classList.contains('print-one')")  # the page as it was after
    page.evaluate("() => { document.body.classList.add('print-one'); "
                  "document.getElementById('codes').classList.add('print-this'); }")
    page.emulate_media(media="print")
    try:
        assert page.locator("main > .panel").is_hidden() and page.locator("#codes").is_visible()
        assert page.locator("#codes tbody tr").last.is_visible()
        assert page.eval_on_selector("#codes .scroll", "box => box.scrollHeight - box.clientHeight") <= 0
        assert page.locator("#codes button").first.is_hidden()  # no button on paper
    finally:
        page.emulate_media(media="screen")
        page.evaluate("() => { document.body.classList.remove('print-one'); }")


def capital_labels(page) -> None:
    labels = [t.strip() for t in page.locator("main label").all_inner_texts() if t.strip()]
    lower = [t for t in labels if next((c for c in t if c.isalpha()), "A").islower()]
    assert not lower, (page.url, lower)


@pytest.mark.parametrize(("kyiv_hall", "sizes"), [("uk", ("laptop", "tablet", "phone")), ("ru", ("laptop", "tablet"))],
                         indirect=["kyiv_hall"])
def test_the_console_pages_of_a_cyrillic_hall(chromium, live_server, alice, kyiv_hall, sizes):
    t, regs, rnd = kyiv_hall
    said = HALLS[t.language]
    pages = {"overview": reverse("arbiter:tournament", args=[t.slug]),
             "players": reverse("arbiter:players", args=[t.slug]),
             "game": reverse("arbiter:game", args=[t.slug, 1]),
             "slips": reverse("arbiter:slips", args=[t.slug, 1]),
             "review": reverse("arbiter:review", args=[t.slug, 1]),
             "new": reverse("arbiter:tournament_create")}
    zone = zoneinfo.ZoneInfo(said["zone"])
    for size in sizes:
        width, height = SIZES[size]
        page = arbiter_page(chromium, live_server, alice, language=t.language, width=width, height=height, **ELSEWHERE)
        for name, path in pages.items():
            page.goto(page.base + path)
            page.wait_for_load_state("networkidle")
            shoot(page, f"console-{name}-{t.language}-{size}")
            if name != "new":
                one_line_menu(page, whole=size == "laptop")
            fits(page)
            capital_labels(page)
            text = page.inner_text("main")
            if name == "overview":
                assert said["time_zone_row"] in text and said["kb"] in text and said["not"] not in text
            elif name == "players":
                assert page.locator("#codes td.code").count() == 12
                if size == "laptop":
                    print_codes_only(page)
            elif name == "game":
                assert said["keys"] in " ".join(text.split()).replace(" + ", "+")
                assert said["received"] in text
                first = rnd.slips.order_by("received_at").first().received_at.astimezone(zone).strftime("%H:%M:%S")
                assert first in page.inner_text("#live-rows")  # the hall's time, not the browser's nor the server's
        # a second game while the first is played: the arbiter is asked first
        page.goto(page.base + pages["overview"])
        page.click("#new-game summary")
        page.click("#new-game button[type=submit]")
        page.wait_for_selector("#games-in-play")
        assert said["in_play"] in page.inner_text("#games-in-play")
        fits(page)
        shoot(page, f"console-new-game-warning-{t.language}-{size}")
        assert t.games.count() == 1
        assert page.js_errors == []
        page.context.close()


def test_late_slips_come_into_the_live_count_as_they_arrive(chromium, live_server, alice, kyiv_hall):
    t, regs, rnd = kyiv_hall
    page = arbiter_page(chromium, live_server, alice, language="uk", width=800, height=1280, **ELSEWHERE)
    page.goto(page.base + reverse("arbiter:game", args=[t.slug, 1]))
    assert page.inner_text("#live-late").strip() == "· 1 бланк із запізненням"
    services.slips.submit_slip(rnd, regs[4], word="CARTS", coordinates="H4", score=20)  # a second one, late
    page.wait_for_function("() => document.querySelector('#live-late').textContent.includes('2 ')", timeout=8_000)
    assert page.inner_text("#live-late").strip() == "· 2 бланки із запізненням"
    assert page.inner_text("#live-late-list") == "4\u20135" and page.inner_text("#live-missing") == "6\u201312"
    assert page.inner_text("#live-count") == "3"
    shoot(page, "console-game-late-uk-tablet")
    assert page.js_errors == []
    page.context.close()


def test_the_lexicon_being_built_is_chosen_once_ready(chromium, live_server, alice, kyiv_hall, settings):
    """The new-tournament form follows the build of the uk lexicon and chooses it when the worker is done."""
    from lexicon import tasks as lexicon_tasks
    from lexicon.models import Lexicon

    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkey = pytest.MonkeyPatch()
    monkey.setattr(lexicon_tasks, "enqueue_build", lambda pk: None)  # the worker: this test
    try:
        page = arbiter_page(chromium, live_server, alice, language="uk", width=1366, height=768, **ELSEWHERE)
        page.goto(page.base + reverse("arbiter:tournament_create"))
        page.fill("#id_name", "Кубок Полтави")
        page.select_option("#id_ruleset", "uk")
        page.click("button[name=build_lexicon][value=uk]")
        page.wait_for_selector("[data-lexicon-status]")
        assert page.input_value("#id_name") == "Кубок Полтави" and page.input_value("#id_ruleset") == "uk"
        row = Lexicon.objects.get(ruleset="uk")
        Lexicon.objects.filter(pk=row.pk).update(status=Lexicon.Status.BUILDING, progress=40)
        page.wait_for_function("() => document.querySelector('[data-lexicon-status]').textContent.includes('40')")
        shoot(page, "console-new-building-uk-laptop")
        Lexicon.objects.filter(pk=row.pk).update(status=Lexicon.Status.READY, progress=100, version=1,
                                                 word_count=5, content_hash="2" * 64, file_path="none.kwg")
        page.wait_for_function(f"() => document.querySelector('#id_lexicon').value === '{row.pk}'")
        assert "Словник uk v1 готовий і вибраний у формі." in page.inner_text("[data-lexicon-status]")
        assert "Для правил uk — Українська словника поки немає." not in page.inner_text("main")
        assert page.locator(f"#id_lexicon option[value='{row.pk}']").inner_text() == "uk v1 (uk, 5)"
        shoot(page, "console-new-built-uk-laptop")
        assert page.js_errors == []
        page.context.close()
    finally:
        monkey.undo()
