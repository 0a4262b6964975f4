"""Training pages: the list, an upload refused with a translated reason (nothing created), a run played
through the pages to its end."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from scoring.game import DuplicateGame
from scoring.records import dumps
from tests.tools.world import EN
from tournament.models import TrainingGame, TrainingRun

pytestmark = pytest.mark.django_db


def _upload(client: Client, lexicon, content: bytes, *, lang: str = "ru"):
    record = SimpleUploadedFile("game.json", content, content_type="application/json")
    return client.post(
        f"/training/upload/?lang={lang}",
        {"record": record, "lexicon": lexicon.pk, "seconds_per_move": 120, "title": ""},
    )


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"{not json", "Файл не является записью JSON"),
        (b"\xff\xfe\x00garbage", "Файл не является текстом в UTF-8"),
        (
            b"#player1 A A\n#player2 B B\n>A: AEINRST 8H STAINER +66 66\n>B: AEINRST 9H AE +5 5\n",
            "двух игроков",
        ),
    ],
)
def test_a_bad_upload_says_why_in_the_pages_language_and_creates_nothing(lexicon_row, content, said):
    response = _upload(Client(), lexicon_row, content)
    assert response.status_code == 400
    assert said in response.content.decode()
    assert not TrainingGame.objects.exists()


def test_an_upload_without_a_lexicon_is_refused(lexicon_row):
    record = SimpleUploadedFile("game.json", b"{}", content_type="application/json")
    response = Client().post("/training/upload/?lang=uk", {"record": record, "seconds_per_move": 180})
    assert response.status_code == 400 and not TrainingGame.objects.exists()
    assert "Це поле обов" in response.content.decode()  # Django's "This field is required." in Ukrainian


def test_an_imported_game_is_played_through_the_pages(lexicon_row, training_tools):
    game = DuplicateGame(EN, 3)
    for _ in range(2):
        game.play_round(training_tools)
    client = Client()
    response = _upload(client, lexicon_row, dumps(game).encode(), lang="en")
    assert response.status_code == 302
    tg = TrainingGame.objects.get()
    assert tg.title in client.get("/training/").content.decode()
    response = client.post("/training/start/", {"training": tg.pk, "name": "Olga"})
    run = TrainingRun.objects.get()
    assert response["Location"] == f"/training/run/{run.code}/"
    page = client.get(response["Location"] + "?lang=en").content.decode()
    assert "Start the first round" in page and run.code in page
    for i, r in enumerate(game.rounds):
        client.post(f"/training/run/{run.code}/next/")
        page = client.get(f"/training/run/{run.code}/").content.decode()
        assert f"Round {i + 1} of 2" in page and 'id="slip-form"' in page
        coord, word = r.move.split()
        client.post(
            f"/training/run/{run.code}/slip/", {"word": word, "coordinates": coord, "score": str(r.score)}
        )
    page = client.get(f"/training/run/{run.code}/").content.decode()
    assert 'id="final"' in page and "100.00 %" in page and 'id="would-be-rank"' not in page
    assert 'id="best-moves"' in page
    client.post(f"/training/run/{run.code}/moves/", {"show": "0"})
    assert 'id="best-moves"' not in client.get(f"/training/run/{run.code}/").content.decode()


def test_a_finished_tournament_game_is_offered_and_its_run_ranks_among_its_players(finished_game):
    game, _regs = finished_game
    client = Client()
    page = client.get("/training/?lang=en").content.decode()
    assert f'name="game" value="{game.pk}"' in page
    code = client.post("/training/start/", {"game": game.pk, "name": "Paul"})["Location"].split("/")[-2]
    for _ in range(2):
        client.post(f"/training/run/{code}/next/")
        client.post(f"/training/run/{code}/slip/", {"timeout": "1"})
    page = client.get(f"/training/run/{code}/?lang=en").content.decode()
    assert "Among the 3 players who played it live you would rank 4." in page
    assert client.get(f"/training/resume/?code={code.lower()}")["Location"] == f"/training/run/{code}/"
    assert client.get("/training/resume/?code=NOPE").status_code == 404


def test_a_game_not_finished_cannot_be_started(alice, tournament, eager):
    from tournament import services

    game = services.games.create_game(alice, tournament, prepared_racks=["CATSROE"])
    assert Client().post("/training/start/", {"game": game.pk, "name": "Q"}).status_code == 404
    assert not TrainingRun.objects.exists()


def test_a_training_runs_name_is_stored_without_an_invisible_control(finished_game):
    game, _regs = finished_game
    answer = Client().post("/training/start/", {"game": game.pk, "name": "Pa\u202eul"})
    assert answer.status_code == 302
    assert TrainingRun.objects.get().name == "Paul"
