"""Game records: GCG and JSON export, JSON replay with its checks, and ``manage.py simulate``.

Games are played with the compiled move generator on the small word lists in
``fixtures/lexicons``. No database.
"""

import copy
import json

import pytest

from lexicon.graph import WordGraph, build
from scoring.board import Board
from scoring.game import DuplicateGame
from scoring.records import ReplayError, dumps, game_to_gcg, game_to_json, gcg_move, replay_json
from scoring.rules import get_ruleset
from scoring.solver import graph_solver
from tests.paths import ROOT

LEXICONS = ROOT / "fixtures" / "lexicons"
ROUND_KEYS = {"round", "leftover", "drawn", "rack", "redraws", "top", "bag_after"}


@pytest.fixture(scope="module")
def graphs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("graphs")
    out = {}
    for rs_id in ("ru", "uk", "en"):
        words = (LEXICONS / f"sim-{rs_id}.txt").read_text(encoding="utf-8").split()
        path = folder / f"{rs_id}.kwg"
        build(words, get_ruleset(rs_id).alphabet, path)
        out[rs_id] = (path, WordGraph.load(path))
    return out


def play(graphs, rs_id, seed):
    rs = get_ruleset(rs_id)
    graph = graphs[rs_id][1]
    return DuplicateGame(rs, seed).play_out(graph_solver(rs, graph)), graph


def game_with_redraws(graphs, rs_id="ru"):
    for seed in range(50):
        game, graph = play(graphs, rs_id, seed)
        if any(r.redraws for r in game.rounds[1:]):
            return game, graph
    raise AssertionError("no game with a redraw after round 1")


# -- JSON --------------------------------------------------------------------------


def test_json_record_shape(graphs):
    game, _ = play(graphs, "ru", 5)
    data = json.loads(dumps(game))
    assert set(data) == {"seed", "ruleset", "rounds", "total", "end_reason", "final_board"}
    assert (data["seed"], data["ruleset"], data["total"], data["end_reason"]) == (5, "ru", game.total, game.end_reason)
    assert data["final_board"] == game.board.to_fen()
    for i, rnd in enumerate(data["rounds"], start=1):
        assert set(rnd) == ROUND_KEYS and rnd["round"] == i
        assert set(rnd["top"]) == {"move", "score"}
        if rnd["redraws"] == 0:
            assert rnd["rack"] == rnd["leftover"] + rnd["drawn"]
        else:
            assert rnd["rack"] == rnd["drawn"]
    assert sum(r["top"]["score"] for r in data["rounds"]) == data["total"]
    assert game_to_json(game, lexicon="sim-ru")["lexicon"] == "sim-ru"


@pytest.mark.parametrize("rs_id, seed", [("ru", 1), ("uk", 2), ("en", 3)])
def test_json_replay_round_trip(graphs, rs_id, seed):
    game, graph = play(graphs, rs_id, seed)
    text = dumps(game)
    again = replay_json(text, lexicon=graph, solve_fn=graph_solver(game.ruleset, graph))
    assert game_to_json(again) == game_to_json(game)
    again.check_invariant()


def test_replay_with_redraws(graphs):
    game, graph = game_with_redraws(graphs)
    again = replay_json(game_to_json(game), lexicon=graph)
    assert [r.redraws for r in again.rounds] == [r.redraws for r in game.rounds]
    assert game_to_json(again) == game_to_json(game)


def tampered(game, change):
    data = copy.deepcopy(game_to_json(game))
    change(data)
    return data


def test_tampered_score_is_refused_naming_the_round(graphs):
    game, _ = play(graphs, "ru", 7)
    data = tampered(game, lambda d: d["rounds"][4]["top"].__setitem__("score", d["rounds"][4]["top"]["score"] + 1))
    with pytest.raises(ReplayError) as err:
        replay_json(data)
    move, score = game.rounds[4].move, game.rounds[4].score
    assert err.value.round == 5 and err.value.code == "score"
    assert str(err.value) == f"round 5: {move} scores {score}, the record says {score + 1}"


def test_tampered_racks_are_refused(graphs):
    game, _ = play(graphs, "ru", 7)
    r3 = game.rounds[2]
    # two Ъ drawn: the set has only one
    k = next(i for i, r in enumerate(game.rounds) if i > 0 and len(r.drawn) >= 2)

    def swap(d):
        rnd = d["rounds"][k]
        rnd["drawn"] = "ЪЪ" + rnd["drawn"][2:]
        rnd["rack"] = rnd["leftover"] + rnd["drawn"] if not rnd["redraws"] else rnd["drawn"]

    with pytest.raises(ReplayError) as err:
        replay_json(tampered(game, swap))
    assert err.value.round == k + 1 and err.value.code == "not_in_bag"
    assert "cannot come from the bag" in str(err.value) and "Ъ" in str(err.value)

    # the leftover does not match what the previous top left

    def leftover(d):
        d["rounds"][2]["leftover"] = d["rounds"][2]["leftover"] + "Щ"

    with pytest.raises(ReplayError) as err:
        replay_json(tampered(game, leftover))
    assert err.value.round == 3 and err.value.code == "leftover"
    assert f"the previous rack left {r3.leftover or 'nothing'}" in str(err.value)
    # rack that is not leftover + drawn

    def rack(d):
        d["rounds"][2]["rack"] = "АААААА"

    with pytest.raises(ReplayError) as err:
        replay_json(tampered(game, rack))
    assert err.value.round == 3 and err.value.code == "rack"


def test_tampered_moves_and_totals_are_refused(graphs):
    game, graph = play(graphs, "en", 9)
    # a move that is not on the board the record builds
    def move(d):
        d["rounds"][1]["top"]["move"] = "A1 ZZ"

    with pytest.raises(ReplayError) as err:
        replay_json(tampered(game, move))
    assert err.value.round == 2
    with pytest.raises(ReplayError) as err:
        replay_json(tampered(game, lambda d: d.__setitem__("total", d["total"] + 10)))
    assert err.value.code == "total" and err.value.round is None
    with pytest.raises(ReplayError) as err:
        replay_json(tampered(game, lambda d: d.__setitem__("end_reason", "one_tile_left" if game.end_reason != "one_tile_left" else "no_vowel")))
    assert err.value.code == "end_reason"
    with pytest.raises(ReplayError) as err:
        replay_json(tampered(game, lambda d: d.__setitem__("final_board", Board(game.ruleset).to_fen())))
    assert err.value.code == "final_board"
    with pytest.raises(ReplayError) as err:
        replay_json(tampered(game, lambda d: d["rounds"][3].__setitem__("bag_after", 1000)))
    assert err.value.round == 4 and err.value.code == "bag_after"
    with pytest.raises(ReplayError) as err:  # a record cut short
        replay_json(tampered(game, lambda d: d.__setitem__("rounds", d["rounds"][:5])))
    assert err.value.code == "end_reason" and "goes on" in str(err.value)
    with pytest.raises(ReplayError) as err:
        replay_json("{not json")
    assert err.value.code == "bad_record"


def test_replay_checks_words_and_tops(graphs):
    game, graph = play(graphs, "en", 11)
    data = game_to_json(game)
    replay_json(data, lexicon=graph)
    # a lexicon without the first top's word refuses it
    first_word = game.rounds[0].move.split()[1].upper()
    with pytest.raises(ReplayError) as err:
        replay_json(data, lexicon={"QI"})
    assert err.value.round == 1 and err.value.code == "not_a_word" and first_word in str(err.value)
    # a generator that finds a better move refuses the record's top
    def better(board, rack):
        real = graph_solver(game.ruleset, graph)(board, rack)
        for m in real:
            m.score += 1  # SolvedMove scores are plain attributes
        return real

    with pytest.raises(ReplayError) as err:
        replay_json(data, solve_fn=better)
    assert err.value.round == 1 and err.value.code == "not_top"


# -- GCG ----------------------------------------------------------------------------


def test_gcg_export(graphs):
    game, _ = game_with_redraws(graphs)
    text = game_to_gcg(game, lexicon="sim-ru")
    lines = text.splitlines()
    assert lines[0] == "#character-encoding UTF-8"
    assert "#player1 Top Top" in lines
    assert f"#title Duplicate game ru seed {game.seed}" in lines
    assert any(line.startswith("#description") and "rule set ru" in line and f"seed {game.seed}" in line for line in lines)
    assert "#lexicon sim-ru" in lines
    moves = [line for line in lines if line.startswith(">Top: ")]
    assert len(moves) == len(game.rounds)
    assert moves[-1].endswith(f" {game.total}")
    first = moves[0].split()
    assert first[4] == f"+{game.rounds[0].score}" and first[5] == str(game.rounds[0].score)
    # a redraw gets a note, the end of the game closes the record
    assert any(line.startswith("#note round") and "redraw ×" in line for line in lines)
    assert lines[-1].startswith("#note end of game:") and f"total {game.total}" in lines[-1]


def test_gcg_coordinates_and_played_through_letters():
    ru = get_ruleset("ru")
    board = Board(ru)
    assert gcg_move(board, "H8 ЗДОРОВЫ") == ("8H", "ЗДОРОВЫ")  # across: row number first
    assert gcg_move(board, "H8 зДОРОВЫ") == ("8H", "зДОРОВЫ")
    from scoring.notation import parse_move
    from scoring.placement import apply, evaluate

    after = apply(board, evaluate(board, parse_move("H8 ЗДОРОВЫ", ru)))
    assert gcg_move(after, "8H ЗАНОВО") == ("H8", ".АНОВО")  # down: column letter first; З was there


# -- manage.py simulate ----------------------------------------------------------------


@pytest.fixture
def sim(manage, monkeypatch, tmp_path, graphs):
    monkeypatch.setenv("DUPLICATE_VAR_DIR", str(tmp_path / "var"))

    def run(*args):
        return manage("simulate", *args)

    return run


def test_simulate_text(sim, graphs):
    kwg = str(graphs["ru"][0])
    res = sim("--ruleset", "ru", "--lexicon", kwg, "--seed", "3")
    assert res.returncode == 0, res.stderr
    out = res.stdout.splitlines()
    assert out[0].startswith("Duplicate game: rule set ru") and out[1].split() == ["round", "rack", "top", "score", "total"]
    assert any("+" in line for line in out[2:])  # leftover+new tiles
    assert any(line.startswith("Total: ") for line in out) and out[-1].startswith("End: ")
    again = sim("--ruleset", "ru", "--lexicon", kwg, "--seed", "3")
    assert again.stdout == res.stdout  # same seed, same game


def test_simulate_json_replays(sim, graphs, tmp_path):
    path, graph = graphs["uk"]
    gcg = tmp_path / "game.gcg"
    res = sim("--ruleset", "uk", "--lexicon", str(path), "--seed", "4", "--json", "--gcg", str(gcg))
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["seed"] == 4 and data["ruleset"] == "uk"
    game = replay_json(data, lexicon=graph)
    assert game.total == data["total"]
    assert gcg.read_text(encoding="utf-8").count(">Top: ") == len(data["rounds"])


def test_simulate_many_games(sim, graphs):
    res = sim("--ruleset", "en", "--lexicon", str(graphs["en"][0]), "--seed", "10", "--games", "3")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert [line.split(":")[0] for line in lines[:3]] == ["seed 10", "seed 11", "seed 12"]
    assert "3 games" in lines[-1] and "games/s" in lines[-1]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--ruleset", "xx", "--lexicon", "en"], "unknown rule set 'xx'"),
        (["--ruleset", "en", "--lexicon", "/no/such/file.txt"], "neither a registered lexicon nor an existing file"),
        (["--ruleset", "en"], "the following arguments are required: --lexicon"),
        (["--ruleset", "en", "--lexicon", "x", "--games", "0"], "--games must be 1 or more"),
        (["--ruleset", "en", "--lexicon", "x", "--seed", "many"], "invalid int value"),
        (["--ruleset", "en", "--lexicon", "x", "--games", "2", "--gcg", "a.gcg"], "--gcg writes one game"),
    ],
)
def test_simulate_bad_arguments(sim, args, message):
    res = sim(*args)
    assert res.returncode == 2
    err = res.stderr.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_an_end_reason_that_is_not_text_is_refused(graphs):
    """A record cut short whose end reason is not text (a JSON list) is a ReplayError, not a TypeError."""
    game, _ = play(graphs, "en", 9)

    def cut(d):
        d["rounds"] = d["rounds"][:5]
        d["end_reason"] = ["no_vowel"]

    with pytest.raises(ReplayError) as err:
        replay_json(tampered(game, cut))
    assert err.value.code == "end_reason" and "goes on" in str(err.value)
