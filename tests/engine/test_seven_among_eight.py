"""The 7-among-8 variant (issue 17, ``scoring.variants``): racks of 8 tiles, a move places at most 7,
and the bonus is for 7.

Eliot's regression games of the variant (``shared/records/fr/eliot/*7among8_variant*.ref``, read in
place) are replayed move by move with the racks as recorded: every recorded score comes out exactly.
Whole games over 200 seeds keep their tiles and their racks valid; the judge refuses a slip of 8
tiles and gives the bonus to one of 7; ``simulate --variant 7among8`` plays a game.
"""

from __future__ import annotations

import json
from collections import Counter
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from lexicon.graph import WordGraph, build
from scoring.board import Board
from scoring.draw import check_rack
from scoring.game import DuplicateGame
from scoring.judge import Reason, judge_slip
from scoring.notation import parse_move
from scoring.placement import IllegalMove, evaluate
from scoring.records import game_to_gcg, game_to_json, replay_json
from scoring.rules import get_ruleset
from scoring.solver import graph_solver
from scoring.variants import get_variant, variant_ruleset
from tests.engine.test_joker import ELIOT, _histories
from tests.paths import LEXICONS

EIGHT_GAMES = sorted(ELIOT.glob("*7among8_variant*.ref")) if ELIOT.is_dir() else []


def replay_eliot(rows: list[tuple[str, str, str, int]]) -> DuplicateGame:
    """Eliot's history on our 7-among-8 engine, each rack as recorded (``-`` before a rack: Eliot
    redrew it; a free game's rack is one player's: the stand goes back into the bag first)."""
    game = DuplicateGame("fr", 0, variant="7among8")
    rs = game.ruleset
    for n, (rack, word, ref, points) in enumerate(rows, start=1):
        if word == "(PASS)" or word.startswith("["):
            continue
        tiles = list(rack.replace("+", "").replace("-", ""))
        assert len(tiles) <= 8
        game.bag.put_back(game.on_stand())
        game.bag.take(tiles)
        game.rack, game.leftover, game.phase = tiles, [], "play"
        play = evaluate(game.board, parse_move(f"{ref} {word}", rs), rack=tiles)
        assert play.score == points, f"round {n}: {ref} {word} scores {play.score}, Eliot says {points}"
        game.play(play)
        game.check_invariant()
    return game


@pytest.mark.skipif(not EIGHT_GAMES, reason=f"Eliot's records are not in {ELIOT}")
@pytest.mark.parametrize("path", EIGHT_GAMES, ids=lambda p: p.stem)
def test_eliot_7among8_games_score_exactly(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    histories = _histories(lines)
    assert histories and all(v == "Game: variant=7among8" for _, v, _ in histories), path
    _, _, rows = max(histories, key=lambda h: len(h[2]))
    game = replay_eliot(rows)
    assert sum(r.score for r in game.rounds) == sum(p for *_, p in rows if p)
    # Eliot's racks hold 8 tiles and its bonus moves place exactly 7
    assert any(len(r.replace("+", "").replace("-", "")) == 8 for r, *_ in rows)


def test_eliot_bonus_is_for_seven_tiles() -> None:
    """Eliot 938af5c87c round 1: BIRDIES from DBEIISER places 7 of the 8 tiles: 26 + 50."""
    game = replay_eliot([("DBEIISER", "BIRDIES", "H4", 76)])
    assert game.rounds[0].score == 76 and game.leftover == ["E"]


# -- rules as data -------------------------------------------------------------------


def test_variant_is_a_rule_set_with_other_numbers() -> None:
    eight = get_variant("7among8")
    assert not eight.classic and not eight.blank_on_rack
    rs = variant_ruleset("fr", eight)
    assert (rs.rack_size, rs.move_tiles, rs.bingo) == (8, 7, 50)
    assert variant_ruleset("fr", "7among8") is rs  # one object per rule set
    classic = get_ruleset("fr")
    assert (classic.rack_size, classic.move_tiles) == (7, 7) and variant_ruleset(classic, None) is classic


def test_a_move_of_eight_tiles_is_refused_and_seven_earn_the_bonus(tmp_path: Path) -> None:
    rs = variant_ruleset("en", "7among8")
    board = Board(rs)
    with pytest.raises(IllegalMove) as eight:
        evaluate(board, parse_move("H1 ABCDEFGH", rs), rack=list("ABCDEFGH"))
    assert eight.value.code == "too_many_tiles"
    seven = evaluate(board, parse_move("H2 ABCDEFG", rs), rack=list("ABCDEFGH"))
    assert seven.bingo and seven.score == seven.words[0].score + 50
    classic = evaluate(
        Board(get_ruleset("en")), parse_move("H2 ABCDEFG", get_ruleset("en")), rack=list("ABCDEFG")
    )
    assert classic.bingo and classic.score == seven.score


def test_judge_refuses_eight_tiles_and_scores_seven(tmp_path: Path) -> None:
    rs = variant_ruleset("en", "7among8")
    path = tmp_path / "en.kwg"
    build(["DRAWINGS", "DRAWING", "WING"], rs.alphabet, path)
    lexicon = {"DRAWINGS", "DRAWING", "WING"}
    board = Board(rs)
    refused = judge_slip(board, "DRAWINGS", "H1 DRAWINGS 76", round_number=2, lexicon=lexicon)
    assert refused.awarded == 0 and refused.reason == Reason.ILLEGAL_PLACEMENT
    assert "at most 7" in str(refused.explanation)
    seven = judge_slip(board, "DRAWINGS", "H2 DRAWING 76", round_number=2, lexicon=lexicon)
    assert seven.awarded == seven.true_score and seven.true_score > 50 and not seven.warning
    solve = graph_solver(rs, WordGraph.load(path))
    tops = {m.notation(): m.score for m in solve(board, list("DRAWINGS"))}
    assert tops and all(not m.endswith("DRAWINGS") for m in tops)  # 8 tiles: never a move
    assert all(score == seven.true_score + 2 for score in tops.values())  # DRAWING with the bonus, D on DL


def test_typed_racks_of_eight_are_checked() -> None:
    game = DuplicateGame("ru", 1, variant="7among8")
    outcome = game.type_rack("ОЕТВРАКИ")
    assert outcome.rack is not None and len(outcome.rack) == 8
    classic = DuplicateGame("ru", 1)
    with pytest.raises(Exception):  # noqa: B017, PT011 (a classic rack holds 7)
        classic.type_rack("ОЕТВРАКИ")


# -- whole games ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def solvers(tmp_path_factory):
    """The compiled move generator on the small word lists of ``fixtures/lexicons``: (graph file, solve)."""
    folder = tmp_path_factory.mktemp("eight")
    out = {}
    for rs_id in ("ru", "uk", "en"):
        rs = variant_ruleset(rs_id, "7among8")
        words = (LEXICONS / f"sim-{rs_id}.txt").read_text(encoding="utf-8").split()
        path = folder / f"{rs_id}.kwg"
        build(words, rs.alphabet, path)
        out[rs_id] = (path, graph_solver(rs, WordGraph.load(path)))
    return out


def _play_checked(game: DuplicateGame, solve) -> int:
    """Play one game round by round, checking every rack and every top; returns the bonus moves."""
    rs = game.ruleset
    full = Counter(rs.full_bag())
    bonuses = 0
    while not game.over:
        if game.phase == "draw":
            outcome = game.draw()
            rack = outcome.rack
            assert rack is not None and len(rack) == min(8, len(rack) + len(game.bag)), (game.seed, rack)
            assert check_rack(rs, rack, game.round_no, rack + game.bag.tiles()).valid
        moves = game.legal_moves(solve)
        if not moves:
            game.no_move()
        else:
            top = game.tops(moves)[0]
            record = game.play(top)
            assert len(record.used) == len(top.placed) <= 7
            bonuses += len(top.placed) == 7
        have = game.board_tiles() + Counter(game.on_stand()) + game.bag.counts()
        assert have == full, (game.seed, game.round_no)  # every tile: bag + rack + board
    return bonuses


@pytest.mark.parametrize("block", range(4))
@pytest.mark.parametrize("rs_id", ["ru", "uk", "en"])
def test_7among8_games_conserve_tiles_and_racks_200_seeds(solvers, rs_id: str, block: int) -> None:
    _, solve = solvers[rs_id]
    for seed in range(block * 50, block * 50 + 50):
        game = DuplicateGame(rs_id, seed, variant="7among8")
        _play_checked(game, solve)
        state = json.loads(json.dumps(game.to_json()))
        assert state["variant"] == "7among8"
        assert DuplicateGame.from_json(state).to_json() == game.to_json()


def test_record_replays_and_notes_the_variant(solvers) -> None:
    _, solve = solvers["ru"]
    game = DuplicateGame("ru", 4, variant="7among8").play_out(solve, check=True)
    assert any(len(r.rack) == 8 for r in game.rounds)
    record = game_to_json(game)
    assert record["variant"] == "7among8"
    again = replay_json(json.loads(json.dumps(record)), solve_fn=solve)
    assert again.total == game.total and again.board == game.board
    classic = dict(record)
    del classic["variant"]
    with pytest.raises(Exception):  # noqa: B017, PT011 (racks of 8 do not replay as classic)
        replay_json(classic)
    assert "#note variant 7among8: 7-among-8; racks of 8 tiles, a move places at most 7" in game_to_gcg(game)


def test_simulate_variant_7among8(solvers) -> None:
    path, _ = solvers["ru"]
    outs = []
    for _ in range(2):
        out = StringIO()
        call_command(
            "simulate",
            "--ruleset",
            "ru",
            "--lexicon",
            str(path),
            "--seed",
            "3",
            "--variant",
            "7among8",
            "--json",
            stdout=out,
        )
        outs.append(out.getvalue())
    assert outs[0] == outs[1]
    data = json.loads(outs[0])
    assert data["variant"] == "7among8" and data["end_reason"] and data["rounds"]
    assert max(len(r["rack"]) for r in data["rounds"]) == 8


def test_judge_and_solve_commands_take_the_variant(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("DRAWINGS\nDRAWING\nWING\n", encoding="utf-8")
    out = StringIO()
    call_command(
        "judge",
        "--ruleset",
        "en",
        "--lexicon",
        str(words),
        "--variant",
        "7among8",
        "--rack",
        "DRAWINGS",
        "--slip",
        "H1 DRAWINGS 90",
        "--round",
        "2",
        stdout=out,
    )
    assert out.getvalue().startswith("0 points (illegal placement)") and " 8 " in out.getvalue()  # en: English
    solved = StringIO()
    call_command(
        "solve",
        "--ruleset",
        "en",
        "--lexicon",
        str(words),
        "--variant",
        "7among8",
        "--rack",
        "DRAWINGS",
        "--top",
        "1",
        "--json",
        stdout=solved,
    )
    best = json.loads(solved.getvalue())["moves"][0]
    assert best["tiles_placed"] == 7 and best["score"] > 50 and best["move"].endswith("DRAWING")
