"""The organiser's side of a simultaneous game as he reads it: a results file changed after it was signed is refused
as changed (not as "not a file of a simultaneous game"); the address offered to the halls is one another machine
can reach (the server's address on its network, never ``localhost``); the national standings compare the totals
with the tops of the rounds played, in the header and in every percentage."""

from __future__ import annotations

import copy
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.tournament.printing.test_pdf import flat
from tests.tournament.simultaneous.rows import ROUNDS, simul_rows
from tournament.models import SimulResult
from tournament.printing.documents.national import national_document
from tournament.services import simulfiles, simultaneous
from tournament.web import address as web_address

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_cache")]
KEY = "k" * 64


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user("stan", password="x", is_staff=True)


@pytest.fixture
def organiser(staff) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(staff)
    return client


def results(simul, hall: str = "paris", players=(("Анна", [20, 28], 10, 5),)) -> dict:
    """A hall's results as its server writes them (scores, solos, penalties; totals that add up)."""
    lines = [{"name": n, "club": "Казань-Скрэббл", "series": "Серия1", "category": "", "scores": sc, "warnings": 0,
              "solos": solos, "penalties": pen, "total": sum(sc) + solos - pen} for n, sc, solos, pen in players]
    return {"format": simulfiles.RESULTS_FORMAT, "version": simulfiles.VERSION, "game": str(simul.game_id),
            "hall": hall, "lexicon_hash": simul.lexicon_hash, "variant": "classic", "rounds": ROUNDS,
            "finished": True, "players": lines}


def upload(client: Client, simul, doc: dict, tmp_path) -> str:
    path = tmp_path / "results.json"
    path.write_text(json.dumps(doc, ensure_ascii=False))
    with open(path, "rb") as f:
        answer = client.post(f"/arbiter/simultaneous/{simul.game_id}/results/", {"file": f}, follow=True)
    return " ".join(str(m) for m in answer.context["messages"])


def test_a_total_changed_after_signing_is_refused_as_a_changed_file(organiser, lexicon_row, tmp_path):
    simul = simul_rows(lexicon_row)
    changed = simulfiles.signed_results(results(simul), KEY)
    changed["results"]["players"][0]["total"] += 10  # 53 → 63, by hand, after the hall signed the file
    said = upload(organiser, simul, changed, tmp_path)
    assert "Файл результатов изменили после того, как его подписали" in said, said
    assert "итог игрока «Анна» не равен сумме очков, соло и штрафов" in said, said
    assert "Это не файл синхронной партии" not in said
    # a score changed with its total: the signature alone tells
    rescored = simulfiles.signed_results(results(simul), KEY)
    rescored["results"]["players"][0]["scores"][0] += 10
    rescored["results"]["players"][0]["total"] += 10
    said = upload(organiser, simul, rescored, tmp_path)
    assert "не подписан ключом зала" in said and "Это не файл" not in said, said
    # what is not a results file keeps its headline
    (tmp_path / "notes.json").write_text("не JSON")
    with open(tmp_path / "notes.json", "rb") as f:
        answer = organiser.post(f"/arbiter/simultaneous/{simul.game_id}/results/", {"file": f}, follow=True)
    assert "Это не файл синхронной партии" in " ".join(str(m) for m in answer.context["messages"])
    assert not SimulResult.objects.exists()


def test_the_api_names_a_changed_file_and_results_that_do_not_add_up(client, lexicon_row):
    simul = simul_rows(lexicon_row)
    url = f"/api/simultaneous/{simul.game_id}/results/"
    changed = simulfiles.signed_results(results(simul), KEY)
    changed["results"]["players"][0]["total"] = 99
    answer = client.post(url, json.dumps(changed), content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
    assert (answer.status_code, answer.json()["code"]) == (400, "simul_changed")
    assert "Анна" in answer.json()["detail"]
    unbalanced = results(simul)
    unbalanced["players"][0]["total"] = 99  # the hall's server signed totals that do not add up
    answer = client.post(url, json.dumps(simulfiles.signed_results(unbalanced, KEY)),
                         content_type="application/json")
    assert (answer.status_code, answer.json()["code"]) == (400, "simul_totals")
    assert not SimulResult.objects.exists()


def test_the_address_offered_to_the_halls_is_the_servers_lan_address(organiser, lexicon_row, monkeypatch, settings):
    monkeypatch.setattr(web_address, "lan_address", lambda: "192.168.7.7")
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "scrabble.example.org"]
    simul = simul_rows(lexicon_row)
    page = organiser.get(f"/arbiter/simultaneous/{simul.game_id}/", HTTP_HOST="localhost:8106").content.decode()
    assert f"http://192.168.7.7:8106/api/simultaneous/{simul.game_id}/results/" in page
    assert f"http://192.168.7.7:8106/api/simultaneous/{simul.game_id}/halls/paris/package/" in page
    assert "localhost" not in page
    package = organiser.get(f"/arbiter/simultaneous/{simul.game_id}/halls/paris/package/", HTTP_HOST="127.0.0.1:8106")
    assert json.loads(package.content)["results_url"] == (
        f"http://192.168.7.7:8106/api/simultaneous/{simul.game_id}/results/")
    # reached by a name other machines can use: that name is kept
    page = organiser.get(f"/arbiter/simultaneous/{simul.game_id}/", HTTP_HOST="scrabble.example.org").content.decode()
    assert f"http://scrabble.example.org/api/simultaneous/{simul.game_id}/results/" in page


def test_a_loopback_host_is_told_from_one_other_machines_reach():
    assert all(web_address.local_only(h) for h in ("localhost", "localhost:8000", "127.0.0.1:8106", "[::1]:8000",
                                                   "hall.localhost", "0.0.0.0:8000"))
    assert not any(web_address.local_only(h) for h in ("192.168.1.10:8000", "scrabble.example.org", "hall-pc"))


def test_the_national_standings_compare_with_the_tops_of_the_rounds_played(organiser, lexicon_row, staff):
    simul = simul_rows(lexicon_row, halls=("paris", "lyon"))
    later = [{"round": n, "rack": "AEIOUBC", "top": "H8 ABC", "score": 40} for n in range(3, 22)]
    simul.rounds = ROUNDS + later  # 21 rounds prepared, tops 20 + 30 + 19 × 40 = 810
    simul.language = "ru"
    simul.save()
    simultaneous.import_results(staff, simul, simulfiles.signed_results(
        results(simul, players=(("Анна", [20, 30], 0, 0), ("Борис", [10, 15], 0, 0))), KEY))
    assert simultaneous.played_tops(simul) == [20, 30]
    rows = {r.player["name"]: r for r in simultaneous.national_standings(simul)}
    assert (rows["Анна"].line.top_total, rows["Анна"].line.percentage) == (50, 100.0)
    assert rows["Борис"].line.percentage == 50.0 and rows["Борис"].line.deficit == -25
    from django.utils import translation

    with translation.override("ru"):
        text = flat(national_document(simul).build())
    assert "Сыграно ходов: 2 из 21" in text and "Сумма топов: 50" in text, text
    assert not re.search(r"\b810\b", text) and "1 Анна Казань-Скрэббл Paris Серия1 50 0 100,00" in text, text
    page = organiser.get(f"/arbiter/simultaneous/{simul.game_id}/").content.decode()
    assert "Сыграно ходов: 2 из 21" in page and "Сумма топов 50" in page
    assert not re.search(r"\b810\b", page)  # (not the whole game's tops; a hash on the page may hold the digits)
    assert "100,00" in page and "50,00" in page


def test_a_hall_that_played_fewer_rounds_counts_against_the_same_tops(lexicon_row, staff):
    simul = simul_rows(lexicon_row, halls=("paris", "lyon"))
    simultaneous.import_results(staff, simul, simulfiles.signed_results(
        results(simul, players=(("Анна", [20, 30], 0, 0),)), KEY))
    short = results(simul, "lyon", players=(("Жан", [20], 0, 0),))
    short["rounds"] = copy.deepcopy(ROUNDS[:1])  # Lyon stopped after round 1
    simultaneous.import_results(staff, simul, simulfiles.signed_results(short, KEY))
    rows = {r.player["name"]: r for r in simultaneous.national_standings(simul)}
    assert rows["Жан"].line.top_total == rows["Анна"].line.top_total == 50
    assert rows["Жан"].line.percentage == 40.0 and [r.rank for r in rows.values()] == [1, 2]


@pytest.mark.parametrize(("body", "code"), [
    (b'{"detail": "the total of \\u00abX\\u00bb is not the sum", "code": "simul_changed"}', "simul_changed"),
    (b'{"detail": "no such game", "code": "not_found"}', "simul_refused"),
    (b"<html>Bad gateway</html>", "simul_refused"),
])
def test_a_refusal_of_the_organiser_keeps_its_headline_on_the_hall(monkeypatch, body, code):
    import io
    import urllib.error
    import urllib.request

    from tournament.errors import ServiceError
    from tournament.services import simulhall

    def refuse(request, timeout=None):
        raise urllib.error.HTTPError(request.full_url, 400, "Bad Request", {}, io.BytesIO(body))

    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    with pytest.raises(ServiceError) as exc:
        simulhall.fetch_package("http://192.0.2.1:8000/api/simultaneous/x/halls/paris/package/", "token")
    assert exc.value.code == code and exc.value.code != "simul_bad_file"
