"""Training follows the game's variant (issue 34): a 7-among-8 game is judged with racks of 8 and moves of at
most 7 (no solver error on a rack of 8), a Joker round shows its blank replaced ("? → S") after the top as the
tablet does, and the training list and the run page name the variant."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.judge import SlipParts
from tournament import gamestate, services
from tournament.models import Game
from tournament.training import services as training

pytestmark = pytest.mark.django_db


def play(alice, game, eager, *, until=None, most: int = 4) -> Game:
    """Rounds of ``game`` with their proposed tops published (at most ``most``, or until ``until(game)``), then
    the game ended by the arbiter."""
    for _ in range(most):
        with eager(execute=True):
            rnd = services.rounds.draw_round(alice, game)
        assert rnd is not None
        rnd.refresh_from_db()
        assert rnd.top_moves, "the seed's rack has moves"
        with eager(execute=False):
            services.rounds.open_round(alice, rnd)
        services.rounds.close_round(rnd, alice, force=True)
        services.judging.judge_round(rnd, alice)
        services.rounds.publish_round(alice, rnd)
        game.refresh_from_db()
        if until is not None and until(game):
            break
    services.games.finish_game(alice, game, why="training test")
    game.refresh_from_db()
    return game


def test_a_7among8_game_is_trained_with_racks_of_eight(client, alice, tournament, sim_eager):
    game = play(alice, services.games.create_game(alice, tournament, seed=1, variant="7among8"), sim_eager, most=3)
    tg = training.from_tournament_game(game)
    assert tg.variant == "7among8" and len(tg.rounds[0]["rack"]) == 8
    run = training.start_run(tg, "Ян")
    for rnd in tg.rounds:
        run = training.next_round(run)
        coord, word = rnd["top"].split()
        result = training.hand_in(run, SlipParts(word, coord, rnd["score"]))
        run.refresh_from_db()
        assert (result["awarded"], result["reason"]) == (rnd["score"], "ok" if rnd["round"] > 1 else "first_round")
        assert result["best"][0]["score"] == rnd["score"]
    # the whole rack of 8 in round 1: judged (0, a move places at most 7), no server error
    again = training.next_round(training.start_run(tg, "Олег"))
    eight = training.hand_in(again, SlipParts(tg.rounds[0]["rack"], "H1", 99))
    assert eight["awarded"] == 0
    # the pages: the list and the run name the variant; a slip through the page is judged
    page = client.get(reverse("training:index"), {"lang": "uk"}).content.decode()
    assert 'data-variant="7among8"' in page and "7 з 8" in page
    third = training.start_run(tg, "Ірина")
    client.post(reverse("training:next", args=[third.code]))
    coord, word = tg.rounds[0]["top"].split()
    answer = client.post(reverse("training:slip", args=[third.code]),
                         {"word": word, "coordinates": coord, "score": tg.rounds[0]["score"], "round": 1})
    assert answer.status_code == 302
    html = client.get(reverse("training:run", args=[third.code]), {"lang": "uk"}).content.decode()
    assert 'data-variant="7among8"' in html and 'id="your-points"' in html


def test_a_joker_round_shows_its_blank_replaced_after_the_top(client, alice, tournament, sim_eager):
    game = services.games.create_game(alice, tournament, seed=1, variant="joker")
    game = play(alice, game, sim_eager, until=lambda g: bool(gamestate.replaced_blanks(g)), most=28)
    replaced = gamestate.replaced_blanks(game)
    number, letters = next(iter(replaced.items()))
    tg = training.from_tournament_game(game)
    assert tg.rounds[number - 1]["replaced"] == letters
    assert all("replaced" not in r for r in tg.rounds if r["round"] != number)
    run = training.start_run(tg, "Ян")
    for _ in range(number):
        run = training.next_round(run)
        result = training.hand_in(run, None)
        run.refresh_from_db()
    assert result["replaced"] == letters
    html = client.get(reverse("training:run", args=[run.code])).content.decode()
    assert f"? → {letters[0]}" in html and 'id="top-replaced"' in html
    assert 'data-variant="joker"' in html
    # the game ended with that round: after it, the board shown holds the replacing tile, not the blank
    assert tg.rounds[-1]["round"] == number
    board = training.board_before_next(_finished(run))
    assert board.count(letters[0].lower()) < _top_board(tg).count(letters[0].lower())


def _finished(run):
    while not training.is_finished(run):
        run = training.next_round(run)
        training.hand_in(run, None)
        run.refresh_from_db()
    return run


def _top_board(tg) -> str:
    from scoring.board import Board
    from scoring.training import board_after

    last = tg.rounds[-1]
    return board_after(Board.from_fen(training.ruleset_of(tg), last["board_before"] or None), last["top"]).to_fen()
