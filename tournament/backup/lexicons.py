"""The lexicon files of an archive: inside it, or kept once beside it.

An archive either holds each lexicon file (``lexicons/<content hash>.kwg``, stored as it is: a compiled graph
is not compressed again each time) or names it by its content hash only, the file being kept once in the
archive's folder as ``lexicon-<content hash>.kwg`` — the automatic backups do so: twenty archives of a
tournament share one copy of its lexicon. The name is the graph's content hash (the SHA-256 of its words, which
its header holds and a full check recomputes), so ``lexicon upgrade`` rewriting a file in a newer format keeps
the copy beside the archives valid.

A restore takes a lexicon from this machine when it holds the same words, else from the archive, else from
``lexicon-<hash>.kwg`` in the archive's folder or in ``BACKUP_DIR`` — never from a path an archive names: a
hash read from an archive is 64 lowercase hexadecimal characters or the archive is refused, and a file is
used only once its words are checked against that hash.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict

from django.conf import settings
from django.utils.translation import gettext as _

from lexicon.graph import GraphError, WordGraph
from lexicon.models import Lexicon, lexicon_dir

from .errors import BackupError

CHUNK = 1 << 20
HASH = re.compile(r"[0-9a-f]{64}")
PREFIX = "lexicon-"
SUFFIX = ".kwg"


class LexiconEntry(TypedDict):
    name: str
    version: int
    ruleset: str
    content_hash: str
    member: str | None  # the archive's file, or None when the file is not inside
    sha256: str  # of the member ("" when there is none)
    size: int  # of the file
    beside: bool  # the file is kept as lexicon-<content hash>.kwg in the archive's folder


def is_hash(value: object) -> bool:
    return isinstance(value, str) and HASH.fullmatch(value) is not None


def beside_name(content_hash: str) -> str:
    """``lexicon-<content hash>.kwg``: the name of a lexicon file kept beside the archives."""
    if not is_hash(content_hash):
        raise ValueError(f"not a content hash: {content_hash!r}")
    return f"{PREFIX}{content_hash}{SUFFIX}"


def _sync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def inside_lexicon_dir(lex: Lexicon) -> Path | None:
    """The lexicon's file when it is a file inside ``LEXICON_DIR`` (links resolved); None otherwise — a backup
    never reads a file a row names elsewhere (an absolute path, ``..``), whatever put that row here."""
    if not lex.file_path:
        return None
    folder = lexicon_dir().resolve()
    path = lex.absolute_path.resolve()
    return path if path.is_relative_to(folder) and path.is_file() else None


def keep_beside(lex: Lexicon, folder: Path) -> bool:
    """Makes sure ``folder`` holds the lexicon's file as ``lexicon-<hash>.kwg`` (copied once: written under a
    temporary name, checked, synced, renamed); False when this machine has no file for it."""
    source = inside_lexicon_dir(lex)
    if source is None or not is_hash(lex.content_hash):
        return False
    dest = folder / beside_name(lex.content_hash)
    if dest.is_file():
        return True
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".partial-{dest.name}"
    try:
        with source.open("rb") as src, tmp.open("wb") as out:
            shutil.copyfileobj(src, out, CHUNK)
            out.flush()
            os.fsync(out.fileno())
        found = _graph_hash(tmp)
        if found != lex.content_hash:
            raise OSError(f"the copy of {source} in {folder} holds other words ({found or 'unreadable'})")
        os.replace(tmp, dest)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _sync_dir(folder)
    return True


def _graph_hash(path: Path) -> str | None:
    """The content hash of the graph in ``path`` recomputed in full (None: not a usable graph)."""
    try:
        graph = WordGraph.load(path, verify=True)
    except GraphError:
        return None
    try:
        return graph.content_hash
    finally:
        graph.close()


# -- restoring ------------------------------------------------------------------------------------------------


@dataclass
class LexiconPlan:
    entry: LexiconEntry
    row: dict[str, Any]
    local: Lexicon | None  # the same words already here, with their file
    beside: list[Path]  # the files lexicon-<hash>.kwg found beside the archive or in BACKUP_DIR


def places(archive_path: Path) -> list[Path]:
    """Where a restore looks for a lexicon file kept beside the archive: the archive's folder, BACKUP_DIR."""
    found: list[Path] = []
    for folder in (archive_path.resolve().parent, Path(settings.BACKUP_DIR).resolve()):
        if folder not in found:
            found.append(folder)
    return found


def plan_lexicons(entries: list[LexiconEntry], rows: list[dict[str, Any]], archive_path: Path) -> list[LexiconPlan]:
    """Where each lexicon of the archive comes from; :class:`BackupError` naming the file to copy when one is
    neither here, nor in the archive, nor beside it."""
    by_hash = {e["content_hash"]: e for e in entries}
    plans = []
    for row in rows:
        entry = by_hash.get(row["content_hash"])
        if entry is None:
            raise BackupError(_("The archive's manifest does not list the lexicon %(name)s. Nothing was changed.")
                              % {"name": row["name"]})
        local = next((lx for lx in Lexicon.objects.filter(content_hash=row["content_hash"], status=row["status"])
                      .order_by("pk") if lx.file_path and lx.absolute_path.is_file()), None)
        beside: list[Path] = []
        if local is None and not entry["member"] and is_hash(row["content_hash"]):
            beside = [p for p in (f / beside_name(row["content_hash"]) for f in places(archive_path)) if p.is_file()]
        if local is None and not entry["member"] and not beside and row["status"] == Lexicon.Status.READY:
            raise BackupError(missing_message(row, archive_path))
        plans.append(LexiconPlan(entry=entry, row=row, local=local, beside=beside))
    return plans


def missing_message(row: dict[str, Any], archive_path: Path) -> str:
    """The refusal naming the file to copy (a ready lexicon's hash is a hash: :func:`archive.read_archive`)."""
    return (_("The lexicon %(name)s v%(version)s is neither in the archive nor on this machine, and %(file)s is "
              "neither beside the archive (in %(folder)s) nor in the backup folder: copy that file from the backup "
              "folder the archive comes from into %(folder)s, then restore again. Nothing was changed.")
            % {"name": row["name"], "version": row["version"], "file": beside_name(row["content_hash"]),
               "folder": archive_path.resolve().parent})


def install_beside(plan: LexiconPlan, dest: Path) -> None:
    """Copies the first of the plan's files beside the archive whose words are the lexicon's into ``dest``
    (written under a temporary name and checked before it takes its name); BackupError when none is."""
    tmp = dest.with_name(dest.name + ".partial")
    for source in plan.beside:
        try:
            with source.open("rb") as src, tmp.open("wb") as out:
                shutil.copyfileobj(src, out, CHUNK)
                out.flush()
                os.fsync(out.fileno())
        except OSError:
            tmp.unlink(missing_ok=True)
            continue
        if _graph_hash(tmp) == plan.row["content_hash"]:
            os.replace(tmp, dest)
            return
        tmp.unlink(missing_ok=True)
    raise BackupError(_("The lexicon file %(file)s beside the archive is damaged or holds other words than the "
                        "archive's lexicon %(name)s. Nothing was changed.")
                      % {"file": ", ".join(str(p) for p in plan.beside), "name": plan.row["name"]})


def copy_lexicon_files(extract: Callable[[LexiconEntry, Path], None], plans: list[LexiconPlan]) -> list[Path]:
    """Copies the lexicon files this machine lacks into ``LEXICON_DIR/graphs`` — from the archive (its SHA-256
    and the graph's own content hash checked; ``extract`` copies a member out) or from beside it (the content
    hash checked); returns the files it added."""
    added: list[Path] = []
    try:
        for plan in plans:
            if plan.local is not None or not (plan.entry["member"] or plan.beside):
                continue
            dest = lexicon_dir() / "graphs" / f"{plan.row['content_hash']}.kwg"
            if dest.is_file() and _graph_hash(dest) == plan.row["content_hash"]:
                continue
            dest.parent.mkdir(parents=True, exist_ok=True)
            if not plan.entry["member"]:
                install_beside(plan, dest)
                added.append(dest)
                continue
            tmp = dest.with_name(dest.name + ".partial")
            extract(plan.entry, tmp)
            try:
                found = WordGraph.load(tmp, verify=True).content_hash
            except GraphError as exc:
                tmp.unlink(missing_ok=True)
                raise BackupError(_("The lexicon file of %(name)s in the archive cannot be used: %(why)s. "
                                    "Nothing was changed.") % {"name": plan.row["name"], "why": exc}) from None
            if found != plan.row["content_hash"]:
                tmp.unlink(missing_ok=True)
                raise BackupError(_("The lexicon file of %(name)s in the archive holds other words than its "
                                    "row says. Nothing was changed.") % {"name": plan.row["name"]})
            os.replace(tmp, dest)
            added.append(dest)
    except BaseException:
        for path in added:
            path.unlink(missing_ok=True)
        raise
    return added
