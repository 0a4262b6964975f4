"""One game, many halls (issue 17 §3): a simultaneous game across three halls, each on its own server.

The organiser is this test's database; each hall is a subprocess on its own SQLite database and lexicon files
(``tests/tournament/simultaneous/hall.py``: ``manage.py simultaneous import-package``, the whole game through the
services with tablet and paper slips, ``manage.py simultaneous results``). Two halls fetch their package and send
their results over the API, the third is offline: its package and results travel as files. The national standings
must be the halls' own results put together.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from tests.paths import LEXICONS, ROOT
from tournament.models import AuditLog, SimulResult
from tournament.services import simulfiles, simultaneous

pytestmark = [pytest.mark.django_db]
SIM_EN = LEXICONS / "sim-en.txt"
SEED = 7
HALLS = {
    "paris": ("Paris — salle Wagram", "Paris", [("Anne Roux", "Paris SC", "A", "senior"),
                                                 ("Marc Petit", "Paris SC", "B", "adult"),
                                                 ("Lise Blanc", "Vanves", "A", "adult"),
                                                 ("Hugo Noir", "Vanves", "C", "junior")]),
    "kyiv": ("Київ", "Kyiv", [("Олена Коваль", "Kyiv Club", "A", "adult"),
                              ("Петро Шевчук", "Kyiv Club", "B", "senior"),
                              ("Іван Бондар", "Lviv", "A", "junior")]),
    "krakow": ("Kraków (offline)", "Kraków", [("Ewa Nowak", "Kraków", "A", "adult"),
                                              ("Jan Wójcik", "Vanves", "B", "senior"),
                                              ("Ola Lis", "Kraków", "C", "junior"),
                                              ("Piotr Zając", "Kraków", "B", "adult"),
                                              ("Zofia Mazur", "Paris SC", "A", "senior")]),
}
ONLINE = ("paris", "kyiv")


def hall_env(folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")}
    return {**env, "DUPLICATE_VAR_DIR": str(folder), "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
            "LEXICON_DIR": str(folder / "lexicons"), "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}


def start(folder: Path, *args: str) -> subprocess.Popen:
    """A command of a hall's server, started (the halls play side by side, as they would)."""
    return subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT, env=hall_env(folder))


def finished(process: subprocess.Popen, status: int = 0) -> tuple[str, str]:
    out, err = process.communicate(timeout=180)
    assert process.returncode == status, err[-3000:]
    return out, err


def hall_script(folder: Path, *args: str) -> subprocess.Popen:
    return start(folder, "-m", "tests.tournament.simultaneous.hall", *args)


@pytest.fixture
def organiser_lexicon(settings, tmp_path):
    from lexicon import services

    settings.LEXICON_DIR = str(tmp_path / "organiser-lexicons")
    return services.import_wordlist("sim-en", "en", SIM_EN)


@pytest.fixture
def hall_template(tmp_path):
    """One migrated hall database with two lexicons (the game's, and one word short of it), copied per hall."""
    other = tmp_path / "sim-en-b.txt"
    other.write_text("\n".join(SIM_EN.read_text().split()[1:]) + "\n")
    folder = tmp_path / "template"
    folder.mkdir()
    finished(hall_script(folder, "template", str(SIM_EN), str(other)))
    return folder


def test_three_halls_one_offline(alice, organiser_lexicon, hall_template, tmp_path):
    simul = simultaneous.prepare(alice, name="Coupe des clubs 2026", lexicon=organiser_lexicon, seed=SEED)
    assert len(simul.rounds) > 15 and simul.lexicon_hash == organiser_lexicon.content_hash
    halls = {code: simultaneous.add_hall(alice, simul, code=code, name=name, city=city)
             for code, (name, city, _players) in HALLS.items()}
    game = str(simul.game_id)
    api = APIClient()

    # the packages: two halls fetch theirs over the API (with the token derived from their key), one gets a file
    assert api.get(f"/api/simultaneous/{game}/halls/paris/package/").status_code == 403
    running: dict[str, subprocess.Popen] = {}
    results: dict[str, Path] = {}
    for code, (name, _city, players) in HALLS.items():
        folder, package = tmp_path / code, tmp_path / f"{code}-package.json"
        shutil.copytree(hall_template, folder)
        if code in ONLINE:
            token = simulfiles.hall_token(halls[code].key, game, code)
            answer = api.get(f"/api/simultaneous/{game}/halls/{code}/package/", HTTP_X_HALL_TOKEN=token)
            assert answer.status_code == 200, answer.content
            package.write_bytes(answer.content)
        else:
            call_command("simultaneous", "package", game[:8], "--hall", code, "--out", str(package))
        doc = json.loads(package.read_text())
        assert [r["rack"] for r in doc["rounds"]] == [r["rack"] for r in simul.rounds]
        assert doc["hall"]["key"] == halls[code].key and doc["lexicon_hash"] == simul.lexicon_hash
        spec = {"hall": name, "slug": code, "players": players, "package": str(package),
                "out": str(tmp_path / f"{code}-results.json"), "penalty": 5 if code == "kyiv" else 0}
        (tmp_path / f"{code}.json").write_text(json.dumps(spec))
        running[code] = hall_script(folder, "play", str(tmp_path / f"{code}.json"))
        results[code] = Path(spec["out"])
    # a hall whose tournament uses another lexicon version ("other", made with the template): the package is
    # refused, with the reason (in the server's language: it names both versions)
    other = tmp_path / "other-hall"
    shutil.copytree(hall_template, other)
    _out, err = finished(start(other, "manage.py", "simultaneous", "import-package",
                               str(tmp_path / "paris-package.json"), "--tournament", "other"), 1)
    assert simul.lexicon_hash[:12] in err and "sim-en-b" in err, err
    played = {code: json.loads(finished(p)[0].splitlines()[-1]) for code, p in running.items()}

    # the results: two over the API, the offline hall's file by the command
    for code in ONLINE:
        answer = api.post(f"/api/simultaneous/{game}/results/", results[code].read_bytes(),
                          content_type="application/json")
        assert answer.status_code == 201, answer.content
        assert answer.json() == {"hall": code, "outcome": "new", "version": 1, "players": len(HALLS[code][2])}
    call_command("simultaneous", "import-results", game, str(results["krakow"]))
    assert SimulResult.objects.filter(hall__simultaneous=simul).count() == 3

    rows = check_standings(simul, played)

    # the same file again changes nothing; a file of another game, another lexicon or tampered is refused
    audit_rows = AuditLog.objects.count()
    answer = api.post(f"/api/simultaneous/{game}/results/", results["paris"].read_bytes(),
                      content_type="application/json")
    assert answer.status_code == 200 and answer.json()["outcome"] == "same"
    _result, outcome = simultaneous.import_results(alice, simul, results["krakow"].read_bytes())
    assert outcome == "same" and AuditLog.objects.count() == audit_rows
    assert [(r.hall.code, r.player, r.rank) for r in simultaneous.national_standings(simul)] == \
        [(r.hall.code, r.player, r.rank) for r in rows]
    check_refusals(api, simul, halls, results, tmp_path)
    check_correction(alice, simul, halls["krakow"].key, results["krakow"])


def check_standings(simul, played: dict[str, dict]) -> list:
    """The national standings are the halls' results put together; filtered, ranked among themselves."""
    rows = simultaneous.national_standings(simul)
    assert len(rows) == sum(len(p) for _n, _c, p in HALLS.values())
    for row in rows:
        mine = played[row.hall.code][row.player["name"]]
        assert (row.total, row.line.per_round, row.line.solos, row.line.penalties, row.line.warnings) == (
            mine["total"], mine["scores"], mine["solos"], mine["penalties"], mine["warnings"])
        assert row.line.top_total == sum(r["score"] for r in simul.rounds)
    totals = sorted((r.total for r in rows), reverse=True)
    assert [r.total for r in rows] == totals
    assert [r.rank for r in rows] == [1 + totals.index(t) for t in totals]  # equal totals share a rank
    assert played["kyiv"]["Олена Коваль"]["penalties"] == 5  # the arbiter's penalty of the Kyiv hall
    assert next(r for r in rows if r.player["name"] == "Олена Коваль").line.penalties == 5
    # per hall, club, series, category: ranked among themselves, national ranks kept
    vanves = simultaneous.national_standings(simul, club="Vanves")
    assert {r.player["name"] for r in vanves} == {"Lise Blanc", "Hugo Noir", "Jan Wójcik"}
    assert vanves[0].rank == 1 and [r.national_rank for r in vanves] == sorted(r.national_rank for r in vanves)
    in_kyiv = simultaneous.national_standings(simul, hall="kyiv")
    assert {r.player["name"]: r.rank for r in in_kyiv} == {n: p["rank"] for n, p in played["kyiv"].items()}
    assert {r.player["name"] for r in simultaneous.national_standings(simul, series="A", category="adult")} == {
        "Lise Blanc", "Олена Коваль", "Ewa Nowak"}
    return rows


def resigned(path: Path, key: str, **changes) -> bytes:
    doc = json.loads(path.read_text())["results"]
    doc.update(changes)
    return simulfiles.dumps(simulfiles.signed_results(doc, key))


def check_refusals(api, simul, halls, results, tmp_path) -> None:
    game = str(simul.game_id)
    url = f"/api/simultaneous/{game}/results/"
    tampered = json.loads(results["paris"].read_text())
    tampered["results"]["players"][0]["scores"][0] += 10
    tampered["results"]["players"][0]["total"] += 10
    cases = [
        (json.dumps(tampered), 400, "simul_signature"),  # a score changed after the export
        (resigned(results["paris"], halls["paris"].key, game="0" * 8 + game[8:]), 400, "simul_other_game"),
        (resigned(results["paris"], halls["paris"].key, lexicon_hash="f" * 64), 409, "simul_lexicon"),
        (resigned(results["kyiv"], halls["paris"].key), 400, "simul_signature"),  # another hall's key
        (b"{not json", 400, "simul_bad_file"),
    ]
    before = {r.hall_id: r.digest for r in SimulResult.objects.all()}
    for body, status, code in cases:
        answer = api.post(url, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="ru")
        assert (answer.status_code, answer.json()["code"]) == (status, code), answer.content
        assert answer.json()["detail"]
    answer = api.post(url, json.dumps(tampered), content_type="application/json", HTTP_ACCEPT_LANGUAGE="fr")
    assert "signature" in answer.json()["detail"]
    assert {r.hall_id: r.digest for r in SimulResult.objects.all()} == before


def check_correction(alice, simul, key: str, path: Path) -> None:
    """A corrected file of the same hall replaces its results, audited with the file it replaced."""
    doc = json.loads(path.read_text())["results"]
    doc["players"][0]["penalties"] += 3
    doc["players"][0]["total"] -= 3
    result, outcome = simultaneous.import_results(alice, simul, simulfiles.signed_results(doc, key))
    assert (outcome, result.version) == ("replaced", 2)
    log = AuditLog.objects.filter(action="simul.results.replace").get()
    assert log.before["version"] == 1 and log.after["version"] == 2
    row = next(r for r in simultaneous.national_standings(simul) if r.player["name"] == doc["players"][0]["name"])
    assert row.line.penalties == doc["players"][0]["penalties"]
