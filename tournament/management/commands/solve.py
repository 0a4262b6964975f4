"""``manage.py solve``: the moves of a rack on a board, best first, or the best N (the compiled solver).

Moves of equal score come in the order of the top (:func:`scoring.tops.ranked_moves`): the first move is the
top the console proposes and the publication plays. On the empty board only horizontal moves are listed, as
the game offers them. The table is printed in the rule set's language and coordinates (Russian and Cyrillic rows
for ru, Ukrainian and Cyrillic rows for uk, English and Latin rows otherwise; ``--language``, ``--script``); the
JSON keeps the engine's notation (Latin rows) unless ``--script`` says otherwise.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.check import UnusableInput, load_position_and_rack
from scoring.rules import ruleset_ids
from scoring.solver import SolvedMove, SolveResult
from scoring.tops import ranked_moves
from scoring.variants import variant_ids

from ... import labels
from ..cli import (
    add_script_argument,
    command_language,
    one_line_errors,
    open_solver,
    positive_int,
    script_style,
)


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
        with translation.override(command_language(opts)):
            self._handle(opts)

    def _handle(self, opts: dict[str, Any]) -> None:
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
            style = script_style(opts, data=True)
            data["moves"] = [{**m.to_dict(), "move": style.move(m.notation())} for m in moves]
            self.stdout.write(json.dumps(data, ensure_ascii=False))
            return
        self._print_table(moves, result, top, script_style(opts))

    def _print_table(self, moves: list[SolvedMove], result: SolveResult, top: int | None,
                     style: labels.CoordStyle) -> None:
        """The moves as a table, in the command's language and the style's coordinates."""
        if not moves:
            self.stdout.write(_("No legal move."))
        else:
            heads = [_("Move"), _("Score"), _("Tiles"), _("Blanks"), _("Words")]
            width = max(len(heads[0]), *(len(style.move(m.notation())) for m in moves))
            nums = [max(5, len(h)) for h in heads[1:4]]
            self.stdout.write(f"{'#':>4}  {heads[0]:<{width}}  " + "  ".join(f"{h:>{n}}" for h, n in zip(heads[1:4], nums,
                              strict=True)) + f"  {heads[4]}")
            for i, m in enumerate(moves, 1):
                figures = "  ".join(f"{v:>{n}}" for v, n in zip((m.score, m.tiles_placed, m.blanks), nums, strict=True))
                self.stdout.write(f"{i:>4}  {style.move(m.notation()):<{width}}  {figures}  {' '.join(m.words)}")
        shown = ngettext("%(n)s move", "%(n)s moves", len(moves)) % {"n": len(moves)}
        if top:
            shown = _("%(moves)s (the best %(top)s)") % {"moves": shown, "top": top}
        if result.count_all is not None:
            shown += ", " + ngettext("%(n)s legal move in all", "%(n)s legal moves in all", result.count_all) % {
                "n": result.count_all}
        self.stdout.write(f"{shown}; " + _("%(ms)s ms") % {"ms": f"{result.elapsed_ms:.2f}"})
