"""The backup archive: a ZIP file with a manifest, the database rows and the lexicon files.

``manifest.json``
    what the archive holds (the tournaments, the row counts, the lexicons with their content hashes),
    where it comes from (program version, database, the applied migrations, the settings that matter) and
    the SHA-256 of every other part, so a damaged or truncated copy is refused before anything changes.
``data.json``
    the rows, table by table in the order a restore inserts them: ``{"columns": [...], "rows": [[...]]}``
    with the columns' database names (a foreign key is its ``*_id`` column).
``lexicons/<content hash>.kwg``
    the compiled word graphs the tournaments use.

The rows are read inside one read snapshot (a deferred SQLite transaction in WAL mode, a repeatable-read
PostgreSQL transaction): the slips handed in meanwhile wait for nothing, and the archive is consistent.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import io
import json
import os
import socket
import subprocess
import tempfile
import uuid
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from importlib import metadata
from pathlib import Path
from typing import IO, Any, TypedDict

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.db.models import Model, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from lexicon.models import Lexicon

from ..models import (
    AuditLog,
    CodeKey,
    Game,
    HallGame,
    Penalty,
    Player,
    Registration,
    Round,
    Slip,
    Solo,
    Tournament,
    Verdict,
)
from . import sniff

FORMAT = "duplicate-scrabble-backup"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
DATA = "data.json"
LEXICON_FOLDER = "lexicons/"
#: The apps whose migrations an archive records (a restore refuses an archive from a newer schema).
APPS = ("auth", "authtoken", "lexicon", "tournament")
CHUNK = 1 << 20


class BackupError(Exception):
    """A backup or a restore refused, with a message for the arbiter (translated)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class LexiconEntry(TypedDict):
    name: str
    version: int
    ruleset: str
    content_hash: str
    member: str | None  # the archive's file, or None when the file was not on the machine
    sha256: str
    size: int


class TournamentEntry(TypedDict):
    slug: str
    name: str
    fingerprint: str


class Manifest(TypedDict):
    format: str
    format_version: int
    created_at: str
    scope: str  # "hall" or "tournament"
    reason: str
    program: str
    host: str
    database: str
    migrations: dict[str, list[str]]
    settings: dict[str, str]
    tournaments: list[TournamentEntry]
    lexicons: list[LexiconEntry]
    counts: dict[str, int]
    parts: dict[str, str]  # member → SHA-256


def table_order() -> list[type[Model]]:
    """The tables of an archive, parents before children (the order a restore inserts them)."""
    return [get_user_model(), Token, CodeKey, Lexicon, Tournament, Tournament.arbiters.through, Player,
            Registration, Game, HallGame, Round, Slip, Verdict, Penalty, Solo, AuditLog]


def columns(model: type[Model]) -> list[str]:
    return [f.attname for f in model._meta.concrete_fields]


def fingerprint(tournament: Tournament) -> str:
    """Changes whenever something of the tournament changes (the screen version and the latest audit row:
    every slip and every change writes one), so an automatic backup of an unchanged tournament is skipped."""
    last = AuditLog.objects.filter(tournament=tournament).order_by("-id").values_list("id", flat=True).first()
    version = Tournament.objects.filter(pk=tournament.pk).values_list("screen_version", flat=True).first()
    return f"{version}:{last or 0}"


def selection(tournaments: list[Tournament] | None) -> dict[type[Model], QuerySet[Any]]:
    """The rows of the tournaments (None: the whole hall), table by table."""
    User = get_user_model()
    if tournaments is None:
        ts = Tournament.objects.all()
        audit = AuditLog.objects.all()
        users = User.objects.all()
        lexicons = Lexicon.objects.filter(Q(status=Lexicon.Status.READY) | Q(tournaments__isnull=False)).distinct()
    else:
        ids = [t.pk for t in tournaments]
        ts = Tournament.objects.filter(pk__in=ids)
        audit = AuditLog.objects.filter(tournament_id__in=ids)
        lexicons = Lexicon.objects.filter(pk__in=ts.values("lexicon_id"))
        user_ids: set[int] = set()
        for qs in (Tournament.arbiters.through.objects.filter(tournament_id__in=ids).values_list("user_id", flat=True),
                   Slip.objects.filter(round__game__tournament_id__in=ids, entered_by__isnull=False)
                   .values_list("entered_by_id", flat=True),
                   Verdict.objects.filter(round__game__tournament_id__in=ids, overridden_by__isnull=False)
                   .values_list("overridden_by_id", flat=True),
                   Penalty.objects.filter(game__tournament_id__in=ids, created_by__isnull=False)
                   .values_list("created_by_id", flat=True),
                   audit.filter(actor__isnull=False).values_list("actor_id", flat=True),
                   lexicons.filter(created_by__isnull=False).values_list("created_by_id", flat=True)):
            user_ids.update(qs)
        users = User.objects.filter(pk__in=user_ids)
    tids = ts.values("pk")
    return {
        User: users,
        Token: Token.objects.filter(user__in=users),
        CodeKey: CodeKey.objects.all(),
        Lexicon: lexicons,
        Tournament: ts,
        Tournament.arbiters.through: Tournament.arbiters.through.objects.filter(tournament_id__in=tids),
        Player: Player.objects.filter(registrations__tournament_id__in=tids).distinct(),
        Registration: Registration.objects.filter(tournament_id__in=tids),
        Game: Game.objects.filter(tournament_id__in=tids),
        HallGame: HallGame.objects.filter(game__tournament_id__in=tids),  # a simultaneous game's package and key
        Round: Round.objects.filter(game__tournament_id__in=tids),
        Slip: Slip.objects.filter(round__game__tournament_id__in=tids),
        Verdict: Verdict.objects.filter(round__game__tournament_id__in=tids),
        Penalty: Penalty.objects.filter(game__tournament_id__in=tids),
        Solo: Solo.objects.filter(round__game__tournament_id__in=tids),
        AuditLog: audit,
    }


@contextlib.contextmanager
def read_snapshot() -> Iterator[None]:
    """Every query inside sees the database as it was at the first one, and blocks no writer."""
    if connection.in_atomic_block:  # a test's transaction, or a caller's: it is the snapshot
        yield
        return
    if connection.vendor == "postgresql":
        with transaction.atomic():
            with connection.cursor() as cur:
                cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield
        return
    if connection.vendor == "sqlite":  # autocommit: an explicit deferred transaction reads one WAL snapshot
        connection.ensure_connection()
        with connection.cursor() as cur:
            cur.execute("BEGIN DEFERRED")
        try:
            yield
        finally:
            with connection.cursor() as cur:
                cur.execute("ROLLBACK")
        return
    with transaction.atomic():
        yield


def _json_value(value: Any) -> Any:
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, Decimal | uuid.UUID):
        return str(value)
    if isinstance(value, bytes | memoryview):
        return bytes(value).hex()
    raise TypeError(f"cannot write {type(value).__name__} into a backup")


def program_version() -> str:
    """The program's version: the git commit of the checkout when there is one."""
    try:
        out = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=settings.BASE_DIR, capture_output=True,
                             text=True, timeout=5)
        if out.returncode == 0 and out.stdout.strip():
            return "git " + out.stdout.strip()
    except OSError:
        pass
    try:
        return metadata.version("duplicate-hall")
    except metadata.PackageNotFoundError:
        return "unknown"


def applied_migrations() -> dict[str, list[str]]:
    applied = MigrationRecorder(connection).applied_migrations()
    return {app: sorted(name for a, name in applied if a == app) for app in APPS}


def _sha256_file(path: Path) -> tuple[str, int]:
    h = hashlib.sha256()
    size = 0
    with path.open("rb") as fh:
        while chunk := fh.read(CHUNK):
            h.update(chunk)
            size += len(chunk)
    return h.hexdigest(), size


def write_archive(out: Path | IO[bytes], tournaments: list[Tournament] | None = None, *,
                  reason: str = "manual") -> Manifest:
    """Writes the archive of the tournaments (None: the whole hall) into ``out`` (a path: written to a
    temporary file next to it, synced, then renamed, so a reader never sees half an archive)."""
    with read_snapshot():
        picked = selection(tournaments)
        tables = {}
        counts = {}
        for model, qs in picked.items():
            cols = columns(model)
            rows = [list(r) for r in qs.order_by("pk").values_list(*cols)]
            tables[model._meta.label] = {"columns": cols, "rows": rows}
            counts[model._meta.label] = len(rows)
        lexicons = list(picked[Lexicon].order_by("pk"))
        ts = list(picked[Tournament].order_by("pk"))
        entries = [TournamentEntry(slug=t.slug, name=t.name, fingerprint=fingerprint(t)) for t in ts]
        migrations = applied_migrations()
    data = json.dumps({"tables": tables}, default=_json_value, ensure_ascii=False, separators=(",", ":")).encode()
    parts = {DATA: hashlib.sha256(data).hexdigest()}
    lexicon_entries: list[LexiconEntry] = []
    files: list[tuple[str, Path]] = []
    for lex in lexicons:
        path = lex.absolute_path if lex.file_path else None
        member = None
        sha, size = "", 0
        if path is not None and path.is_file():
            member = f"{LEXICON_FOLDER}{lex.content_hash or lex.pk}.kwg"
            sha, size = _sha256_file(path)
            parts[member] = sha
            files.append((member, path))
        lexicon_entries.append(LexiconEntry(name=lex.name, version=lex.version, ruleset=lex.ruleset,
                                            content_hash=lex.content_hash, member=member, sha256=sha, size=size))
    manifest = Manifest(
        format=FORMAT, format_version=FORMAT_VERSION, created_at=timezone.now().isoformat(),
        scope="hall" if tournaments is None else "tournament", reason=reason, program=program_version(),
        host=socket.gethostname(), database=connection.vendor, migrations=migrations,
        settings={"LANGUAGE_CODE": settings.LANGUAGE_CODE, "TIME_ZONE": settings.TIME_ZONE},
        tournaments=entries, lexicons=lexicon_entries, counts=counts, parts=parts,
    )

    def fill(fh: IO[bytes]) -> None:
        with zipfile.ZipFile(fh, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
            zf.writestr(DATA, data)
            for member, path in files:
                zf.write(path, member)
            zf.writestr(MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=1))

    if isinstance(out, Path):
        out.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=".partial-", suffix=".zip", dir=out.parent)
        tmp = Path(tmp_name)
        try:
            with os.fdopen(fd, "wb") as fh:
                fill(fh)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, out)
            _sync_dir(out.parent)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    else:
        fill(out)
    return manifest


def _sync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# -- reading -------------------------------------------------------------------------------------------------


@dataclass
class Archive:
    """A checked archive: its manifest and rows; the lexicon files stay in the ZIP until a restore copies them."""

    path: Path
    manifest: Manifest
    tables: dict[str, dict[str, Any]] = field(repr=False)

    def rows(self, model: type[Model]) -> list[dict[str, Any]]:
        """The archive's rows of a table as {column: value} (no rows: the table is not in the archive)."""
        table = self.tables.get(model._meta.label)
        if not table:
            return []
        cols = table["columns"]
        return [dict(zip(cols, row, strict=True)) for row in table["rows"]]

    def extract_lexicon(self, entry: LexiconEntry, dest: Path) -> None:
        """Copies a lexicon file out of the archive (checked against its SHA-256 on the way)."""
        assert entry["member"]
        h = hashlib.sha256()
        with zipfile.ZipFile(self.path) as zf, zf.open(entry["member"]) as src, dest.open("wb") as out:
            while chunk := src.read(CHUNK):
                h.update(chunk)
                out.write(chunk)
            out.flush()
            os.fsync(out.fileno())
        if h.hexdigest() != entry["sha256"]:
            dest.unlink(missing_ok=True)
            raise BackupError(_("The lexicon file %(name)s in the archive is damaged.") % {"name": entry["member"]})


def damaged(path: Path, why: str) -> BackupError:
    return BackupError(_("%(file)s is not a usable backup: %(why)s. Nothing was changed.")
                       % {"file": path.name, "why": why})


def not_a_backup(path: Path) -> BackupError:
    return BackupError(sniff.not_a_backup_text(path))


def read_archive(path: Path) -> Archive:
    """Opens and checks an archive (every part against the manifest's SHA-256); :class:`BackupError` with
    the reason when it is not a backup, is damaged or truncated, or comes from a newer program."""
    if not path.is_file():
        raise BackupError(_("There is no file %(file)s.") % {"file": path})
    ours = sniff.starts_as_ours(path, (DATA, MANIFEST), (LEXICON_FOLDER,))
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
            if MANIFEST not in names:
                raise damaged(path, _("it has no manifest")) if ours else not_a_backup(path)
            try:
                manifest: Manifest = json.loads(zf.read(MANIFEST))
            except (ValueError, UnicodeDecodeError):
                raise damaged(path, _("its manifest cannot be read")) from None
            if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
                raise damaged(path, _("its manifest cannot be read")) if ours else not_a_backup(path)
            if int(manifest.get("format_version", 0)) > FORMAT_VERSION:
                raise damaged(path, _("it was written by a newer version of the program; update this copy first"))
            parts = manifest.get("parts") or {}
            if DATA not in parts:
                raise damaged(path, _("its manifest lists no database rows"))
            for member, sha in parts.items():
                if member not in names:
                    raise damaged(path, _("the part %(part)s is missing (incomplete copy?)") % {"part": member})
                h = hashlib.sha256()
                with zf.open(member) as fh:
                    while chunk := fh.read(CHUNK):
                        h.update(chunk)
                if h.hexdigest() != sha:
                    raise damaged(path, _("the part %(part)s is damaged (its checksum differs)") % {"part": member})
            data = json.loads(zf.read(DATA))
    except zipfile.BadZipFile:
        if not ours:
            raise not_a_backup(path) from None
        raise damaged(path, _("the file is damaged or incomplete (cut off while copying?)")) from None
    except (zipfile.LargeZipFile, OSError, EOFError) as exc:
        raise damaged(path, str(exc)) from None
    except ValueError:
        raise damaged(path, _("its database rows cannot be read")) from None
    tables = data.get("tables") if isinstance(data, dict) else None
    if not isinstance(tables, dict):
        raise damaged(path, _("its database rows cannot be read"))
    return Archive(path=path, manifest=manifest, tables=tables)


def archive_bytes(tournaments: list[Tournament] | None, *, reason: str = "download") -> tuple[bytes, Manifest]:
    """The archive in memory (a console download)."""
    buf = io.BytesIO()
    manifest = write_archive(buf, tournaments, reason=reason)
    return buf.getvalue(), manifest


def file_name(tournaments: Iterable[Tournament] | None, at: dt.datetime | None = None) -> str:
    """``<slug>--<YYYYmmdd-HHMMSS>.zip`` (``hall--…`` for the whole hall), in UTC so names sort by time."""
    when = (at or timezone.now()).astimezone(dt.UTC)
    ts = list(tournaments) if tournaments is not None else None
    who = ts[0].slug if ts and len(ts) == 1 else "hall"
    return f"{who}--{when:%Y%m%d-%H%M%S}.zip"
