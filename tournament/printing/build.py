"""Building a printed document as PDF, and its cache.

A built file is kept under ``MEDIA_ROOT/pdf/<tournament id>/`` and named after the kind, its
parameters and a **fingerprint of the data it shows** (:func:`tournament.services.fingerprints.fingerprint`).
The same request with unchanged data reuses the file; any change of what is shown gives a new name,
so a new build. Older files of the same kind and parameters are removed when a new one is written.

Access cards are never cached: a card shows a code only when it is issued, so every print of
cards issues new codes (:func:`tournament.services.players.new_access_codes`, saved once the file is
written); the file is written under ``MEDIA_ROOT/pdf/<tournament id>/private/`` with a random name,
readable by the owner only.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from django.conf import settings
from django.utils import translation

from ..services import fingerprints, players, reading
from ..services.reading import Subjects
from . import documents as d
from .layout import Document, Progress
from .spec import Spec, SpecError, resolve

if TYPE_CHECKING:
    from ..models import Registration, Tournament

Row = TypeVar("Row")

#: Access-card files are deleted after this many seconds.
CARDS_TTL = 3600

# -- files ---------------------------------------------------------------------------------------------------


def pdf_root() -> Path:
    return Path(settings.MEDIA_ROOT) / "pdf"


def _params_hash(spec: Spec) -> str:
    return hashlib.sha256(f"{spec.kind}\x1f{spec.params_key()}".encode()).hexdigest()[:12]


def cache_path(spec: Spec, fp: str) -> Path:
    return pdf_root() / str(spec.tournament_id) / f"{spec.kind}-{_params_hash(spec)}-{fp[:20]}.pdf"


def cached_file(spec: Spec, resolved: Subjects | None = None) -> Path | None:
    """The cached file for the data as it is now, or None (always None for cards)."""
    if spec.kind == "cards":
        return None
    path = cache_path(spec, fingerprint(spec, resolved))
    return path if path.is_file() else None


def download_name(spec: Spec, tournament: Tournament) -> str:
    bits = [tournament.slug, spec.kind]
    if spec.game:
        bits.append(f"g{spec.game}")
    if spec.round:
        bits.append(f"r{spec.round}")
    if spec.group_by:
        bits.append(spec.group_by)
    if spec.player:
        bits.append(f"p{spec.player}")
    if spec.several_players:
        bits.append(spec.group or "all")
    if spec.flagged_only:
        bits.append("flagged")
    return re.sub(r"[^A-Za-z0-9._-]+", "-", "-".join(bits)).strip("-") + ".pdf"


def _remove_stale(spec: Spec, keep: Path) -> None:
    prefix = f"{spec.kind}-{_params_hash(spec)}-"
    for other in keep.parent.glob(prefix + "*.pdf"):
        if other != keep:
            other.unlink(missing_ok=True)


def remove_old_cards(tournament_id: int, older_than: float = CARDS_TTL) -> None:
    folder = pdf_root() / str(tournament_id) / "private"
    if not folder.is_dir():
        return
    limit = time.time() - older_than
    for path in folder.glob("cards-*.pdf"):
        try:
            if path.stat().st_mtime < limit:
                path.unlink(missing_ok=True)
        except OSError:
            continue


@dataclass
class Built:
    path: Path
    filename: str
    cached: bool
    pages: int | None = None


def fingerprint(spec: Spec, resolved: Subjects | None = None) -> str:
    """A hash of the data the document of ``spec`` shows (:func:`tournament.services.fingerprints.fingerprint`)."""
    r = resolved or resolve(spec)
    return fingerprints.fingerprint(spec.kind, spec.params_key(), r.tournament, game=r.game, round=r.round,
                               registration=r.registration)


def document_for(spec: Spec, resolved: Subjects, *, base_url: str | None = None
                 ) -> tuple[Document, list[tuple[Registration, str]] | None]:
    """The :class:`~tournament.printing.layout.Document` of a spec, and for cards the (registration, new code)
    pairs it shows — not saved yet."""
    r = resolved
    if spec.kind == "standings":
        return d.standings_document(r.tournament, game=r.game, group_by=spec.group_by), None
    if spec.kind == "game-sheet":
        return d.game_sheet_document(_named(r.game, spec)), None
    if spec.several_players:
        return d.player_sheets_document(r.tournament, group_by=spec.group_by, group=spec.group), None
    if spec.kind == "player-sheet":
        return d.player_sheet_document(_named(r.registration, spec)), None
    if spec.kind == "arbitration":
        return d.arbitration_document(_named(r.round, spec), flagged_only=spec.flagged_only), None
    if spec.kind == "slips":
        return d.slips_document(r.tournament, game=spec.game, round_number=spec.round, copies=spec.copies), None
    if not base_url or "://" not in base_url:
        raise SpecError("access cards need the address the tablets open (an absolute URL such as "
                        "http://192.168.1.10:8000)")
    entries = players.new_access_codes(reading.card_registrations(r.tournament, spec.player))
    return d.access_cards_document(r.tournament, entries, base_url=base_url), entries


def _named(row: Row | None, spec: Spec) -> Row:
    """A row the document needs (the spec's checks make sure that it names one)."""
    if row is None:
        raise SpecError(f"the {spec.kind} needs a game, a round or a player that it does not name")
    return row


def _write(doc: Document, path: Path, progress: Progress, private: bool = False,
           before_publish: Callable[[], None] | None = None) -> None:
    """Builds into a temporary file beside ``path``; ``before_publish()`` runs once the PDF is complete,
    then the file takes its name (nothing is left behind on a failure)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600 if private else 0o644)
        with os.fdopen(fd, "wb") as fh:
            doc.build(fh, progress=progress)
        if before_publish is not None:
            before_publish()
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def build(spec: Spec, *, progress: Progress | None = None, actor: Any = None, base_url: str | None = None,
          log_out_tablets: bool = False, out: str | os.PathLike | None = None) -> Built:
    """Builds (or reuses) the document of ``spec`` in the tournament's language (or ``spec.language``).

    ``progress(fraction, message)`` is told how far it got. ``out``: also copy the file there
    (cards are written only there when given). Raises :class:`SpecError` on a bad request and
    :class:`tournament.printing.layout.FontError` when the font is missing.
    """
    resolved = resolve(spec)
    t = resolved.tournament
    name = download_name(spec, t)
    report = progress or (lambda fraction, message: None)
    with translation.override(spec.language or t.language):
        if spec.kind == "cards":
            remove_old_cards(t.pk)
            path = Path(out) if out else (pdf_root() / str(t.pk) / "private"
                                          / f"cards-{secrets.token_urlsafe(18)}.pdf")
            report(0.01, "codes")
            doc, entries = document_for(spec, resolved, base_url=base_url)
            # the new codes are saved only once their cards are printed: a failure changes nothing
            _write(doc, path, lambda f, m: report(0.05 + 0.95 * f, m), private=True,
                   before_publish=lambda: players.save_access_codes(actor, entries or [],
                                                                            log_out_tablets=log_out_tablets))
            return Built(path, name, False, doc.page_count)
        fp = fingerprint(spec, resolved)  # before reading the data: a later change gives another name
        path = cache_path(spec, fp)
        cached = path.is_file()
        pages = None
        if not cached:
            report(0.01, "data")
            doc, _entries = document_for(spec, resolved)
            report(0.1, "data")
            _write(doc, path, lambda f, m: report(0.1 + 0.9 * f, m))
            pages = doc.page_count
            _remove_stale(spec, path)
        report(1.0, "done")
    if out:
        shutil.copyfile(path, out)
    return Built(path, name, cached, pages)


__all__ = ["CARDS_TTL", "Built", "build", "cache_path", "cached_file", "document_for", "download_name",
           "fingerprint", "pdf_root", "remove_old_cards"]
