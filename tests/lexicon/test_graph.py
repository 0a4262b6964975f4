"""The compiled word graph (lexicon/graph.py + lexicon/_graph.c): no database needed."""

from __future__ import annotations

import os
import random
import struct
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexicon.graph import HEADER_SIZE, MAX_NODES, BuildInfo, GraphError, WordGraph, build

EN = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
PL = "AĄBCĆDEĘFGHIJKLŁMNŃOÓPRSŚTUWYZŹŻ"
RU = "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ"

WORDS = [
    "CAT",
    "CATS",
    "CAR",
    "CARE",
    "CARES",
    "DOG",
    "DOGS",
    "AT",
    "ATE",
    "EAT",
    "EATS",
    "TEA",
    "ZA",
    "QUIZ",
]


# -- helpers: a pure-Python reading of the edge array (graph_format.h) -------------


def child(e: int) -> int:
    return e & 0xFFFFFF


def is_end(e: int) -> bool:
    return bool(e >> 24 & 1)


def accepts(e: int) -> bool:
    return bool(e >> 25 & 1)


def tile(e: int) -> int:
    return e >> 26


def language(edges, root: int) -> set[tuple[int, ...]]:
    """Every code sequence accepted from the list at ``root``."""
    found: set[tuple[int, ...]] = set()

    def walk(node: int, prefix: tuple[int, ...]) -> None:
        i = node
        while True:
            e = edges[i]
            path = (*prefix, tile(e))
            if accepts(e):
                found.add(path)
            if child(e):
                walk(child(e), path)
            if is_end(e):
                return
            i += 1

    if root:
        walk(root, ())
    return found


def gaddag_entries(codes: tuple[int, ...]) -> set[tuple[int, ...]]:
    n = len(codes)
    out = {tuple(reversed(codes))}
    for i in range(1, n):
        out.add((*reversed(codes[:i]), 0, *codes[i:]))
    return out


def sibling_lists(edges) -> list[tuple[int, ...]]:
    lists, current = [], []
    for i in range(2, len(edges)):
        current.append(edges[i])
        if is_end(edges[i]):
            lists.append(tuple(current))
            current = []
    assert not current, "last list not terminated"
    return lists


@pytest.fixture
def graph(tmp_path: Path):
    path = tmp_path / "small.kwg"
    build(WORDS, EN, path)
    g = WordGraph.load(path)
    yield g
    g.close()


# -- membership ------------------------------------------------------------------------


def test_build_info(tmp_path: Path):
    path = tmp_path / "g.kwg"
    info = build(WORDS, EN, path)
    assert isinstance(info, BuildInfo)
    assert info.word_count == len(WORDS)
    assert info.file_size == path.stat().st_size
    assert len(info.content_hash) == 64
    assert info.seconds >= 0
    g = WordGraph.load(path)
    assert (g.word_count, g.node_count, g.content_hash) == (
        info.word_count,
        info.node_count,
        info.content_hash,
    )
    assert g.alphabet == EN and g.has_gaddag and len(g) == len(WORDS)
    g.close()


def test_contains_words_and_not_others(graph: WordGraph):
    for w in WORDS:
        assert w in graph
    for w in ["CA", "CATE", "CARESS", "DO", "QUI", "QUIZZ", "A", "Z", "", "TEAS", "ZAZ"]:
        assert w not in graph, w
    # prefixes of words are not words unless listed
    for w in WORDS:
        for k in range(1, len(w)):
            assert (w[:k] in graph) == (w[:k] in WORDS)


def test_contains_any_str(graph: WordGraph):
    assert "cat" not in graph  # no case folding
    assert "CAT " not in graph
    assert "ЖУК" not in graph
    assert "C\0T" not in graph
    assert "CATS" * 10 not in graph
    assert 42 not in graph
    assert None not in graph


def test_contains_many(graph: WordGraph):
    probe = ["CAT", "CA", "ЖУК", "DOGS", ""]
    assert graph.contains_many(probe) == [True, False, False, True, False]
    assert graph.contains_many(iter(probe)) == [True, False, False, True, False]
    assert graph.contains_many([]) == []


def test_words_returns_input_set_in_code_order(tmp_path: Path):
    words = ["ĄB", "BA", "AB", "ZĄ", "AĄ", "ŻA", "ĆA", "CA"]
    path = tmp_path / "pl.kwg"
    build(words, PL, path)
    with WordGraph.load(path) as g:
        listed = list(g.words())
        assert listed == sorted(words, key=lambda w: [PL.index(c) for c in w])
        assert list(g) == listed


def test_duplicates_and_order_do_not_matter(tmp_path: Path):
    shuffled = WORDS * 3
    random.Random(7).shuffle(shuffled)
    a = build(sorted(set(WORDS)), EN, tmp_path / "a.kwg")
    b = build(shuffled, EN, tmp_path / "b.kwg")
    c = build(iter(shuffled), EN, tmp_path / "c.kwg")  # any iterable
    assert a.word_count == b.word_count == c.word_count == len(WORDS)
    assert a.content_hash == b.content_hash == c.content_hash
    assert (tmp_path / "a.kwg").read_bytes() == (tmp_path / "b.kwg").read_bytes()


def test_same_words_same_hash_different_alphabet_different_hash(tmp_path: Path):
    a = build(WORDS, EN, tmp_path / "a.kwg")
    b = build(list(WORDS), EN, tmp_path / "b.kwg")
    c = build(WORDS, EN + "Ä", tmp_path / "c.kwg")
    assert a.content_hash == b.content_hash != c.content_hash


def test_encode_decode(graph: WordGraph):
    assert graph.encode("CAB") == bytes([3, 1, 2])
    assert graph.decode(bytes([26, 1])) == "ZA"
    assert graph.decode(graph.encode("QUIZ")) == "QUIZ"
    with pytest.raises(GraphError, match="'é' is not in the alphabet"):
        graph.encode("CAFé")
    with pytest.raises(GraphError, match="code 0 at position 1"):
        graph.decode(bytes([1, 0]))
    with pytest.raises(GraphError, match="code 27"):
        graph.decode(bytes([27]))


def test_alphabet_beyond_bmp_and_as_sequence(tmp_path: Path):
    alphabet = ["A", "𝔹", "'", "Ї"]
    words = ["A𝔹", "𝔹'Ї", "ЇA"]
    build(words, alphabet, tmp_path / "x.kwg")
    with WordGraph.load(tmp_path / "x.kwg") as g:
        assert g.alphabet == "A𝔹'Ї"
        assert all(w in g for w in words)
        assert "𝔹" not in g and "A𝔹'" not in g
        assert g.encode("𝔹'Ї") == bytes([2, 3, 4])
        assert sorted(g.words()) == sorted(words)


# -- structure -----------------------------------------------------------------------------


def test_edge_array_layout(graph: WordGraph):
    edges = graph.nodes_buffer()
    assert edges.format == "I" and edges.itemsize == 4 and len(edges) == graph.node_count
    assert graph.dawg_root == child(edges[0]) and graph.gaddag_root == child(edges[1])
    assert graph.dawg_root >= 2 and graph.gaddag_root >= 2
    for lst in sibling_lists(edges):
        tiles = [tile(e) for e in lst]
        assert tiles == sorted(set(tiles))
    # minimised: no sibling list appears twice (DAWG and GADDAG share them)
    lists = sibling_lists(edges)
    assert len(lists) == len(set(lists))


def test_dawg_and_gaddag_languages(graph: WordGraph):
    edges = graph.nodes_buffer()
    codes = [tuple(graph.encode(w)) for w in WORDS]
    assert language(edges, graph.dawg_root) == set(codes)
    expected = set().union(*(gaddag_entries(c) for c in codes))
    assert language(edges, graph.gaddag_root) == expected


def test_every_gaddag_split_accepted(graph: WordGraph):
    for w in WORDS:
        c = graph.encode(w)
        for i in range(1, len(c) + 1):
            entry = c[:i][::-1] + (b"\0" + c[i:] if i < len(c) else b"")
            assert graph.accepts(entry, root=graph.gaddag_root), (w, i)
    assert graph.accepts(graph.encode("CAT"))
    assert not graph.accepts(graph.encode("CA"))
    assert not graph.accepts(b"\0\3", root=graph.gaddag_root)


def test_without_gaddag(tmp_path: Path):
    path = tmp_path / "d.kwg"
    info = build(WORDS, EN, path, gaddag=False)
    with WordGraph.load(path) as g:
        assert not g.has_gaddag and g.gaddag_root == 0
        assert all(w in g for w in WORDS)
        assert set(g.words()) == set(WORDS)
        assert not g.accepts(b"\3", root=0)
    assert info.node_count < build(WORDS, EN, tmp_path / "g.kwg").node_count


words_strategy = st.lists(st.text(alphabet="ABCD", min_size=2, max_size=7), max_size=40)


@settings(max_examples=150, deadline=None)
@given(words_strategy)
def test_brute_force_languages(words: list[str]):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "h.kwg"
        if not words:
            with pytest.raises(GraphError, match="no words"):
                build(words, "ABCD", path)
            return
        info = build(words, "ABCD", path)
        with WordGraph.load(path) as g:
            edges = g.nodes_buffer()
            codes = {tuple("ABCD".index(ch) + 1 for ch in w) for w in words}
            assert info.word_count == len(codes)
            assert language(edges, g.dawg_root) == codes
            assert language(edges, g.gaddag_root) == set().union(*(gaddag_entries(c) for c in codes))
            assert list(g.words()) == sorted(set(words))
            # every string over the alphabet up to length 4 is in iff listed
            for n in range(0, 5):
                for k in range(4**n):
                    s = "".join("ABCD"[k // 4**j % 4] for j in range(n))
                    assert (s in g) == (s in set(words)), s
            lists = sibling_lists(edges)
            assert len(lists) == len(set(lists))
            del edges


def test_random_larger_list(tmp_path: Path):
    rng = random.Random(1)
    words = {"".join(rng.choice("ABCDEFGH") for _ in range(rng.randint(2, 15))) for _ in range(3000)}
    path = tmp_path / "r.kwg"
    build(words, "ABCDEFGH", path)
    with WordGraph.load(path) as g:
        assert set(g.words()) == words
        assert all(g.contains_many(words))
        others = {
            "".join(rng.choice("ABCDEFGH") for _ in range(rng.randint(1, 16))) for _ in range(3000)
        } - words
        assert not any(g.contains_many(others))
        for w in list(words)[:300]:
            c = g.encode(w)
            for i in range(1, len(c) + 1):
                entry = c[:i][::-1] + (b"\0" + c[i:] if i < len(c) else b"")
                assert g.accepts(entry, root=g.gaddag_root)


# -- bad input ----------------------------------------------------------------------------------


def test_foreign_letter_names_word_and_letter(tmp_path: Path):
    with pytest.raises(GraphError, match=r"'CAFÉ'.*'É'.*position 4"):
        build(["CAT", "CAFÉ"], EN, tmp_path / "x.kwg")
    with pytest.raises(GraphError, match=r"'cat'.*'c'"):
        build(["cat"], EN, tmp_path / "x.kwg")
    with pytest.raises(GraphError, match=r"'ДОМ'"):
        build(["ДОМ", "CAT"], EN, tmp_path / "x.kwg")
    assert not (tmp_path / "x.kwg").exists()


def test_word_length_limits(tmp_path: Path):
    with pytest.raises(GraphError, match=r"'A' has 1 letters"):
        build(["CAT", "A"], EN, tmp_path / "x.kwg")
    with pytest.raises(GraphError, match=r"has 16 letters"):
        build(["A" * 16], EN, tmp_path / "x.kwg")
    with pytest.raises(GraphError, match=r"has 0 letters"):
        build([""], EN, tmp_path / "x.kwg")
    info = build(["A" * 15, "AB"], EN, tmp_path / "ok.kwg")
    assert info.word_count == 2
    with WordGraph.load(tmp_path / "ok.kwg") as g:
        assert "A" * 15 in g and "A" * 14 not in g and "A" * 16 not in g


def test_bad_alphabets_and_inputs(tmp_path: Path):
    with pytest.raises(GraphError, match="twice"):
        build(["AB"], "ABA", tmp_path / "x.kwg")
    with pytest.raises(GraphError, match="1 to 63"):
        build(["AB"], "", tmp_path / "x.kwg")
    with pytest.raises(GraphError, match="1 to 63"):
        build(["AB"], [chr(0x400 + i) for i in range(64)], tmp_path / "x.kwg")
    with pytest.raises(GraphError, match="single characters"):
        build(["AB"], ["A", "BC"], tmp_path / "x.kwg")
    with pytest.raises(GraphError, match="must be str"):
        build(["AB", b"CD"], EN, tmp_path / "x.kwg")
    with pytest.raises(GraphError, match="no words"):
        build([], EN, tmp_path / "x.kwg")


def test_sixty_three_letters(tmp_path: Path):
    alphabet = "".join(chr(0x100 + i) for i in range(63))
    words = [alphabet[i] + alphabet[-1 - i] for i in range(63)]
    build(words, alphabet, tmp_path / "x.kwg")
    with WordGraph.load(tmp_path / "x.kwg") as g:
        assert set(g.words()) == set(words)
        assert g.encode(alphabet[-1]) == bytes([63])


# -- files ----------------------------------------------------------------------------------------


def test_atomic_write_replaces_and_leaves_no_temp(tmp_path: Path):
    path = tmp_path / "g.kwg"
    build(["AB"], EN, path)
    old = WordGraph.load(path)
    build(WORDS, EN, path)
    assert sorted(os.listdir(tmp_path)) == ["g.kwg"]
    assert list(old.words()) == ["AB"]  # the old mapping is untouched by the rename
    old.close()
    with WordGraph.load(path) as g:
        assert g.word_count == len(WORDS)


def test_unwritable_destination(tmp_path: Path):
    with pytest.raises(GraphError, match="cannot write"):
        build(WORDS, EN, tmp_path / "no" / "such" / "dir.kwg")


def test_solver_can_take_the_edge_buffer(graph: WordGraph):
    """The cast view exports a plain C buffer (PyBUF_SIMPLE), as scoring/_solver.c will request."""
    from lexicon import _graph

    core = _graph.Core(graph.nodes_buffer(), graph.alphabet)
    assert "CATS" in core and "CATZ" not in core
    core.release()


def test_missing_and_tiny_files(tmp_path: Path):
    with pytest.raises(GraphError, match="cannot open"):
        WordGraph.load(tmp_path / "nope.kwg")
    (tmp_path / "empty.kwg").write_bytes(b"")
    with pytest.raises(GraphError, match="truncated"):
        WordGraph.load(tmp_path / "empty.kwg")
    (tmp_path / "text.kwg").write_bytes(b"hello world\n" * 20)
    with pytest.raises(GraphError, match="not a word graph"):
        WordGraph.load(tmp_path / "text.kwg")


def test_truncated_file_refused(tmp_path: Path):
    path = tmp_path / "g.kwg"
    build(WORDS, EN, path)
    data = path.read_bytes()
    for cut in (len(data) - 1, len(data) - 4, HEADER_SIZE + 3, HEADER_SIZE):
        path.write_bytes(data[:cut])
        with pytest.raises(GraphError, match="truncated"):
            WordGraph.load(path, verify=False)
    path.write_bytes(data + b"\0\0\0\0")
    with pytest.raises(GraphError, match="unexpected bytes"):
        WordGraph.load(path)


def test_flipped_byte_refused(tmp_path: Path):
    path = tmp_path / "g.kwg"
    build(WORDS, EN, path)
    data = path.read_bytes()
    for offset in range(HEADER_SIZE, len(data)):
        bad = bytearray(data)
        bad[offset] ^= 0x10
        path.write_bytes(bad)
        with pytest.raises(GraphError, match="corrupt"):
            WordGraph.load(path)


def test_flipped_header_refused(tmp_path: Path):
    path = tmp_path / "g.kwg"
    build(WORDS, EN, path)
    data = path.read_bytes()
    for offset in range(HEADER_SIZE):
        bad = bytearray(data)
        bad[offset] ^= 0x01
        path.write_bytes(bad)
        with pytest.raises(GraphError):
            WordGraph.load(path)


def test_header_messages(tmp_path: Path):
    path = tmp_path / "g.kwg"
    build(WORDS, EN, path)
    data = bytearray(path.read_bytes())
    v3 = data[:8] + struct.pack("<I", 3) + data[12:]
    path.write_bytes(v3)
    with pytest.raises(GraphError, match="version 3, this code reads 1 and 2; rebuild"):
        WordGraph.load(path)
    count = data[:24] + struct.pack("<I", len(WORDS) + 1) + data[28:]
    path.write_bytes(count)
    with pytest.raises(GraphError, match=f"header says {len(WORDS) + 1} words"):
        WordGraph.load(path)


def test_structure_checked_without_hash(tmp_path: Path):
    """verify=False skips the hash, never the checks that keep walks inside the array."""
    path = tmp_path / "g.kwg"
    build(WORDS, EN, path)
    data = bytearray(path.read_bytes())
    edges_at = HEADER_SIZE + 28  # 26 ASCII letters padded to 28
    (n,) = struct.unpack_from("<I", data, 20)  # the edge count (the anagram section follows the edges)
    # point an edge's child forward (a cycle), and a root beyond the end
    for index, value in [(n - 1, (n - 1) | 1 << 24 | 1 << 25 | 3 << 26), (0, n + 5 | 1 << 24)]:
        bad = bytearray(data)
        struct.pack_into("<I", bad, edges_at + 4 * index, value)
        path.write_bytes(bad)
        with pytest.raises(GraphError, match="corrupt"):
            WordGraph.load(path, verify=False)
    # the last list unterminated
    bad = bytearray(data)
    (last,) = struct.unpack_from("<I", bad, edges_at + 4 * (n - 1))
    struct.pack_into("<I", bad, edges_at + 4 * (n - 1), last & ~(1 << 24))
    path.write_bytes(bad)
    with pytest.raises(GraphError, match="not terminated"):
        WordGraph.load(path, verify=False)


def test_close(tmp_path: Path):
    path = tmp_path / "g.kwg"
    build(WORDS, EN, path)
    g = WordGraph.load(path)
    edges = g.nodes_buffer()
    it = g.words()
    g.close()
    assert edges[0] >> 24 & 1  # an exported view keeps the mapping alive
    edges.release()
    with pytest.raises(GraphError, match="closed"):
        _ = "CAT" in g
    with pytest.raises(GraphError, match="closed"):
        g.nodes_buffer()
    with pytest.raises(GraphError, match="closed"):
        list(g.words())
    with pytest.raises(ValueError, match="closed"):
        next(it)
    g.close()  # idempotent


def test_limits_exposed():
    assert MAX_NODES == 1 << 24
