"""``manage.py backup``: one archive of a tournament (or of the whole hall) that ``restore`` brings up on
another machine: with its lexicon files inside (the archive alone is enough), or with ``--lexicon-beside``
each kept once in the archive's folder as ``lexicon-<content hash>.kwg``, as the automatic backups do.

Exit status: 0 written, 1 the file cannot be written, 2 unusable arguments.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.backup import BackupError, write_archive
from tournament.backup.archive import file_name
from tournament.backup.lexicons import LexiconEntry, beside_name
from tournament.models import Tournament


class Command(BaseCommand):
    help = ("Write a backup archive: the database rows of a tournament (or of the whole hall), the lexicon files "
            "it uses and the keys of the access codes and tablet tokens (never the secret key). "
            "Restore it with 'manage.py restore FILE'.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", metavar="SLUG", help="only this tournament (default: the whole hall)")
        parser.add_argument("--out", metavar="FILE",
                            help="the archive to write (default: <slug or hall>--<date-time>.zip here)")
        parser.add_argument("--lexicon-beside", action="store_true",
                            help="keep each lexicon file once beside the archive (lexicon-<content hash>.kwg in its "
                                 "folder, copied when missing) instead of inside it; copy it along with the archive")

    def handle(self, *args: Any, **opts: Any) -> None:
        tournaments = None
        if opts["tournament"]:
            t = Tournament.objects.filter(slug=opts["tournament"]).first()
            if t is None:
                raise CommandError(f"no tournament with the short name {opts['tournament']!r}", returncode=2)
            tournaments = [t]
        out = Path(opts["out"] or file_name(tournaments))
        if out.is_dir():
            out = out / file_name(tournaments)
        started = time.monotonic()
        try:
            manifest = write_archive(out, tournaments, reason="manual", lexicon_beside=opts["lexicon_beside"])
        except (OSError, BackupError) as exc:
            raise CommandError(f"cannot write {out}: {exc}", returncode=1) from None
        rows = sum(manifest["counts"].values())
        lexicons = ", ".join(f"{lx['name']} v{lx['version']}" + where(lx) for lx in manifest["lexicons"]) or "none"
        self.stdout.write(
            f"{out}: {', '.join(t['slug'] for t in manifest['tournaments']) or 'no tournament'}; {rows} rows, "
            f"lexicons: {lexicons}; {out.stat().st_size / 1e6:.1f} MB in {time.monotonic() - started:.1f} s")


def where(entry: LexiconEntry) -> str:
    if entry["member"]:
        return ""
    if entry.get("beside"):
        return f" (beside: {beside_name(entry['content_hash'])})"
    return " (file not on this machine)"
