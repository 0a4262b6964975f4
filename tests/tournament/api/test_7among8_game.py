"""The 7-among-8 variant through a tournament (issue 17): a whole game of 12 players through the arbiter and
tablet APIs.

Racks hold 8 tiles while the bag allows, the tablets get the 8 and the top places at most 7; every player
who hands in the top gets its score, one player's move of all 8 tiles is refused at the door (too_many_tiles:
nothing stored, he gets 0), one hands in nothing; in the assisted mode a tablet's 8 tiles are refused with the reason and 7 score the bonus; the standings, the tablets' end of game and the records exported from the saved game
follow.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.board import Board
from scoring.notation import parse_move
from scoring.records import game_to_gcg, game_to_json
from scoring.variants import variant_ruleset
from tests.tools.api import A, Hall, P, T, error, ok
from tournament import gamestate
from tournament.models import Game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_cache")]
EIGHT = variant_ruleset("en", "7among8")
SEED = 1  # ``simulate --ruleset en --lexicon fixtures/lexicons/sim-en.txt --seed 1 --variant 7among8``
#: players of the whole game: enough for every role (the silent one, the greedy one) and for groups by club and series
PLAYERS = 12
SILENT = PLAYERS - 1  # the player who never hands in a slip
GREEDY = PLAYERS - 2  # the player who, in round 1, hands in a move of all 8 tiles


def draw(hall, sim_eager, games_url) -> dict | None:
    """The next round's rack; a rack without a legal move goes back and another comes (None: the game ended)."""
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


def tiles_placed(move: str, board_before: str) -> int:
    """The tiles ``move`` puts on empty squares of ``board_before``."""
    board = Board.from_fen(EIGHT, board_before or None)
    written = parse_move(move, EIGHT)
    assert written.coord is not None
    return sum(1 for i in range(len(written.tiles)) if board[written.coord.square(i)] is None)


def check_assist(hall, rack: str) -> None:
    """Round 1 in the assisted mode: the 8 tiles of the rack across the centre are refused (a move places at
    most 7); 7 of them are a move with the bonus (words are not looked up there)."""
    tiles = [
        {"row": 7, "col": c, "letter": "E" if t == "?" else t, "blank": t == "?"} for c, t in enumerate(rack)
    ]
    assert len(tiles) == 8
    eight = ok(hall.tablets[1].post(f"{T}/assist/", {"placements": tiles}, format="json"))
    assert not eight["legal"] and eight["code"] == "too_many_tiles", eight
    assert "7" in eight["error"]
    seven = ok(hall.tablets[1].post(f"{T}/assist/", {"placements": tiles[1:]}, format="json"))
    assert seven["legal"] and seven["bingo"] and seven["score"] >= 50, seven


def play_round(hall, sim_eager, games_url, greedy: bool) -> dict | None:
    """Draw, open, the tablets hand in the top (one of them, in round 1, the whole rack), close, judge, publish."""
    rnd = draw(hall, sim_eager, games_url)
    if rnd is None:
        return None
    assert len(rnd["rack"]) <= 8
    top = rnd["top_moves"][0]
    assert tiles_placed(top["move"], rnd["board_before"]) <= 7, top
    with sim_eager(execute=False):
        ok(hall.round_action(rnd["id"], "open"))
    state = ok(hall.tablets[0].get(f"{T}/state/"))
    assert state["round"]["rack"] == rnd["rack"] and state["board"] == rnd["board_before"]
    if greedy:
        check_assist(hall, rnd["rack"])
    for i in range(PLAYERS):
        if i == GREEDY and greedy:
            refused = error(hall.send(i, f"H1 {rnd['rack']} 99"), 400, "too_many_tiles")  # a move places at most 7
            assert "8" in refused["detail"] and "7" in refused["detail"], refused
        elif i != SILENT:
            ok(hall.send(i, f"{top['move']} {top['score']}"), 201)
    ok(hall.round_action(rnd["id"], "close"))
    ok(hall.round_action(rnd["id"], "judge"))
    verdicts = hall.verdicts(rnd["id"])
    others = {verdicts[hall.tables[i]]["awarded"] for i in range(PLAYERS) if i not in (SILENT, GREEDY)}
    assert others == {top["score"]}, (rnd["rack"], top)
    if greedy:
        assert verdicts[hall.tables[GREEDY]]["awarded"] == 0, verdicts[hall.tables[GREEDY]]
        assert verdicts[hall.tables[GREEDY]]["reason"] == "no_slip", verdicts[hall.tables[GREEDY]]
    assert verdicts[hall.tables[SILENT]]["reason"] == "no_slip"
    return ok(hall.round_action(rnd["id"], "publish"))


@pytest.mark.one_backend  # the classic game's whole game (tests/tournament/api/test_api.py) runs on both
def test_whole_7among8_game_with_12_players(alice, tournament, sim_eager):
    tournament.assisted_mode = True
    tournament.save(update_fields=["assisted_mode"])
    hall = Hall(alice, tournament, players=PLAYERS)
    arb, slug = hall.arbiter, tournament.slug
    error(
        arb.post(f"{A}/tournaments/{slug}/games/", {"seed": SEED, "variant": "7among9"}, format="json"), 400
    )
    game = ok(
        arb.post(f"{A}/tournaments/{slug}/games/", {"seed": SEED, "variant": "7among8"}, format="json"), 201
    )
    assert (game["number"], game["variant"]) == (1, "7among8")
    games_url = f"{A}/tournaments/{slug}/games/1"
    assert ok(arb.get(f"{games_url}/"))["variant"] == "7among8"
    assert ok(APIClient().get(f"{P}/tournaments/{slug}/"))["games"][0]["variant"] == "7among8"

    game_row = Game.objects.get(tournament=tournament, number=1)
    eights = 0
    greedy_lost = 0
    while game_row.status == Game.Status.PLAYING:
        first = not gamestate.history(game_row)
        published = play_round(hall, sim_eager, games_url, greedy=first)
        game_row.refresh_from_db()
        if published is None:
            break
        record = gamestate.history(game_row)[-1]
        assert record.move == published["chosen_move"] and len(record.used) <= 7
        eights += len(record.rack) == 8
        if first:
            greedy_lost = record.score
        assert len(gamestate.history(game_row)) < 60

    rounds = gamestate.history(game_row)
    assert len(rounds) >= 15 and game_row.end_reason and eights >= 10
    top_total = rounds[-1].cumulative
    standings = ok(arb.get(f"{games_url}/standings/"))
    rows = {r["table"]: r for r in standings["rows"]}
    assert standings["top_total"] == top_total
    assert all(rows[hall.tables[i]]["total"] == top_total for i in range(PLAYERS - 2))
    assert rows[hall.tables[GREEDY]]["total"] == top_total - greedy_lost
    assert rows[hall.tables[SILENT]]["total"] == 0 and rows[hall.tables[SILENT]]["rank"] == PLAYERS
    over = ok(hall.tablets[0].get(f"{T}/state/"))["game_over"]
    assert over and over["top_total"] == top_total and over["total"] == top_total

    engine = gamestate.load(game_row)
    assert engine.variant.id == "7among8" and engine.ruleset.rack_size == 8
    record_json = game_to_json(engine, lexicon="sim-en")
    assert record_json["variant"] == "7among8"
    assert max(len(r["rack"]) for r in record_json["rounds"]) == 8
    assert "#note variant 7among8" in game_to_gcg(engine, lexicon="sim-en")


def test_typed_racks_of_eight(alice, tournament, sim_eager):
    """The arbiter types the rack drawn from a physical bag: 8 tiles; 7 or 9 are refused with the reason, and the
    bag is untouched."""
    hall = Hall(alice, tournament, players=PLAYERS)
    arb, slug = hall.arbiter, tournament.slug
    ok(arb.post(f"{A}/tournaments/{slug}/games/", {"seed": 2, "variant": "7among8"}, format="json"), 201)
    games_url = f"{A}/tournaments/{slug}/games/1"
    for typed in ("CATSROE", "CATSROEND"):
        refused = error(arb.post(f"{games_url}/draw/", {"typed_rack": typed}, format="json"), 400)
        assert "8" in str(refused), refused
    with sim_eager(execute=True):
        rnd = ok(arb.post(f"{games_url}/draw/", {"typed_rack": "CATSROEN"}, format="json"), 201)
    assert rnd["rack"] == "CATSROEN"
