"""Compiled graph files: their content hash, and storing a built file under its content-addressed name."""

from __future__ import annotations

import hashlib
import os
import shutil
import time
import uuid
from pathlib import Path

from .graph import GraphError, WordGraph
from .models import LexiconError


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
    A file at that name that fails verification is moved aside, never overwritten.
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
                existing.close()
            except GraphError:
                same = False
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


__all__ = ["file_sha256", "publish_graph"]
