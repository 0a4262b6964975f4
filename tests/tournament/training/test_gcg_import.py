"""A Russian hall imports a GCG record for training (issue 34): our own ``game_to_gcg`` of a Russian game (a letter
played through is a ``.``) is imported through the page; a record that does not replay is refused with a reason
wholly in the page's language — its moves with the hall's Cyrillic row letters — and nothing is created; a
two-player record is refused with its translated reason."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import translation

from lexicon.graph import WordGraph, build
from scoring.game import DuplicateGame
from scoring.records import dumps, game_to_gcg
from scoring.rules import get_ruleset
from scoring.solver import graph_solver
from scoring.training import training_rounds
from tests.paths import LEXICONS
from tournament.models import TrainingGame
from tournament.training import services

pytestmark = pytest.mark.django_db
RU = get_ruleset("ru")
#: English words a refusal used to carry (a whole word of a stop list, or any Latin word of 3 letters or more)
LATIN_WORD = re.compile(r"(?!GCG|JSON)[A-Za-z]{3,}")
LATIN_COORD = re.compile(r"(?<![A-Za-z])([A-O](1[0-5]|[1-9])|(1[0-5]|[1-9])[A-O])(?![A-Za-z0-9])")


@pytest.fixture(scope="module")
def ru_game(tmp_path_factory) -> DuplicateGame:
    path = tmp_path_factory.mktemp("ru-graph") / "ru.kwg"
    build((LEXICONS / "sim-ru.txt").read_text(encoding="utf-8").split(), RU.alphabet, path)
    return DuplicateGame(RU, 3).play_out(graph_solver(RU, WordGraph.load(path)))


@pytest.fixture
def ru_lexicon(db):
    from lexicon.models import Lexicon

    return Lexicon.objects.create(name="sim-ru", ruleset="ru", status=Lexicon.Status.READY, version=1,
                                  content_hash="2" * 64, file_path="none.kwg")


def upload(client: Client, lexicon, text: str, *, lang: str = "ru", name: str = "game.gcg"):
    record = SimpleUploadedFile(name, text.encode(), content_type="text/plain")
    return client.post(f"/training/upload/?lang={lang}",
                       {"record": record, "lexicon": lexicon.pk, "seconds_per_move": 180, "title": "Клуб"})


def russian_only(text: str) -> None:
    assert not LATIN_WORD.search(text), f"a Latin word in {text!r}"
    assert not LATIN_COORD.search(text), f"a Latin coordinate in {text!r}"


def tampered(gcg: str, line: int, part: int, value) -> str:
    lines = gcg.splitlines()
    moves = [i for i, text in enumerate(lines) if text.startswith(">")]
    parts = lines[moves[line]].split()
    parts[part] = value(parts[part])
    lines[moves[line]] = " ".join(parts)
    return "\n".join(lines) + "\n"


def test_our_russian_gcg_is_imported_through_the_page(ru_game, ru_lexicon):
    gcg = game_to_gcg(ru_game)
    assert any("." in line.split()[3] for line in gcg.splitlines() if line.startswith(">"))
    response = upload(Client(), ru_lexicon, gcg)
    assert response.status_code == 302, response.content.decode()[:2000]
    tg = TrainingGame.objects.get()
    assert tg.coordinate_script == "cyrillic" and tg.variant == "classic"
    assert [(r["top"], r["score"], sorted(r["rack"])) for r in tg.rounds] == [
        (r["top"], r["score"], sorted(r["rack"])) for r in training_rounds(ru_game)
    ]


@pytest.mark.parametrize("case", ["score", "rack", "word", "played_through", "two_players", "json"])
def test_a_russian_refusal_is_wholly_russian_and_creates_nothing(ru_game, ru_lexicon, case):
    gcg = game_to_gcg(ru_game)
    text = {
        "score": lambda: tampered(gcg, 2, 4, lambda s: f"+{int(s[1:]) + 1}"),  # round 3 scores one point more
        "rack": lambda: tampered(gcg, 0, 1, lambda s: "ЪЪЪЪЪЪЪ"),  # a rack the bag cannot give
        "word": lambda: tampered(gcg, 1, 3, lambda s: s.replace(".", "Q", 1) if "." in s else "Q" + s[1:]),
        "played_through": lambda: tampered(gcg, 0, 3, lambda s: s + "."),  # a "." after the first word: empty
        "two_players": lambda: gcg.replace(">Top:", ">Анна:", 1),
        "json": lambda: dumps(ru_game).replace('"total": ', '"total": 1', 1),
    }[case]()
    with translation.override("ru"), pytest.raises(services.TrainingError) as refused:
        services.import_record(text=text, lexicon=ru_lexicon, seconds_per_move=180, title="", language="ru")
    said = str(refused.value)
    russian_only(said)
    if case == "score":
        assert said.startswith("Ход 3 записи") and re.search(r"[А-П]\d+|\d+[А-П]", said), said
    response = upload(Client(), ru_lexicon, text)
    assert response.status_code == 400
    assert said.replace("«", "&laquo;").replace("»", "&raquo;") in response.content.decode() or \
        said in response.content.decode()
    assert not TrainingGame.objects.exists()
