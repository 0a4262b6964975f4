"""The duplicate game (RULES §4): choosing the top, no-move redraws, every end of the game,
typed and prepared racks, persistence, and whole simulated games for every rule set.

Whole games use the compiled move generator on the small word lists
``fixtures/lexicons/sim-<set>.txt`` (pl-literaki uses the pl list). No database.
"""

import json
import os
from collections import Counter
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexicon.graph import WordGraph, build
from scoring.board import Board, Tile
from scoring.draw import Bag, DrawError, check_rack
from scoring.game import DuplicateGame, GameError
from scoring.notation import parse_move
from scoring.placement import Placement
from scoring.rules import get_ruleset, ruleset_ids
from scoring.solver import graph_solver
from scoring.tops import END_REASONS, end_reason, leftover_imbalance, rank_tops
from tests.paths import ROOT
from tests.tools.wordlist_solver import WordListSolver

LEXICONS = ROOT / "fixtures" / "lexicons"
RU = get_ruleset("ru")
UK = get_ruleset("uk")


def sim_words(rs_id: str) -> list[str]:
    name = "pl" if rs_id == "pl-literaki" else rs_id
    return (LEXICONS / f"sim-{name}.txt").read_text(encoding="utf-8").split()


@pytest.fixture(scope="module")
def solvers(tmp_path_factory):
    """solve_fn per rule set: the compiled generator on the small simulation word lists."""
    folder = tmp_path_factory.mktemp("sim-graphs")
    out = {}
    for rs_id in ruleset_ids():
        rs = get_ruleset(rs_id)
        path = folder / f"{rs_id}.kwg"
        build(sim_words(rs_id), rs.alphabet, path)
        out[rs_id] = graph_solver(rs, WordGraph.load(path))
    return out


# -- the end of the game --------------------------------------------------------------


@pytest.mark.parametrize(
    "rs_id, left, reason",
    [
        ("ru", "", "bag_and_rack_empty"),
        ("ru", "А", "one_tile_left"),
        ("ru", "?", "one_tile_left"),
        ("ru", "БВГ", "no_vowel"),
        ("ru", "АЕО", "no_consonant"),
        ("ru", "?Б", None),  # a blank among 2+ tiles keeps the game going
        ("ru", "??", None),
        ("ru", "АЕ?", None),
        ("ru", "АБ", None),
        ("uk", "'Б", "no_vowel"),  # the apostrophe is neither
        ("uk", "'А", "no_consonant"),
        ("uk", "'?", None),
    ],
)
def test_end_reason(rs_id, left, reason):
    assert end_reason(get_ruleset(rs_id), list(left)) == reason


def small_game(bag_tiles: str, words, rs=RU) -> tuple[DuplicateGame, WordListSolver]:
    """A game whose bag holds only these tiles (the tile invariant does not hold here)."""
    game = DuplicateGame(rs, 1)
    game.bag = Bag(rs, 1, list(bag_tiles))
    return game, WordListSolver(rs, words)


@pytest.mark.parametrize(
    "bag, reason",
    [
        ("КОТ", "bag_and_rack_empty"),
        ("КОТА", "one_tile_left"),
        ("КОТБВ", "no_vowel"),
        ("КОТАЕ", "no_consonant"),
    ],
)
def test_game_ends_after_the_move(bag, reason):
    game, solver = small_game(bag, ["КОТ"])
    record = game.play_round(solver)
    assert record.move == "H6 КОТ"  # ties: the same word, the first coordinates
    assert game.over and game.end_reason == reason
    assert game.end_message == END_REASONS[reason]
    with pytest.raises(GameError) as err:
        game.draw()
    assert err.value.code == "game_over"


def test_blank_keeps_the_game_going():
    game, solver = small_game("КОТ?Б", ["КОТ", "ОБ"])
    game.play_round(solver)  # КОТ (a move using ?Б does not exist)
    assert not game.over and sorted(game.leftover) == sorted("?Б")
    record = game.play_round(solver)  # ОБ down through the О, with the real Б (7 points; the blank gives 1)
    assert (record.move, record.used, record.score) == ("7H ОБ", "Б", 7)
    assert sorted(record.rack) == sorted("?Б") and record.drawn == ""
    assert game.over and game.end_reason == "one_tile_left"


def test_no_move_and_no_other_rack_ends_the_game():
    game, _ = small_game("АБВГДЕ", [])
    assert game.play_round(lambda board, rack: []) is None
    assert game.over and game.end_reason == "no_move"
    last = game.log[-1]
    assert last.kind == "no_move" and "no other rack can be drawn" in last.reason


def test_no_move_ends_when_every_rack_was_tried():
    # 8 tiles in round 1: the valid racks leave out one of the 6 consonants
    game, _ = small_game("АЕБВГДЖЗ", [])
    game.play_round(lambda board, rack: [])
    assert game.end_reason == "no_move"
    assert len(game.no_move_racks) == 6
    assert all(len(r) == 7 for r in game.no_move_racks)


def test_no_move_safety_net():
    game = DuplicateGame(RU, 5, max_no_move_redraws=5)
    game.play_round(lambda board, rack: [])
    assert game.end_reason == "no_move"
    assert sum(1 for e in game.log if e.kind == "no_move") == 6
    game.check_invariant()


def test_a_game_ended_by_no_move_loads_again():
    """The last rack stays on the stand of a game ended by "no legal move": its state still loads."""
    game = DuplicateGame(RU, 5, max_no_move_redraws=5)
    game.play_round(lambda board, rack: [])
    assert game.over and game.rack is not None
    state = json.loads(json.dumps(game.to_json()))
    assert DuplicateGame.from_json(state).to_json() == game.to_json()


def test_no_move_sends_the_rack_back_and_redraws(solvers):
    real = solvers["ru"]
    calls = []

    def flaky(board, rack):
        calls.append(list(rack))
        return [] if len(calls) == 3 else real(board, rack)

    game = DuplicateGame(RU, 8)
    game.play_round(flaky)
    game.play_round(flaky)
    carried = list(game.leftover)
    record = game.play_round(flaky)  # round 3: the first rack has no move
    game.check_invariant()
    assert record.redraws >= 1 and record.leftover == "".join(carried)
    assert record.rack == record.drawn and record.kept == ""
    assert f"(redraw ×{record.redraws})" in record.rack_display()
    kinds = [e.kind for e in game.log if e.round == 3]
    assert kinds[0] == "draw" and "no_move" in kinds and kinds[-1] == "redraw"
    no_move = next(e for e in game.log if e.kind == "no_move")
    assert no_move.rack == "".join(calls[2]) and "goes back to the bag" in no_move.reason


# -- choosing the top -------------------------------------------------------------------------


def fake(rs, text: str, score: int):
    """A move as a solver gives it, on the empty board (every tile of the word is placed)."""
    written = parse_move(text, rs)
    placed = tuple(Placement(*written.coord.square(i), t.letter, t.blank) for i, t in enumerate(written.tiles))
    return SimpleNamespace(coord=written.coord, tiles=written.tiles, placed=placed, score=score, text=text)


def order(rs, rack, bag, moves, board=None):
    board = board or Board(rs).copy()
    return [m.text for m in rank_tops(board, list(rack), moves, list(bag))]


def nonempty(rs):
    board = Board(rs)
    board[14, 14] = Tile(rs.letters[0])  # any tile: the board is not empty
    return board


def test_top_is_the_highest_score_only():
    moves = [fake(RU, "H8 АБ", 10), fake(RU, "H8 БА", 12), fake(RU, "H7 ВА", 12)]
    assert order(RU, "АБВ", "ГДЕЖ", moves, nonempty(RU)) == ["H8 БА", "H7 ВА"]  # Б before В


def test_first_move_horizontal_only():
    moves = [fake(RU, "8H АБ", 30), fake(RU, "H8 БА", 10)]
    assert order(RU, "АБ", "ГДЕЖ", moves) == ["H8 БА"]


def test_a_move_that_ends_the_game_comes_first():
    # bag empty; rack АБВ?: А + blank leaves БВ (no vowel: the game ends), even with a blank;
    # БА leaves В? (a blank among 2 tiles: the game goes on)
    moves = [fake(RU, "H8 БА", 8), fake(RU, "H8 Аб", 8)]
    assert order(RU, "АБВ?", "", moves, nonempty(RU)) == ["H8 Аб", "H8 БА"]
    assert order(RU, "АБВ?", "О", moves, nonempty(RU)) == ["H8 БА", "H8 Аб"]  # nothing ends: no blank first


def test_fewer_blanks_first():
    moves = [fake(RU, "H8 аб", 6), fake(RU, "H8 аБ", 6), fake(RU, "H8 АБ", 6)]
    assert order(RU, "АБ??ВГЕ", "ОООККК", moves, nonempty(RU)) == ["H8 АБ", "H8 аБ", "H8 аб"]


def test_better_leftover_balance_first():
    # rack ААЕБВГД: playing БВ leaves ААЕГД (3 vowels, 2 consonants: imbalance 1);
    # playing ГД leaves ААЕБВ (imbalance 1) ; playing АЕ leaves АБВГД (1 vowel, 4 consonants: 3)
    moves = [fake(RU, "H8 АЕ", 5), fake(RU, "H8 БВ", 5)]
    assert order(RU, "ААЕБВГД", "ОООККК", moves, nonempty(RU)) == ["H8 БВ", "H8 АЕ"]
    assert leftover_imbalance(RU, "АБВГД") == 3
    assert leftover_imbalance(RU, "АБВГ?") == 1  # a blank evens one
    assert leftover_imbalance(UK, "'А") == 1  # the apostrophe counts as neither


def test_alphabetical_word_then_coordinates():
    moves = [fake(RU, "H8 ЁЖ", 7), fake(RU, "H8 ЕЖ", 7), fake(RU, "G9 ЕЖ", 7), fake(RU, "8G ЕЖ", 7), fake(RU, "G8 ЕЖ", 7)]
    # rack ЕЁЖАБ: ЁЖ leaves ЕАБ, ЕЖ leaves ЁАБ: the same balance
    ranked = order(RU, "ЕЁЖАБ", "ОООККК", moves, nonempty(RU))
    # Е comes before Ё in the Russian alphabet; then row G before H, column 8 before 9, across before down
    assert ranked == ["G8 ЕЖ", "8G ЕЖ", "G9 ЕЖ", "H8 ЕЖ", "H8 ЁЖ"]


def test_arbiter_may_pick_any_top_move(solvers):
    solve = solvers["en"]
    game = DuplicateGame("en", 4)
    game.draw()
    moves = game.legal_moves(solve)
    tops = game.tops(moves)
    assert tops and all(not m.coord.vertical for m in moves)  # first move: horizontal only
    chosen = tops[-1]
    record = game.play(chosen.notation(), candidates=moves)
    assert record.move == chosen.notation() and record.score == tops[0].score


def test_arbiter_choice_is_validated(solvers):
    solve = solvers["en"]
    game = DuplicateGame("en", 4)
    game.draw()
    everything = WordListSolver(game.ruleset, sim_words("en"))(game.board, game.rack)
    top = max(m.score for m in everything if not m.coord.vertical)
    lower = next(m for m in everything if m.score < top and not m.coord.vertical)
    with pytest.raises(GameError) as err:
        game.play(lower.notation(), candidates=everything)
    assert err.value.code == "not_top" and f"scores {lower.score}, the top of this round scores {top}" in str(err.value)
    with pytest.raises(GameError) as err:  # the same, checked against the top moves only
        game.play(lower.notation(), candidates=game.legal_moves(solve))
    assert err.value.code == "not_top"
    vertical = next((m for m in everything if m.coord.vertical and m.score == top), None)
    if vertical is not None:
        with pytest.raises(GameError) as err:
            game.play(vertical.notation(), candidates=everything)
        assert err.value.code == "first_move_vertical"
    with pytest.raises(GameError) as err:
        game.play("A1 QI", candidates=everything)
    assert err.value.code in {"first_off_centre", "not_on_rack"}
    with pytest.raises(GameError):
        game.play("H8", candidates=everything)
    with pytest.raises(GameError) as err:
        game.play("H8 ZZZ", candidates=everything)
    assert err.value.code == "not_on_rack"
    record = game.play(game.tops(game.legal_moves(solve))[0])
    assert record.round == 1


# -- typed and prepared racks ---------------------------------------------------------------------


def test_typed_racks(solvers):
    game = DuplicateGame(RU, 2)
    with pytest.raises(DrawError) as err:
        game.type_rack("ФФФАОБВ")
    assert err.value.code == "not_in_bag" and game.phase == "draw"
    out = game.type_rack("БВГДЖЗК")  # no vowel: logged and back into the bag
    assert not out.valid and game.phase == "draw" and game.log[-1].kind == "typed"
    game.check_invariant()
    game.type_rack("КОРОВАТ")
    assert game.phase == "play"
    moves = game.legal_moves(solvers["ru"])
    record = game.play(game.tops(moves)[0])
    assert record.redraws == 1 and record.rack == "КОРОВАТ"
    game.check_invariant()
    if game.leftover:
        with pytest.raises(DrawError) as err:
            game.type_rack("ЪЪЪЪЪЪЪ")
        assert err.value.code == "leftover_missing" and "must keep the leftover" in str(err.value)


def played(rs_id, seed, solve):
    return DuplicateGame(rs_id, seed).play_out(solve, check=True)


def no_redraw_seed(rs_id, solve):
    for seed in range(100):
        game = played(rs_id, seed, solve)
        if not any(r.redraws for r in game.rounds):
            return game
    raise AssertionError("no game without redraws")


def test_prepared_game_replays_a_game(solvers):
    solve = solvers["ru"]
    source = no_redraw_seed("ru", solve)
    racks = [f"{r.leftover}+{r.drawn}" if r.leftover else r.drawn for r in source.rounds]
    game = DuplicateGame("ru", 999, prepared=racks).play_out(solve, check=True)
    assert [(r.rack, r.move, r.score) for r in game.rounds] == [(r.rack, r.move, r.score) for r in source.rounds]
    assert game.end_reason == source.end_reason and game.total == source.total
    assert {e.kind for e in game.log} == {"prepared"}


def test_prepared_game_errors(solvers):
    solve = solvers["ru"]
    source = no_redraw_seed("ru", solve)
    racks = [r.rack for r in source.rounds]
    # a rack that drops the leftover of round 1
    if source.rounds[1].leftover:
        bad = [racks[0], "ЪЪЪЪЪЪЪ"]
        game = DuplicateGame("ru", 1, prepared=bad)
        game.play_round(solve)
        with pytest.raises(DrawError) as err:
            game.play_round(solve)
        assert str(err.value).startswith("round 2: prepared rack «ЪЪЪЪЪЪЪ»: the rack ЪЪЪЪЪЪЪ must keep the leftover")
        assert err.value.code == "leftover_missing"
        game.check_invariant()
    # a tile that is not in the bag any more
    game = DuplicateGame("ru", 1, prepared=["ФФАОБВГ"])
    with pytest.raises(DrawError) as err:
        game.draw()
    assert err.value.code == "not_in_bag" and "round 1" in str(err.value)
    # an invalid rack
    game = DuplicateGame("ru", 1, prepared=["БВГДЖЗК"])
    with pytest.raises(DrawError) as err:
        game.draw()
    assert err.value.code == "invalid_rack" and "0 vowels" in str(err.value)
    game.check_invariant()
    # too few racks
    game = DuplicateGame("ru", 1, prepared=racks[:2])
    game.play_round(solve)
    game.play_round(solve)
    with pytest.raises(GameError) as err:
        game.play_round(solve)
    assert err.value.code == "prepared_exhausted"


# -- determinism and persistence ----------------------------------------------------------------------


def test_same_seed_same_game(solvers):
    a = played("fr", 17, solvers["fr"]).to_json()
    b = played("fr", 17, solvers["fr"]).to_json()
    c = played("fr", 18, solvers["fr"]).to_json()
    assert a == b
    assert a["rounds"] != c["rounds"]


def test_state_round_trips_through_json_mid_game(solvers):
    solve = solvers["uk"]
    game = DuplicateGame("uk", 21)
    for _ in range(4):
        game.play_round(solve)
    game.draw()  # phase "play": a rack on the stand
    state = json.loads(json.dumps(game.to_json(), ensure_ascii=False))
    copy = DuplicateGame.from_json(state)
    assert copy.to_json() == game.to_json()
    game.play_out(solve)
    copy.play_out(solve)
    assert copy.to_json() == game.to_json()


def test_bad_saved_state_is_refused():
    game = DuplicateGame(RU, 1)
    game.draw()
    state = game.to_json()
    for broken in (
        {**state, "version": 99},
        {k: v for k, v in state.items() if k != "bag"},
        {**state, "rack": state["rack"][:-1]},  # a tile lost
        {**state, "phase": "draw"},
    ):
        with pytest.raises(GameError) as err:
            DuplicateGame.from_json(broken)
        assert err.value.code == "bad_state"


def test_invariant_detects_a_lost_tile():
    game = DuplicateGame(RU, 1)
    game.draw()
    game.check_invariant()
    game.rack.pop()
    with pytest.raises(AssertionError) as err:
        game.check_invariant()
    assert "missing" in str(err.value)


def test_wrong_phase():
    game = DuplicateGame(RU, 1)
    with pytest.raises(GameError) as err:
        game.play(fake(RU, "H8 АБ", 1))
    assert err.value.code == "wrong_phase"
    game.draw()
    with pytest.raises(GameError):
        game.draw()


# -- whole games, every rule set -----------------------------------------------------------------------


def check_whole_game(rs_id: str, seed: int, solve) -> DuplicateGame:
    rs = get_ruleset(rs_id)
    game = DuplicateGame(rs, seed)
    game.check_invariant()
    rounds = 0
    while not game.over:
        assert rounds < 200, "the game does not end"
        if game.phase == "draw":
            pool = game.tiles_left()
            round_no = game.round_no
            out = game.draw()
            verdict = check_rack(rs, game.rack, round_no, pool)
            assert verdict.valid, verdict.reason
            assert len(game.rack) == min(rs.rack_size, len(pool))
            assert all(not e.valid for e in out.events[:-1]) and out.events[-1].valid
            if verdict.relaxed:  # only when the tiles left cannot meet the rule
                assert verdict.allowed_shortfall > 0
        game.check_invariant()
        moves = game.legal_moves(solve)
        if moves:
            tops = game.tops(moves)
            assert all(m.score == tops[0].score for m in tops)
            assert tops[0].score == max(m.score for m in moves)
            game.play(tops[0])
            rounds += 1
        else:
            game.no_move()
        game.check_invariant()
    assert game.end_reason in END_REASONS
    if game.end_reason != "no_move":
        assert end_reason(rs, game.tiles_left()) == game.end_reason
    assert game.total == sum(r.score for r in game.rounds)
    assert [r.round for r in game.rounds] == list(range(1, len(game.rounds) + 1))
    assert Counter(game.board_tiles()) + Counter(game.tiles_left()) == Counter(rs.full_bag())
    return game


#: Whole games played per rule set (fixed seeds): ENGINE_GAMES=1000 for a longer look than CI's.
WHOLE_GAMES = int(os.environ.get("ENGINE_GAMES", "120"))


@pytest.mark.parametrize("rs_id", ruleset_ids())
def test_whole_games_property(rs_id, solvers):
    solve = solvers[rs_id]
    reasons = Counter()

    @settings(max_examples=WHOLE_GAMES, deadline=None, derandomize=True, database=None)
    @given(seed=st.integers(min_value=0, max_value=2**31))
    def run(seed):
        reasons[check_whole_game(rs_id, seed, solve).end_reason] += 1

    run()
    assert sum(reasons.values()) >= WHOLE_GAMES
