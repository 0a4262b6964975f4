"""The anagram section of a compiled file (format 2): stored at build, mapped by the solver, the same
moves as the index built in memory and as no index at all (tables three and four: words through three
and four board tiles; table five: the multisets the words hold, blanks as any letter, exactly); format-1
files and sections of version 1 or 2 still load (and are upgraded in place); a truncated or corrupt
section is refused with a message that says so."""

from __future__ import annotations

import hashlib
import logging
import os
import random
import struct
from collections import Counter
from pathlib import Path

import pytest

from lexicon.files import format_version, publish_graph
from lexicon.graph import ANA_HEADER_SIZE, HEADER_SIZE, GraphError, WordGraph, build, is_current, upgrade
from scoring import _solver
from scoring.board import Board
from scoring.rules import get_ruleset, ruleset_ids
from scoring.solver import Solver, SolverError, _letter_multipliers
from tests.tools import solver_baseline

EN = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
RULES = get_ruleset("en")
WORDS = [
    "RETAINS",
    "NASTIER",
    "STAINER",
    "RETINAS",
    "ANESTRI",
    "RATINES",
    "STEARIN",
    "TRAINEES",
    "TERAINS",
    "ANTSIER",
    "ASTERN",
    "STAIR",
    "TRAIN",
    "TINE",
    "NEAT",
    "RAIN",
    "REIN",
    "SAT",
    "TEA",
    "EAT",
    "AT",
    "TA",
    "IS",
    "IT",
    "ST",
    "AN",
    "NA",
    "RE",
    "ER",
    "ES",
    "QUIZ",
    "QI",
    "ZA",
    "ENTRAILS",
    "LATRINES",
    "RETAINERS",
    "CANISTER",
    "SCANTIER",
    "CERTAINS",
    "TRANSIT",
    "STATION",
    "OATS",
    "OAT",
    "TO",
    "SO",
    "ON",
    "NO",
]
MID = "15/15/15/15/15/15/4BIKED6/3VENIN7/4E10/4T10/4R10/4O10/4O10/4T10/4SAICE6"


def as_format_1(path: Path, target: Path) -> Path:
    """A format-1 file of the same words: a build without the section, its version field set to 1
    (the two formats differ in nothing else)."""
    graph = WordGraph.load(path)
    words = list(graph.words())
    graph.close()
    build(words, EN, target, anagram_rack=None)
    data = bytearray(target.read_bytes())
    struct.pack_into("<I", data, 8, 1)
    target.write_bytes(bytes(data))
    return target


@pytest.fixture
def graph_file(tmp_path: Path) -> Path:
    path = tmp_path / "g.kwg"
    build(WORDS, EN, path)
    return path


def racks(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    pool = "AEEINRSTTLOCQUZ??"
    return ["".join(rng.sample(pool, 7)) for _ in range(count)]


def same_tops(a: Solver, b: Solver, board: Board, rack: str) -> None:
    """The best-N search (where the index prunes; count_all searches everything) gives the same moves."""
    for top in (1, 5):
        ra, rb = a.solve(board, rack, top=top), b.solve(board, rack, top=top)
        assert [(m.notation(), m.score) for m in ra.moves] == [(m.notation(), m.score) for m in rb.moves], rack


def same_moves(a: Solver, b: Solver, board: Board, rack: str) -> None:
    """The same moves and counts (count_all searches everything) and the same best-N answers (where the
    index prunes)."""
    for top in (1, 5):
        ra = a.solve(board, rack, top=top, count_all=True)
        rb = b.solve(board, rack, top=top, count_all=True)
        assert [(m.notation(), m.score) for m in ra.moves] == [(m.notation(), m.score) for m in rb.moves], (
            rack
        )
        assert ra.count_all == rb.count_all
    same_tops(a, b, board, rack)


def test_build_stores_the_section_and_keeps_the_content_hash(graph_file: Path, tmp_path: Path):
    bare = tmp_path / "bare.kwg"
    info = build(WORDS, EN, bare, anagram_rack=None)
    graph = WordGraph.load(graph_file)
    assert graph.format_version == 2
    section = graph.anagram_section()
    assert section is not None and section.nbytes > ANA_HEADER_SIZE
    assert graph.content_hash == info.content_hash  # the words and the alphabet, not the section
    assert WordGraph.load(bare).anagram_section() is None
    index = _solver.BingoIndex.mapped(section)
    assert index.in_place and index.rack_size == 7
    graph.close()  # the index still holds its view: the mapping stays until it goes
    del index, section


def test_mapped_index_gives_the_moves_of_the_built_one(graph_file: Path, tmp_path: Path):
    graph = WordGraph.load(graph_file)
    old = WordGraph.load(as_format_1(graph_file, tmp_path / "v1.kwg"))
    mapped, built = Solver(RULES, graph), Solver(RULES, old)
    assert mapped._core.bingo_index.in_place and not built._core.bingo_index.in_place
    boards = [Board(RULES), Board.from_fen(RULES, MID)]
    for board in boards:
        for rack in racks(1, 40):
            same_moves(mapped, built, board, rack)


@pytest.mark.skipif(solver_baseline.wordlist_path() is None, reason="BENCH_WORDLIST_DIR has no en.txt")
def test_mapped_index_on_the_en_list(tmp_path: Path):
    """The en bench list (269,870 words): every dev position, the mapped index against the built one."""
    wordlist = solver_baseline.wordlist_path()
    assert wordlist is not None
    graph = solver_baseline.cached_graph(wordlist, RULES.alphabet)
    assert graph.format_version == 2 and graph.anagram_section() is not None
    mapped = Solver(RULES, graph)
    built = Solver(RULES, graph)
    built._core.bingo_index = _solver.BingoIndex(
        graph.nodes_buffer(), graph.dawg_root, len(graph.alphabet), 7
    )
    built._core.rebind()  # the compiled solve holds the index it was bound with
    built._bind_core()
    for line in solver_baseline.BENCH_POSITIONS.read_text(encoding="utf-8").splitlines():
        fen, rack = line.split()
        board = Board.from_fen(RULES, fen)
        a, b = mapped.solve(board, rack, top=3), built.solve(board, rack, top=3)
        assert [(m.notation(), m.score) for m in a.moves] == [(m.notation(), m.score) for m in b.moves]


def test_format_1_still_loads_and_is_upgraded_in_place(graph_file: Path, tmp_path: Path, caplog):
    v1 = as_format_1(graph_file, tmp_path / "v1.kwg")
    graph = WordGraph.load(v1)
    assert graph.format_version == 1 and graph.anagram_section() is None
    with caplog.at_level(logging.WARNING, logger="scoring.solver"):
        solver = Solver(RULES, graph)
    assert not solver._core.bingo_index.in_place
    assert "lexicon upgrade" in caplog.text
    before = solver.solve(Board(RULES), "AEINRST", top=5)
    content_hash = graph.content_hash

    assert not is_current(v1)  # told from the header alone
    garbage = tmp_path / "words.txt"
    garbage.write_text("NOT A GRAPH\n")
    assert not is_current(garbage)
    assert upgrade(v1) is True
    assert upgrade(v1) is False  # current already
    assert format_version(v1) == 2
    again = WordGraph.load(v1)
    assert again.content_hash == content_hash and again.anagram_section() is not None
    assert v1.read_bytes() == graph_file.read_bytes()  # exactly what a build writes
    after = Solver(RULES, again).solve(Board(RULES), "AEINRST", top=5)
    assert [(m.notation(), m.score) for m in after.moves] == [(m.notation(), m.score) for m in before.moves]
    # the first mapping still reads the old file
    assert solver.solve(Board(RULES), "AEINRST", top=1).moves[0].score == before.moves[0].score


def test_publishing_replaces_a_format_1_file_of_the_same_content(graph_file: Path, tmp_path: Path):
    final = as_format_1(graph_file, tmp_path / "final.kwg")
    tmp = tmp_path / "tmp.kwg"
    info = build(WORDS, EN, tmp)
    assert publish_graph(tmp, final, info.content_hash) is True
    assert format_version(final) == 2
    tmp2 = tmp_path / "tmp2.kwg"
    build(WORDS, EN, tmp2)
    assert publish_graph(tmp2, final, info.content_hash) is False  # identical and current: kept


def section_start(path: Path) -> int:
    graph = WordGraph.load(path, verify=False)
    edges_end = HEADER_SIZE + 28 + 4 * graph.node_count  # 26 ASCII letters padded to 28
    graph.close()
    return edges_end + (-edges_end % 8)


def test_truncated_section_refused(graph_file: Path):
    data = graph_file.read_bytes()
    start = section_start(graph_file)
    for cut in (8, ANA_HEADER_SIZE + 8, len(data) - start - ANA_HEADER_SIZE // 2):
        graph_file.write_bytes(data[:-cut])
        with pytest.raises(GraphError, match="truncated"):
            WordGraph.load(graph_file, verify=False)
    graph_file.write_bytes(data + b"\0" * 8)
    with pytest.raises(GraphError, match="unexpected bytes after its anagram section"):
        WordGraph.load(graph_file)


def test_corrupt_section_refused(graph_file: Path):
    data = graph_file.read_bytes()
    start = section_start(graph_file)
    rng = random.Random(3)
    for offset in [start + i for i in range(ANA_HEADER_SIZE)] + rng.sample(range(start, len(data)), 200):
        bad = bytearray(data)
        bad[offset] ^= 0x04
        graph_file.write_bytes(bytes(bad))
        with pytest.raises(GraphError, match="corrupt"):
            WordGraph.load(graph_file)
    bad = bytearray(data)
    bad[start : start + 8] = b"DUPANA99"
    graph_file.write_bytes(bytes(bad))
    with pytest.raises(GraphError, match="anagram section starts with"):
        WordGraph.load(graph_file, verify=False)


def test_unverified_load_cannot_hang_the_solver(graph_file: Path):
    """Without the SHA-256 a damaged table is still checked when the solver maps it: every table has an
    empty slot (lookups end) and the sizes its header gives."""
    data = bytearray(graph_file.read_bytes())
    start = section_start(graph_file)
    _magic, _rack, _n, one_cap, _one_n, two_cap, _two_n = struct.unpack_from("<8sIIQQQQ", data, start)
    two_keys = start + ANA_HEADER_SIZE + 16 * one_cap
    for i in range(two_cap):
        struct.pack_into("<Q", data, two_keys + 8 * i, 0x1234 + i)
    graph_file.write_bytes(bytes(data))
    graph = WordGraph.load(graph_file, verify=False)
    with pytest.raises(SolverError, match="corrupt: the anagram section's second table has no empty slot"):
        Solver(RULES, graph)
    section = bytes(graph.anagram_section() or b"")
    with pytest.raises(ValueError, match="size does not match"):
        _solver.BingoIndex.mapped(section[:-8])


@pytest.mark.parametrize("ruleset_id", ruleset_ids())
def test_letter_multipliers_match_the_rule_set(ruleset_id: str):
    """The tables share the rows of alike squares: still exactly letter_multiplier square by square."""
    rules = get_ruleset(ruleset_id)
    codes = {letter: i + 1 for i, letter in enumerate(rules.letters)}
    lm, blm = _letter_multipliers(rules, codes)
    for r in range(15):
        for c in range(15):
            for letter, code in codes.items():
                at = (r * 15 + c) * 64 + code
                assert lm[at] == rules.letter_multiplier(r, c, letter, False)
                assert blm[at] == rules.letter_multiplier(r, c, letter, True)


def test_section_probed_in_place(graph_file: Path):
    """The solver's index is the file's mapping (its size is the section's, nothing copied)."""
    graph = WordGraph.load(graph_file)
    solver = Solver(RULES, graph)
    section = graph.anagram_section()
    assert section is not None
    index = solver._core.bingo_index
    assert index.in_place and index.nbytes == section.nbytes - ANA_HEADER_SIZE
    assert os.path.getsize(graph_file) >= section.nbytes


# -- tables three and four: whole-rack words through three and four board tiles -----------------------

THREE_WORDS = [*WORDS, "ENTERTAINS", "ENTERTAIN", "ENTERTAINERS", "ENTERTAINER"]
#: N, R and N on row H: ENTERTAINS from H1 takes E T E T A I S from the rack (seven tiles, the bonus)
THREE_TILES = "15/15/15/15/15/15/15/1N2R3N6/15/15/15/15/15/15/15"
#: and N, T, A, N on row H: ENTERTAINER from H1 takes E E R I E R T (ENTERTAINERS: and S, eight tiles: no)
FOUR_TILES = "15/15/15/15/15/15/15/1NT3A1N6/15/15/15/15/15/15/15"


def without_index(graph: WordGraph) -> Solver:
    solver = Solver(RULES, graph)
    solver._core.bingo_index = None  # every span allowed: what the index must never change
    solver._core.rebind()
    solver._bind_core()
    return solver


@pytest.mark.parametrize(
    ("tiles", "racks_", "word", "seed"),
    [
        (THREE_TILES, ("EETTAIS", "EETTA?S", "?ETTA?S", "EETTAIN", "EETT?IN"), "ENTERTAINS", 5),  # table three
        (FOUR_TILES, ("EERIERT", "EER?ERT", "?ERIE?T", "EERIERS"), "ENTERTAINER", 6),  # table four
    ],
)
def test_tables_three_and_four_keep_the_words_through_their_board_tiles(
    tmp_path: Path, tiles: str, racks_: tuple[str, ...], word: str, seed: int
):
    path = tmp_path / "index.kwg"
    build(THREE_WORDS, EN, path)
    graph = WordGraph.load(path)
    indexed, plain = Solver(RULES, graph), without_index(graph)
    board = Board.from_fen(RULES, tiles)
    for rack in racks_:
        same_moves(indexed, plain, board, rack)
    for rack in racks_[:3]:  # the bonus: seven tiles around the board's
        best = indexed.solve(board, rack, top=1).moves[0]
        assert best.notation().upper() == f"H1 {word}" and best.score > 100, rack
    for rack in racks(seed, 30):
        same_moves(indexed, plain, board, rack)


def as_older_section(path: Path, target: Path, version: int) -> Path:
    """The same file with its anagram section as version 1 or 2 wrote it (version 2: no table five, a
    592-byte header, magic DUPANA02; version 1: no tables three, four and five either, a 560-byte header,
    magic DUPANA01), the header's section hash made again."""
    data = bytearray(path.read_bytes())
    start = section_start(path)
    magic, rack, n, one_cap, one_n, two_cap, two_n = struct.unpack_from("<8sIIQQQQ", data, start)
    assert magic == b"DUPANA03"
    three_cap, three_n, four_cap, four_n, five_cap, _five_n = struct.unpack_from("<QQQQQQ", data, start + 560)
    assert len(data) == start + ANA_HEADER_SIZE + 8 * (2 * one_cap + two_cap + three_cap + four_cap + five_cap)
    kept = 2 * one_cap + two_cap + (three_cap + four_cap if version == 2 else 0)
    tables = data[start + ANA_HEADER_SIZE : start + ANA_HEADER_SIZE + 8 * kept]
    section = struct.pack("<8sIIQQQQ", f"DUPANA0{version}".encode(), rack, n, one_cap, one_n, two_cap, two_n)
    section += bytes(data[start + struct.calcsize("<8sIIQQQQ") : start + 560])  # the letter keys
    if version == 2:
        section += struct.pack("<QQQQ", three_cap, three_n, four_cap, four_n)
    section += bytes(tables)
    head = bytearray(data[:start])
    head[64:96] = hashlib.sha256(section).digest()
    target.write_bytes(bytes(head) + section)
    return target


@pytest.mark.parametrize("version", [1, 2])
def test_an_older_section_still_serves_and_is_upgraded(tmp_path: Path, version: int):
    """Version 1 (no tables three, four and five) and version 2 (no table five): the same moves, the spans
    those tables would drop searched; `upgrade` rewrites the file as a build writes it."""
    path = tmp_path / "three.kwg"
    build(THREE_WORDS, EN, path)
    old = as_older_section(path, tmp_path / f"v{version}-section.kwg", version)
    graph, current = WordGraph.load(old), WordGraph.load(path)
    assert graph.format_version == 2 and not is_current(old) and is_current(path)
    older, now = Solver(RULES, graph), Solver(RULES, current)
    assert older._core.bingo_index.in_place
    assert older._core.bingo_index.nbytes < now._core.bingo_index.nbytes  # the tables it lacks
    assert older._core.bingo_index.spells(b"\x01", 1) is None  # no table five
    for board in (Board(RULES), *(Board.from_fen(RULES, fen) for fen in (THREE_TILES, FOUR_TILES, MID))):
        for rack in ("EETTA?S", "?ETTA?S", *racks(7, 15)):
            same_moves(older, now, board, rack)
    assert upgrade(old) is True and upgrade(old) is False
    assert old.read_bytes() == path.read_bytes()  # exactly what a build writes
    # a new build of the same words replaces a published file of the older section
    final = as_older_section(path, tmp_path / "published.kwg", version)
    tmp = tmp_path / "fresh.kwg"
    info = build(THREE_WORDS, EN, tmp)
    assert publish_graph(tmp, final, info.content_hash) is True and is_current(final)


# -- table five: the words a rack's tiles spell, blanks as any letter ----------------------------------


def spelled_by_brute_force(words: list[str], letters: str, blanks: int) -> bool:
    """Some word of len(letters) + blanks letters holds every one of `letters` (as many times)."""
    need = Counter(letters)
    return any(
        len(word) == len(letters) + blanks and not need - Counter(word) for word in words
    )


def index_answer(words: list[str], letters: str, blanks: int) -> bool | None:
    """What BingoIndex.spells must say: table five up to 7 letters in all (0 to 2 blanks), table one for 8
    (0 or 1 blank), tables two to four for 9 to 11 without a blank; None beyond."""
    length = len(letters) + blanks
    if blanks > 2 or length > 11 or (length == 8 and blanks > 1) or (length > 8 and blanks):
        return None
    return spelled_by_brute_force(words, letters, blanks)


def test_the_index_knows_every_multiset_a_word_holds(tmp_path: Path):
    """Every multiset of up to seven letters of the words' letters (and a few others), with 0, 1 or 2 letters
    more, and the words of 8 to 12 letters less none or one of their letters: the stored index, and the one
    built in memory for a format-1 file, answer exactly what the words say (a wrong key, a lost word or a
    left-out letter would show), and None where they cannot tell."""
    path = tmp_path / "words.kwg"
    build(THREE_WORDS, EN, path)
    graph = WordGraph.load(path)
    codes = {letter: i + 1 for i, letter in enumerate(EN)}
    stored = Solver(RULES, graph)._core.bingo_index
    built = Solver(RULES, WordGraph.load(as_format_1(path, tmp_path / "v1.kwg")))._core.bingo_index
    rng = random.Random(11)
    pool = "AEINRSTQUZOXB"
    cases = {("", 2), ("", 0)}
    for word in THREE_WORDS:  # the words' own letters, less some, with the letters left out as blanks
        for _ in range(6):
            kept = "".join(sorted(rng.sample(word, rng.randint(1, len(word)))))
            cases.update((kept, b) for b in range(3))
        whole = "".join(sorted(word))
        cases.update({(whole, 0), (whole[1:], 1), (whole[:-1], 1), (whole[:-1] + "Q", 0)})
    for _ in range(3000):
        letters = "".join(sorted(rng.choice(pool) for _ in range(rng.randint(1, 9))))
        cases.update((letters, b) for b in range(3))
    answers = {True: 0, False: 0, None: 0}
    for letters, blanks in sorted(cases):
        key = bytes(codes[c] for c in letters)
        expected = index_answer(THREE_WORDS, letters, blanks)
        answers[expected] += 1
        assert stored.spells(key, blanks) is expected, (letters, blanks)
        assert built.spells(key, blanks) is expected, (letters, blanks)
    assert answers[True] > 150 and answers[False] > 1000 and answers[None] > 100, answers
    long_yes = [c for c in cases if len(c[0]) + c[1] >= 8 and index_answer(THREE_WORDS, *c)]
    assert {len(c[0]) + c[1] for c in long_yes} >= {8, 9, 10, 11}, long_yes  # tables one to four asked
    assert stored.spells(b"\x01", 3) is None  # more blanks than the index leaves out
    with pytest.raises(ValueError, match="letter codes"):
        stored.spells(b"\x00", 0)


def test_table_five_drops_spans_that_spell_nothing_and_keeps_the_moves(tmp_path: Path):
    """Racks with blanks, on boards of few and of many tiles: the best-N answers and every move counted are
    those of the solver without the index (which drops nothing), and of a version-2 section (no table five)."""
    path = tmp_path / "five.kwg"
    build(THREE_WORDS, EN, path)
    graph = WordGraph.load(path)
    no_five = WordGraph.load(as_older_section(path, tmp_path / "v2.kwg", 2))
    indexed, plain, older = Solver(RULES, graph), without_index(graph), Solver(RULES, no_five)
    rng = random.Random(5)
    blank_racks = ["".join(rng.sample("AEEINRSTTOQUZ", 6 - b)) + "?" * (b + 1) for b in (0, 1) for _ in range(20)]
    for fen in ("15/15/15/15/15/15/15/7QI6/15/15/15/15/15/15/15", MID, THREE_TILES):
        board = Board.from_fen(RULES, fen)
        for rack in blank_racks:
            same_moves(indexed, plain, board, rack)
            same_tops(indexed, older, board, rack)


@pytest.mark.parametrize(
    ("tiles", "rack", "word"),
    [
        ("15/15/15/15/15/15/15/C2T11/15/15/15/15/15/15/15", "ERAIN?", "H1 CERTAINs"),  # 8 letters, a blank
        (THREE_TILES, "EETTAI?", "H1 ENTERTAIN"),  # 9 letters without a blank: table two
        (THREE_TILES, "EETTA??", "H1 ENTERTAiN"),  # 9 letters, a blank: allowed
        (MID, "TCESR??", "6B CERTaINS"),  # 8 letters through two of the board's tiles, a blank: table one
        (FOUR_TILES, "IRTSEE?", "H1 ENTERTAINS"),  # 10 letters, no blank: table three
    ],
)
def test_words_longer_than_table_five_are_asked_of_tables_one_to_four(
    tmp_path: Path, tiles: str, rack: str, word: str
):
    """A span of more letters than table five's words, through board tiles, with a rack of blanks: the exact
    bound asks table one (rack size + 1 letters: with the known letters less one, or, with a blank, any letter
    more) and tables two to four (+ 2 to + 4, no blank); the words through the board's tiles stay among the
    best (a wrong key drops them: the answers then differ from the solver's without the index)."""
    path = tmp_path / "long.kwg"
    build(THREE_WORDS, EN, path)
    graph = WordGraph.load(path)
    indexed, plain = Solver(RULES, graph), without_index(graph)
    board = Board.from_fen(RULES, tiles)
    same_tops(indexed, plain, board, rack)
    best = [m.notation() for m in indexed.solve(board, rack, top=3).moves]
    assert any(text.startswith(word) for text in best), best
