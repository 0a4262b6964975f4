"""``manage.py bench_solver``: the solver's speed (best move only) on a file of positions.

Reads ``<FEN> <RACK>`` lines (``shared/bench/<rs>.dev.txt``), loads the lexicon
and builds the solver's tables first, then times ``solve(board, rack, top=1)``
``--reps`` times per position in this one thread: in ``--reps`` passes over the set (each run of a position
after the other positions, as a hall solves each round's position once, after others), or with ``--in-a-row``
each position's runs one after the other. The two differ most for the longest searches: run again and again
on the same position, a search gets faster run after run (the processor's branch predictor learns that one
search: pl #56, 332 µs on its first timed run, about 160 µs from the twentieth), and a short search learns faster
than a long one, so the median of a few runs in a row sets the long searches further above the others than a
hall ever sees them. Prints a TSV line per
position (``idx  top_score  top_move  best_us  median_us``, and with ``--series`` every run's µs) and summary lines
per number of blanks on the rack, and a ``call_overhead`` line: the time of a call outside the compiled
search itself, per position the median of ``--reps`` runs of ``OVERHEAD_LOOP`` calls in a row (timed
together, less the time they spent in the search: ``Solver.total_search_ns``; so the timer's own cost,
some 0.1–0.2 µs a reading from Python, is not counted as the call's). ``--check TOPS.tsv`` (``idx  score  move``)
compares every top score and exits 1 on any mismatch.

``--instructions`` counts instead the instructions of the generation (the C search
``run_search``, one call per position) with valgrind's callgrind: the searches run
under valgrind in ``tournament/management/solver_child.py`` (without Django: one ``solve`` per position, no
timing); the command prints ``idx  top_score  top_move  instructions`` and, per number of blanks, the
mean, median, p95, max and max/p95. ``--baseline FILE`` compares each set's total
with the saved one (exit 1 above ``--tolerance``, default 5 %); ``--write-baseline
FILE`` saves this set's counts (tests/bench/solver_instructions.tsv is the project's).
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.board import Board, BoardError
from scoring.notation import NotationError, parse_rack
from scoring.rules import RulesError, RuleSet, get_ruleset, ruleset_ids
from scoring.solver import Solver

from .. import callgrind
from ..cli import one_line_errors, open_solver, positive_int

#: the C function whose calls --instructions counts (scoring/_solver.c)
COUNTED_FUNCTION = "run_search"
OVERHEAD_LOOP = 10  # calls timed together for the call_overhead line


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


def summary_line(label: str, values: list[float], unit: str, digits: int = 1) -> str:
    p95 = percentile(values, 0.95)
    return (
        f"# summary {label} positions={len(values)} mean_{unit}={statistics.fmean(values):.{digits}f} "
        f"median_{unit}={statistics.median(values):.{digits}f} p95_{unit}={p95:.{digits}f} "
        f"max_{unit}={max(values):.{digits}f} max/p95={max(values) / p95 if p95 else 0:.2f}"
    )


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
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument("--interleave", action="store_true",
                          help="time the set in --reps passes, each run after the other positions (the default)")
        mode.add_argument("--in-a-row", action="store_true",
                          help="time each position's --reps runs one after the other instead")
        parser.add_argument("--series", action="store_true",
                            help="add a column: every timed run of the position, in µs, in the order run")
        parser.add_argument("--check", metavar="TOPS.tsv", help="expected top scores «idx<TAB>score<TAB>move»")
        parser.add_argument("--instructions", action="store_true",
                            help="count the generation's instructions with valgrind's callgrind instead of timing")
        parser.add_argument("--call-instructions", action="store_true",
                            help="--instructions: also count what a call costs outside the search (two more runs)")
        parser.add_argument("--limit", type=positive_int, help="only the first N positions")
        parser.add_argument("--baseline", metavar="FILE", help="--instructions: compare with the saved counts")
        parser.add_argument("--write-baseline", metavar="FILE", help="--instructions: save this set's counts")
        parser.add_argument("--tolerance", type=float, default=5.0,
                            help="--baseline: the most a set's total may grow, in %% (default 5)")

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            ruleset = get_ruleset(opts["ruleset"])
        except RulesError as exc:
            raise CommandError(str(exc), returncode=2) from None
        positions = read_positions(Path(opts["positions"]), ruleset)[: opts["limit"]]
        tops = read_tops(Path(opts["check"])) if opts["check"] else None
        if opts["instructions"]:
            results = self.count_instructions(positions, opts)
        else:
            results = self.time_positions(ruleset, positions, opts)
        if tops is not None:
            self.check_tops(results, tops, opts["check"])

    def time_positions(self, ruleset: RuleSet, positions: list[tuple[Board, list[str], str]],
                       opts: dict[str, Any]) -> list[tuple[int, str]]:
        started = time.perf_counter()
        solver = open_solver(ruleset, opts["lexicon"])
        load_s = time.perf_counter() - started
        reps = opts["reps"]
        by_blanks: dict[int, list[float]] = {}
        results: list[tuple[int, str]] = []
        overhead: list[float] = []  # per position, the median time of a call outside the search itself
        self.stdout.write("idx\ttop_score\ttop_move\tbest_us\tmedian_us" + ("\truns_us" if opts["series"] else ""))
        # every position is solved once (the answer; it also warms the caches), then timed --reps times: in
        # --reps passes over the whole set (each run after the other positions, so with the caches and the
        # branch history they left: a hall's one solve per round; and a slow spell of a shared machine falls on
        # every position alike instead of on the runs of one), or with --in-a-row its runs one after the other
        # (each run faster than the one before while the branch predictor learns the search: see above)
        interleave = not opts["in_a_row"]
        times: list[list[float]] = [[] for _ in positions]

        def timed(idx: int) -> None:
            board, _rack, rack_text = positions[idx]
            t0 = time.perf_counter_ns()
            solver.solve(board, rack_text, top=1)
            times[idx].append((time.perf_counter_ns() - t0) / 1000.0)

        for idx, (board, _rack, rack_text) in enumerate(positions):
            best = solver.solve(board, rack_text, top=1).best
            results.append((best.score, best.notation()) if best else (0, "-"))
            for _ in range(0 if interleave else reps):
                timed(idx)
        for _ in range(reps if interleave else 0):
            for idx in range(len(positions)):
                timed(idx)
        for idx, (board, rack, rack_text) in enumerate(positions):
            overhead.append(statistics.median(self.outside_us(solver, board, rack_text) for _ in range(reps)))
            median = statistics.median(times[idx])
            by_blanks.setdefault(rack.count("?"), []).append(median)
            score, move = results[idx]
            series = "\t" + ",".join(f"{t:.0f}" for t in times[idx]) if opts["series"] else ""
            self.stdout.write(f"{idx}\t{score}\t{move}\t{min(times[idx]):.1f}\t{median:.1f}{series}")
        for blanks in sorted(by_blanks):
            self.stdout.write(summary_line(f"blanks={blanks}", by_blanks[blanks], "us"))
        every = [v for values in by_blanks.values() for v in values]
        if every:
            rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
            mode = " interleaved" if interleave else " in-a-row"
            self.stdout.write(
                summary_line("all", every, "us") + f" reps={reps}{mode} lexicon_load_s={load_s:.2f} max_rss_mb={rss_mb:.0f}"
            )
            self.stdout.write(summary_line("call_overhead", overhead, "us", 2))
        return results

    @staticmethod
    def outside_us(solver: Solver, board: Board, rack: str) -> float:
        """Microseconds a call took outside the search, over OVERHEAD_LOOP calls in a row."""
        searched = solver.total_search_ns
        t0 = time.perf_counter_ns()
        for _ in range(OVERHEAD_LOOP):
            solver.solve(board, rack, top=1)
        elapsed = time.perf_counter_ns() - t0
        return (elapsed - (solver.total_search_ns - searched)) / OVERHEAD_LOOP / 1000.0

    def count_instructions(self, positions: list[tuple[Board, list[str], str]],
                           opts: dict[str, Any]) -> list[tuple[int, str]]:
        if not callgrind.callgrind_available():
            raise CommandError("--instructions needs valgrind (apt-get install valgrind)", returncode=2)
        # the child opens the compiled file itself, without Django (tournament/management/solver_child.py)
        graph_path = open_solver(get_ruleset(opts["ruleset"]), opts["lexicon"]).graph.path
        argv = [sys.executable, str(Path(__file__).resolve().parents[1] / "solver_child.py"), opts["ruleset"],
                str(graph_path), opts["positions"], str(opts["limit"] or 0)]
        try:
            counts, out = callgrind.count_calls(argv, COUNTED_FUNCTION)
        except RuntimeError as exc:
            raise CommandError(str(exc), returncode=2) from None
        lines = [line.split("\t") for line in out.splitlines() if line and line[0].isdigit()]
        if len(counts) != len(positions) or len(lines) != len(positions):
            raise CommandError(f"callgrind saw {len(counts)} calls of {COUNTED_FUNCTION} and {len(lines)} results "
                               f"for {len(positions)} positions", returncode=2)
        results = [(int(score), move) for _, score, move in lines]
        by_blanks: dict[int, list[float]] = {}
        self.stdout.write("idx\ttop_score\ttop_move\tinstructions")
        for idx, ((score, move), count) in enumerate(zip(results, counts, strict=True)):
            by_blanks.setdefault(positions[idx][1].count("?"), []).append(float(count))
            self.stdout.write(f"{idx}\t{score}\t{move}\t{count}")
        for blanks in sorted(by_blanks):
            self.stdout.write(summary_line(f"blanks={blanks}", by_blanks[blanks], "instr", 0))
        self.stdout.write(summary_line("all", [float(c) for c in counts], "instr", 0) + f" total={sum(counts)}")
        if opts["call_instructions"]:
            self.call_instructions(argv, len(positions))
        self.baselines(positions, counts, opts)
        return results

    def call_instructions(self, argv: list[str], count: int) -> None:
        """Instructions a ``Solver.solve(board, rack, top=1)`` call costs outside the search (the Python side
        and the C glue): the child run with every position solved 3 times and once, counting everything,
        and the difference less the searches' own instructions, per extra call."""
        try:
            many = callgrind.total_and_inside([*argv, "3"], COUNTED_FUNCTION)
            once = callgrind.total_and_inside([*argv, "1"], COUNTED_FUNCTION)
        except (RuntimeError, subprocess.SubprocessError) as exc:
            raise CommandError(str(exc), returncode=2) from None
        calls = 2 * count
        outside = ((many[0] - once[0]) - (many[1] - once[1])) / calls
        self.stdout.write(f"# summary call_overhead_instr calls={calls} per_call_outside_search={outside:.0f} "
                          f"per_call_search={(many[1] - once[1]) / calls:.0f}")

    def baselines(self, positions: list[tuple[Board, list[str], str]], counts: list[int],
                  opts: dict[str, Any]) -> None:
        name = opts["ruleset"]
        if opts["write_baseline"]:
            rows = [(name, idx, positions[idx][1].count("?"), count) for idx, count in enumerate(counts)]
            header = (
                "instructions of scoring/_solver.c run_search per dev position (bench_solver --instructions):\n"
                "set\tidx\tblanks\tinstructions; counts depend on the compiler and its flags (setup.py)\n"
                "update: python manage.py bench_solver --ruleset RS --lexicon LIST --positions "
                "../shared/bench/RS.dev.txt --instructions --write-baseline tests/bench/solver_instructions.tsv"
            )
            callgrind.write_baseline(Path(opts["write_baseline"]), name, rows, header)
            self.stdout.write(f"# baseline for {name} written to {opts['write_baseline']}")
        if opts["baseline"]:
            totals = callgrind.compare(callgrind.read_baseline(Path(opts["baseline"])), name, dict(enumerate(counts)))
            if totals is None:
                self.stdout.write(f"# baseline: no counts for {name} in {opts['baseline']}")
                return
            base, now = totals
            change = 100.0 * (now - base) / base if base else 0.0
            verdict = "REGRESSION" if change > opts["tolerance"] else "ok"
            self.stdout.write(f"# baseline {name}: {now} instructions against {base} ({change:+.1f} %) {verdict}")
            if verdict != "ok":
                raise SystemExit(1)

    def check_tops(self, results: list[tuple[int, str]], tops: dict[int, tuple[int, str]], path: str) -> None:
        mismatches: list[str] = []
        for idx, (score, move) in enumerate(results):
            expected = tops.get(idx)
            if expected is None:
                mismatches.append(f"{idx}: no expected top in {path}")
            elif expected[0] != score:
                mismatches.append(f"{idx}: top {score} ({move}), expected {expected[0]} ({expected[1]})")
        for line in mismatches:
            self.stdout.write(f"# MISMATCH {line}")
        self.stdout.write(f"# check: {len(results) - len(mismatches)}/{len(results)} top scores right")
        if mismatches:
            raise SystemExit(1)
