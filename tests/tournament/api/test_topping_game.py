"""The topping variant through a tournament (issue 17): a whole game of 12 players through the arbiter and
tablet APIs. Each attempt is answered at once (the top and the time, or not the top); a topped player's
further attempts are refused; the arbiter types a paper player's time; the standings rank by total time."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.tools.api import A, Hall, P, T, error, ok
from tournament.models import Game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_cache")]
SEED = 1
#: players of the whole game: enough for every role (the silent one, the greedy one) and for groups by club and series
PLAYERS = 12
SILENT = PLAYERS - 1  # the player who never finds the top (a wrong attempt now and then)
PAPER_ROUND = 3  # the arbiter types the silent player's time of this round (his paper slip)
LIMIT, PENALTY = 180, 60


def sub_top(rnd: dict) -> str | None:
    """A move of the round whose word scores less than the top wherever it goes (None: there is none)."""
    top = rnd["top_moves"][0]["score"]
    best: dict[str, int] = {}
    for m in rnd["top_moves"]:
        word = m["move"].split()[1]
        best[word] = max(best.get(word, 0), m["score"])
    return next((m["move"] for m in rnd["top_moves"] if best[m["move"].split()[1]] < top), None)


def draw(hall, sim_eager, games_url) -> dict | None:
    with sim_eager(execute=True):
        rnd = ok(hall.arbiter.post(f"{games_url}/draw/", {}, format="json"), 201)
    while True:
        rnd = ok(hall.arbiter.get(f"{A}/rounds/{rnd['id']}/"))
        if rnd["solver_status"] != "no_move":
            return rnd
        with sim_eager(execute=True):
            answer = hall.round_action(rnd["id"], "no-move")
        if answer.status_code == 200:
            return None
        rnd = ok(answer, 201)


def play_round(hall, sim_eager, games_url) -> dict | None:
    rnd = draw(hall, sim_eager, games_url)
    if rnd is None:
        return None
    top = rnd["top_moves"][0]
    wrong = sub_top(rnd)
    with sim_eager(execute=False):
        ok(hall.round_action(rnd["id"], "open"))
    for i in range(PLAYERS):
        if wrong and i % 10 == 0:  # a wrong attempt first: not the top, its points told, try again
            answer = ok(hall.send(i, wrong), 201)["topping"]
            assert not answer["topped"] and answer["seconds"] is None and answer["points"] < top["score"]
        if i != SILENT:
            answer = ok(hall.send(i, top["move"]), 201)
            assert answer["topping"]["topped"] and answer["topped"] and answer["points"] == top["score"]
            assert 0 <= answer["topping"]["seconds"] <= 60  # the machine may be slow: seconds, not the limit
    if rnd["number"] <= PAPER_ROUND:  # the first rounds: every read checked (the later ones only play)
        error(hall.send(1, top["move"]), 409, "already_topped")  # topped: no more attempts
        state = ok(hall.tablets[1].get(f"{T}/state/"))
        assert state["round"]["variant"] == "topping" and state["slip"]["topped"] is True
        assert state["slip"]["seconds"] is not None
        times = ok(hall.arbiter.get(f"{A}/rounds/{rnd['id']}/times/"))
        assert times["topped"] == PLAYERS - 1 and (times["limit"], times["penalty"]) == (LIMIT, PENALTY)
        silent = next(r for r in times["rows"] if r["table"] == hall.tables[SILENT])
        assert not silent["topped"] and silent["counted"] == LIMIT + PENALTY
    if rnd["number"] == PAPER_ROUND:
        error(hall.arbiter.post(f"{A}/rounds/{rnd['id']}/times/", {"table": hall.tables[SILENT], "time": "4:00"},
                                format="json"), 400, "bad_time")
        times = ok(hall.arbiter.post(f"{A}/rounds/{rnd['id']}/times/", {"table": hall.tables[SILENT],
                                                                        "time": "1:05"}, format="json"))
        assert times["topped"] == PLAYERS
    ok(hall.round_action(rnd["id"], "close"))
    ok(hall.round_action(rnd["id"], "judge"))
    if rnd["number"] <= PAPER_ROUND:  # the score is never asked in topping: no warning for its absence
        verdicts = hall.verdicts(rnd["id"])
        assert {verdicts[hall.tables[i]]["awarded"] for i in range(PLAYERS) if i != SILENT} == {top["score"]}
        assert not any(v["warning"] for v in verdicts.values())
    return ok(hall.round_action(rnd["id"], "publish"))


@pytest.mark.one_backend  # the classic game's whole game (tests/tournament/api/test_api.py) runs on both
def test_whole_topping_game_with_12_players(alice, tournament, sim_eager):
    hall = Hall(alice, tournament, players=PLAYERS)
    arb, slug = hall.arbiter, tournament.slug
    game = ok(arb.post(f"{A}/tournaments/{slug}/games/", {"seed": SEED, "variant": "topping"}, format="json"), 201)
    assert game["variant"] == "topping"
    games_url = f"{A}/tournaments/{slug}/games/1"
    game_row = Game.objects.get(tournament=tournament, number=1)
    played = 0
    while game_row.status == Game.Status.PLAYING:
        if play_round(hall, sim_eager, games_url) is None:
            break
        played += 1
        game_row.refresh_from_db()
        assert played < 40
    assert played >= 20 and game_row.end_reason

    standings = ok(arb.get(f"{games_url}/times/"))
    rows = {r["table"]: r for r in standings["rows"]}
    assert len(rows) == PLAYERS and standings["penalty"] == PENALTY
    silent = rows[hall.tables[SILENT]]
    assert silent["rank"] == PLAYERS and silent["topped"] == 1
    assert silent["total"] == (played - 1) * (LIMIT + PENALTY) + 65
    assert all(rows[hall.tables[i]]["topped"] == played and rows[hall.tables[i]]["total"] < LIMIT * played
               for i in range(PLAYERS) if i != SILENT)
    assert [r["rank"] for r in standings["rows"]] == sorted(r["rank"] for r in standings["rows"])
    assert rows[hall.tables[0]]["attempts"] > rows[hall.tables[1]]["attempts"] >= played
    assert ok(arb.get(f"{A}/tournaments/{slug}/times/"))["rows"] == standings["rows"]
    assert ok(APIClient().get(f"{P}/tournaments/{slug}/games/1/times/"))["rows"] == standings["rows"]
    error(arb.get(f"{A}/tournaments/{slug}/games/2/times/"), 404)
    # the points are still judged, below the times: never a warning (the score is not asked), so no penalty
    points = ok(arb.get(f"{games_url}/standings/"))["rows"]
    assert all(r["warnings"] == 0 and r["penalties"] == 0 for r in points)
