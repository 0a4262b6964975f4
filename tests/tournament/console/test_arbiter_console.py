"""Arbiter console pages: access, CSV import, paper slips, round control through publish, load_demo."""

from __future__ import annotations

import io
import json
import re
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from tests.tools.browser import SHOTS, arbiter_page, page_scripts
from tests.tools.world import PREPARED, run_round
from tournament import gamestate, labels, services
from tournament.models import AuditLog, Player, Round, Slip, Tournament, Verdict

pytestmark = [pytest.mark.django_db]


@pytest.fixture(autouse=True)
def english(client):
    """Assertions read English texts: the user chose English (else the tournament's Russian applies)."""
    client.cookies["django_language"] = "en"


@pytest.fixture
def game(alice, tournament):
    return services.games.create_game(alice, tournament, prepared_racks=PREPARED)


@pytest.fixture
def played(alice, game, regs, eager):
    """Round 1 published, round 2 drawn."""
    rnd = run_round(alice, game, eager, {regs[0]: "H4 CARTS 20", regs[1]: "CAST 12"})
    services.rounds.publish_round(alice, rnd)
    with eager(execute=True):
        services.rounds.draw_round(alice, game)
    return game


def pages(slug: str, number: int = 1) -> list[str]:
    names = ["tournament", "settings", "players", "import", "standings", "audit"]
    game_names = ["game", "slips", "review", "board", "live"]
    return ([reverse(f"arbiter:{n}", args=[slug]) for n in names]
            + [reverse(f"arbiter:{n}", args=[slug, number]) for n in game_names]
            + [reverse("arbiter:standings", args=[slug]) + f"?game={number}",
               reverse("arbiter:standings", args=[slug]) + "?by=club"])


def test_every_page_renders_for_the_arbiter(client, alice, tournament, played):
    client.force_login(alice)
    assert client.get(reverse("arbiter:tournaments")).status_code == 200
    assert client.get(reverse("arbiter:tournament_create")).status_code == 200
    for url in pages(tournament.slug):
        response = client.get(url)
        assert response.status_code == 200, url
        if response["Content-Type"].startswith("text/html"):  # the console's scripts, none inline
            assert page_scripts(response.content.decode()) == ["text", "coords", "clock", "stream", "board", "console"], url
            assert not re.search(r"\son[a-z]+=", response.content.decode()), url  # no inline event handler


def test_other_arbiter_gets_404_and_anonymous_goes_to_login(client, bob, tournament, played):
    client.force_login(bob)
    listing = client.get(reverse("arbiter:tournaments"))
    assert tournament.name not in listing.content.decode()
    for url in pages(tournament.slug):
        assert client.get(url).status_code == 404, url
    post = client.post(reverse("arbiter:round_action", args=[tournament.slug, 1]), {"action": "draw"})
    assert post.status_code == 404
    client.logout()
    for url in [reverse("arbiter:tournaments"), *pages(tournament.slug)]:
        response = client.get(url)
        assert response.status_code == 302 and response.url.startswith("/arbiter/login/"), url


def test_pages_speak_the_tournament_language_unless_the_user_chose(client, alice, tournament, played):
    Tournament.objects.filter(pk=tournament.pk).update(language="fr")
    del client.cookies["django_language"]
    client.force_login(alice)
    url = reverse("arbiter:game", args=[tournament.slug, 1])
    page = client.get(url).content.decode()
    assert '<html lang="fr">' in page and "Tirage" in page and "Ouvrir le coup" in page
    client.post(reverse("arbiter:language"), {"language": "pl", "next": url})
    assert '<html lang="pl">' in client.get(url).content.decode()


def test_tournament_set_up(client, alice, lexicon_row):
    client.force_login(alice)
    response = client.post(reverse("arbiter:tournament_create"), {
        "name": "Coupe du test", "slug": "", "ruleset": "en", "lexicon": lexicon_row.pk, "seconds_per_move": 120,
        "grace_seconds": 10, "convention": "duplicate", "solo_mode": "on", "solo_bonus": 10, "free_warnings": 3, "free_warnings_fast": 5,
        "warning_penalty": 5, "tie_break": "none", "language": "fr", "starts_on": "2025-05-01",
        "ends_on": "2025-05-02"})
    assert response.status_code == 302
    t = Tournament.objects.get(slug="coupe-du-test")
    assert list(t.arbiters.all()) == [alice] and t.seconds_per_move == 120 and t.solo_mode == "on"
    players_page = client.get(response.url).content.decode()  # the arbiter's browser is in English
    assert "Tournament created" not in players_page and "Tournoi créé" in players_page  # the tournament's language
    response = client.post(reverse("arbiter:tournament_create"), {"name": "Coupe du test", "ruleset": "fr",
                                                                  "lexicon": lexicon_row.pk})
    assert response.status_code == 200 and Tournament.objects.count() == 1


def test_csv_import_with_a_bad_line_imports_nothing(client, alice, tournament):
    client.force_login(alice)
    url = reverse("arbiter:import", args=[tournament.slug])
    text = "name;club;category;series;licence\nИванов Иван;Эрудит;взрослые;A;R1\n;Эрудит;;;\nПетров Пётр;Волга\n"
    response = client.post(url, {"text": text})
    body = response.content.decode()
    assert response.status_code == 200
    assert Player.objects.count() == 0 and tournament.registrations.count() == 0
    assert re.search(r'<td class="num">3</td>', body) and "the name is missing" in body
    response = client.post(url, {"text": "Иванов Иван;Эрудит;взрослые;A;R1\nПетров Пётр;Волга\n"})
    assert tournament.registrations.count() == 2
    codes = re.findall(r'<td class="code">([A-Z2-9]{10})</td>', response.content.decode())
    assert len(codes) == 2
    reg = tournament.registrations.get(table_number=2)
    assert reg.player.club == "Волга" and reg.check_access_code(codes[1])
    again = client.post(url, {"text": "Сидоров Сидор\nПетров Пётр\n"})
    assert "already registered" in again.content.decode() and tournament.registrations.count() == 2


def test_table_assignment_swaps(client, alice, tournament, regs):
    client.force_login(alice)
    data = {"form": "tables", **{f"table_{r.pk}": r.table_number for r in regs}}
    data[f"table_{regs[0].pk}"], data[f"table_{regs[1].pk}"] = 2, 1
    assert client.post(reverse("arbiter:players", args=[tournament.slug]), data).status_code == 302
    regs[0].refresh_from_db()
    regs[1].refresh_from_db()
    assert (regs[0].table_number, regs[1].table_number) == (2, 1)
    assert AuditLog.objects.filter(action="tables.assign").exists()
    data[f"table_{regs[2].pk}"] = 1
    response = client.post(reverse("arbiter:players", args=[tournament.slug]), data)
    assert response.status_code == 200 and "also given" in response.content.decode()


def test_paper_slip_entry(client, alice, tournament, game, regs, eager):
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    client.force_login(alice)
    url = reverse("arbiter:slips", args=[tournament.slug, 1])
    page = client.get(url).content.decode()
    key = re.search(r'name="key" value="([0-9a-f]+)"', page).group(1)
    assert 'autofocus' in page and 'id="id_table"' in page
    form = {"table": 1, "word": "carts", "coordinates": "h 4", "score": 20, "key": key}
    response = client.post(url, form)
    assert response.status_code == 302 and response.url == url
    client.post(url, form)  # a double Enter: same key, same slip
    slip = Slip.objects.get(round=rnd, registration=regs[0])
    assert (slip.word, slip.coordinates, slip.announced_score, slip.source) == ("carts", "H4", 20, "paper")
    assert slip.entered_by == alice
    page = client.get(url).content.decode()
    assert "H4 carts 20" in page  # shown in the last slips entered
    bad = client.post(url, {"table": 99, "word": "CAST", "key": "k2"})
    assert bad.status_code == 200 and "No player at table 99" in bad.content.decode()
    # after closing, a paper slip still counts with its hand-in time (the deadline)
    services.rounds.close_round(rnd, alice, force=True)
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=30))
    client.post(url, {"table": 2, "word": "CAST", "score": 12, "key": "k3"})
    late_free = Slip.objects.get(round=rnd, registration=regs[1])
    assert late_free.is_current and not late_free.late
    live = client.get(reverse("arbiter:live", args=[tournament.slug, 1])).json()
    assert live["missing"] == [3, 4] and live["count"] == 2


def test_round_control_through_publish(client, alice, tournament, game, regs, eager):
    client.force_login(alice)
    action = reverse("arbiter:round_action", args=[tournament.slug, 1])
    with eager(execute=True):
        assert client.post(action, {"action": "draw", "typed_rack": ""}).status_code == 302
    rnd = Round.objects.get(game=game)
    assert rnd.rack == "CATSROE" and rnd.solver_status == "done"
    with eager(execute=False):
        client.post(action, {"action": "open", "round": rnd.pk})
    rnd.refresh_from_db()
    assert rnd.status == "open"
    page = client.get(reverse("arbiter:game", args=[tournament.slug, 1])).content.decode()
    assert 'id="live"' in page and "Close now" in page
    services.slips.submit_slip(rnd, regs[0], word="CARTS", coordinates="H4", score=20)
    services.slips.submit_slip(rnd, regs[1], word="CARTS", coordinates="H4", score=22)
    live = client.get(reverse("arbiter:live", args=[tournament.slug, 1])).json()
    assert live["status"] == "open" and live["missing"] == [3, 4] and len(live["received"]) == 2
    client.post(action, {"action": "close", "round": rnd.pk})
    judged = client.post(action, {"action": "judge", "round": rnd.pk})
    assert judged.url == reverse("arbiter:review", args=[tournament.slug, 1])
    rnd.refresh_from_db()
    assert rnd.status == "judged"
    review = client.get(judged.url).content.decode()
    flagged_first = review.index(regs[1].player.name) < review.index(regs[0].player.name)
    assert flagged_first and "H4 CARTS" in re.sub(r"<[^>]+>", "", review)
    verdict = Verdict.objects.get(round=rnd, registration=regs[3])
    url = reverse("arbiter:override", args=[tournament.slug, verdict.pk])
    client.post(url, {f"v{verdict.pk}-awarded": 7, f"v{verdict.pk}-why": ""})
    verdict.refresh_from_db()
    assert verdict.awarded == 0  # no reason, no change
    client.post(url, {f"v{verdict.pk}-awarded": 7, f"v{verdict.pk}-why": "slip found under the table"})
    verdict.refresh_from_db()
    assert (verdict.awarded, verdict.automatic, verdict.override_reason) == (7, False, "slip found under the table")
    top = rnd.top_moves[0]["move"]
    client.post(reverse("arbiter:choose_top", args=[tournament.slug, 1]), {"move": "H8 NOTAMOVE"})
    client.post(reverse("arbiter:choose_top", args=[tournament.slug, 1]), {"move": top})
    client.post(action, {"action": "review", "round": rnd.pk})
    client.post(action, {"action": "publish", "round": rnd.pk})
    rnd.refresh_from_db()
    assert (rnd.status, rnd.chosen_move) == ("published", top)
    standings = client.get(reverse("arbiter:standings", args=[tournament.slug]) + "?game=1").content.decode()
    assert regs[0].player.name in standings
    board = client.get(reverse("arbiter:board", args=[tournament.slug, 1])).content.decode()
    game.refresh_from_db()
    assert top in re.sub(r"<[^>]+>", "", board) and json_block(board, "board-fen") == gamestate.board_fen(game)
    assert top.split()[1] in gamestate.board_fen(game)  # the top's tiles are on the board
    audit = client.get(reverse("arbiter:audit", args=[tournament.slug])).content.decode()
    assert "round.publish" in audit and "verdict.override" in audit
    # a stale form (another round) is refused; cancel needs a reason
    with eager(execute=True):
        client.post(action, {"action": "draw"})
    rnd2 = Round.objects.get(game=game, number=2)
    client.post(action, {"action": "open", "round": rnd.pk})
    rnd2.refresh_from_db()
    assert rnd2.status == "drawn"
    client.post(action, {"action": "cancel", "round": rnd2.pk, "why": ""})
    rnd2.refresh_from_db()
    assert rnd2.status == "drawn"
    client.post(action, {"action": "cancel", "round": rnd2.pk, "why": "wrong bag"})
    rnd2.refresh_from_db()
    assert rnd2.status == "cancelled"


def test_service_errors_are_shown(client, alice, tournament, played):
    client.force_login(alice)
    action = reverse("arbiter:round_action", args=[tournament.slug, 1])
    response = client.post(action, {"action": "draw"}, follow=True)
    assert "Publish or cancel the current round first" in response.content.decode()


def json_block(html: str, block_id: str):
    """The value of a JSON block of a page ({{ value|json_script:"id" }})."""
    return json.loads(re.search(rf'id="{block_id}" type="application/json">(.*?)</script>', html, re.S).group(1))


def test_board_page_draws_the_screens_board_config(client, alice, tournament, played):
    """The board page hands board.js the tablet's and display's board config and the game's FEN."""
    client.force_login(alice)
    url = reverse("arbiter:board", args=[tournament.slug, 1])
    html = client.get(url).content.decode()
    config, fen = json_block(html, "board-config"), json_block(html, "board-fen")
    played.refresh_from_db()
    assert config == labels.board_config(tournament)
    assert fen == gamestate.board_fen(played) and sum(ch.isalpha() for ch in fen) >= 2  # round 1's top is on it
    assert config["premiums"][0][0] == "tw" and config["premiums"][7][7] == "dw" and config["values"]["C"] == 3
    top = played.rounds.get(number=1).chosen_move
    assert len(json_block(html, "board-fresh")) == len(top.split()[1])  # the last top, highlighted
    assert 'id="board"' in html and 'aria-labelledby="board-title"' in html
    assert html.index("js/board.js") < html.index("js/console.js")
    assert "<table class=\"board\"" not in html  # one renderer: board.js


def test_board_uses_the_tournaments_row_letters(client, alice, tournament, played):
    client.force_login(alice)
    url = reverse("arbiter:board", args=[tournament.slug, 1])
    client.cookies["django_language"] = "ru"
    # Latin row letters (the tournament's choice) stay Latin for a Russian reader
    config = json_block(client.get(url).content.decode(), "board-config")
    assert config["rows"][7] == "H" and not config["cyrillic"]
    # Cyrillic row letters are shown to every reader, whatever his language
    Tournament.objects.filter(pk=tournament.pk).update(ruleset="ru", coordinate_script="cyrillic")
    config = json_block(client.get(url).content.decode(), "board-config")
    assert config["rows"][7] == "З" and config["cyrillic"] and config["cols"][7] == "8"
    assert config["premiums"][0][0] == "tw" and config["ruleset"] == "ru"
    client.cookies["django_language"] = "en"
    assert json_block(client.get(url).content.decode(), "board-config")["rows"][7] == "З"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_console_clock_live_panel_and_board_in_the_browser(chromium, live_server, hall):
    """The game page counts down on the server's clock and lists slips as they come; the board page draws the
    board with board.js: labels, premiums, tiles with values, each square named."""
    rnd = hall.open(hall.draw())
    page = arbiter_page(chromium, live_server, hall.alice, width=1366, height=768, skew_seconds=-400)
    page.goto(page.base + reverse("arbiter:game", args=[hall.t.slug, 1]))
    page.wait_for_function(r"() => /^\d+:\d\d$/.test(document.querySelector('#clock').textContent)")
    minutes, seconds = page.inner_text("#clock").split(":")
    real = (Round.objects.get(pk=rnd.pk).deadline - timezone.now()).total_seconds()
    assert abs(int(minutes) * 60 + int(seconds) - real) <= 2  # the console's own clock is 6'40" slow
    assert page.inner_text("#live-count") == "0"
    services.slips.submit_slip(rnd, hall.players[0][0], word="CARTS", coordinates="H4", score=20)
    page.wait_for_function("() => document.querySelector('#live-count').textContent === '1'", timeout=5_000)
    assert "H4 CARTS 20" in page.inner_text("#live-rows")
    assert page.inner_text("#live-missing") == "2\u20134" and page.inner_text("#live-missing-count") == "(3)"

    hall.finish(rnd)
    page.goto(page.base + reverse("arbiter:board", args=[hall.t.slug, 1]))
    page.wait_for_selector("#board .sq .tile")
    assert page.locator("#board .sq").count() == 225 and page.inner_text("#board .lbl.row >> nth=7") == "H"
    assert page.get_attribute("#board", "role") == "table" and page.locator("#board [role=row]").count() == 16
    assert page.locator("#board .sq[data-r='0'][data-c='0']").inner_text() == "×3"
    tiles = page.locator("#board .sq .tile")
    assert "".join(tiles.locator(".l").all_inner_texts()) == "CARTS" and tiles.first.locator(".v").inner_text() == "3"
    assert page.locator("#board .sq.new").count() == 5  # the last top
    assert page.get_attribute("#board .sq[data-r='7'][data-c='3']", "title") == "H4"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "test-console-board-1366.png"), full_page=True)
    assert page.js_errors == []



def test_load_demo_and_if_missing(lexdir, monkeypatch):
    monkeypatch.setenv("DEMO_ARBITER_PASSWORD", "demo-pass-123")
    out = io.StringIO()
    call_command("load_demo", "--lexicon-file", "fixtures/lexicons/sim-ru.txt", "--rounds", "3", stdout=out,
                 stderr=io.StringIO())
    text = out.getvalue()
    t = Tournament.objects.get(slug="demo")
    assert t.language == "ru" and t.registrations.count() == 30
    assert t.arbiters.get().check_password("demo-pass-123")
    assert "/arbiter/login/" in text and "demo-pass-123" in text
    assert len(re.findall(r"table +\d+ .* [A-Z2-9]{10}$", text, re.M)) == 3
    game = t.games.get()
    statuses = list(game.rounds.order_by("number").values_list("status", flat=True))
    assert statuses[-1] == "open" and set(statuses[:-1]) == {"published"} and len(statuses) == 4
    assert Verdict.objects.filter(round__game=game).count() == 3 * 30
    assert Verdict.objects.filter(round__game=game, reason="ok").count() > 10
    assert Slip.objects.filter(round__game=game, round__status="open").exists()
    out2 = io.StringIO()
    call_command("load_demo", "--if-missing", "--lexicon-file", "fixtures/lexicons/sim-ru.txt", stdout=out2)
    assert "nothing to do" in out2.getvalue()
    assert Tournament.objects.count() == 1 and game.rounds.count() == 4


def test_no_move_redraw_penalty_and_end_of_game_from_the_console(client, alice, tournament, regs, eager):
    game = services.games.create_game(alice, tournament, seed=3)
    client.force_login(alice)
    action = reverse("arbiter:round_action", args=[tournament.slug, game.number])
    with eager(execute=True):
        client.post(action, {"action": "draw", "typed_rack": "UUQVVWW"})
    stuck = Round.objects.get(game=game)
    page = client.get(reverse("arbiter:game", args=[tournament.slug, game.number])).content.decode()
    assert "The solver found no legal move for this rack" in page
    with eager(execute=True):
        response = client.post(action, {"action": "no_move", "round": stuck.pk}, follow=True)
    assert "The rack went back into the bag" in response.content.decode()
    stuck.refresh_from_db()
    assert stuck.status == "cancelled"
    fresh = Round.objects.exclude(pk=stuck.pk).get(game=game)
    assert fresh.status == "drawn"
    # an arbiter's penalty, by table number
    client.post(action, {"action": "penalty", "table": regs[2].table_number, "points": 5, "reason": "phone rang"})
    assert game.penalties.get(registration=regs[2]).points == 5
    response = client.post(action, {"action": "penalty", "table": 999, "points": 5, "reason": "x"}, follow=True)
    assert "No player at table 999" in response.content.decode()
    # ending the game needs every round published or cancelled
    response = client.post(action, {"action": "finish", "why": "time called"}, follow=True)
    assert "publish or cancel it first" in response.content.decode()
    client.post(action, {"action": "cancel", "round": fresh.pk, "why": "end of session"})
    client.post(action, {"action": "finish", "why": "time called"})
    game.refresh_from_db()
    assert game.status == "finished"
    assert AuditLog.objects.filter(action="game.finish", tournament=tournament).exists()
