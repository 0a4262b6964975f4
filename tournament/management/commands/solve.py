"""``manage.py solve``: the moves of a rack on a board, best first, or the best N (the compiled solver).

Moves of equal score come in the order of the top (:func:`scoring.tops.ranked_moves`): the first move is the
top the console proposes and the publication plays. On the empty board only horizontal moves are listed, as
the game offers them.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.check import UnusableInput, load_position_and_rack
from scoring.rules import ruleset_ids
from scoring.solver import SolvedMove, SolveResult
from scoring.tops import ranked_moves
from scoring.variants import variant_ids

from ... import labels
from ..cli import add_script_argument, one_line_errors, open_solver, positive_int, script_style


class Command(BaseCommand):
    help = (
        "List the legal moves of a rack on a board, best first (all of them, or --top N). "
        "Exit 0, or 2 on unusable arguments."
    )

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        return one_line_errors(parser, lambda message: self.stderr.write(f"{prog_name} {subcommand}: error: {message}"))

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--ruleset", required=True, help=f"one of {', '.join(ruleset_ids())}")
        parser.add_argument("--lexicon", required=True, help="lexicon name, compiled graph (.kwg) or word-list file")
        parser.add_argument("--board", default="", help="board FEN (omit for the empty board)")
        parser.add_argument("--rack", required=True, help="the rack, ? = blank (e.g. ЗДОРОВЫ, AB?CDE?)")
        parser.add_argument("--top", type=positive_int, default=None, help="only the N best moves (default: all)")
        parser.add_argument("--count-all", action="store_true", help="also count every legal move")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument("--variant", choices=variant_ids(), default="classic",
                            help="the game's variant (7among8: racks of 8, moves of at most 7)")
        add_script_argument(parser)

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            ruleset, board, rack = load_position_and_rack(opts["ruleset"], opts["board"], opts["rack"], opts["variant"])
        except UnusableInput as exc:
            raise CommandError(str(exc), returncode=2) from None
        solver = open_solver(ruleset, opts["lexicon"])
        top = opts["top"]
        result = solver.solve(board, rack, top=top, count_all=opts["count_all"], ties=True)
        moves = ranked_moves(board, rack, result.moves)
        if top is not None:
            del moves[top:]
        if opts["json"]:
            data = result.to_dict()
            style = script_style(opts)
            data["moves"] = [{**m.to_dict(), "move": style.move(m.notation())} for m in moves]
            self.stdout.write(json.dumps(data, ensure_ascii=False))
            return
        self._print_table(moves, result, top, script_style(opts))

    def _print_table(self, moves: list[SolvedMove], result: SolveResult, top: int | None,
                     style: labels.CoordStyle) -> None:
        if not moves:
            self.stdout.write("no legal move")
        else:
            width = max(len(style.move(m.notation())) for m in moves)
            self.stdout.write(f"{'#':>4}  {'move':<{width}}  {'score':>5}  {'tiles':>5}  {'blanks':>6}  words")
            for i, m in enumerate(moves, 1):
                words = " ".join(m.words)
                self.stdout.write(
                    f"{i:>4}  {style.move(m.notation()):<{width}}  {m.score:>5}  {m.tiles_placed:>5}  {m.blanks:>6}  {words}"
                )
        count = f", {result.count_all} legal moves in all" if result.count_all is not None else ""
        shown = f"{len(moves)} move(s)" + (f" (best {top})" if top else "")
        self.stdout.write(f"{shown}{count}; {result.elapsed_ms:.2f} ms")
