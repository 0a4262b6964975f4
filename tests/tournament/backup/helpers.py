"""What the backup tests compare, and another machine made of this database."""

from __future__ import annotations

import dataclasses
import io
import json
import zipfile
from hashlib import sha256
from pathlib import Path

from django.contrib.auth import get_user_model

from lexicon.models import Lexicon
from tournament import services
from tournament.backup.archive import DATA, MANIFEST
from tournament.backup.restore import delete_tournament
from tournament.models import AuditLog, CodeKey, Slip, Tournament, TrainingGame, Verdict, forget_code_keys


def content(qs) -> list[tuple]:
    """Every column of the rows but the keys, with the table and round numbers, sorted."""
    found = []
    for obj in qs.select_related("registration", "round"):
        values = {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields
                  if not f.primary_key and not f.is_relation}
        found.append((obj.registration.table_number, obj.round.number, json.dumps(values, default=str,
                                                                                   sort_keys=True)))
    return sorted(found)


def snapshot(slug: str) -> dict[str, object]:
    """What must come back: standings, each player's results, slips, verdicts, the audit log."""
    t = Tournament.objects.get(slug=slug)

    def line(obj: object) -> dict[str, object]:
        return {k: v for k, v in vars(obj).items() if k != "player"}

    regs = list(t.registrations.select_related("player").order_by("table_number"))
    return {
        "standings": [(s.table, s.player.name, line(s.line)) for s in services.standings.tournament_standings(t)],
        "players": {r.player.name: [dataclasses.asdict(g) if dataclasses.is_dataclass(g) else repr(g)
                                    for g in services.standings.player_game_lines(r)] for r in regs},
        "slips": content(Slip.objects.filter(round__game__tournament=t)),
        "verdicts": content(Verdict.objects.filter(round__game__tournament=t)),
        "audit": [(a.action, a.object_type, a.before, a.after, a.at.isoformat(), a.actor.username if a.actor else None)
                  for a in AuditLog.objects.filter(tournament=t).exclude(action="tournament.restore")
                  .select_related("actor").order_by("at", "id")],
        "rounds": [(g.number, r.number, r.status, r.rack, r.chosen_move, r.chosen_score)
                   for g in t.games.order_by("number") for r in g.rounds.order_by("number")],
    }


def other_machine(settings, tmp_path: Path) -> None:
    """This database as a fresh machine would have it: no tournament, no training, no lexicon, no user, its own
    code key."""
    for t in Tournament.objects.all():
        delete_tournament(t)
    TrainingGame.objects.all().delete()
    Lexicon.objects.all().delete()
    get_user_model().objects.all().delete()
    CodeKey.objects.all().delete()
    CodeKey.objects.create(key="ab" * 32)
    forget_code_keys()
    settings.LEXICON_DIR = tmp_path / "other-lexicons"


def forged(path: Path, out: Path, change_manifest, change_data=None) -> Path:
    """The archive with its manifest (and rows) changed, the manifest's checksums kept consistent: a forgery
    rather than damage."""
    with zipfile.ZipFile(path) as src:
        parts = {name: src.read(name) for name in src.namelist()}
    manifest = json.loads(parts[MANIFEST])
    if change_data is not None:
        data = json.loads(parts[DATA])
        change_data(data)
        parts[DATA] = json.dumps(data).encode()
        manifest["parts"][DATA] = sha256(parts[DATA]).hexdigest()
    change_manifest(manifest)
    parts[MANIFEST] = json.dumps(manifest).encode()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as dst:
        for name, blob in parts.items():
            dst.writestr(name, blob)
    out.write_bytes(buf.getvalue())
    return out


def set_column(label: str, column: str, value):
    """A ``change_data`` for :func:`forged`: every row of the table gets ``value`` in ``column`` (added at the end
    when the table has no such column)."""
    def change(data: dict) -> None:
        table = data["tables"][label]
        cols = table["columns"]
        if column not in cols:
            cols.append(column)
            for row in table["rows"]:
                row.append(None)
        at = cols.index(column)
        for row in table["rows"]:
            row[at] = value
    return change
