"""``manage.py restore FILE``: brings the tournaments of a backup archive up in this database.

Run it on a migrated database (``./hall setup`` on a fresh clone). The archive is checked whole before
anything changes; a tournament already here is refused unless ``--replace``.
Exit status: 0 restored, 1 refused (the message says why; nothing changed), 2 unusable arguments.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from lexicon.models import Lexicon
from tournament.backup import Archive, BackupError, read_archive, restore_archive
from tournament.backup.lexicons import beside_name, is_hash, places


class Command(BaseCommand):
    help = ("Restore a backup archive written by 'manage.py backup' or by the automatic backups: the tournaments, "
            "their players, games, rounds, slips, verdicts and audit log, the lexicon files, and the keys that keep "
            "the access codes and the tablets' logins working.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the archive (.zip)")
        parser.add_argument("--replace", action="store_true",
                            help="replace a tournament of the archive that this database already holds")
        parser.add_argument("--check", action="store_true", help="only check the archive and say what it holds")

    def handle(self, *args: Any, **opts: Any) -> None:
        path = Path(opts["file"])
        try:
            archive = read_archive(path)
            m = archive.manifest
            self.stdout.write(f"{path.name}: written {m['created_at']} on {m['host']} ({m['program']}, "
                              f"{m['database']}); " + ", ".join(f"{t['slug']} ({t['name']})" for t in m["tournaments"]))
            if opts["check"]:
                counts = ", ".join(f"{k.split('.')[-1]} {v}" for k, v in m["counts"].items() if v)
                self.stdout.write(f"the archive is whole: {counts}")
                for line in lexicon_sources(archive):
                    self.stdout.write(line)
                return
            report = restore_archive(archive, replace=opts["replace"])
        except BackupError as exc:
            raise CommandError(exc.message, returncode=1) from None
        counts = ", ".join(f"{k.split('.')[-1]} {v}" for k, v in report.counts.items() if v)
        self.stdout.write(f"restored {', '.join(report.tournaments)} in {report.seconds:.1f} s: {counts}")
        if report.replaced:
            self.stdout.write(f"replaced: {', '.join(report.replaced)}")
        for what, names in (("lexicons copied", report.lexicons_copied), ("lexicons already here",
                                                                          report.lexicons_reused),
                            ("arbiters added", report.users_created), ("arbiters already here",
                                                                       report.users_matched)):
            if names:
                self.stdout.write(f"{what}: {', '.join(names)}")
        for note in report.notes:
            self.stdout.write(f"note: {note}")
        self.stdout.write("The tablets carry on with their logins; start the server (./hall run) and check the "
                          "console's round status.")


def lexicon_sources(archive: Archive) -> list[str]:
    """Where a restore would take each lexicon of the archive from (a lexicon a restore cannot find: the file
    to copy beside the archive)."""
    entries = {e["content_hash"]: e for e in archive.manifest["lexicons"]}
    lines = []
    for row in archive.rows(Lexicon):
        entry = entries.get(row["content_hash"])
        label = f"lexicon {row['name']} v{row['version']}"
        here = Lexicon.objects.filter(content_hash=row["content_hash"], status=row["status"]).exclude(file_path="")
        if any(lx.absolute_path.is_file() for lx in here):
            lines.append(f"{label}: on this machine")
        elif entry is not None and entry["member"]:
            lines.append(f"{label}: in the archive")
        elif is_hash(row["content_hash"]):
            name = beside_name(row["content_hash"])
            found = [folder / name for folder in places(archive.path) if (folder / name).is_file()]
            lines.append(f"{label}: beside the archive: {name} (in {found[0].parent})" if found else
                         f"{label}: missing: {name} (copy it from the backup folder into {archive.path.parent})")
    return lines
