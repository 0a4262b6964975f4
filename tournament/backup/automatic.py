"""The backups written while a tournament is played: into ``BACKUP_DIR`` (a second disk, e.g. a USB stick).

The worker writes one every ``BACKUP_SECONDS`` for each tournament that changed since its last one, and one
after every publication; each tournament keeps its last ``BACKUP_KEEP`` archives. An archive is written to
a temporary name, synced and renamed: a reader (and a restore after a power cut) never sees half of one.
The archives hold no lexicon file: each lexicon is kept once in the folder as ``lexicon-<content hash>.kwg``
(copied with the first archive that needs it, and never deleted by the backups: archives of any age may
need it).
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import zipfile
import zlib
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from ..models import AuditLog, Game, Tournament, TrainingClub, TrainingRun
from .archive import MANIFEST, BackupError, check_sizes, file_name, fingerprint, read_member, write_archive
from .lexicons import beside_name, is_hash

log = logging.getLogger(__name__)


def backup_dir() -> Path:
    return Path(settings.BACKUP_DIR)


@dataclass(frozen=True)
class BackupFile:
    """An archive in ``BACKUP_DIR``: its path, when it was written, its size."""

    path: Path
    written_at: dt.datetime
    size: int

    @property
    def name(self) -> str:
        return self.path.name


def archives_of(t: Tournament, folder: Path | None = None) -> list[BackupFile]:
    """The tournament's archives in the folder, newest first."""
    folder = folder or backup_dir()
    found = []
    for path in folder.glob(f"{t.slug}--*.zip"):
        stamp = path.stem.split("--", 1)[1]
        try:
            at = dt.datetime.strptime(stamp, "%Y%m%d-%H%M%S").replace(tzinfo=dt.UTC)
        except ValueError:
            continue
        try:
            size = path.stat().st_size
        except OSError:
            continue
        found.append(BackupFile(path=path, written_at=at, size=size))
    return sorted(found, key=lambda b: b.written_at, reverse=True)


def lexicon_file(t: Tournament) -> BackupFile | None:
    """The tournament's lexicon file kept beside its archives in ``BACKUP_DIR`` (None: not there yet)."""
    if not is_hash(t.lexicon.content_hash):
        return None
    path = backup_dir() / beside_name(t.lexicon.content_hash)
    try:
        st = path.stat()
    except OSError:
        return None
    return BackupFile(path=path, written_at=dt.datetime.fromtimestamp(int(st.st_mtime), dt.UTC), size=st.st_size)


def latest(t: Tournament) -> BackupFile | None:
    found = archives_of(t)
    return found[0] if found else None


def _archived_fingerprint(path: Path) -> str | None:
    """The fingerprint the archive's manifest holds (its size checked first and read as a bounded stream: the
    backup folder is a USB stick anyone may have written to); None when it has none."""
    try:
        with zipfile.ZipFile(path) as zf:
            check_sizes(path, zf, [MANIFEST])
            manifest = json.loads(read_member(path, zf, MANIFEST, keep=True)[1])
        return str(manifest["tournaments"][0]["fingerprint"])
    except (OSError, KeyError, IndexError, TypeError, ValueError, RecursionError, zipfile.BadZipFile, zlib.error,
            BackupError):
        return None


def back_up(t: Tournament, *, reason: str, force: bool = False) -> BackupFile | None:
    """Writes the tournament's archive into ``BACKUP_DIR`` unless nothing changed since the last one
    (``force``: write anyway); drops the oldest beyond ``BACKUP_KEEP``. None when skipped."""
    folder = backup_dir()
    previous = archives_of(t, folder)
    if not force and previous and _archived_fingerprint(previous[0].path) == fingerprint(t):
        return None
    now = timezone.now()
    path = folder / file_name([t], now)
    if previous and path.name == previous[0].name:  # twice in one second: the newer replaces it
        path.unlink(missing_ok=True)
    write_archive(path, [t], reason=reason, lexicon_beside=True)
    for old in archives_of(t, folder)[max(1, settings.BACKUP_KEEP):]:
        old.path.unlink(missing_ok=True)
    return BackupFile(path=path, written_at=now.replace(microsecond=0), size=path.stat().st_size)


def unsaved_since(t: Tournament, latest_file: BackupFile | None) -> dt.datetime | None:
    """When the first change that no archive holds yet was made; None when the latest archive holds every change
    (its fingerprint is the tournament's) or nothing was ever changed."""
    if latest_file is not None and _archived_fingerprint(latest_file.path) == fingerprint(t):
        return None
    changes = AuditLog.objects.filter(tournament=t)
    if latest_file is not None:
        changes = changes.filter(at__gte=latest_file.written_at)
    first = changes.order_by("at").values_list("at", flat=True).first()
    if first is None and latest_file is not None:  # changed without an audit row after the archive's second
        return latest_file.written_at
    return first


def overdue(t: Tournament, latest_file: BackupFile | None, now: dt.datetime | None = None) -> bool:
    """Whether the automatic backups are late for the tournament: it is one the periodic pass backs up (in play,
    :func:`tournaments_in_play`), it changed since its latest archive, and that change is older than two
    passes and a minute. A tournament that has not changed since its last archive is never late."""
    every = settings.BACKUP_SECONDS
    now = now or timezone.now()
    if not every:
        return False
    since = unsaved_since(t, latest_file)
    if since is None or (now - since).total_seconds() <= 2 * every + 60:
        return False
    return (Game.objects.filter(tournament=t, status=Game.Status.PLAYING).exists()
            or AuditLog.objects.filter(tournament=t, at__gte=now - timedelta(days=1)).exists())


def tournaments_in_play(now: dt.datetime | None = None) -> list[Tournament]:
    """Tournaments with a game being played, a change or a training session begun in the last day: the periodic
    backups' candidates."""
    now = now or timezone.now()
    day = now - timedelta(days=1)
    ids = set(Game.objects.filter(status=Game.Status.PLAYING).values_list("tournament_id", flat=True))
    ids.update(AuditLog.objects.filter(at__gte=day, tournament__isnull=False)
               .values_list("tournament_id", flat=True).distinct())
    for model in (TrainingRun, TrainingClub):
        ids.update(model.objects.filter(Q(created_at__gte=day) | Q(started_at__gte=day), game__source_game__isnull=False)
                   .values_list("game__source_game__tournament_id", flat=True).distinct())
    return list(Tournament.objects.filter(pk__in=ids).order_by("pk"))


def back_up_changed() -> dict[str, str]:
    """The periodic pass: an archive for each tournament in play that changed; {slug: file or why not}."""
    done: dict[str, str] = {}
    for t in tournaments_in_play():
        try:
            written = back_up(t, reason="periodic")
        except (OSError, BackupError) as exc:  # a full or missing stick must not stop the hall
            log.error("backup of %s failed: %s", t.slug, exc)
            done[t.slug] = f"failed: {exc}"
            continue
        done[t.slug] = written.name if written else "unchanged"
    return done
