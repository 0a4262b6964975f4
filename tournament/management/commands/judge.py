"""``manage.py judge``: the verdict on one slip (RULES §4), as the automatic judge gives it, in one language: the rule
set's (Russian for ru, Ukrainian for uk, English otherwise) or ``--language``, its coordinates in the rule set's
rows (Cyrillic for ru and uk) or ``--script``."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from lexicon.graph import WordGraph
from lexicon.resolve import open_lexicon
from scoring.board import Board
from scoring.check import UnusableInput, load_position_and_rack
from scoring.coords import Convention
from scoring.judge import JudgeInputError, judge_slip
from scoring.moves import SolveFn
from scoring.rules import RuleSet, ruleset_ids
from scoring.solver import SolvedMove, SolverError, solver_for
from scoring.variants import variant_ids

from ... import labels
from ..cli import add_script_argument, command_language, script_style


def solve_fn_for(ruleset: RuleSet, lexicon: WordGraph) -> SolveFn | None:
    """The compiled solver over ``lexicon`` when its graph has a GADDAG, else None
    (the judge then tries the word at every place itself, which is exact too)."""
    try:
        solver = solver_for(ruleset, lexicon)
    except SolverError:  # no GADDAG, or an alphabet without the rule set's letters: fall back
        return None

    def solve_fn(board: Board, rack: list[str]) -> list[SolvedMove]:
        return solver.solve(board, rack).moves

    return solve_fn


class Command(BaseCommand):
    help = (
        "Judge a slip: prints the points awarded, the warning and the reason "
        "(exit 0 when judged, 2 on unusable arguments)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--ruleset", required=True, help=f"one of {', '.join(ruleset_ids())}")
        parser.add_argument("--lexicon", required=True, help="lexicon name (or word-list / graph file)")
        parser.add_argument("--board", default="", help="board FEN before the round (omit for the empty board)")
        parser.add_argument("--rack", required=True, help="the round's rack (? = blank)")
        parser.add_argument(
            "--round", type=int, default=None,
            help="round number (default: 1 on the empty board, 2 otherwise)",
        )
        parser.add_argument("--slip", required=True, help='the slip, e.g. "H8 WORD 24", "WORD 24" or "H8 WORD"')
        parser.add_argument("--late", action="store_true", help="the slip came after the deadline")
        parser.add_argument(
            "--convention", choices=[c.value for c in Convention], default=Convention.DUPLICATE.value,
            help="coordinate convention (default: duplicate, rows are letters)",
        )
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
        round_number = opts["round"]
        if round_number is None:
            round_number = 1 if board.is_empty() else 2
        elif round_number < 1:
            raise CommandError(f"--round must be 1 or more, not {round_number}", returncode=2)
        try:
            lexicon = open_lexicon(opts["lexicon"], ruleset.id)
        except Exception as exc:  # LexiconNotFound and friends: one line, exit 2
            message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise CommandError(f"lexicon: {message}", returncode=2) from None
        try:
            verdict = judge_slip(
                board, rack, opts["slip"], round_number=round_number, lexicon=lexicon,
                solve_fn=solve_fn_for(ruleset, lexicon), convention=opts["convention"], late=opts["late"],
            )
        except JudgeInputError as exc:
            raise CommandError(str(exc), returncode=2) from None
        if opts["json"]:
            self.stdout.write(json.dumps(verdict.to_dict(), ensure_ascii=False))
            return
        self.stdout.write(verdict_line(verdict.awarded, verdict.warning, verdict.reason,
                                       labels.explain(verdict.explanation, script_style(opts), verdict.message)))


def verdict_line(awarded: int, warning: bool, reason: str, explanation: str) -> str:
    """The verdict as one line in the active language: the points (in the language's plural), the warning, the
    reason's label and the explanation."""
    points = ngettext("%(n)s point", "%(n)s points", awarded) % {"n": awarded}
    text = _("%(points)s, warning (%(reason)s): %(why)s") if warning else _("%(points)s (%(reason)s): %(why)s")
    return text % {"points": points, "reason": labels.reason_label(reason), "why": explanation}
