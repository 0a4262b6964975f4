"""``manage.py print_pdf``: one of the printed documents as a PDF file, without a worker.

Exit status: 0 written, 1 the file or the font is a problem, 2 unusable arguments.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.models import Tournament
from tournament.printing import build as pdf
from tournament.printing import spec as specs
from tournament.printing.address import AddressError, clean_address
from tournament.printing.layout import FontError


class Command(BaseCommand):
    help = ("Print a document of a tournament as PDF: standings, game-sheet, player-sheet, arbitration, slips "
            "or cards. Printing cards issues new access codes (the previous ones stop working).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("kind", choices=specs.KINDS, help="the document")
        parser.add_argument("--tournament", required=True, metavar="SLUG", help="the tournament's short name")
        parser.add_argument("--game", metavar="N", help="game number (game-sheet, arbitration; standings of a game)")
        parser.add_argument("--round", metavar="N", help="round number (arbitration; printed on slips)")
        parser.add_argument("--player", metavar="ID",
                            help="player id (player-sheet; cards of one player); player-sheet: 'all' for every player")
        parser.add_argument("--group-by", choices=specs.GROUPS,
                            help="standings in sections by series, category or club; player-sheet: with --group")
        parser.add_argument("--group", metavar="NAME",
                            help="player-sheet: the sheets of the players of this club, series or category (--group-by)")
        parser.add_argument("--flagged-only", action="store_true",
                            help="arbitration: only the verdicts to look at again")
        parser.add_argument("--copies", metavar="N", help="slips per table (slips; default 1)")
        parser.add_argument("--language", metavar="LANG", help="language of the document (default: the tournament's)")
        parser.add_argument("--base-url", metavar="URL",
                            help="cards: the address the tablets open, e.g. http://192.168.1.10:8000")
        parser.add_argument("--new-codes", action="store_true",
                            help="cards: confirm that new access codes are issued (the old ones stop working)")
        parser.add_argument("--log-out-tablets", action="store_true",
                            help="cards: also end the tablet sessions opened with the old codes")
        parser.add_argument("--out", required=True, metavar="FILE", help="the PDF file to write ('-': standard output)")

    def handle(self, *args: Any, **opts: Any) -> None:
        kind = opts["kind"]
        t = Tournament.objects.filter(slug=opts["tournament"]).first()
        if t is None:
            raise CommandError(f"no tournament with the short name {opts['tournament']!r}", returncode=2)
        try:
            spec = specs.make_spec(t, kind, game=opts["game"], round=opts["round"], player=opts["player"],
                                   group_by=opts["group_by"], copies=opts["copies"], language=opts["language"],
                                   group=opts["group"], flagged_only=opts["flagged_only"])
        except specs.SpecError as exc:
            raise CommandError(str(exc), returncode=2) from None
        base_url = self._base_url(kind, opts)
        to_stdout = opts["out"] == "-"
        out = self._temporary_file() if to_stdout else self._out(opts["out"])
        try:
            built = self._build(spec, base_url, opts["log_out_tablets"], out)
            if to_stdout:
                sys.stdout.flush()
                sys.stdout.buffer.write(out.read_bytes())
                sys.stdout.buffer.flush()
                return
        finally:
            if to_stdout:
                out.unlink(missing_ok=True)
        size = out.stat().st_size
        pages = f"{built.pages} page{'s' if built.pages != 1 else ''}, " if built.pages else ""
        note = " (unchanged data: the cached file)" if built.cached else ""
        self.stdout.write(f"{kind}: {pages}{size / 1024:.0f} KB → {out}{note}")
        if kind == "cards":
            self.stderr.write("New access codes were issued for the players on these cards; the previous codes "
                              "no longer work.")

    @staticmethod
    def _base_url(kind: str, opts: dict[str, Any]) -> str | None:
        """The tablets' address for cards (which also need --new-codes); the card options refused otherwise."""
        if kind != "cards":
            if opts["base_url"] or opts["new_codes"] or opts["log_out_tablets"]:
                raise CommandError("--base-url, --new-codes and --log-out-tablets apply to cards only", returncode=2)
            return None
        try:
            base_url = clean_address(opts["base_url"] or "")
        except AddressError:
            raise CommandError("cards need --base-url, the address the tablets open (http(s)://host[:port], e.g. "
                               "http://192.168.1.10:8000); the QR code holds <base-url>/tablet/login/?code=CODE",
                               returncode=2) from None
        if not opts["new_codes"]:
            raise CommandError("printing cards issues new access codes and the previous codes stop working: "
                               "add --new-codes to confirm", returncode=2)
        return base_url

    @staticmethod
    def _out(name: str) -> Path:
        out = Path(name)
        if out.is_dir() or not out.parent.is_dir():
            raise CommandError(f"cannot write {out}: {'it is a folder' if out.is_dir() else 'no such folder'}",
                               returncode=2)
        return out

    @staticmethod
    def _temporary_file() -> Path:
        handle, name = tempfile.mkstemp(suffix=".pdf")
        os.close(handle)
        return Path(name)

    @staticmethod
    def _build(spec: specs.Spec, base_url: str | None, log_out_tablets: bool, out: Path) -> pdf.Built:
        try:
            return pdf.build(spec, base_url=base_url, log_out_tablets=log_out_tablets, out=out)
        except specs.SpecError as exc:
            raise CommandError(str(exc), returncode=2) from None
        except FontError as exc:
            raise CommandError(str(exc), returncode=1) from None
        except OSError as exc:
            raise CommandError(f"cannot write {out}: {exc.strerror or exc}", returncode=1) from None
