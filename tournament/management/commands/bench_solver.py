"""``manage.py bench_solver``: the solver's speed (best move only) on a file of positions.

Reads ``<FEN> <RACK>`` lines (``shared/bench/<rs>.dev.txt``), loads the lexicon
and builds the solver's tables first, then times ``solve(board, rack, top=1)``
``--reps`` times per position in this one thread. Prints a TSV line per
position (``idx  top_score  top_move  best_us  median_us``) and summary lines
per number of blanks on the rack. ``--check TOPS.tsv`` (``idx  score  move``)
compares every top score and exits 1 on any mismatch.
"""

from __future__ import annotations

import resource
import statistics
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.board import Board, BoardError
from scoring.notation import NotationError, parse_rack
from scoring.rules import RulesError, RuleSet, get_ruleset, ruleset_ids

from ..cli import one_line_errors, open_solver, positive_int


def read_positions(path: Path, ruleset: RuleSet) -> list[tuple[Board, list[str], str]]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}", returncode=2) from None
    positions: list[tuple[Board, list[str], str]] = []
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split()
        if len(parts) != 2:
            raise CommandError(f"{path}:{n}: expected «FEN RACK», got {line.strip()!r}", returncode=2)
        try:
            board = Board.from_fen(ruleset, parts[0])
            rack = parse_rack(parts[1], ruleset)
        except (BoardError, NotationError) as exc:
            raise CommandError(f"{path}:{n}: {exc}", returncode=2) from None
        positions.append((board, rack, parts[1]))
    return positions


def read_tops(path: Path) -> dict[int, tuple[int, str]]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}", returncode=2) from None
    tops: dict[int, tuple[int, str]] = {}
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        parts = line.split("\t")
        try:
            tops[int(parts[0])] = (int(parts[1]), parts[2] if len(parts) > 2 else "")
        except (ValueError, IndexError):
            raise CommandError(f"{path}:{n}: expected «idx<TAB>score<TAB>move», got {line!r}", returncode=2) from None
    return tops


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Command(BaseCommand):
    help = "Time the solver's best move on a file of «FEN RACK» positions (exit 1 if --check finds a wrong top)."

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        return one_line_errors(parser, lambda message: self.stderr.write(f"{prog_name} {subcommand}: error: {message}"))

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--ruleset", required=True, help=f"one of {', '.join(ruleset_ids())}")
        parser.add_argument("--lexicon", required=True, help="lexicon name, compiled graph (.kwg) or word-list file")
        parser.add_argument("--positions", required=True, help="file of «FEN RACK» lines")
        parser.add_argument("--reps", type=positive_int, default=5, help="timed runs per position (default 5)")
        parser.add_argument("--check", metavar="TOPS.tsv", help="expected top scores «idx<TAB>score<TAB>move»")

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            ruleset = get_ruleset(opts["ruleset"])
        except RulesError as exc:
            raise CommandError(str(exc), returncode=2) from None
        positions = read_positions(Path(opts["positions"]), ruleset)
        tops = read_tops(Path(opts["check"])) if opts["check"] else None
        started = time.perf_counter()
        solver = open_solver(ruleset, opts["lexicon"])
        load_s = time.perf_counter() - started
        reps = opts["reps"]

        by_blanks: dict[int, list[float]] = {}
        mismatches: list[str] = []
        self.stdout.write("idx\ttop_score\ttop_move\tbest_us\tmedian_us")
        for idx, (board, rack, rack_text) in enumerate(positions):
            result = solver.solve(board, rack_text, top=1)  # warm the caches of this position
            times: list[float] = []
            for _ in range(reps):
                t0 = time.perf_counter_ns()
                result = solver.solve(board, rack_text, top=1)
                times.append((time.perf_counter_ns() - t0) / 1000.0)
            best = result.moves[0] if result.moves else None
            score = best.score if best else 0
            move = best.notation() if best else "-"
            median = statistics.median(times)
            by_blanks.setdefault(rack.count("?"), []).append(median)
            self.stdout.write(f"{idx}\t{score}\t{move}\t{min(times):.1f}\t{median:.1f}")
            if tops is not None:
                expected = tops.get(idx)
                if expected is None:
                    mismatches.append(f"{idx}: no expected top in {opts['check']}")
                elif expected[0] != score:
                    mismatches.append(f"{idx}: top {score} ({move}), expected {expected[0]} ({expected[1]})")

        for blanks in sorted(by_blanks):
            values = by_blanks[blanks]
            self.stdout.write(
                f"# summary blanks={blanks} positions={len(values)} mean_us={statistics.fmean(values):.1f} "
                f"median_us={statistics.median(values):.1f} p95_us={percentile(values, 0.95):.1f}"
            )
        every = [v for values in by_blanks.values() for v in values]
        if every:
            rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
            self.stdout.write(
                f"# summary all positions={len(every)} mean_us={statistics.fmean(every):.1f} "
                f"median_us={statistics.median(every):.1f} p95_us={percentile(every, 0.95):.1f} "
                f"reps={reps} lexicon_load_s={load_s:.2f} max_rss_mb={rss_mb:.0f}"
            )
        if tops is not None:
            for line in mismatches:
                self.stdout.write(f"# MISMATCH {line}")
            self.stdout.write(f"# check: {len(positions) - len(mismatches)}/{len(positions)} top scores right")
            if mismatches:
                raise SystemExit(1)
