"""The pages of a simultaneous game: the organiser prepares it, registers a hall and gives its package; the hall's
arbiter imports it into his tournament, plays, downloads the signed results; the organiser imports them, reads
the national standings (filtered) and prints them. Refusals are shown in the page's language."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.paths import LEXICONS
from tests.tools.browser import SHOTS, arbiter_page
from tests.tools.world import run_round
from tests.tournament.simultaneous.rows import ROUNDS, simul_rows
from tournament import services
from tournament.models import Game, HallGame, SimulResult, Simultaneous
from tournament.services import simulfiles, simulhall, simultaneous

pytestmark = [pytest.mark.usefixtures("local_cache")]
SIM_EN = LEXICONS / "sim-en.txt"


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user("stan", password="x", is_staff=True)


@pytest.fixture
def sim_lexicon(settings, tmp_path, db):
    from lexicon import services as lexicon_services

    settings.LEXICON_DIR = str(tmp_path / "lexicons")
    return lexicon_services.import_wordlist("sim-en", "en", SIM_EN)


def messages_of(response) -> str:
    return " ".join(str(m) for m in response.context["messages"])


def organiser_prepares(staff, sim_lexicon) -> tuple[Client, Simultaneous]:
    org = Client(HTTP_ACCEPT_LANGUAGE="ru")
    org.force_login(staff)
    assert org.get("/arbiter/simultaneous/").status_code == 200
    answer = org.post("/arbiter/simultaneous/", {"name": "Кубок клубов", "lexicon": sim_lexicon.pk,
                                                 "variant": "classic", "seconds_per_move": 120, "language": "ru"},
                      follow=True)
    simul = Simultaneous.objects.get()
    assert answer.redirect_chain[-1][0] == f"/arbiter/simultaneous/{simul.game_id}/"
    assert simul.lexicon_hash == sim_lexicon.content_hash and len(simul.rounds) > 15
    answer = org.post(f"/arbiter/simultaneous/{simul.game_id}/halls/", {"name": "Зал Одеса", "city": "Одеса"},
                      follow=True)
    assert "Зал Одеса" in messages_of(answer)
    return org, simul


@pytest.mark.django_db
def test_a_simultaneous_through_the_pages(staff, alice, sim_lexicon, sim_eager, tmp_path):
    org, simul = organiser_prepares(staff, sim_lexicon)
    hall = simul.halls.get()
    package = org.get(f"/arbiter/simultaneous/{simul.game_id}/halls/{hall.code}/package/")
    assert package["Content-Disposition"].startswith("attachment") and json.loads(package.content)["hall"]["key"]

    # the hall: its tournament on the same lexicon imports the package, plays three rounds and stops
    t = services.tournaments.create_tournament(alice, name="Одеса", slug="odesa", ruleset="en", lexicon=sim_lexicon,
                                               arbiters=[alice])
    regs = [services.players.register_player(alice, t, name=n, club=c, series="A")[0]
            for n, c in (("Оля", "Чорноморець"), ("Богдан", "Чорноморець"), ("Ірина", "Дельфін"))]
    arb = Client(HTTP_ACCEPT_LANGUAGE="ru")
    arb.force_login(alice)
    (tmp_path / "package.json").write_bytes(package.content)
    with open(tmp_path / "package.json", "rb") as f:
        answer = arb.post("/arbiter/t/odesa/simultaneous/", {"file": f}, follow=True)
    game = Game.objects.get(tournament=t)
    assert HallGame.objects.get(game=game).hall == hall.code and "Партия 1" in answer.content.decode()
    assert game.time_per_move == 120 and t.seconds_per_move == 180  # the package's time per move, the game's own
    with open(tmp_path / "package.json", "rb") as f:
        again = arb.post("/arbiter/t/odesa/simultaneous/", {"file": f}, follow=True)
    assert Game.objects.filter(tournament=t).count() == 1 and "уже" in messages_of(again)
    for rnd in simul.rounds[:3]:
        played = run_round(alice, game, sim_eager, {reg: f"{rnd['top']} {rnd['score'] - i}"
                                                     for i, reg in enumerate(regs)})
        services.rounds.publish_round(alice, played)
    services.games.finish_game(alice, game, why="the hall closes")
    results = arb.post(f"/arbiter/t/odesa/simultaneous/{game.number}/results/")
    assert results["Content-Type"].startswith("application/json")
    (tmp_path / "results.json").write_bytes(results.content)

    # the organiser imports the file; the same file again changes nothing; a tampered one is refused
    upload = tmp_path / "results.json"
    with open(upload, "rb") as f:
        answer = org.post(f"/arbiter/simultaneous/{simul.game_id}/results/", {"file": f}, follow=True)
    assert "Зал Одеса" in messages_of(answer) and SimulResult.objects.get().version == 1
    page = answer.content.decode()
    assert all(name in page for name in ("Оля", "Богдан", "Ірина"))
    with open(upload, "rb") as f:
        answer = org.post(f"/arbiter/simultaneous/{simul.game_id}/results/", {"file": f}, follow=True)
    assert "ничего не изменилось" in messages_of(answer)
    doc = json.loads(upload.read_text())
    doc["results"]["players"][1]["name"] = "Богдан Чемпіон"
    upload.write_text(json.dumps(doc, ensure_ascii=False))
    with open(upload, "rb") as f:
        answer = org.post(f"/arbiter/simultaneous/{simul.game_id}/results/", {"file": f}, follow=True)
    assert "подпис" in messages_of(answer) and "Чемпіон" not in answer.content.decode()

    # filters and the PDF
    dolphin = org.get(f"/arbiter/simultaneous/{simul.game_id}/?club=Дельфін").content.decode()
    assert "Ірина" in dolphin and "Оля" not in dolphin
    pdf = org.get(f"/arbiter/pdf/simultaneous/{simul.game_id}/national.pdf")
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
    (SHOTS / "simul").mkdir(parents=True, exist_ok=True)
    (SHOTS / "simul" / "national.pdf").write_bytes(pdf.content)


@pytest.mark.django_db
def test_the_package_of_another_lexicon_is_refused_on_the_hall_page(alice, tournament, lexicon_row, tmp_path):
    simul = simul_rows(lexicon_row)
    simul.lexicon_hash = "a" * 64
    simul.save()
    doc = simultaneous.package(simul.halls.get())
    arb = Client(HTTP_ACCEPT_LANGUAGE="ru")
    arb.force_login(alice)
    (tmp_path / "p.json").write_text(json.dumps(doc))
    with open(tmp_path / "p.json", "rb") as f:
        answer = arb.post(f"/arbiter/t/{tournament.slug}/simultaneous/", {"file": f}, follow=True)
    said = messages_of(answer)
    assert "другой версией словаря" in said and "aaaaaaaaaaaa" in said, said
    assert not Game.objects.filter(tournament=tournament).exists()


def results_of(simul, code: str, players: list[tuple[str, str, str, str, list[int]]]) -> dict:
    doc = {"format": simulfiles.RESULTS_FORMAT, "version": simulfiles.VERSION, "game": str(simul.game_id),
           "hall": code, "lexicon_hash": simul.lexicon_hash, "variant": "classic", "rounds": ROUNDS,
           "finished": True, "players": [
               {"name": n, "club": c, "series": s, "category": k, "scores": sc, "warnings": 0, "solos": 0,
                "penalties": 0, "total": sum(sc)} for n, c, s, k, sc in players]}
    return simulfiles.signed_results(doc, "k" * 64)


@pytest.mark.django_db(transaction=True)
def test_the_organiser_pages_in_a_browser(chromium, live_server, staff, alice, tournament, lexicon_row):
    simul = simul_rows(lexicon_row, halls=("moskva", "kyiv", "warszawa"))
    simul.name = "Кубок Содружества 2026, партия 1"
    simul.save()
    players = {"moskva": [("Анна Смирнова", "Эрудит", "A", "взрослые", [20, 30]),
                          ("Борис Иванов", "Эрудит", "B", "ветераны", [20, 12])],
               "kyiv": [("Олена Коваль", "Київ", "A", "взрослые", [14, 30]),
                        ("Петро Шевчук", "Київ", "C", "юниоры", [20, 0])]}
    for code, rows in players.items():
        simultaneous.import_results(staff, simul, results_of(simul, code, rows))
    page = arbiter_page(chromium, live_server, staff, language="ru", width=1366, height=768)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(f"{page.base}/arbiter/simultaneous/{simul.game_id}/")
    assert page.locator("table.data").nth(1).inner_text().count("Эрудит") == 2
    page.screenshot(path=str(SHOTS / "simul-organiser-ru-1366.png"), full_page=True)
    page.select_option("#filter-series", "A")
    page.wait_for_url("**series=A**")
    assert "Борис" not in page.locator("table.data").nth(1).inner_text()
    page.screenshot(path=str(SHOTS / "simul-filtered-ru-1366.png"), full_page=True)
    page.goto(f"{page.base}/arbiter/simultaneous/")
    page.screenshot(path=str(SHOTS / "simul-list-ru-1366.png"), full_page=True)
    assert not page.js_errors

    # the hall's page: its tournament plays the game of hall "warszawa" from the package
    simulhall.import_package(alice, tournament, simultaneous.package(simul.halls.get(code="warszawa")))
    hall = arbiter_page(chromium, live_server, alice, language="ru", width=1366, height=768)
    hall.goto(f"{hall.base}/arbiter/t/{tournament.slug}/simultaneous/")
    assert "Warszawa" in hall.locator("table.data").inner_text()
    hall.screenshot(path=str(SHOTS / "simul-hall-ru-1366.png"), full_page=True)
    assert not hall.js_errors


@pytest.mark.django_db(transaction=True)
def test_a_hall_online_fetches_its_package_and_sends_its_results_over_http(live_server, alice, tournament, regs,
                                                                             lexicon_row):
    """The hall's server talks to the organiser's over HTTP: the package by its address and token (the hall's
    page), the signed results to the address the package names."""
    simul = simul_rows(lexicon_row, halls=("lodz",))
    hall = simul.halls.get()
    url = f"{live_server.url}/api/simultaneous/{simul.game_id}/halls/lodz/package/"
    arb = Client(HTTP_ACCEPT_LANGUAGE="ru")
    arb.force_login(alice)
    refused = arb.post(f"/arbiter/t/{tournament.slug}/simultaneous/", {"url": url, "token": "nope"}, follow=True)
    assert "токен" in messages_of(refused) and not HallGame.objects.exists()
    token = simulfiles.hall_token(hall.key, str(simul.game_id), "lodz")
    arb.post(f"/arbiter/t/{tournament.slug}/simultaneous/", {"url": url, "token": token})
    hall_game = HallGame.objects.get()
    assert hall_game.package["results_url"] == f"{live_server.url}/api/simultaneous/{simul.game_id}/results/"
    services.games.finish_game(alice, hall_game.game, why="a test")
    answer = arb.post(f"/arbiter/t/{tournament.slug}/simultaneous/1/results/", {"send": "1"}, follow=True)
    assert "Организатор получил результаты" in messages_of(answer), messages_of(answer)
    result = SimulResult.objects.get()
    assert result.source == "api" and len(result.document["players"]) == len(regs) > 0
    again = arb.post(f"/arbiter/t/{tournament.slug}/simultaneous/1/results/", {"send": "1"}, follow=True)
    assert "ничего не изменилось" in messages_of(again) and SimulResult.objects.get().version == 1
