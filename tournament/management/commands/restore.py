"""``manage.py restore FILE``: brings the tournaments of a backup archive up in this database.

Run it on a migrated database (``./hall setup`` on a fresh clone). The archive is checked whole before
anything changes; a tournament already here is refused unless ``--replace``.
It says whether the archive is signed by this hall (``--require-signature`` refuses it otherwise).
It speaks one language throughout, its report and its refusals alike: ``--language`` (one of the interface's
languages), by default the server's ``LANGUAGE_CODE``.
Exit status: 0 restored, 1 refused (the message says why; nothing changed), 2 unusable arguments.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from lexicon.models import Lexicon
from tournament.backup import Archive, BackupError, RestoreReport, read_archive, restore_archive
from tournament.backup.lexicons import beside_name, is_hash, places
from tournament.backup.signature import Signed, signed


def signature_text(state: Signed) -> str:
    """What the archive's signature says, in the active language."""
    if state is Signed.HERE:
        return _("Signed by this hall: written here and unchanged since.")
    if state is Signed.ELSEWHERE:
        return _("Signed by another hall, or changed since it was written: restore it only if you trust where it "
                 "comes from.")
    return _("Not signed (written by an earlier version, or its signature removed): restore it only if you trust "
             "where it comes from.")


#: Each table of an archive as the report names it (the models' own names are not all translated, and Django names a
#: many-to-many table once, in the language active at start-up).
TABLE_NAMES = {
    "auth.User": pgettext_lazy("backup table", "arbiters"),
    "tournament.CodeKey": pgettext_lazy("backup table", "code keys"),
    "lexicon.Lexicon": pgettext_lazy("backup table", "lexicons"),
    "tournament.Tournament": pgettext_lazy("backup table", "tournaments"),
    "tournament.Tournament_arbiters": pgettext_lazy("backup table", "arbiters of tournaments"),
    "tournament.Player": pgettext_lazy("backup table", "players"),
    "tournament.Registration": pgettext_lazy("backup table", "registrations"),
    "tournament.Game": pgettext_lazy("backup table", "games"),
    "tournament.HallGame": pgettext_lazy("backup table", "games of halls"),
    "tournament.Round": pgettext_lazy("backup table", "rounds"),
    "tournament.Slip": pgettext_lazy("backup table", "slips"),
    "tournament.Verdict": pgettext_lazy("backup table", "verdicts"),
    "tournament.Penalty": pgettext_lazy("backup table", "penalties"),
    "tournament.Solo": pgettext_lazy("backup table", "solos"),
    "tournament.AuditLog": pgettext_lazy("backup table", "audit lines"),
    "tournament.TrainingGame": pgettext_lazy("backup table", "training games"),
    "tournament.TrainingClub": pgettext_lazy("backup table", "training clubs"),
    "tournament.TrainingRun": pgettext_lazy("backup table", "training runs"),
}


def counts_text(counts: dict[str, int]) -> str:
    """Row counts by table, each table by its name in the active language ("slips: 12; verdicts: 12")."""
    parts = []
    for label, n in counts.items():
        if n:
            parts.append(_("%(table)s: %(n)s") % {"table": TABLE_NAMES.get(label, label.split(".")[-1]), "n": n})
    return "; ".join(parts)


class Command(BaseCommand):
    help = ("Restore a backup archive written by 'manage.py backup' or by the automatic backups: the tournaments, "
            "their players, games, rounds, slips, verdicts and audit log, the lexicon files, and the keys that keep "
            "the access codes and the tablets' logins working.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the archive (.zip)")
        parser.add_argument("--replace", action="store_true",
                            help="replace a tournament of the archive that this database already holds")
        parser.add_argument("--check", action="store_true", help="only check the archive and say what it holds")
        parser.add_argument("--require-signature", action="store_true",
                            help="refuse an archive not signed by this hall (another hall's, changed, or unsigned)")
        parser.add_argument("--language", choices=[code for code, _name in settings.LANGUAGES],
                            help="the language of the report and the refusals (default: the server's LANGUAGE_CODE)")

    def handle(self, *args: Any, **opts: Any) -> None:
        with translation.override(opts["language"] or settings.LANGUAGE_CODE):
            self.restore(Path(opts["file"]), replace=opts["replace"], check=opts["check"],
                         require_signature=opts["require_signature"])

    def restore(self, path: Path, *, replace: bool, check: bool, require_signature: bool) -> None:
        try:
            archive = read_archive(path)
            self.stdout.write(self.holds(archive))
            state = signed(archive.manifest)
            self.stdout.write(signature_text(state))
            if require_signature and state is not Signed.HERE:
                raise BackupError(_("%(file)s is not signed by this hall, and --require-signature asks for that. "
                                    "Nothing was changed.") % {"file": path.name})
            if check:
                self.stdout.write(_("The archive is whole: %(counts)s") % {
                    "counts": counts_text(archive.manifest["counts"])})
                for line in lexicon_sources(archive):
                    self.stdout.write(line)
                return
            report = restore_archive(archive, replace=replace)
        except BackupError as exc:
            raise CommandError(exc.message, returncode=1) from None
        self.report(report)

    @staticmethod
    def holds(archive: Archive) -> str:
        m = archive.manifest
        return _("%(file)s: written %(when)s on %(host)s (%(program)s, %(database)s); %(tournaments)s") % {
            "file": archive.path.name, "when": m["created_at"], "host": m["host"], "program": m["program"],
            "database": m["database"],
            "tournaments": ", ".join(f"{t['slug']} ({t['name']})" for t in m["tournaments"])}

    def report(self, report: RestoreReport) -> None:
        self.stdout.write(_("Restored %(tournaments)s in %(seconds)s s: %(counts)s") % {
            "tournaments": ", ".join(report.tournaments), "seconds": f"{report.seconds:.1f}",
            "counts": counts_text(report.counts)})
        for text, names in ((_("Replaced: %(list)s"), report.replaced),
                            (_("Lexicons copied: %(list)s"), report.lexicons_copied),
                            (_("Lexicons already here: %(list)s"), report.lexicons_reused),
                            (_("Arbiters added: %(list)s"), report.users_created),
                            (_("Arbiters already here: %(list)s"), report.users_matched)):
            if names:
                self.stdout.write(text % {"list": ", ".join(names)})
        for name in report.users_created:
            self.stdout.write(_("%(name)s has no password on this machine (an archive holds none): set one with "
                                "'python manage.py changepassword %(name)s'.") % {"name": name})
        for note in report.notes:
            self.stdout.write(_("Note: %(note)s") % {"note": note})
        self.stdout.write(_("The tablets carry on with their logins; start the server (./hall run) and check the "
                            "console's round status."))


def lexicon_sources(archive: Archive) -> list[str]:
    """Where a restore would take each lexicon of the archive from (a lexicon a restore cannot find: the file
    to copy beside the archive), in the active language."""
    entries = {e["content_hash"]: e for e in archive.manifest["lexicons"]}
    lines = []
    for row in archive.rows(Lexicon):
        entry = entries.get(row["content_hash"])
        label = _("Lexicon %(name)s v%(version)s") % {"name": row["name"], "version": row["version"]}
        here = Lexicon.objects.filter(content_hash=row["content_hash"], status=row["status"]).exclude(file_path="")
        if any(lx.absolute_path.is_file() for lx in here):
            lines.append(_("%(lexicon)s: on this machine") % {"lexicon": label})
        elif entry is not None and entry["member"]:
            lines.append(_("%(lexicon)s: in the archive") % {"lexicon": label})
        elif is_hash(row["content_hash"]):
            name = beside_name(row["content_hash"])
            found = [folder / name for folder in places(archive.path) if (folder / name).is_file()]
            lines.append(_("%(lexicon)s: beside the archive: %(file)s (in %(folder)s)") % {
                "lexicon": label, "file": name, "folder": found[0].parent} if found else
                _("%(lexicon)s: missing: %(file)s (copy it from the backup folder into %(folder)s)") % {
                "lexicon": label, "file": name, "folder": archive.path.parent})
    return lines
