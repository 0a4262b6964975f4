"""The backup archive: a ZIP file with a manifest, the database rows and the lexicon files.

``manifest.json``
    what the archive holds (the tournaments, the row counts, the lexicons with their content hashes),
    where it comes from (program version, database, the applied migrations, the settings that matter) and
    the SHA-256 of every other part, so a damaged or truncated copy is refused before anything changes; and
    its signature with this hall's key (:mod:`.signature`).
``data.json``
    the rows, table by table in the order a restore inserts them (:mod:`.rows`).
``lexicons/<content hash>.kwg``
    the compiled word graphs the tournaments use — or none, when the archive is written with its lexicons
    beside it (the automatic backups): each is then kept once in the archive's folder as
    ``lexicon-<content hash>.kwg`` (:mod:`.lexicons`).

The rows are read inside one read snapshot (a deferred SQLite transaction in WAL mode, a repeatable-read
PostgreSQL transaction): the slips handed in meanwhile wait for nothing, and the archive is consistent.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import hashlib
import io
import json
import os
import socket
import subprocess
import tempfile
import zipfile
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import IO, Any, NotRequired, TypedDict

from django.conf import settings
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext as _

from lexicon.models import Lexicon

from ..models import Tournament
from . import signature, sniff
from .checks import RowError, check_tables
from .errors import BackupError
from .lexicons import LexiconEntry, inside_lexicon_dir, is_hash, keep_beside
from .rows import data_json, decode_tables, fingerprint, read_snapshot, selection, table_order

__all__ = ["APPS", "DATA", "FORMAT_VERSION", "MANIFEST", "Archive", "BackupError", "LexiconEntry", "Manifest",
           "applied_migrations", "archive_bytes", "file_name", "fingerprint", "read_archive", "table_order",
           "write_archive"]

FORMAT = "duplicate-scrabble-backup"
#: 3: no password hash, staff or superuser flag, no API token (:data:`.rows.WITHHELD`); 2: the training tables,
#: lexicons that may be kept beside the archive (``beside``). 1 and 2 are still read.
FORMAT_VERSION = 3
MANIFEST = "manifest.json"
DATA = "data.json"
LEXICON_FOLDER = "lexicons/"
#: The apps whose migrations an archive records (a restore refuses an archive from a newer schema).
APPS = ("auth", "authtoken", "lexicon", "tournament")
CHUNK = 1 << 20
MB = 1 << 20
#: The most a part may unpack to. The rows of a 1,000-player, 40-round tournament are 17.9 MB
#: (``tests.load.backup_bench``), its manifest 2.7 kB, a compiled lexicon up to ~60 MB (ru 58 MB).
LIMITS = {MANIFEST: 16 * MB, DATA: 256 * MB, LEXICON_FOLDER: 1024 * MB}
#: The most a part over :data:`RATIO_FROM` bytes may unpack to per byte it takes in the archive (the rows are
#: deflated 14 times, a lexicon stored as it is; 400 MB of white space deflate 1,000 times).
RATIO = 100
RATIO_FROM = 1 * MB


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
    signature: NotRequired[str]  # of the rest, with this hall's key (:mod:`.signature`)


@functools.cache
def program_version() -> str:
    """The program's version: the git commit of the checkout when there is one (asked once per process: the
    code a process runs does not change under it)."""
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


#: (path, size, mtime_ns, inode) → SHA-256 of a lexicon file already read by this process.
_FILE_SHA: dict[tuple[str, int, int, int], str] = {}


def _embed(zf: zipfile.ZipFile, member: str, path: Path) -> tuple[str, int]:
    """Stores the file in the archive as it is (a compiled graph is not compressed again) and returns its
    SHA-256 and size, both of the bytes written (one open file: a file replaced meanwhile does not mix)."""
    with path.open("rb") as src:
        st = os.fstat(src.fileno())
        key = (str(path), st.st_size, st.st_mtime_ns, st.st_ino)
        known = _FILE_SHA.get(key)
        h = hashlib.sha256()
        info = zipfile.ZipInfo(member, date_time=timezone.now().timetuple()[:6])
        info.compress_type = zipfile.ZIP_STORED
        size = 0
        with zf.open(info, "w") as out:
            while chunk := src.read(CHUNK):
                if known is None:
                    h.update(chunk)
                out.write(chunk)
                size += len(chunk)
    sha = known or h.hexdigest()
    _FILE_SHA[key] = sha
    return sha, size


def _entry(lex: Lexicon, *, member: str | None = None, sha: str = "", size: int = 0,
           beside: bool = False) -> LexiconEntry:
    return LexiconEntry(name=lex.name, version=lex.version or 0, ruleset=lex.ruleset,
                        content_hash=lex.content_hash, member=member, sha256=sha, size=size or lex.file_size,
                        beside=beside)


def _lexicon_file(lex: Lexicon) -> Path | None:
    return inside_lexicon_dir(lex)


def write_archive(out: Path | IO[bytes], tournaments: list[Tournament] | None = None, *,
                  reason: str = "manual", lexicon_beside: bool = False) -> Manifest:
    """Writes the archive of the tournaments (None: the whole hall) into ``out`` (a path: written to a
    temporary file next to it, synced, then renamed, so a reader never sees half an archive). With
    ``lexicon_beside`` (``out`` a path) the lexicon files are not in the archive but kept once in its folder
    as ``lexicon-<content hash>.kwg``."""
    if lexicon_beside and not isinstance(out, Path):
        raise ValueError("lexicons kept beside an archive need the archive's path")
    with read_snapshot():
        picked = selection(tournaments)
        data, counts = data_json(picked)
        lexicons = list(picked[Lexicon].order_by("pk"))
        entries = [TournamentEntry(slug=t.slug, name=t.name, fingerprint=fingerprint(t))
                   for t in picked[Tournament].order_by("pk")]
        migrations = applied_migrations()
    parts = {DATA: hashlib.sha256(data).hexdigest()}
    lexicon_entries: list[LexiconEntry] = []
    if lexicon_beside:
        assert isinstance(out, Path)
        lexicon_entries = [_entry(lex, beside=keep_beside(lex, out.parent)) for lex in lexicons]
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
            if not lexicon_beside:
                for lex in lexicons:
                    path = _lexicon_file(lex)
                    if path is None:
                        lexicon_entries.append(_entry(lex))
                        continue
                    member = f"{LEXICON_FOLDER}{lex.content_hash or lex.pk}.kwg"
                    sha, size = _embed(zf, member, path)
                    parts[member] = sha
                    lexicon_entries.append(_entry(lex, member=member, sha=sha, size=size))
            manifest["signature"] = signature.sign(manifest)
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


def limit_of(member: str) -> int:
    """The most the part may unpack to (:data:`LIMITS`; a lexicon file's, any other part's)."""
    return LIMITS.get(member, LIMITS[LEXICON_FOLDER])


def check_sizes(path: Path, zf: zipfile.ZipFile, members: Iterable[str]) -> None:
    """Refuses a part whose stated size is over its limit or that unpacks more than :data:`RATIO` times (a ZIP
    bomb), from the ZIP's directory, before a byte of it is unpacked."""
    for member in members:
        info = zf.getinfo(member)
        limit = limit_of(member)
        if info.file_size > limit:
            raise damaged(path, _("the part %(part)s unpacks to %(size)s MB, more than the %(limit)s MB a backup's "
                                  "part may hold") % {"part": member, "size": f"{info.file_size / MB:,.0f}",
                                                      "limit": f"{limit / MB:,.0f}"})
        if info.file_size > RATIO_FROM and info.file_size > RATIO * max(info.compress_size, 1):
            raise damaged(path, _("the part %(part)s unpacks to %(size)s MB from %(packed)s MB, more than %(ratio)s "
                                  "times its size in the archive (a ZIP bomb?)")
                          % {"part": member, "size": f"{info.file_size / MB:,.0f}", "ratio": RATIO,
                             "packed": f"{info.compress_size / MB:,.2f}"})


def read_member(path: Path, zf: zipfile.ZipFile, member: str, *, keep: bool) -> tuple[str, bytes]:
    """The part's SHA-256 and (``keep``) its bytes, read as a stream and never beyond its limit (whatever its
    header says)."""
    h = hashlib.sha256()
    kept: list[bytes] = []
    size = 0
    limit = limit_of(member)
    with zf.open(member) as fh:
        while chunk := fh.read(CHUNK):
            size += len(chunk)
            if size > limit:
                raise damaged(path, _("the part %(part)s unpacks to more than the %(limit)s MB a backup's part may "
                                      "hold") % {"part": member, "limit": f"{limit / MB:,.0f}"})
            h.update(chunk)
            if keep:
                kept.append(chunk)
    return h.hexdigest(), b"".join(kept)


def read_manifest(path: Path, zf: zipfile.ZipFile, ours: bool) -> Manifest:
    """The manifest, checked to be one of this program's (format, version, parts, every part's size)."""
    names = set(zf.namelist())
    if MANIFEST not in names:
        raise damaged(path, _("it has no manifest")) if ours else not_a_backup(path)
    check_sizes(path, zf, [MANIFEST])
    try:
        manifest: Manifest = json.loads(read_member(path, zf, MANIFEST, keep=True)[1])
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise damaged(path, _("its manifest cannot be read")) from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise damaged(path, _("its manifest cannot be read")) if ours else not_a_backup(path)
    version = manifest.get("format_version", 0)
    parts = manifest.get("parts")
    shapes = ((version, int), (parts, dict), (manifest.get("migrations"), dict), (manifest.get("settings"), dict),
              (manifest.get("counts"), dict), (manifest.get("tournaments"), list), (manifest.get("lexicons"), list))
    if not all(isinstance(value, kind) for value, kind in shapes) or isinstance(version, bool) \
            or not all(isinstance(t, dict) for t in manifest["tournaments"]):
        raise damaged(path, _("its manifest cannot be read"))
    if version > FORMAT_VERSION:
        raise damaged(path, _("it was written by a newer version of the program; update this copy first"))
    if DATA not in parts:
        raise damaged(path, _("its manifest lists no database rows"))
    for member in parts:
        if member not in names:
            raise damaged(path, _("the part %(part)s is missing (incomplete copy?)") % {"part": member})
    check_sizes(path, zf, parts)
    return manifest


def read_archive(path: Path) -> Archive:
    """Opens and checks an archive (every part's size and SHA-256 against the manifest, the schema, every row:
    :mod:`.checks`); :class:`BackupError` with the reason when it is not a backup, is damaged, truncated or
    crafted, or comes from a newer program."""
    if not path.is_file():
        raise BackupError(_("There is no file %(file)s.") % {"file": path})
    ours = sniff.starts_as_ours(path, (DATA, MANIFEST), (LEXICON_FOLDER,))
    try:
        with zipfile.ZipFile(path) as zf:
            manifest = read_manifest(path, zf, ours)
            data = b""
            for member, sha in manifest["parts"].items():
                found, blob = read_member(path, zf, member, keep=member == DATA)
                if found != sha:
                    raise damaged(path, _("the part %(part)s is damaged (its checksum differs)") % {"part": member})
                data = blob if member == DATA else data
        tables = json.loads(data).get("tables")
    except zipfile.BadZipFile:
        if not ours:
            raise not_a_backup(path) from None
        raise damaged(path, _("the file is damaged or incomplete (cut off while copying?)")) from None
    except zlib.error:  # a changed byte in a part's compressed bytes
        raise damaged(path, _("the file is damaged or incomplete (cut off while copying?)")) from None
    except (zipfile.LargeZipFile, OSError, EOFError) as exc:
        raise damaged(path, str(exc)) from None
    except (ValueError, AttributeError, RecursionError):
        raise damaged(path, _("its database rows cannot be read")) from None
    if not isinstance(tables, dict):
        raise damaged(path, _("its database rows cannot be read"))
    try:
        decode_tables(tables)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError):
        raise damaged(path, _("its database rows cannot be read")) from None
    archive = Archive(path=path, manifest=manifest, tables=tables)
    check_schema(archive)
    check_lexicon_hashes(archive)
    try:
        check_tables(tables, manifest["format_version"])
    except RowError as exc:
        raise damaged(path, exc.why) from None
    return archive


def check_schema(archive: Archive) -> None:
    """Refuses an archive of a database with migrations this one lacks (a newer program)."""
    local = applied_migrations()
    theirs = archive.manifest["migrations"]
    unknown = sorted(f"{app}.{name}" for app in APPS for name in set(_names(theirs.get(app))) - set(local.get(app, [])))
    if unknown:
        raise BackupError(_("The archive was written by a newer version of the program (its database has %(list)s, "
                            "this one does not): update this copy, migrate, then restore. Nothing was changed.")
                          % {"list": ", ".join(map(str, unknown))})


def _names(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def check_lexicon_hashes(archive: Archive) -> None:
    """Every lexicon's content hash (the manifest's and the rows') is 64 lowercase hexadecimal characters —
    empty only for a lexicon not ready and without a file — before anything names a file by it."""
    entries = archive.manifest.get("lexicons")
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise damaged(archive.path, _("its manifest cannot be read"))
    try:
        rows = archive.rows(Lexicon)
    except (KeyError, TypeError, ValueError):
        raise damaged(archive.path, _("its database rows cannot be read")) from None
    for item in [*entries, *rows]:
        value = item.get("content_hash")
        has_file = bool(item.get("member") or item.get("beside") or item.get("file_path")
                        or item.get("status") == Lexicon.Status.READY)
        if not (is_hash(value) or (value == "" and not has_file)):
            raise damaged(archive.path, _("it names a lexicon by an invalid content hash"))
    for entry in entries:
        member = entry.get("member")
        if member is not None and (member != f"{LEXICON_FOLDER}{entry.get('content_hash')}.kwg"
                                   or member not in archive.manifest["parts"]):
            raise damaged(archive.path, _("it names a lexicon file %(part)s that is not one of its lexicon files")
                          % {"part": member})


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
