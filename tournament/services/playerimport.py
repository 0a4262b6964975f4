"""A CSV file of players imported in the background, in short transactions, with its progress.

The file is read and checked whole first (``console.forms.parse_players_csv``: every bad column and line
listed at once, nothing written). Up to :data:`BATCH` players are then registered in one transaction in the
request; a larger file becomes a job for the worker (``tournament.import_players``), which registers
:data:`BATCH` players per transaction: their codes drawn, hashed and sealed before it opens, so that each
transaction only inserts (a few milliseconds of the database's write lock), and another hall's slips never
wait behind a 30,000-line import. The job's rows and state are two files under ``VAR_DIR/imports`` (the
web processes and the worker share them; a state is replaced whole, never half-written), polled by the
import page as the lexicon build page polls its build.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypedDict

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from ..errors import Code, ServiceError
from ..models import Player, Registration, Tournament, secret_hash
from . import audit, jobs
from .players import access_code, seal_code

#: Players registered per transaction.
BATCH = 200
#: The largest file and the most players one import takes (said by the form).
MAX_BYTES = 4 * 1024 * 1024
MAX_ROWS = 50_000
IMPORT_PLAYERS = "tournament.import_players"


class Row(TypedDict):
    name: str
    club: str
    category: str
    series: str
    licence: str


class State(TypedDict):
    tournament: str
    status: str  # queued, running, done, failed
    total: int
    done: int
    error: str


def _folder() -> Path:
    folder = Path(settings.VAR_DIR) / "imports"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _path(job: str, kind: str) -> Path | None:
    """The job's file (None for an id that is not one of ours: 32 hexadecimal characters)."""
    if not (len(job) == 32 and all(c in "0123456789abcdef" for c in job)):
        return None
    return _folder() / f"{job}.{kind}.json"


def _write(path: Path, data: Any) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)


def state(job: str, tournament: Tournament) -> State | None:
    """The job's state, if it is an import of ``tournament``; None otherwise."""
    path = _path(job, "state")
    try:
        found: State | None = json.loads(path.read_text(encoding="utf-8")) if path else None
    except (OSError, ValueError):
        return None
    return found if found and found.get("tournament") == tournament.slug else None


def register_batch(actor: audit.Actor, tournament: Tournament, rows: Sequence[Row]) -> int:
    """Registers ``rows`` at the tables after the last one, in one short transaction; returns how many.
    ServiceError (and nothing of the batch stored) when a table was taken meanwhile."""
    codes = [access_code() for _ in rows]
    sealed = [(secret_hash(c), c[:2] + "…", seal_code(c)) for c in codes]  # the slow part, before the lock
    try:
        return _insert(actor, tournament, rows, sealed)
    except IntegrityError:  # a table taken by a player registered meanwhile: this batch is not stored
        raise ServiceError(Code.TABLE_TAKEN, gettext("A table was taken while the players were imported: "
                                                     "import the remaining lines again.")) from None


def _insert(actor: audit.Actor, tournament: Tournament, rows: Sequence[Row],
            sealed: list[tuple[str, str, str]]) -> int:
    with transaction.atomic():
        last = tournament.registrations.order_by("-table_number").values_list("table_number", flat=True).first()
        first = (last or 0) + 1
        players = Player.objects.bulk_create([Player(**row) for row in rows])
        Registration.objects.bulk_create([
            Registration(tournament=tournament, player=p, table_number=first + i, access_code_hash=h,
                         access_code_hint=hint, access_code_sealed=seal)
            for i, (p, (h, hint, seal)) in enumerate(zip(players, sealed, strict=True))])
        audit.record(actor, "player.import", tournament, tournament=tournament,
                     after={"tables": [first, first + len(rows) - 1], "names": [r["name"] for r in rows]})
    return len(rows)


def start(actor: Any, tournament: Tournament, rows: Sequence[Row]) -> str:
    """The job of importing ``rows`` (already checked), queued for the worker; its id."""
    job = uuid.uuid4().hex
    rows_path, state_path = _path(job, "rows"), _path(job, "state")
    assert rows_path is not None and state_path is not None  # a uuid's hex is an id of ours
    _write(rows_path, {"actor": getattr(actor, "pk", None), "rows": list(rows)})
    _write(state_path, State(tournament=tournament.slug, status="queued", total=len(rows), done=0,
                                      error=""))
    jobs.send(IMPORT_PLAYERS, job)
    return job


def run(job: str) -> State | None:
    """The worker's part: the rows registered :data:`BATCH` at a time, the state written after each batch."""
    from django.contrib.auth import get_user_model  # noqa: PLC0415 (the user model, once Django is set up)

    rows_path, state_path = _path(job, "rows"), _path(job, "state")
    if rows_path is None or state_path is None or not state_path.exists():
        return None  # not a job of ours, or one whose files were removed
    current: State = json.loads(state_path.read_text(encoding="utf-8"))
    if current["status"] in ("done", "failed") or not rows_path.exists():
        return current  # a job run again (acks_late): nothing twice
    data = json.loads(rows_path.read_text(encoding="utf-8"))
    tournament = Tournament.objects.get(slug=current["tournament"])
    actor = get_user_model().objects.filter(pk=data["actor"]).first()
    rows: list[Row] = data["rows"]
    current["status"] = "running"
    try:
        for at in range(current["done"], len(rows), BATCH):
            current["done"] += register_batch(actor, tournament, rows[at:at + BATCH])
            _write(state_path, current)
    except ServiceError as exc:
        current["status"], current["error"] = "failed", exc.message
    else:
        current["status"] = "done"
    _write(state_path, current)
    rows_path.unlink(missing_ok=True)
    return current


__all__ = ["BATCH", "IMPORT_PLAYERS", "MAX_BYTES", "MAX_ROWS", "Row", "State", "register_batch", "run", "start",
           "state"]
