"""The Joker variant (issue 17, ``scoring.variants``): Eliot's regression games score exactly,
whole games keep their tiles and their racks valid, and ``simulate --variant joker`` plays them.

Eliot's games are its ``.ref`` transcripts in ``shared/records/fr/eliot`` (read in place, never
copied): the history table of each game (rack, top, reference, points) is replayed move by move
on our board with the racks as recorded, every recorded score must come out exactly, and the
board Eliot printed with the history (letters, and which squares hold a blank) must be ours.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from lexicon.graph import WordGraph, build
from scoring.board import Board
from scoring.draw import BLANK, Bag, DrawError, check_rack, draw_rack
from scoring.game import DuplicateGame
from scoring.judge import judge_slip
from scoring.notation import parse_move
from scoring.placement import evaluate
from scoring.records import game_to_gcg, game_to_json, replay_json
from scoring.rules import get_ruleset
from scoring.solver import graph_solver
from scoring.variants import get_variant
from tests.paths import LEXICONS, RECORDS

ELIOT = RECORDS / "fr" / "eliot"
JOKER_GAMES = sorted(ELIOT.glob("*joker_variant*.ref")) if ELIOT.is_dir() else []
#: A classic game with blanks (Eliot's training mode, no variant): the blanks stay blanks.
CLASSIC_GAME = ELIOT / "e7ba7932ca_training_joker.ref"

_ROW = re.compile(r"^\s+(\d+) \|(?: \d+ \|)?\s*(\S*)\s*\| (\S+)\s*\|\s*(\S+)\s*\|\s*(\d+) \|")
_BOARD_ROW = re.compile(r"^ ([A-O])   (.*)$")


# -- reading a transcript ------------------------------------------------------------


def _histories(lines: list[str]) -> list[tuple[int, str, list[tuple[str, str, str, int]]]]:
    """Every history table: (its line number, the variant line, its rows (rack, word, ref, points))."""
    out = []
    for i, line in enumerate(lines):
        if line.strip() != "Game: history:":
            continue
        variant = next((x for x in lines[max(0, i - 3):i] if x.startswith("Game: variant=")), "")
        rows = []
        for row in lines[i + 3:]:
            m = _ROW.match(row)
            if not m:
                break
            rows.append((m.group(2), m.group(3), m.group(4), int(m.group(5))))
        out.append((i, variant, rows))
    return out


def _board_before(lines: list[str], at: int) -> list[str] | None:
    """The last board Eliot printed before line ``at``: 15 rows of 15 cells (``-`` empty)."""
    for i in range(at, -1, -1):
        if lines[i].startswith("     1  2  3"):
            rows = []
            for row in lines[i + 1:i + 16]:
                m = _BOARD_ROW.match(row)
                assert m, row
                rows.append("".join(m.group(2).split()))
            return rows
    return None


def _grid(board: Board) -> list[str]:
    rows = []
    for r in range(15):
        cells = []
        for c in range(15):
            t = board[r, c]
            cells.append("-" if t is None else t.letter.lower() if t.blank else t.letter)
        rows.append("".join(cells))
    return rows


def replay_eliot(rows: list[tuple[str, str, str, int]], variant: str) -> DuplicateGame:
    """Play Eliot's history on our engine, each rack as recorded (training sets racks by hand and a
    free game has one rack per player: the stand goes back into the bag and the rack is taken)."""
    game = DuplicateGame("fr", 0, variant=variant)
    rs = game.ruleset
    for n, (rack, word, ref, points) in enumerate(rows, start=1):
        if word == "(PASS)":
            continue
        tiles = list(rack.replace("+", ""))
        game.bag.put_back(game.on_stand())
        game.bag.take(tiles)
        game.rack, game.leftover, game.phase = tiles, [], "play"
        play = evaluate(game.board, parse_move(f"{ref} {word}", rs), rack=tiles)
        assert play.score == points, f"round {n}: {ref} {word} scores {play.score}, Eliot says {points}"
        game.play(play)
        game.check_invariant()
    return game


# -- Eliot's games -------------------------------------------------------------------


@pytest.mark.skipif(not JOKER_GAMES, reason=f"Eliot's records are not in {ELIOT}")
@pytest.mark.parametrize("path", JOKER_GAMES, ids=lambda p: p.stem)
def test_eliot_joker_games_score_exactly(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    histories = _histories(lines)
    assert histories and all(v == "Game: variant=joker" for _, v, _ in histories)
    at, _, rows = max(histories, key=lambda h: len(h[2]))
    for _, _, other in histories:  # Eliot's navigation shows earlier states: each is a prefix
        assert other == rows[:len(other)]
    game = replay_eliot(rows, "joker")
    assert sum(r.score for r in game.rounds) == sum(p for *_, p in rows)
    # each board Eliot printed right before a history of the same length is ours at that point
    checked = 0
    for i, _, part in histories:
        board = _board_before(lines, i)
        partial = replay_eliot(part, "joker")
        if board is not None and sum(c != "-" for row in board for c in row) == partial.board.tile_count():
            assert _grid(partial.board) == board, f"line {i}: the board differs"
            checked += 1
    assert checked, "no board of the transcript was compared"


@pytest.mark.skipif(not CLASSIC_GAME.is_file(), reason=f"{CLASSIC_GAME} is missing")
def test_eliot_classic_game_keeps_its_blanks() -> None:
    lines = CLASSIC_GAME.read_text(encoding="utf-8").splitlines()
    (at, variant, rows), = _histories(lines)
    assert variant == ""
    game = replay_eliot(rows, "classic")
    assert _grid(game.board) == _board_before(lines, at)
    assert sum(t.blank for _, _, t in game.board.tiles()) == 2


def test_joker_replacement_is_scored_at_full_value_later() -> None:
    """Eliot 78e8972c5b rounds 1–2 and 4: AKENEs puts an S tile (the blank back into the bag), so
    dEPLANTIEZ through the P of pLANTIEZ counts the P at 3."""
    game = replay_eliot([("AK?EZEN", "AKENEs", "H3", 48), ("Z+IL?ENT", "pLANTIEZ", "3F", 86)], "joker")
    assert [r.replaced for r in game.rounds] == ["S", "P"]
    assert game.bag.count(BLANK) == 2 and game.board[7, 7] is not None and not game.board[7, 7].blank
    play = evaluate(game.board, parse_move("3D dEPLANTIEZ", game.ruleset), rack=list("RABEGE?"))
    assert play.score == 20  # 17 if the P were still a blank


def test_a_blank_whose_letter_is_gone_stays() -> None:
    """Eliot 7db6d76a4c: WHISKEYS puts the only K, so the k of kA stays a blank (1 point)."""
    rows = [("E?ESAVP", "PAVEuSE", "H2", 80), ("WHISKYS", "WHISKEYS", "5C", 126), ("RIRD?MU", "kA", "3G", 1)]
    game = replay_eliot(rows, "joker")
    assert [r.replaced for r in game.rounds] == ["U", "", ""]
    assert game.board[6, 2].blank and game.bag.count(BLANK) == 1


# -- whole games ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def solvers(tmp_path_factory):
    """The compiled move generator on the small word lists of ``fixtures/lexicons``: (graph file, solve)."""
    folder = tmp_path_factory.mktemp("joker")
    out = {}
    for rs_id in ("ru", "uk", "en"):
        rs = get_ruleset(rs_id)
        words = (LEXICONS / f"sim-{rs_id}.txt").read_text(encoding="utf-8").split()
        path = folder / f"{rs_id}.kwg"
        build(words, rs.alphabet, path)
        out[rs_id] = (path, graph_solver(rs, WordGraph.load(path)))
    return out


@pytest.fixture(scope="module")
def ru_solver(solvers):
    return solvers["ru"]


def _joker_pool(tiles: list[str]) -> list[str]:
    """The tiles a Joker rack can come from: the letters and one blank (a rack never holds two)."""
    return [t for t in tiles if t != BLANK] + [BLANK] * min(1, tiles.count(BLANK))


def _play_checked(game: DuplicateGame, solve) -> int:
    """Play one joker game round by round, checking every rack and every top; returns the blanks replaced."""
    rs = game.ruleset
    full = Counter(rs.full_bag())
    replaced = 0
    while not game.over:
        if game.phase == "draw":
            blank_left = BLANK in game.leftover or BLANK in game.bag
            outcome = game.draw()
            rack = outcome.rack
            assert rack is not None and len(rack) == min(rs.rack_size, len(rack) + len(game.bag))
            assert rack.count(BLANK) == (1 if blank_left else 0), (game.seed, game.round_no, rack)
            assert check_rack(rs, rack, game.round_no, _joker_pool(rack + game.bag.tiles())).valid
        moves = game.legal_moves(solve)
        if not moves:
            game.no_move()
        else:
            top = game.tops(moves)[0]
            before = game.bag.counts()
            blanks_before = game.bag.count(BLANK)
            record = game.play(top)
            for p in top.placed:
                if p.blank:  # replaced exactly when the bag held the letter
                    assert (not game.board[p.row, p.col].blank) == (before[p.letter] > 0)
            assert game.bag.count(BLANK) == blanks_before + len(record.replaced)
            replaced += len(record.replaced)
        have = game.board_tiles() + Counter(game.on_stand()) + game.bag.counts()
        assert have == full, (game.seed, game.round_no)  # every tile: bag + rack + board
    return replaced


@pytest.mark.parametrize("block", range(4))
@pytest.mark.parametrize("rs_id", ["ru", "uk", "en"])
def test_joker_games_conserve_tiles_and_racks_200_seeds(solvers, rs_id: str, block: int) -> None:
    _, solve = solvers[rs_id]
    replaced = 0
    for seed in range(block * 50, block * 50 + 50):
        game = DuplicateGame(rs_id, seed, variant="joker")
        replaced += _play_checked(game, solve)
        state = json.loads(json.dumps(game.to_json()))
        assert state["variant"] == "joker"
        assert DuplicateGame.from_json(state).to_json() == game.to_json()
    assert replaced > 50  # the rule is exercised, not only the draw


def test_joker_record_replays_and_notes_the_variant(ru_solver) -> None:
    _, solve = ru_solver
    for seed in range(20):
        game = DuplicateGame("ru", seed, variant="joker").play_out(solve, check=True)
        if any(r.replaced for r in game.rounds):
            break
    else:
        raise AssertionError("no blank replaced in 20 games")
    record = game_to_json(game)
    assert record["variant"] == "joker"
    assert any("replaced" in r for r in record["rounds"])
    again = replay_json(json.loads(json.dumps(record)), solve_fn=solve)
    assert again.total == game.total and again.board == game.board
    classic = dict(record)
    del classic["variant"]
    with pytest.raises(Exception):  # noqa: B017, PT011 (a joker game does not replay as classic)
        replay_json(classic)
    gcg = game_to_gcg(game)
    assert "#note variant joker" in gcg and "is replaced by" in gcg
    classic_game = DuplicateGame("ru", 1).play_out(solve)
    assert "variant" not in game_to_json(classic_game) and "variant" not in classic_game.to_json()
    assert "#note variant" not in game_to_gcg(classic_game)


def test_simulate_variant_joker_is_deterministic(ru_solver) -> None:
    path, _ = ru_solver
    outs = []
    for _ in range(2):
        out = StringIO()
        call_command("simulate", "--ruleset", "ru", "--lexicon", str(path), "--seed", "3", "--variant", "joker",
                     "--json", stdout=out)
        outs.append(out.getvalue())
    assert outs[0] == outs[1]
    data = json.loads(outs[0])
    assert data["variant"] == "joker" and data["end_reason"] and data["rounds"]
    assert all(r["rack"].count(BLANK) <= 1 for r in data["rounds"])
    table = StringIO()
    call_command("simulate", "--ruleset", "ru", "--lexicon", str(path), "--seed", "3", "--variant", "joker",
                 stdout=table)
    assert "variant joker" in table.getvalue() and f"Total: {data['total']}" in table.getvalue()


def test_variants_are_data() -> None:
    assert get_variant(None).classic and get_variant("classic").classic
    joker = get_variant("joker")
    assert joker.blank_on_rack and joker.blank_replaced
    with pytest.raises(ValueError, match="unknown variant"):
        get_variant("explosive")


def test_solver_and_judge_score_the_replaced_tile(tmp_path: Path) -> None:
    """The solver and the judge read the board: after the Joker rule the P of pLANTIEZ is a P tile
    (Eliot 78e8972c5b, round 4: dEPLANTIEZ through it scores 20 with the P at 3 points)."""
    rows = [("AK?EZEN", "AKENEs", "H3", 48), ("Z+IL?ENT", "pLANTIEZ", "3F", 86), ("DEDOTC?", "DECODaT", "G5", 79)]
    game = replay_eliot(rows, "joker")
    rs = game.ruleset
    path = tmp_path / "fr.kwg"
    build(["AKENES", "PLANTIEZ", "DECODAT", "DEPLANTIEZ"], rs.alphabet, path)
    solve = graph_solver(rs, WordGraph.load(path))
    tops = {m.notation(): m.score for m in solve(game.board, list("RABEGE?"))}
    assert tops == {"3D dEPLANTIEZ": 20}
    verdict = judge_slip(game.board, "RABEGE?", "3D dEPLANTIEZ 17", round_number=4, lexicon=None)
    assert (verdict.awarded, verdict.warning, verdict.true_score) == (20, True, 20)


def test_joker_typed_racks_hold_one_blank() -> None:
    game = DuplicateGame("ru", 1, variant="joker")
    with pytest.raises(DrawError) as no_blank:
        game.type_rack("ОЕТВРАК")
    assert no_blank.value.code == "joker_no_blank"
    with pytest.raises(DrawError) as two:
        game.type_rack("??ЕТВРА")
    assert two.value.code == "joker_two_blanks"
    assert len(game.bag) == 104 and game.phase == "draw"  # refused racks leave the bag untouched
    outcome = game.type_rack("?ОЕТВРА")
    assert outcome.rack is not None and outcome.rack.count(BLANK) == 1
    classic = DuplicateGame("ru", 1)
    assert classic.type_rack("ОЕТВРАК").rack is not None  # the classic game asks for no blank


def test_joker_redraws_start_again_with_the_blank() -> None:
    for seed in range(200):
        game = DuplicateGame("ru", seed, variant="joker")
        outcome = game.draw()
        if outcome.redraws:
            break
    else:
        raise AssertionError("no redraw in round 1 in 200 seeds")
    assert [e.kind for e in outcome.events][-1] == "redraw"
    for event in outcome.events:
        assert event.rack.count(BLANK) == 1 and event.drawn.startswith(BLANK), event
    assert game.bag.count(BLANK) == 1  # the other blank stays in the bag


def test_joker_racks_without_a_blank_once_both_are_on_the_board() -> None:
    rs = get_ruleset("ru")
    bag = Bag(rs, 7, [t for t in rs.full_bag() if t != BLANK])
    outcome = draw_rack(rs, bag, [], 1, variant=get_variant("joker"))
    assert outcome.rack is not None and BLANK not in outcome.rack and len(outcome.rack) == 7
