"""``bench_solver --instructions``'s child, run under valgrind's callgrind: one best-move search per
position, its top printed (``idx<TAB>score<TAB>move``); with CALLS > 1, each position solved CALLS times
(``--call-instructions``: what a call costs outside the search, from the difference of two such runs).

Run as a script (``python tournament/management/solver_child.py RULESET GRAPH.kwg POSITIONS LIMIT [CALLS]``,
LIMIT 0: every position), it
imports only the pure engine (``scoring``) and the word graph (``lexicon.graph``): no Django, no Celery, so
valgrind does not spend half a minute starting a web framework before the counted calls. The parent has
resolved the lexicon to its compiled file and checked the positions.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":  # run by path: the project's root on the path, not this folder's package
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from lexicon.graph import WordGraph  # noqa: E402 (after the path)
from scoring.board import Board  # noqa: E402
from scoring.rules import get_ruleset  # noqa: E402
from scoring.solver import solver_for  # noqa: E402


def main(argv: list[str]) -> int:
    ruleset = get_ruleset(argv[0])
    graph = WordGraph.load(argv[1], verify=False)  # the parent opened (and checked) the same file
    lines = [line.split() for line in Path(argv[2]).read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    if int(argv[3]):
        lines = lines[: int(argv[3])]
    calls = int(argv[4]) if len(argv) > 4 else 1
    solver = solver_for(ruleset, graph)
    out = []
    for idx, (fen, rack) in enumerate(lines):
        board = Board.from_fen(ruleset, fen)
        for _ in range(calls - 1):
            solver.solve(board, rack, top=1)
        best = solver.solve(board, rack, top=1).best
        out.append(f"{idx}\t{best.score if best else 0}\t{best.notation() if best else '-'}")
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
