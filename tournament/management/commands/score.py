"""``manage.py score``: is a move legal, and what does it score?"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from lexicon.graph import WordGraph
from lexicon.resolve import LexiconNotFound, open_lexicon
from scoring.check import MoveReport, UnusableInput, check_move, load_position
from scoring.coords import Convention
from scoring.rules import ruleset_ids


class Command(BaseCommand):
    help = "Check a move on a board and print its score (exit 0 legal, 1 illegal, 2 unusable arguments)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--ruleset", required=True, help=f"one of {', '.join(ruleset_ids())}")
        parser.add_argument("--board", default="", help="board FEN (omit for the empty board)")
        parser.add_argument("--move", required=True, help='coordinates and whole word, e.g. "H8 ЗДОРОВ"')
        parser.add_argument("--rack", help="the rack (? = blank); tiles not on it make the move illegal")
        parser.add_argument("--lexicon", help="lexicon name (or word-list / graph file) to check the words")
        parser.add_argument(
            "--convention", choices=[c.value for c in Convention], default=Convention.DUPLICATE.value,
            help="coordinate convention (default: duplicate, rows are letters)",
        )
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            ruleset, board = load_position(opts["ruleset"], opts["board"])
        except UnusableInput as exc:
            raise CommandError(str(exc), returncode=2) from None
        lexicon: WordGraph | None = None
        if opts["lexicon"]:
            try:
                lexicon = open_lexicon(opts["lexicon"], ruleset.id)
            except LexiconNotFound as exc:
                raise CommandError(str(exc), returncode=2) from None
        try:
            report = check_move(
                board, opts["move"], rack=opts["rack"], lexicon=lexicon, convention=opts["convention"]
            )
        except UnusableInput as exc:
            raise CommandError(str(exc), returncode=2) from None
        if opts["json"]:
            self.stdout.write(json.dumps(report.to_dict(), ensure_ascii=False))
        else:
            self._print_text(report)
        if not report.legal:
            raise SystemExit(1)

    def _print_text(self, report: MoveReport) -> None:
        if report.legal:
            bingo = " (+50, all 7 tiles)" if report.bingo else ""
            self.stdout.write(f"legal: {report.score} points{bingo}, {report.tiles_placed} tile(s) placed")
        else:
            self.stdout.write(f"illegal: {report.error}")
        for w in report.words:
            mark = {True: "valid", False: "NOT IN LEXICON", None: ""}[w.valid]
            self.stdout.write(f"  {w.word:<15} {w.score:>4}  {mark}".rstrip())
