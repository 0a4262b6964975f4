"""The solver's saved baseline: the 5 best moves of ~30 fixed positions over the ``en`` word list.

``tests/tools/solver_baseline.txt`` holds the expected output; ``tests/engine/test_solver.py``
recomputes it and compares. After a deliberate change of the solver's output
(never to make a failing test pass without understanding why), regenerate it::

    BENCH_WORDLIST_DIR=/path/to/wordlists python -m tests.tools.solver_baseline --write

The word list is ``en.txt`` made by ``shared/bench/wordlists/make_wordlist.py``
(its sha256 is written in the baseline's header). The positions are the first
25 of ``shared/bench/en.dev.txt`` and the hand-made ones below.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
from pathlib import Path

from lexicon.files import file_sha256
from scoring.board import Board
from scoring.rules import get_ruleset
from scoring.solver import solver_for

ROOT = Path(__file__).resolve().parents[2]
BASELINE = ROOT / "tests" / "tools" / "solver_baseline.txt"
SHARED = Path(os.environ.get("SHARED_DIR", ROOT.parent / "shared"))
BENCH_POSITIONS = SHARED / "bench" / "en.dev.txt"
BENCH_COUNT = 25
TOP = 5

_MID = "15/15/15/15/15/15/4BIKED6/3VENIN7/4E10/4T10/4R10/4O10/4O10/4T10/4SAICE6"
#: (label, FEN, rack): openings, a late-game short rack, blanks, a rack that plays nowhere.
HAND_POSITIONS = [
    ("opening bingo", "", "AEINRST"),
    ("opening two blanks", "", "?QUIZE?"),
    ("opening no word", "", "VVWWXYZ"),
    ("mid-game bingo", _MID, "SATIRE?"),
    ("late short rack", _MID, "QA"),
]


def wordlist_path() -> Path | None:
    folder = os.environ.get("BENCH_WORDLIST_DIR")
    if not folder:
        return None
    path = Path(folder) / "en.txt"
    return path if path.is_file() else None


def cached_graph(wordlist: Path, alphabet: str, cache_dir: Path | None = None):
    """The word graph of a word list, built once into a cache keyed by the list's sha256."""
    from lexicon.graph import VERSION, WordGraph, build

    folder = cache_dir or Path(tempfile.gettempdir()) / "duplicate-solver-graphs"
    folder.mkdir(parents=True, exist_ok=True)
    alpha = hashlib.sha256(alphabet.encode("utf-8")).hexdigest()[:8]
    path = folder / f"{file_sha256(wordlist)}-{alpha}-v{VERSION}.kwg"
    if not path.is_file():
        words = wordlist.read_text(encoding="utf-8").split()
        build(words, alphabet, path)
    return WordGraph.load(path)


def positions() -> list[tuple[str, str, str]]:
    """(label, FEN, rack) of every baseline position."""
    out = []
    lines = BENCH_POSITIONS.read_text(encoding="utf-8").splitlines()[:BENCH_COUNT]
    for i, line in enumerate(lines):
        fen, rack = line.split()
        out.append((f"en.dev #{i}", fen, rack))
    out.extend(HAND_POSITIONS)
    return out


def render(graph, wordlist_sha: str) -> str:
    """The baseline text for the word graph of the en list."""

    ruleset = get_ruleset("en")
    solver = solver_for(ruleset, graph)
    out = [
        f"# solver baseline: the {TOP} best moves (score, then notation) of each position",
        f"# word list: en.txt sha256 {wordlist_sha}",
        "# regenerate: BENCH_WORDLIST_DIR=<dir> python -m tests.tools.solver_baseline --write",
    ]
    for label, fen, rack in positions():
        board = Board.from_fen(ruleset, fen)
        result = solver.solve(board, rack, top=TOP, count_all=True)
        out.append(f"position {label} | {fen or '(empty)'} | {rack} | {result.count_all} legal moves")
        if not result.moves:
            out.append("  (no move)")
        for m in result.moves:
            out.append(f"  {m.notation()} {m.score}")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"write {BASELINE.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    wordlist = wordlist_path()
    if wordlist is None:
        print("set BENCH_WORDLIST_DIR to the directory holding en.txt (make_wordlist.py)", file=sys.stderr)
        return 2

    graph = cached_graph(wordlist, get_ruleset("en").alphabet)
    text = render(graph, file_sha256(wordlist))
    if args.write:
        BASELINE.write_text(text, encoding="utf-8")
        print(f"wrote {BASELINE}")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
