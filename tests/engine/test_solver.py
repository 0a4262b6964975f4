"""The compiled move generator (scoring/_solver.c via scoring/solver.py) against the reference
generator (scoring/reference.py: every span × every filling, scored by placement.evaluate).

No database. Word graphs are built from small word lists into temporary files.
"""

from __future__ import annotations

import gc
import os
import random
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexicon.graph import WordGraph, build
from scoring.board import Board, Tile
from scoring.notation import parse_move
from scoring.placement import apply, evaluate
from scoring.rules import get_ruleset
from scoring.solver import Solver, SolverError, SolveResult, solve, solver_for
from tests.tools import solver_baseline
from tests.tools.reference import reference_moves

_TMP = tempfile.TemporaryDirectory(prefix="solver-tests-")
_counter = iter(range(10**9))


def graph_of(words, ruleset_id: str) -> WordGraph:
    """A word graph of ``words`` over the rule set's alphabet (a fresh temporary file)."""
    path = Path(_TMP.name) / f"g{next(_counter)}.kwg"
    build(sorted(set(words)), get_ruleset(ruleset_id).alphabet, path)
    return WordGraph.load(path)


def as_set(result: SolveResult) -> dict[str, int]:
    notations = [m.notation() for m in result.moves]
    assert len(notations) == len(set(notations)), "a move is listed twice"
    return {m.notation(): m.score for m in result.moves}


def ordered(found: dict[str, int]) -> list[tuple[str, int]]:
    return sorted(found.items(), key=lambda kv: (-kv[1], kv[0]))


def play(board: Board, notation: str) -> Board:
    return apply(board, evaluate(board, parse_move(notation, board.ruleset)))


# -- RULES §3 examples ---------------------------------------------------------------------------

RU_WORDS = ["ЗДОРОВЫ", "ЗДОРОВ", "ЗАНОВО", "ДОЗА", "ВОЗ", "ОВОД"]


def test_rulebook_examples_ru():
    rs = get_ruleset("ru")
    graph = graph_of(RU_WORDS, "ru")
    board = Board(rs)
    result = solve(board, "ЗДОРОВЫ", graph)
    found = as_set(result)
    assert found["H8 ЗДОРОВЫ"] == 82
    assert found["H8 ЗДОРОВ"] == 24
    ref = reference_moves(board, "ЗДОРОВЫ", RU_WORDS)
    assert found == ref
    # the top is another placement of the same word with more premium (З on the double letter H4)
    best = solve(board, "ЗДОРОВЫ", graph, top=1).moves[0]
    horizontal = reference_moves(board, "ЗДОРОВЫ", RU_WORDS, first_vertical=False)
    assert (best.notation(), best.score) == ordered(horizontal)[0] == ("H4 ЗДОРОВЫ", 90)
    assert best.tiles_placed == 7 and best.blanks == 0 and best.words == ["ЗДОРОВЫ"]

    after = play(board, "H8 ЗДОРОВЫ")
    found = as_set(solve(after, "АНОВОЕЕ", graph))
    assert found["8H ЗАНОВО"] == 11
    assert found == reference_moves(after, "АНОВОЕЕ", RU_WORDS)


# -- blanks ------------------------------------------------------------------------------------------

EN_SMALL = ["AT", "TA", "CAT", "CATS", "ACT", "ACTS", "SCAT", "CAST", "TACK", "TACKS", "AS", "SAT"]


def test_blank_moves_are_distinct_from_real_letters():
    rs = get_ruleset("en")
    graph = graph_of(EN_SMALL, "en")
    board = Board(rs)
    found = as_set(solve(board, "CAT?", graph))
    assert found["H8 CAT"] == 10  # C3 A1 T1 ×2 (the centre)
    assert found["H8 CaT"] == 8  # the blank scores 0
    assert found["H6 CATs"] == 10  # S on the blank; no bingo with 4 tiles
    assert "H8 cAT" in found and "H8 CAt" in found
    assert found == reference_moves(board, "CAT?", EN_SMALL)


def test_two_blanks_give_each_move_once():
    rs = get_ruleset("en")
    graph = graph_of(EN_SMALL, "en")
    board = play(Board(rs), "H7 CAT")
    result = solve(board, "??S", graph, count_all=True)
    found = as_set(result)  # asserts that no notation repeats
    assert result.count_all == len(found)
    assert found["H7 CATS"] == 6 and found["H7 CATs"] == 5  # a real S and a blank S: two moves
    assert found == reference_moves(board, "??S", EN_SMALL)
    two = [m for m in result.moves if m.blanks == 2]
    assert two and all(sum(t.blank for t in m.tiles) >= 2 for m in two)


def test_blank_apostrophe_uk():
    rs = get_ruleset("uk")
    words = ["М'ЯЧ", "П'Є", "ОП'Є", "ЯК"]
    graph = graph_of(words, "uk")
    board = Board(rs)
    found = as_set(solve(board, "М?ЯЧ", graph))
    assert "H8 М*ЯЧ" in found  # the blank apostrophe is written *
    assert found == reference_moves(board, "М?ЯЧ", words)
    move = next(m for m in solve(board, "М?ЯЧ", graph).moves if m.notation() == "H8 М*ЯЧ")
    assert move.tiles[1] == Tile("'", True) and move.blanks == 1


# -- premiums ---------------------------------------------------------------------------------------


def test_two_word_premiums_multiply_x9_and_bingo():
    rs = get_ruleset("en")
    words = ["TO", "SPLATTER", "MAGNETS", "NO"]
    graph = graph_of(words, "en")
    # T on A5 (part of TO, down): SPLATTER from A1 to A8 covers two triple-word squares
    board = Board.from_fen(rs, "4T10/4O10/15/15/15/15/15/15/15/15/15/15/15/15/15")
    best = solve(board, "SPLATER", graph, top=1).moves[0]
    assert best.notation() == "A1 SPLATTER"
    # S1 P3 L1 A1×2 (A4) T1 T1 E1 R1 = 11, ×3×3, +50 for the 7 tiles
    assert best.score == 11 * 9 + 50 == evaluate(board, parse_move("A1 SPLATTER", rs)).score
    assert as_set(solve(board, "SPLATER", graph)) == reference_moves(board, "SPLATER", words)


def test_two_double_words_x4():
    rs = get_ruleset("en")
    words = ["NO", "MAGNETS"]
    graph = graph_of(words, "en")
    board = Board.from_fen(rs, "15/15/15/15/7N7/7O7/15/15/15/15/15/15/15/15/15")
    found = as_set(solve(board, "MAGETSX", graph))
    assert found["E5 MAGNETS"] == (3 + 1 + 2 + 1 + 1 + 1 + 1) * 4
    assert found == reference_moves(board, "MAGETSX", words)


def test_literaki_colour_triples():
    rs = get_ruleset("pl-literaki")
    centre_colour = rs.layout.letter_colour[7][7]
    assert centre_colour  # the centre is a coloured letter square, not a word premium
    same = sorted(letter for letter, colour in rs.letter_colours.items() if colour == centre_colour)[0]
    other = sorted(letter for letter, colour in rs.letter_colours.items() if colour != centre_colour)[0]
    words = [same + other, other + same]
    graph = graph_of(words, "pl-literaki")
    board = Board(rs)
    found = as_set(solve(board, f"{same}{other}??", graph))
    assert found == reference_moves(board, f"{same}{other}??", words)
    on_colour = f"H8 {same}{other}"  # the tile of the centre's colour sits on the centre: tripled
    assert found[on_colour] == evaluate(board, parse_move(on_colour, rs)).score
    assert found[on_colour] >= 3 * rs.value(same) + rs.value(other)
    # a blank of the same letter is never tripled
    assert found[f"H8 {same.lower()}{other}"] < found[on_colour]


# -- modes, order, flags ---------------------------------------------------------------------------


def test_first_move_directions_and_counts():
    rs = get_ruleset("en")
    graph = graph_of(EN_SMALL, "en")
    board = Board(rs)
    every = solve(board, "CATS", graph, count_all=True)
    assert any(m.coord.vertical for m in every.moves)
    assert every.count_all == len(every.moves)
    best = solve(board, "CATS", graph, top=50, count_all=True)
    assert not any(m.coord.vertical for m in best.moves)  # duplicate places the first move horizontally
    assert best.count_all == every.count_all  # still counted
    both = solve(board, "CATS", graph, top=50, first_vertical=True)
    assert any(m.coord.vertical for m in both.moves)
    assert [(m.notation(), m.score) for m in both.moves] == ordered(as_set(every))[:50]


def test_order_ties_and_top():
    rs = get_ruleset("en")
    graph = graph_of(EN_SMALL, "en")
    board = play(Board(rs), "H7 CAT")
    every = solve(board, "ASTK", graph)
    keys = [(-m.score, m.notation()) for m in every.moves]
    assert keys == sorted(keys)
    for n in (1, 2, 3, 7):
        top = solve(board, "ASTK", graph, top=n)
        assert [(m.notation(), m.score) for m in top.moves] == [(m.notation(), m.score) for m in every.moves[:n]]
    tied = solve(board, "ASTK", graph, top=1, ties=True)
    assert {m.score for m in tied.moves} == {every.moves[0].score}
    assert len(tied.moves) == sum(1 for m in every.moves if m.score == every.moves[0].score)


def test_tied_moves_come_in_the_order_of_every_move_found():
    """The compiled solve orders the moves it found (score, then their texts' code points, from the tables
    ``set_text`` made) and makes only the kept ones: top=n is the start of every move's order, ties=True
    all those of the best score. ``set_text`` refuses a coordinate too long for its tables and keeps the
    ones it had."""
    rs = get_ruleset("en")
    solver = Solver(rs, graph_of(EN_SMALL, "en"))
    board = Board(rs)  # the first move: the same word at several places through the centre
    every = solver.solve(board, "CATS", top=None, first_vertical=True).moves
    tied = [m for m in every if m.score == every[0].score]
    assert len(tied) > 1
    for n in (1, 2, 3):
        assert [m.notation() for m in solver.solve(board, "CATS", top=n, first_vertical=True).moves] == [
            m.notation() for m in every[:n]]
    assert [m.notation() for m in solver.solve(board, "CATS", top=1, ties=True, first_vertical=True).moves] == [
        m.notation() for m in tied]
    core = solver._core
    labels = [core.labels[r, c, v] for r in range(15) for c in range(15) for v in (False, True)]
    labels[0] = "A1-long-label"
    with pytest.raises(ValueError, match="at most 6"):
        core.tables.set_text(tuple(core.fen_table[i] for i in range(256)), tuple(labels))
    again = solver.solve(board, "CATS", top=None, first_vertical=True).moves
    assert [(m.notation(), m._text) for m in again] == [(m.notation(), m.notation()) for m in every]


def test_solved_move_fields():
    rs = get_ruleset("en")
    graph = graph_of(EN_SMALL, "en")
    board = play(Board(rs), "H7 CAT")
    move = next(m for m in solve(board, "S", graph).moves if m.notation() == "H7 CATS")
    assert move.words == ["CATS"] and move.tiles_placed == 1 and move.blanks == 0
    assert move.placed[0].row == 7 and move.placed[0].col == 9 and move.placed[0].letter == "S"
    assert move.coord.row == 7 and move.coord.col == 6 and not move.coord.vertical
    assert move.to_dict() == {"move": "H7 CATS", "score": 6, "words": ["CATS"], "blanks": 0, "tiles_placed": 1}
    # a move forming a cross word lists the main word first
    board2 = play(board, "H7 CATS")
    cross = [m for m in solve(board2, "AT", graph).moves if len(m.words) > 1]
    assert cross
    for m in cross:
        assert m.words[0] == m.word
        assert m.score == evaluate(board2, parse_move(m.notation(), rs)).score


def test_moves_keep_the_position_they_were_found_on():
    """A solve keeps the board's codes as read (no copy of the Board): a board changed afterwards changes
    neither the tiles a move places nor its words; a rack given as a list is the same rack as its text."""
    rs = get_ruleset("en")
    graph = graph_of(EN_SMALL, "en")
    board = play(Board(rs), "H7 CAT")
    solver = solver_for(rs, graph)
    moves = solver.solve(board, "?S", top=None).moves
    before = {m.notation(): ([(p.row, p.col, p.letter, p.blank) for p in m.placed], m.words) for m in moves}
    board[7, 9] = Tile("S")  # H7 CATS played on the caller's board
    board[6, 6] = Tile("A", blank=True)
    after = {m.notation(): ([(p.row, p.col, p.letter, p.blank) for p in m.placed], m.words) for m in moves}
    assert after == before and "H7 CATS" in before and before["H7 CATS"][1] == ["CATS"]
    as_list = solver.solve(board, ["?", "S"], top=3, ties=True)
    as_text = solver.solve(board, "?S", top=3, ties=True)
    listed = [(m.notation(), m.score) for m in as_list.moves]
    assert listed == [(m.notation(), m.score) for m in as_text.moves]
    with pytest.raises(SolverError):
        solver.solve(board, ["?", "Ж"], top=1)


def test_the_answer_objects_copy_and_compare():
    """The result, its moves and their snapshot are objects of the compiled base types (made by the compiled
    solve): they compare, copy and print as the Python classes did; their fields are set, the score too."""
    import copy

    rs = get_ruleset("en")
    graph = graph_of(EN_SMALL, "en")
    board = play(Board(rs), "H7 CAT")
    result = solver_for(rs, graph).solve(board, "?S", top=2, ties=True)
    assert isinstance(result, SolveResult) and result.count_all is None and result.elapsed_ms > 0
    assert copy.copy(result) == result and result != SolveResult(result.moves[:1], None, result.elapsed_ms)
    move = result.moves[0]
    twin = copy.copy(move)
    assert twin == move and hash(twin) == hash(move) and twin.words == move.words and repr(twin) == repr(move)
    assert copy.copy(move._snap).codes == move._snap.codes and len(move._snap.codes) == 225
    move.score += 1  # a plain attribute, as scoring/records relies on
    assert move.score == twin.score + 1
    with pytest.raises(TypeError):
        hash(result)


def test_no_move_and_empty_rack():
    rs = get_ruleset("en")
    graph = graph_of(EN_SMALL, "en")
    assert solve(Board(rs), "QQ", graph).moves == []
    result = solve(Board(rs), "", graph, count_all=True)
    assert result.moves == [] and result.count_all == 0
    assert solve(Board(rs), "Q", graph, top=3).moves == []


def test_bad_inputs():
    rs = get_ruleset("en")
    graph = graph_of(EN_SMALL, "en")
    solver = Solver(rs, graph)
    with pytest.raises(SolverError):
        solver.solve(Board(rs), "AB1")
    with pytest.raises(SolverError):
        solver.solve(Board(rs), "ABCDEFGH")
    with pytest.raises(SolverError):
        solver.solve(Board(rs), ["A", "Ж"])
    with pytest.raises(SolverError):
        solver.solve(Board(get_ruleset("ru")), "АБ")
    with pytest.raises(SolverError):
        solver.solve(Board(rs), "AB", top=0)
    # a graph without a GADDAG cannot drive the generator
    path = Path(_TMP.name) / "dawg-only.kwg"
    build(EN_SMALL, rs.alphabet, path, gaddag=False)
    with pytest.raises(SolverError):
        Solver(rs, WordGraph.load(path))


def test_the_compiled_solve_agrees_with_the_general_one():
    """``Solver.solve`` is compiled: the usual call (a Board of the solver's rule set, a rack seen before) goes
    straight to the search, any other to ``Solver._solve_general``; both give the same answers and errors."""
    rs = get_ruleset("en")
    graph = graph_of(EN_SMALL + ["TACKS", "STACK", "TACT"], "en")
    solver = Solver(rs, graph)
    board = play(Board(rs), "H7 CAT")

    class OtherBoard(Board):
        __slots__ = ()

    other = OtherBoard(rs, board._cells)
    for options in ({}, {"top": 1}, {"top": 3, "ties": True}, {"top": 2, "count_all": True},
                    {"top": 100_000}, {"first_vertical": True}, {"top": 5, "first_vertical": False}):
        general = Solver._solve_general(solver, board, "AKST?", **options)
        for rack in ("AKST?", ["A", "K", "S", "T", "?"], ("A", "K", "S", "T", "?")):  # compiled once seen
            for position in (board, other):  # a Board subclass goes the general way
                for _ in range(2):
                    got = solver.solve(position, rack, **options)
                    assert [(m.notation(), m.score) for m in got.moves] == [
                        (m.notation(), m.score) for m in general.moves], options
                    assert got.count_all == general.count_all
    empty = Board(rs)
    assert {m.coord.vertical for m in solver.solve(empty, "CAT").moves} == {False, True}
    assert {m.coord.vertical for m in solver.solve(empty, "CAT", top=50).moves} == {False}
    assert {m.coord.vertical for m in solver.solve(empty, "CAT", top=50, first_vertical=True).moves} == {False, True}
    for bad in ({"top": 0}, {"top": -1}, {"top": 1.5}):
        with pytest.raises(SolverError):
            solver.solve(board, "AKST", **bad)
    with pytest.raises(TypeError):
        solver.solve(board, "AKST", 1)  # top is keyword-only
    with pytest.raises(TypeError):
        solver.solve(board, "AKST", tops=1)
    with pytest.raises(TypeError):
        solver.solve(board)
    with pytest.raises(SolverError):
        solver.solve(Board(get_ruleset("ru")), "АБ", top=1)
    assert solver.solve(board, "AKST", top=True).moves == solver.solve(board, "AKST", top=1).moves  # an int
    for _ in range(2):  # not a tile, and unhashable: refused the same way before and after a first call
        with pytest.raises(SolverError):
            solver.solve(board, ["A", ["K"]], top=1)


def test_solver_cache_and_threads():
    rs = get_ruleset("en")
    graph = graph_of(EN_SMALL, "en")
    assert solver_for(rs, graph)._core is solver_for(rs, graph)._core
    board = play(Board(rs), "H7 CAT")
    expected = as_set(solve(board, "??SA", graph))
    errors = []

    def worker():
        for _ in range(20):
            if as_set(solve(board, "??SA", graph)) != expected:
                errors.append("differs")

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def _rss_kb() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs /proc")
def test_no_memory_growth():
    rs = get_ruleset("en")
    graph = graph_of(EN_SMALL + ["TACKS", "STACK", "TACT"], "en")
    solver = Solver(rs, graph)
    board = play(Board(rs), "H7 CAT")
    for _ in range(2000):
        solver.solve(board, "?ASTK", top=3)
        solver.solve(board, "?ASTK")
    gc.collect()
    before = _rss_kb()
    for i in range(20000):
        solver.solve(board, "?ASTK", top=1 + i % 3, count_all=i % 7 == 0)
        if i % 10 == 0:
            solver.solve(board, "?ASTK")
    gc.collect()
    assert _rss_kb() - before < 2048


# -- property tests: random lexicons, boards and racks -----------------------------------------------

RULESETS = {
    "en": "AEST",
    "ru": "АОЁЩ",  # Ё is a letter of its own
    "uk": "АІ'Ї",  # the apostrophe is a tile
    "pl-literaki": "AĄŹŻ",  # colour values 1..5
}


def random_lexicon(rnd: random.Random, letters: str, n: int) -> list[str]:
    words: set[str] = set()
    while len(words) < n:
        words.add("".join(rnd.choice(letters) for _ in range(rnd.randint(2, 6))))
    return sorted(words)


def random_position(rnd: random.Random, ruleset_id: str, graph: WordGraph, letters: str, moves: int) -> Board:
    """A board made by playing random legal moves (of random racks)."""
    board = Board(get_ruleset(ruleset_id))
    for _ in range(moves):
        rack = "".join(rnd.choice(letters + "?") for _ in range(7))
        candidates = solve(board, rack, graph).moves
        if candidates:
            board = play(board, rnd.choice(candidates).notation())
    return board


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), blanks=st.integers(0, 2), moves=st.integers(0, 5), rack_len=st.integers(1, 7))
def test_solver_equals_reference(ruleset_id, seed, blanks, moves, rack_len):
    rnd = random.Random(seed)
    letters = RULESETS[ruleset_id]
    words = random_lexicon(rnd, letters, rnd.randint(20, 60))
    graph = graph_of(words, ruleset_id)
    board = random_position(rnd, ruleset_id, graph, letters, moves)
    blanks = min(blanks, rack_len)
    rack = "?" * blanks + "".join(rnd.choice(letters) for _ in range(rack_len - blanks))

    expected = reference_moves(board, rack, words)
    result = solve(board, rack, graph, count_all=True)
    assert as_set(result) == expected, (board.to_fen(), rack)
    assert result.count_all == len(expected)
    for n in (1, 3):
        top = solve(board, rack, graph, top=n, first_vertical=True)
        assert [(m.notation(), m.score) for m in top.moves] == ordered(expected)[:n], (board.to_fen(), rack)
    # the scores are those of the trusted scorer
    for m in result.moves[:20]:
        assert evaluate(board, parse_move(m.notation(), board.ruleset)).score == m.score


# -- a rare letter the best moves must hold -----------------------------------------------------------


def played_board(solver: Solver, seed: int, letters: str) -> Board:
    """An English board after 1–4 random legal moves of random racks of ``letters`` (seeded)."""
    rnd = random.Random(seed)
    board = Board(get_ruleset("en"))
    for _ in range(rnd.randint(1, 4)):
        candidates = solver.solve(board, "".join(rnd.choice(letters) for _ in range(7))).moves
        if candidates:
            board = play(board, rnd.choice(candidates).notation())
    return board


def best_n_against_every_move(solver: Solver, board: Board, rack: str, ns: tuple[int, ...]) -> list:
    """Asserts that the best-N answers are the first N of every legal move; returns the largest N's moves."""
    every = [(m.notation(), m.score) for m in solver.solve(board, rack, first_vertical=True).moves]
    top: list = []
    for n in ns:
        top = solver.solve(board, rack, top=n, first_vertical=True).moves
        assert [(m.notation(), m.score) for m in top] == every[:n], (board.to_fen(), rack, n)
    return top


def test_moves_through_a_rare_letter_are_the_exhaustive_ones():
    """A letter on very few of the graph's edges (Q here), worth most of what a move can score: the best-N
    search then walks only the moves that hold the rack's Q, from each square it may take
    (``gen_required``); its answers are the first of every legal move."""
    rnd = random.Random(11)
    common = "AEIORSTLN"
    words = {"".join(rnd.choice(common) for _ in range(rnd.randint(2, 7))) for _ in range(20000)}
    words |= {"QI", "QAT", "QATS", "TRANQ", "QORALS", "SQAT"}  # a handful of words hold a Q
    graph = graph_of(words, "en")
    solver = Solver(get_ruleset("en"), graph)
    played = 0
    for seed in range(40):
        board = played_board(solver, seed, common)
        rnd = random.Random(seed)
        rack = "Q?" + "".join(rnd.choice(common) for _ in range(rnd.randint(1, 3)))  # short: Q is the score
        best = best_n_against_every_move(solver, board, rack, (1, 3))
        played += "Q" in best[0].notation()
    assert played >= 10  # the best moves of these racks do hold the Q


def test_racks_of_two_and_three_blanks_get_the_exhaustive_best():
    """With two blanks or more a search walks the moves of at most one blank first and the others later, as a
    search of their own (kept to the moves that use two blanks or more, with their own bound): its answers
    are the first of every legal move, for racks of two blanks and of three."""
    rnd = random.Random(5)
    common = "AEIORSTLNDCP"
    words = {"".join(rnd.choice(common) for _ in range(rnd.randint(2, 7))) for _ in range(15000)}
    graph = graph_of(words, "en")
    solver = Solver(get_ruleset("en"), graph)
    with_two = {2: 0, 3: 0}
    for seed in range(30):
        board = played_board(solver, seed, common)
        rnd = random.Random(seed)
        blanks = 2 + seed % 2
        rack = "?" * blanks + "".join(rnd.choice(common) for _ in range(7 - blanks))
        top = best_n_against_every_move(solver, board, rack, (1, 3, 10, 300))
        with_two[blanks] += sum(m.blanks == 2 for m in top)
    assert with_two[2] >= 20 and with_two[3] >= 20  # moves of exactly two blanks are among the best


# -- the saved baseline (wolges style) ---------------------------------------------------------------


def test_baseline_of_top_moves():
    wordlist = solver_baseline.wordlist_path()
    if wordlist is None:
        pytest.skip("BENCH_WORDLIST_DIR does not hold en.txt (shared/bench/wordlists/make_wordlist.py)")
    saved = solver_baseline.BASELINE.read_text(encoding="utf-8")
    sha = solver_baseline.file_sha256(wordlist)
    if sha not in saved.splitlines()[1]:
        pytest.skip(f"{wordlist} (sha256 {sha[:12]}…) is not the list the baseline was made with")
    graph = solver_baseline.cached_graph(wordlist, get_ruleset("en").alphabet)
    assert solver_baseline.render(graph, sha) == saved, (
        "the solver's top moves changed; if that is intended: python -m tests.tools.solver_baseline --write"
    )


# -- management commands -----------------------------------------------------------------------------


def test_solve_command(manage):
    import json

    graph = graph_of(RU_WORDS, "ru")
    done = manage("solve", "--ruleset", "ru", "--lexicon", str(graph.path), "--rack", "ЗДОРОВЫ", "--top", "2", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data) == {"moves", "count_all", "elapsed_ms"} and data["count_all"] is None
    assert data["moves"][0] == {"move": "H4 ЗДОРОВЫ", "score": 90, "words": ["ЗДОРОВЫ"], "blanks": 0, "tiles_placed": 7}
    assert len(data["moves"]) == 2
    text = manage("solve", "--ruleset", "ru", "--lexicon", str(graph.path), "--rack", "ЗДОРОВЫ", "--count-all")
    # the table in the rule set's rows and language (ru: Cyrillic, Russian); the JSON above in the engine's notation
    assert text.returncode == 0 and "З8 ЗДОРОВЫ" in text.stdout and "допустимых ходов" in text.stdout
    for bad in (
        ["--ruleset", "ru", "--lexicon", str(graph.path), "--rack", "ЗД1"],
        ["--ruleset", "xx", "--lexicon", str(graph.path), "--rack", "ЗД"],
        ["--ruleset", "ru", "--lexicon", "/nonexistent/list.txt", "--rack", "ЗД"],
        ["--ruleset", "ru", "--lexicon", str(graph.path), "--rack", "ЗД", "--top", "0"],
        ["--ruleset", "ru", "--lexicon", str(graph.path)],
        ["--ruleset", "ru", "--lexicon", str(graph.path), "--rack", "ЗД", "--board", "15/15"],
    ):
        done = manage("solve", *bad)
        assert done.returncode == 2, (bad, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_bench_solver_command(manage, tmp_path):
    graph = graph_of(RU_WORDS, "ru")
    positions = tmp_path / "pos.txt"
    positions.write_text(
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ЗДОРОВЫ\n15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ЗДОРОВ?\n",
        encoding="utf-8",
    )
    tops = tmp_path / "tops.tsv"
    tops.write_text("0\t90\tH4 ЗДОРОВЫ\n1\t86\tH4 ЗДОРОВЫ\n", encoding="utf-8")
    args = ["--ruleset", "ru", "--lexicon", str(graph.path), "--positions", str(positions), "--reps", "2"]
    done = manage("bench_solver", *args, "--check", str(tops))
    assert done.returncode == 1, done.stdout  # #1: the blank as Ы scores 0, the top is 82
    lines = done.stdout.splitlines()
    assert lines[0] == "idx\ttop_score\ttop_move\tbest_us\tmedian_us"
    assert lines[1].startswith("0\t90\tH4 ЗДОРОВЫ\t")
    assert any(line.startswith("# summary blanks=0 positions=1 ") for line in lines)
    assert any(line.startswith("# summary blanks=1 positions=1 ") for line in lines)
    overhead = next(line for line in lines if line.startswith("# summary call_overhead positions=2 "))
    assert 0 < float(overhead.split("median_us=")[1].split()[0]) < 1000  # the call outside the search, in µs
    assert any(line.startswith("# MISMATCH 1:") for line in lines)
    tops.write_text("0\t90\tH4 ЗДОРОВЫ\n1\t82\tH4 ЗДОРОВы\n", encoding="utf-8")
    assert manage("bench_solver", *args, "--check", str(tops)).returncode == 0
    assert any(" reps=2 interleaved " in line for line in lines)  # the default: the set in --reps passes
    in_row = manage("bench_solver", *args, "--in-a-row", "--series", "--check", str(tops))  # the same, in a row
    assert in_row.returncode == 0, in_row.stdout
    rows = [line.split("\t") for line in in_row.stdout.splitlines()[:3]]
    assert rows[0][-1] == "runs_us" and [row[:3] for row in rows[1:]] == [
        ["0", "90", "H4 ЗДОРОВЫ"], ["1", "82", "H4 ЗДОРОВы"]]
    for row in rows[1:]:  # --series: each timed run, in order; the best of them is best_us
        runs = [float(v) for v in row[5].split(",")]
        assert len(runs) == 2 and abs(min(runs) - float(row[3])) <= 0.5, row
    assert any(" reps=2 in-a-row " in line for line in in_row.stdout.splitlines())
    both = manage("bench_solver", *args, "--interleave", "--in-a-row")
    assert both.returncode == 2 and "Traceback" not in both.stderr, both.stderr
    assert manage("bench_solver", *args[:-2], "--reps", "x").returncode == 2
