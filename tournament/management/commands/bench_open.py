"""``manage.py bench_open``: from opening a compiled lexicon to its first solve, in a fresh process.

Each run starts a new process (``--child``: the command itself, so nothing is cached yet; the file is in
the OS page cache, as on a server that has read it once) that maps the graph file, makes the solver
(the rule set's tables, the anagram index: mapped from a format-2 file, built from a format-1 one) and
solves one position (``--positions``' first line, or the empty board with the first seven letters of
the rule set). Prints per run the wall clock of each step and the CPU time of the whole (steadier on a
shared machine), with the file checked as every load checks it and, in a second process, also verified
(SHA-256 of the content, as a server's first load does), then the median of the runs.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from lexicon.graph import GraphError, WordGraph
from lexicon.resolve import LexiconNotFound, open_lexicon
from scoring.board import Board
from scoring.rules import RulesError, RuleSet, get_ruleset, ruleset_ids
from scoring.solver import Solver, SolverError

from ..cli import one_line_errors, positive_int
from .bench_solver import read_positions

FIELDS = ("open_s", "solver_s", "solve_s", "total_s", "cpu_s")


def first_position(ruleset: RuleSet, positions: str | None) -> tuple[Board, str]:
    if positions:
        found = read_positions(Path(positions), ruleset)
        if not found:
            raise CommandError(f"{positions} holds no position", returncode=2)
        return found[0][0], found[0][2]
    return Board(ruleset), "".join(ruleset.letters[: ruleset.rack_size])


class Command(BaseCommand):
    help = "Time opening a compiled lexicon and its first solve, each run in a fresh process."

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        return one_line_errors(
            parser, lambda message: self.stderr.write(f"{prog_name} {subcommand}: error: {message}")
        )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--ruleset", required=True, help=f"one of {', '.join(ruleset_ids())}")
        parser.add_argument(
            "--lexicon", required=True, help="lexicon name, compiled graph (.kwg) or word-list file"
        )
        parser.add_argument("--positions", help="file of «FEN RACK» lines: the first one is solved")
        parser.add_argument(
            "--runs", type=positive_int, default=3, help="fresh processes per mode (default 3)"
        )
        parser.add_argument("--child", metavar="PATH", help=argparse.SUPPRESS)
        parser.add_argument("--verify", action="store_true", help=argparse.SUPPRESS)

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            ruleset = get_ruleset(opts["ruleset"])
        except RulesError as exc:
            raise CommandError(str(exc), returncode=2) from None
        board, rack = first_position(ruleset, opts["positions"])
        if opts["child"]:
            self.child(ruleset, Path(opts["child"]), board, rack, opts["verify"])
            return
        try:
            path = open_lexicon(opts["lexicon"], ruleset.id).path
        except LexiconNotFound as exc:
            raise CommandError(str(exc), returncode=2) from None
        self.stdout.write(f"# {path} ({path.stat().st_size / 1e6:.1f} MB), rack {rack}")
        self.stdout.write("mode\trun\t" + "\t".join(FIELDS) + "\tformat\tindex")
        for verify in (False, True):
            mode = "verified" if verify else "checked"
            rows: list[list[float]] = []
            for run in range(1, opts["runs"] + 1):
                values, tail = self.run_child(path, opts, verify)
                rows.append(values)
                self.stdout.write(f"{mode}\t{run}\t" + "\t".join(f"{v:.4f}" for v in values) + f"\t{tail}")
            medians = [statistics.median(column) for column in zip(*rows, strict=True)]
            self.stdout.write(f"{mode}\tmedian\t" + "\t".join(f"{v:.4f}" for v in medians))

    def run_child(self, path: Path, opts: dict[str, Any], verify: bool) -> tuple[list[float], str]:
        argv = [
            sys.executable,
            str(Path(settings.BASE_DIR) / "manage.py"),
            "bench_open",
            "--ruleset",
            opts["ruleset"],
            "--lexicon",
            opts["lexicon"],
            "--child",
            str(path),
        ]
        if opts["positions"]:
            argv += ["--positions", opts["positions"]]
        if verify:
            argv.append("--verify")
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise CommandError(f"the measuring process failed: {done.stderr.strip()[-500:]}")
        parts = done.stdout.strip().splitlines()[-1].split("\t")
        return [float(v) for v in parts[: len(FIELDS)]], "\t".join(parts[len(FIELDS) :])

    def child(self, ruleset: RuleSet, path: Path, board: Board, rack: str, verify: bool) -> None:
        cpu = time.process_time()
        t0 = time.perf_counter()
        try:
            graph = WordGraph.load(path, verify=verify)
            t1 = time.perf_counter()
            solver = Solver(ruleset, graph)
            t2 = time.perf_counter()
            solver.solve(board, rack, top=1)
        except (GraphError, SolverError) as exc:
            raise CommandError(str(exc), returncode=2) from None
        t3 = time.perf_counter()
        cpu = time.process_time() - cpu
        index = "mapped" if solver._core.bingo_index.in_place else "built"
        values = (t1 - t0, t2 - t1, t3 - t2, t3 - t0, cpu)
        self.stdout.write("\t".join(f"{v:.6f}" for v in values) + f"\t{graph.format_version}\t{index}")
