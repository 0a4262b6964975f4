"""A slip placing more tiles than a move may (7-among-8: at most 7 of the rack's 8) is refused before it is stored,
with one reason in the reader's language — on the tablet, the console's paper entry and the arbiter's API — and a
slip that could lie elsewhere with fewer tiles is taken (a wrong place may still score, RULES §4)."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from scoring.board import Board
from scoring.notation import parse_move
from scoring.placement import apply, evaluate
from scoring.rules import get_ruleset
from tests.paths import LEXICONS
from tests.tools.api import A, T, arbiter_client, error, ok, tablet_client
from tests.tools.wordlist_solver import WordListSolver
from tournament import services
from tournament.errors import Code, ServiceError
from tournament.models import Slip

pytestmark = pytest.mark.django_db
UK = get_ruleset("uk")
RACK = "МОРИСТУА"  # 8 tiles: four vowels, four consonants
LATIN = re.compile(r"[A-Za-z]{2,}")


@pytest.fixture
def uk_hall(alice, eager, monkeypatch):
    """A Ukrainian tournament's 7-among-8 game, round 1 open on the rack МОРИСТУА; two players, one tablet."""
    from lexicon.models import Lexicon

    have = Counter(RACK)
    words = [w for w in (LEXICONS / "sim-uk.txt").read_text(encoding="utf-8").split() if not Counter(w) - have]
    solver = WordListSolver(UK, words)
    monkeypatch.setattr(services.solving, "round_tools", lambda tournament: (solver, frozenset(words)))
    lexicon = Lexicon.objects.create(name="sim-uk", ruleset="uk", status=Lexicon.Status.READY, version=1,
                                     content_hash="1" * 64, file_path="none.kwg")
    t = services.tournaments.create_tournament(alice, name="Кубок Полтави", slug="kubok", ruleset="uk",
                                               lexicon=lexicon, arbiters=[alice], language="uk")
    regs = [services.players.register_player(alice, t, name=n) for n in ("Оксана", "Тарас")]
    game = services.games.create_game(alice, t, seed=7, variant="7among8")
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game, typed_rack=RACK)
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    rnd.refresh_from_db()
    return t, game, rnd, [reg for reg, _code in regs], regs[0][1]


def ukrainian(text: str) -> None:
    assert not LATIN.search(text), f"Latin in {text!r}"
    assert "8" in text and "7" in text, text


def test_the_tablet_is_refused_in_its_language_and_nothing_is_stored(uk_hall):
    _t, _game, rnd, _regs, code = uk_hall
    login = ok(APIClient().post(f"{T}/login/", {"code": code}, format="json"))
    tablet = tablet_client(login["token"])
    body = {"word": RACK, "coordinates": "", "score": 80, "round": rnd.pk}
    refused = error(tablet.post(f"{T}/slip/", body, format="json", HTTP_IDEMPOTENCY_KEY="k1",
                                HTTP_ACCEPT_LANGUAGE="uk"), 400, Code.TOO_MANY_TILES)
    ukrainian(refused["detail"])
    assert f"«{RACK}»" in refused["detail"]
    # written with coordinates in round 1: the same (coordinates are not needed, every letter is a tile)
    again = error(tablet.post(f"{T}/slip/", {**body, "coordinates": "З2"}, format="json", HTTP_IDEMPOTENCY_KEY="k2",
                              HTTP_ACCEPT_LANGUAGE="uk"), 400, Code.TOO_MANY_TILES)
    assert again["detail"] == refused["detail"]
    assert not Slip.objects.filter(round=rnd).exists()
    # 7 of the 8: taken
    ok(tablet.post(f"{T}/slip/", {**body, "word": RACK[:7]}, format="json", HTTP_IDEMPOTENCY_KEY="k3"), 201)


def test_paper_slips_are_refused_on_the_console_and_the_api(client, alice, uk_hall):
    t, game, rnd, regs, _code = uk_hall
    client.force_login(alice)
    page = client.post(f"/arbiter/t/{t.slug}/g/{game.number}/slips/",
                       {"table": regs[1].table_number, "word": RACK.lower()[:2] + RACK[2:], "coordinates": "З2",
                        "score": "", "key": "paper1"}, follow=True)
    html = page.content.decode()
    assert page.status_code == 200
    assert "8" in html and "не більше 7" in html, html[:3000]
    assert f'value="{RACK.lower()[:2] + RACK[2:]}"' in html  # the refused slip stays in the form
    api = arbiter_client(alice)
    refused = error(api.post(f"{A}/rounds/{rnd.pk}/slips/", {"table": regs[1].table_number, "word": RACK,
                                                               "coordinates": "", "score": None}, format="json",
                             HTTP_ACCEPT_LANGUAGE="uk"), 400, Code.TOO_MANY_TILES)
    ukrainian(refused["detail"])
    assert not Slip.objects.filter(round=rnd).exists()


def _en_round(alice, tournament, eager, board: Board, variant: str = "7among8"):
    game = services.games.create_game(alice, tournament, seed=2, variant=variant)
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game, typed_rack="CATSROEN" if variant == "7among8" else "CATSROE")
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    type(rnd).objects.filter(pk=rnd.pk).update(board_before=board.to_fen())
    rnd.refresh_from_db()
    return rnd


def test_later_rounds_count_only_the_squares_the_word_fills(alice, tournament, regs, eager):
    en = get_ruleset("en")
    board = apply(Board(en), evaluate(Board(en), parse_move("H8 CAT", en)))
    rnd = _en_round(alice, tournament, eager, board)
    reg = regs[0]
    # along row A every letter is a tile, but RATTLERS can go through the T of H10 with 7: taken and judged
    taken = services.slips.submit_slip(rnd, reg, word="RATTLERS", coordinates="A1", score=70)
    assert taken.pk and taken.is_current
    # through the board's T: 7 tiles, taken
    assert services.slips.submit_slip(rnd, reg, word="RATTLERS", coordinates="10F", score=70).is_current
    # a word that meets no letter of the board places 8 wherever it goes: refused, the place said as written
    with translation.override("en"), pytest.raises(ServiceError) as caught:
        services.slips.submit_slip(rnd, reg, word="BOOMBOXy", coordinates="A1", score=70)
    assert caught.value.code == Code.TOO_MANY_TILES
    assert caught.value.message == "A1 BOOMBOXy places 8 tiles: a move places at most 7."
    with translation.override("en"), pytest.raises(ServiceError) as caught:  # no coordinates: the fewest anywhere
        services.slips.submit_slip(rnd, reg, word="BOOMBOXY", score=70)
    assert caught.value.message == "«BOOMBOXY» places 8 tiles: a move places at most 7."
    assert Slip.objects.filter(round=rnd).count() == 2


def test_a_classic_game_refuses_a_word_longer_than_a_rack_on_an_empty_board(alice, tournament, regs, eager):
    rnd = _en_round(alice, tournament, eager, Board(get_ruleset("en")), variant="classic")
    with pytest.raises(ServiceError) as caught:
        services.slips.submit_slip(rnd, regs[0], word="STAINERS", coordinates="H8", score=60)
    assert caught.value.code == Code.TOO_MANY_TILES
    assert services.slips.submit_slip(rnd, regs[0], word="CARTS", coordinates="H8", score=20).is_current
