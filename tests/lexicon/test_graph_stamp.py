"""A compiled file is verified in full (SHA-256, word count) at its first load after it was written or changed, and
stamped; a later process whose file matches the stamp checks its structure only (the first solve follows at once)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from lexicon import models
from lexicon.graph import HEADER_SIZE, WordGraph, build
from lexicon.models import STAMP_SUFFIX, LexiconError, forget_graphs, load_graph_file
from scoring.rules import get_ruleset

WORDS = ["CAT", "CATS", "ACT", "TACO", "COAT", "COATS", "SCAT", "OCTA", "TOCS"]


@pytest.fixture
def graph_file(tmp_path: Path) -> Path:
    path = tmp_path / "small.kwg"
    build(WORDS, get_ruleset("en").alphabet, path)
    forget_graphs()
    yield path
    forget_graphs()


@pytest.fixture
def loads(monkeypatch) -> list[bool]:
    """The ``verify`` flag of every load of a compiled file."""
    seen: list[bool] = []
    real = WordGraph.load.__func__

    def load(cls, path, *, verify=True):
        seen.append(verify)
        return real(cls, path, verify=verify)

    monkeypatch.setattr(WordGraph, "load", classmethod(load))
    return seen


def stamp(path: Path) -> Path:
    return path.with_name(path.name + STAMP_SUFFIX)


def test_first_load_verifies_and_stamps_then_the_structure_is_enough(graph_file: Path, loads: list[bool]):
    graph = load_graph_file(graph_file)
    assert loads == [True]
    data = json.loads(stamp(graph_file).read_text())
    assert data["hash"] == graph.content_hash and data["size"] == graph_file.stat().st_size
    forget_graphs()  # another process
    again = load_graph_file(graph_file, graph.content_hash)
    assert loads == [True, False] and again.content_hash == graph.content_hash
    assert again.contains_many(["COATS", "COATZ"]) == [True, False]


def test_a_file_changed_since_its_stamp_is_verified_again(graph_file: Path, loads: list[bool]):
    load_graph_file(graph_file)
    forget_graphs()
    st = graph_file.stat()
    os.utime(graph_file, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    load_graph_file(graph_file)
    assert loads == [True, True]
    forget_graphs()
    load_graph_file(graph_file)
    assert loads == [True, True, False]  # stamped again


def test_a_corrupt_file_changed_after_its_stamp_is_refused(graph_file: Path):
    load_graph_file(graph_file)
    forget_graphs()
    data = bytearray(graph_file.read_bytes())
    data[HEADER_SIZE + 40] ^= 0x01
    graph_file.write_bytes(bytes(data))  # a new modification time: the stamp no longer vouches
    with pytest.raises(LexiconError, match="unusable"):
        load_graph_file(graph_file)


def test_a_stamp_of_another_content_or_garbage_vouches_for_nothing(graph_file: Path, loads: list[bool]):
    graph = load_graph_file(graph_file)
    forget_graphs()
    st = graph_file.stat()
    stamp(graph_file).write_text(json.dumps({"size": st.st_size, "mtime_ns": st.st_mtime_ns, "ino": st.st_ino,
                                             "hash": "0" * 64}))
    assert models.vouched_hash(graph_file, st) == "0" * 64
    assert load_graph_file(graph_file, graph.content_hash).content_hash == graph.content_hash
    assert loads[-1] is True
    forget_graphs()
    stamp(graph_file).write_text("{not json")
    assert models.vouched_hash(graph_file, graph_file.stat()) is None
    load_graph_file(graph_file)
    assert loads[-1] is True


def test_a_read_only_folder_only_means_verifying_each_time(graph_file: Path, loads: list[bool], monkeypatch):
    monkeypatch.setattr(Path, "write_text", lambda *a, **k: (_ for _ in ()).throw(PermissionError("read-only")))
    load_graph_file(graph_file)
    forget_graphs()
    load_graph_file(graph_file)
    assert loads == [True, True] and not stamp(graph_file).exists()
