"""Compiled graph files: their content hash, and storing a built file under its content-addressed name."""

from __future__ import annotations

import hashlib
import os
import shutil
import time
import uuid
from pathlib import Path

from .graph import MAGIC, GraphError, WordGraph, upgrade
from .models import Lexicon, LexiconError, lexicon_dir


def file_sha256(path: Path) -> str:
    """SHA-256 of a file, read in 1 MB chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def publish_graph(tmp: Path, final: Path, content_hash: str) -> bool:
    """Puts the built file at its content-addressed name without overwriting anything.

    Returns True if this call created the file, False if an identical one was there.
    A file at that name that fails verification is moved aside, never overwritten; one of the same
    content in an older format is replaced (the same words, now with the solver's whole anagram section).
    """
    final.parent.mkdir(parents=True, exist_ok=True)
    for _attempt in range(2):
        try:
            os.link(tmp, final)
            return True
        except FileExistsError:
            try:
                existing = WordGraph.load(final, verify=True)
                same = existing.content_hash == content_hash
                current = existing.in_current_format
                existing.close()
            except GraphError:
                same = current = False
            if same and not current:
                # the same words in an older format: the new file (its anagram section whole) replaces it;
                # processes that mapped the old one keep reading it
                os.replace(tmp, final)
                return True
            if same:
                return False
            aside = final.with_name(f"{final.name}.corrupt-{int(time.time())}-{uuid.uuid4().hex[:6]}")
            os.rename(final, aside)
        except OSError:
            # no hard links on this file system: exclusive create + copy
            try:
                with open(tmp, "rb") as src, open(final, "xb") as dst:
                    shutil.copyfileobj(src, dst)
                    dst.flush()
                    os.fsync(dst.fileno())
                return True
            except FileExistsError:
                continue
    raise LexiconError(f"cannot store the compiled lexicon at {final}")


def format_version(path: Path) -> int | None:
    """The format version in a compiled file's header (None: not a compiled word graph)."""
    with open(path, "rb") as f:
        head = f.read(12)
    if len(head) < 12 or head[:8] != MAGIC:
        return None
    return int.from_bytes(head[8:12], "little")


def upgrade_files() -> list[tuple[Path, str]]:
    """Rewrites every compiled file of the lexicons (and of the word-list cache) still in an older
    format in the current one (format 1, or an anagram section of an earlier version, without table five): the same
    words and content hash, so the records stay as they are; the file grows by its anagram section (or
    that section by the tables it lacked) and the solver no longer builds anything when it opens it.
    Returns (path, what happened) per file: "upgraded", "current", or the reason it was left alone."""
    base = lexicon_dir()
    paths = {
        row.absolute_path for row in Lexicon.objects.filter(status=Lexicon.Status.READY).exclude(file_path="")
    }
    paths.update((base / "cache").glob("*.kwg"))
    out: list[tuple[Path, str]] = []
    for path in sorted(paths):
        try:
            if not upgrade(path):  # current already (checked without reading the file through)
                out.append((path, "current"))
                continue
        except (OSError, GraphError) as exc:
            out.append((path, f"left as it is: {exc}"))
            continue
        if path.is_relative_to(base):
            Lexicon.objects.filter(file_path=str(path.relative_to(base))).update(
                file_size=path.stat().st_size
            )
        out.append((path, "upgraded"))
    return out


__all__ = ["file_sha256", "format_version", "publish_graph", "upgrade_files"]
