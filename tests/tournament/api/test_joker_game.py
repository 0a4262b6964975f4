"""The Joker variant through a tournament (issue 17): a whole game of 12 players through the arbiter and tablet APIs.

Every rack holds one blank while one is left; after a top that played a blank, the board the tablets get holds
the letter's real tile on that square and the blank comes back on the next rack; the game plays to its natural
end; the records exported from the saved game say the variant.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.board import Board
from scoring.notation import parse_move
from scoring.records import game_to_gcg, game_to_json
from scoring.rules import get_ruleset
from tests.tools.api import A, Hall, P, T, error, ok
from tournament import gamestate
from tournament.models import Game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_cache")]
EN = get_ruleset("en")
SEED = 1  # ``simulate --ruleset en --lexicon fixtures/lexicons/sim-en.txt --seed 1 --variant joker``: 28 rounds
#: players of the whole game: enough for every role (the silent one, the greedy one) and for groups by club and series
PLAYERS = 12
SILENT = PLAYERS - 1  # the player who never hands in a slip


def blanks_placed(fen: str) -> int:
    return sum(1 for _r, _c, tile in Board.from_fen(EN, fen or None).tiles() if tile.blank)


def placed_blanks(move: str, board_before: str) -> list[tuple[int, int, str]]:
    """The squares where ``move`` puts a blank from the rack, with the letter it stands for."""
    before = Board.from_fen(EN, board_before or None)
    written = parse_move(move, EN)
    assert written.coord is not None
    out = []
    for i, tile in enumerate(written.tiles):
        square = written.coord.square(i)
        if tile.blank and before[square] is None:
            out.append((*square, tile.letter))
    return out


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


def play_round(hall, sim_eager, games_url) -> dict | None:
    """Draw, open, every tablet but the silent one hands in the top (as written, blank in lower case), close, judge, publish."""
    rnd = draw(hall, sim_eager, games_url)
    if rnd is None:
        return None
    assert rnd["rack"].count("?") <= 1, rnd["rack"]
    if blanks_placed(rnd["board_before"]) < 2:  # a blank is left: the rack holds it
        assert "?" in rnd["rack"], rnd
    top = rnd["top_moves"][0]
    with sim_eager(execute=False):
        ok(hall.round_action(rnd["id"], "open"))
    state = ok(hall.tablets[0].get(f"{T}/state/"))
    assert state["round"]["rack"] == rnd["rack"] and state["board"] == rnd["board_before"]
    for i in range(PLAYERS):
        if i != SILENT:
            ok(hall.send(i, f"{top['move']} {top['score']}"), 201)
    ok(hall.round_action(rnd["id"], "close"))
    ok(hall.round_action(rnd["id"], "judge"))
    verdicts = hall.verdicts(rnd["id"])
    assert {verdicts[hall.tables[i]]["awarded"] for i in range(PLAYERS) if i != SILENT} == {top["score"]}
    assert verdicts[hall.tables[SILENT]]["reason"] == "no_slip"
    return ok(hall.round_action(rnd["id"], "publish"))


def check_replaced(hall, published: dict, played: list[tuple[int, int, str]], after: str) -> None:
    """After a top that played a blank whose letter the bag held: the board shows the letter's tile there."""
    board = Board.from_fen(EN, after)
    for row, col, letter in played:
        tile = board[row, col]
        assert tile is not None and tile.letter == letter and not tile.blank, (published["chosen_move"], after)
    state = ok(hall.tablets[3].get(f"{T}/state/"))
    assert state["board"] == after
    assert state["top"] == {"move": published["chosen_move"], "score": published["chosen_score"],
                            "replaced": "".join(letter for _r, _c, letter in played)}


@pytest.mark.one_backend  # the classic game's whole game (tests/tournament/api/test_api.py) runs on both
def test_whole_joker_game_with_12_players(alice, tournament, sim_eager):
    hall = Hall(alice, tournament, players=PLAYERS)
    arb, slug = hall.arbiter, tournament.slug
    error(arb.post(f"{A}/tournaments/{slug}/games/", {"seed": SEED, "variant": "scrabblette"}, format="json"), 400)
    game = ok(arb.post(f"{A}/tournaments/{slug}/games/", {"seed": SEED, "variant": "joker"}, format="json"), 201)
    assert (game["number"], game["variant"]) == (1, "joker")
    games_url = f"{A}/tournaments/{slug}/games/1"
    assert ok(arb.get(f"{games_url}/"))["variant"] == "joker"
    assert ok(APIClient().get(f"{P}/tournaments/{slug}/"))["games"][0]["variant"] == "joker"

    replaced_rounds = []
    game_row = Game.objects.get(tournament=tournament, number=1)
    while game_row.status == Game.Status.PLAYING:
        published = play_round(hall, sim_eager, games_url)
        game_row.refresh_from_db()
        if published is None:
            break
        record = gamestate.history(game_row)[-1]
        assert record.move == published["chosen_move"]
        played = placed_blanks(published["chosen_move"], published["board_before"])
        if record.replaced:
            assert [letter for _r, _c, letter in played] == list(record.replaced)
            check_replaced(hall, published, played, gamestate.board_fen(game_row))
            replaced_rounds.append(record.round)
        elif game_row.status == Game.Status.PLAYING:
            assert "replaced" not in ok(hall.tablets[3].get(f"{T}/state/"))["top"]
        assert len(gamestate.history(game_row)) < 40

    rounds = gamestate.history(game_row)
    assert len(rounds) >= 20 and game_row.end_reason and len(replaced_rounds) >= 3
    # a blank replaced comes back on the next rack
    for n in replaced_rounds:
        if n < len(rounds):
            assert "?" in rounds[n].rack, (n, rounds[n])

    top_total = rounds[-1].cumulative
    standings = ok(arb.get(f"{games_url}/standings/"))
    rows = {r["table"]: r for r in standings["rows"]}
    assert standings["top_total"] == top_total
    assert all(rows[hall.tables[i]]["total"] == top_total for i in range(PLAYERS) if i != SILENT)
    assert rows[hall.tables[SILENT]]["total"] == 0 and rows[hall.tables[SILENT]]["rank"] == PLAYERS
    over = ok(hall.tablets[0].get(f"{T}/state/"))["game_over"]
    assert over and over["top_total"] == top_total and over["total"] == top_total

    # the records exported from the saved game say the variant and each replacement
    engine = gamestate.load(game_row)
    assert engine.variant.id == "joker"
    record_json = game_to_json(engine, lexicon="sim-en")
    assert record_json["variant"] == "joker"
    assert [r["round"] for r in record_json["rounds"] if r.get("replaced")] == replaced_rounds
    gcg = game_to_gcg(engine, lexicon="sim-en")
    assert "#note variant joker" in gcg and gcg.count("#note") >= 1 + len(replaced_rounds)
