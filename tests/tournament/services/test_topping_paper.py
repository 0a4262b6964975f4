"""Topping: a paper player (no tablet) whose times the arbiter records shows his points — his paper slip's
verdict — and his attempts as a tablet player does, in the console, the API and the standings; a move typed with
a letter outside the tile set is refused and nothing is recorded."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone, translation

from tests.tools.api import A, arbiter_client, ok
from tests.tools.world import PREPARED
from tournament import services
from tournament.errors import Code, ServiceError
from tournament.models import Round, Slip
from tournament.services import topping

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, tournament):
    return services.games.create_game(alice, tournament, prepared_racks=PREPARED, variant="topping")


@pytest.fixture
def players(alice, tournament):
    return [services.players.register_player(alice, tournament, name=n)[0] for n in ("Tablet", "Paper")]


def opened(alice, game, eager, ago: int = 30) -> Round:
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    start = timezone.now() - timedelta(seconds=ago)
    Round.objects.filter(pk=rnd.pk).update(opened_at=start, deadline=start + timedelta(seconds=180))
    rnd.refresh_from_db()
    return rnd


def closed_and_judged(alice, rnd: Round) -> Round:
    services.rounds.close_round(rnd, alice, force=True)
    return services.judging.judge_round(rnd, alice)


def test_a_paper_players_points_and_attempts(alice, game, players, eager):
    tablet, paper = players
    # round 1: the tablet tops; the paper slip's time is typed after the round was judged (word only: round 1)
    rnd = opened(alice, game, eager)
    top = rnd.top_moves[0]
    coord, word = top["move"].split()
    topping.attempt(rnd, tablet, "t1", word=word, coordinates=coord)
    rnd = closed_and_judged(alice, rnd)
    assert rnd.verdicts.get(registration=paper).reason == "no_slip"
    topping.record_time(alice, rnd, paper, 75, word=word)
    verdict = rnd.verdicts.get(registration=paper)
    assert (verdict.awarded, verdict.reason) == (top["score"], "first_round")  # judged again with his slip
    found = topping.results_for(rnd)
    assert (found[paper.pk].topped_seconds, found[paper.pk].attempts) == (75, 1)
    assert found[tablet.pk].attempts == 1
    services.rounds.publish_round(alice, rnd)
    # round 2: the move with its coordinates, typed while the round is open (written word first: the same)
    rnd = opened(alice, game, eager, ago=20)
    top = rnd.top_moves[0]
    coord, word = top["move"].split()
    topping.record_time(alice, rnd, paper, 12, word=f"{word} {coord} 99")  # a score written on the slip is ignored
    slip = Slip.objects.get(round=rnd, registration=paper)
    assert (slip.word, slip.coordinates, slip.points, slip.is_current) == (word, coord, top["score"], True)
    rnd = closed_and_judged(alice, rnd)
    verdict = rnd.verdicts.get(registration=paper)
    assert (verdict.awarded, verdict.reason, verdict.warning) == (top["score"], "ok", False)
    services.rounds.publish_round(alice, rnd)
    # the standings: his points as a tablet player's; his attempts and times
    lines = {line.player: line for line in services.standings.game_lines(game, players)}
    assert lines[paper.pk].total == sum(r.chosen_score for r in game.rounds.all()) > 0
    row = next(r for r in topping.game_rows(game.tournament, game) if r["table"] == paper.table_number)
    assert (row["attempts"], row["topped"], row["total"]) == (2, 2, 75 + 12)


def test_a_move_with_a_letter_outside_the_tile_set_is_refused(alice, game, players, eager):
    rnd = opened(alice, game, eager)
    with translation.override("uk"), pytest.raises(ServiceError) as caught:
        topping.record_time(alice, rnd, players[1], 40, word="H8 КОТ")  # Cyrillic letters in an English game
    assert caught.value.code == Code.BAD_LETTER and "КОТ"[0] in caught.value.message
    assert not Slip.objects.filter(round=rnd).exists()


@pytest.mark.parametrize(("typed", "parts"), [
    ("H8 WORD", ("H8", "WORD")), ("8h word", ("8h", "word")), ("WORD H8", ("H8", "WORD")), ("WORD", ("", "WORD")),
    ("H8 WORD 24", ("H8", "WORD")), ("  ", ("", "")), ("З8 СЛОВО", ("З8", "СЛОВО")),
])
def test_move_parts(typed, parts):
    assert topping.move_parts(typed) == parts


def test_the_console_and_the_api_record_a_paper_players_move(client, alice, game, players, eager):
    rnd = opened(alice, game, eager)
    coord, word = rnd.top_moves[0]["move"].split()
    client.force_login(alice)
    url = f"/arbiter/t/{game.tournament.slug}/g/{game.number}/times/"
    page = client.post(url, {"table": players[1].table_number, "time": "0:42", "word": f"{coord} {word}"},
                       follow=True)
    assert page.status_code == 200
    assert '<td class="num">1</td></tr>' in page.content.decode().split('id="round-times"')[1].split("</table>")[0]
    api = arbiter_client(alice)
    body = ok(api.get(f"{A}/rounds/{rnd.pk}/times/"))
    row = next(r for r in body["rows"] if r["table"] == players[1].table_number)
    assert (row["seconds"], row["attempts"]) == (42, 1)
    ok(api.post(f"{A}/rounds/{rnd.pk}/times/", {"table": players[0].table_number, "time": "0:50",
                                                 "word": f"{coord} {word}"}, format="json"))
    assert Slip.objects.get(round=rnd, registration=players[0]).points == rnd.top_moves[0]["score"]


def test_russian_writes_ne_with_an_adjective_in_one_word():
    """«недопустимый», «несданным»: не with an adjective or a participle that has no words of its own is written
    together (the tablet's answer to a topping attempt, the training's late slip)."""
    from tournament.tablet.strings import tablet_strings

    with translation.override("ru"):
        said = [tablet_strings()["topping_invalid"], translation.gettext("Time was over: the slip counts as missing.")]
    assert "недопустимый ход" in said[0] and "несданным" in said[1]
    assert not any("не допустим" in s or "не сданн" in s for s in said)
