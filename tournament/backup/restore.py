"""Putting an archive's rows into this database: the tournaments of the archive come up as they were.

Everything is checked before anything is written (the archive's parts, its schema against this one, the
tournaments already here, the lexicons); then the lexicon files are copied (checked against their content
hash) and the rows inserted in one transaction, parents first, every foreign key mapped:

* users by user name: an arbiter who exists here keeps his password and rights here; one who doesn't comes
  without a password (none is in an archive: the command says how to set one) and without rights;
* lexicons by content hash (a lexicon already here with the same words is used as it is); a lexicon's file
  is ``graphs/<content hash>.kwg`` when a file comes with it, none otherwise (never a path of the archive);
* the code keys are added, so every access code and tablet token of the archive works here;
* every other row is inserted; its primary key is kept when this database has no row in the archive's
  range of keys (always on a fresh machine: links and the tablets' round numbers stay valid), new otherwise.

A tournament already in the database is refused unless ``replace``: its rows are then deleted first, in the
same transaction. The restored tournaments' screen versions jump ahead so every tablet and display takes
the restored state as news; the restore itself is written in the audit log.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Max, Min, Model
from django.utils.translation import gettext as _

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
    TrainingClub,
    TrainingGame,
    TrainingRun,
    Verdict,
    forget_code_keys,
)
from ..services import audit
from . import training
from .archive import Archive, BackupError, check_schema, table_order
from .checks import NOT_TAKEN
from .lexicons import LexiconPlan, copy_lexicon_files, plan_lexicons

#: How far a restored tournament's screen version jumps: past anything a tablet saw before the fault.
VERSION_JUMP = 1_000_000
BATCH = 500


@dataclass
class RestoreReport:
    """What a restore did, for the command's output and the tests."""

    tournaments: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    lexicons_copied: list[str] = field(default_factory=list)
    lexicons_reused: list[str] = field(default_factory=list)
    users_created: list[str] = field(default_factory=list)
    users_matched: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    training_kept: int = 0  # training runs of the archive already here (kept as they are)
    seconds: float = 0.0


# -- checks before anything is written ------------------------------------------------------------------------


def tournaments_here(archive: Archive) -> list[Tournament]:
    slugs = [row["slug"] for row in archive.rows(Tournament)]
    return list(Tournament.objects.filter(slug__in=slugs).order_by("slug"))


# -- writing --------------------------------------------------------------------------------------------------


@contextlib.contextmanager
def archived_timestamps() -> Iterator[None]:
    """Inserts keep the archive's creation times (``auto_now``/``auto_now_add`` off meanwhile)."""
    saved = []
    for model in table_order():
        for f in model._meta.concrete_fields:
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
                saved.append((f, f.auto_now, f.auto_now_add))  # type: ignore[attr-defined]
                f.auto_now = f.auto_now_add = False  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for f, now, now_add in saved:
            f.auto_now, f.auto_now_add = now, now_add  # type: ignore[attr-defined]


class Mapper:
    """Old primary key → new one, table by table; builds model instances with their foreign keys mapped."""

    def __init__(self) -> None:
        self.keys: dict[str, dict[Any, Any]] = {}
        self.explicit: list[type[Model]] = []

    def fields(self, model: type[Model], row: dict[str, Any]) -> dict[str, Any]:
        values: dict[str, Any] = {}
        not_taken = NOT_TAKEN.get(model._meta.label, ())
        for f in model._meta.concrete_fields:
            if f.attname not in row or f.primary_key or f.attname in not_taken:
                continue
            value = row[f.attname]
            if f.is_relation and value is not None:
                assert f.related_model is not None and not isinstance(f.related_model, str)
                target = self.keys.get(f.related_model._meta.label, {})
                if value in target:
                    value = target[value]
                elif f.null:
                    value = None
                else:
                    raise BackupError(_("The archive's %(table)s rows point to a missing %(target)s row. "
                                        "Nothing was changed.") % {"table": model._meta.verbose_name_plural,
                                                                   "target": f.related_model._meta.verbose_name})
            elif value is not None and f.get_internal_type() != "JSONField":
                value = f.to_python(value)
            values[f.attname] = value
        return values

    def insert(self, model: type[Model], rows: list[dict[str, Any]]) -> int:
        """Inserts the rows, keeping their keys when none of this database's rows is in their range."""
        label = model._meta.label
        mapping = self.keys.setdefault(label, {})
        if not rows:
            return 0
        pk = model._meta.pk
        assert pk is not None
        old = [row[pk.attname] for row in rows]
        span = model._default_manager.aggregate(lo=Min("pk"), hi=Max("pk"))
        keep = span["lo"] is None or not model._default_manager.filter(pk__gte=min(old), pk__lte=max(old)).exists()
        objs = []
        for row in rows:
            values = self.fields(model, row)
            if keep:
                values[pk.attname] = row[pk.attname]
            objs.append(model(**values))
        for start in range(0, len(objs), BATCH):
            model._default_manager.bulk_create(objs[start:start + BATCH])
        for key, obj in zip(old, objs, strict=True):
            if obj.pk is None:  # pragma: no cover — every supported database returns the new keys
                raise BackupError(_("This database did not return the new rows' keys. Nothing was changed."))
            mapping[key] = obj.pk
        if keep:
            self.explicit.append(model)
        return len(objs)


def delete_tournament(t: Tournament) -> None:
    """Deletes a tournament with every row of it (the players registered nowhere else too)."""
    AuditLog.objects.filter(tournament=t).delete()
    Verdict.objects.filter(round__game__tournament=t).delete()
    Solo.objects.filter(round__game__tournament=t).delete()
    Penalty.objects.filter(game__tournament=t).delete()
    Slip.objects.filter(round__game__tournament=t).delete()
    Round.objects.filter(game__tournament=t).delete()
    Game.objects.filter(tournament=t).delete()
    players = list(t.registrations.values_list("player_id", flat=True))
    Registration.objects.filter(tournament=t).delete()
    Player.objects.filter(pk__in=players, registrations__isnull=True).delete()
    t.arbiters.clear()
    t.delete()


def _users(archive: Archive, mapper: Mapper, report: RestoreReport) -> None:
    User = get_user_model()
    mapping = mapper.keys.setdefault(User._meta.label, {})
    new_rows = []
    for row in archive.rows(User):
        here = User.objects.filter(username=row["username"]).first()
        if here is not None:
            mapping[row["id"]] = here.pk
            report.users_matched.append(row["username"])
        else:
            new_rows.append(row)
    mapper.insert(User, new_rows)
    for user in User.objects.filter(pk__in=[mapping[row["id"]] for row in new_rows]):
        user.set_unusable_password()  # (an archive holds no password hash)
        user.save(update_fields=["password"])
    report.users_created.extend(row["username"] for row in new_rows)


def _code_keys(archive: Archive) -> int:
    known = set(CodeKey.objects.values_list("key", flat=True))
    added = 0
    for row in archive.rows(CodeKey):
        if row["key"] not in known:
            CodeKey.objects.create(key=row["key"], created_at=CodeKey._meta.get_field("created_at").to_python(
                row["created_at"]))
            added += 1
    return added


def _lexicons(archive: Archive, plans: list[LexiconPlan], mapper: Mapper, report: RestoreReport) -> None:
    mapping = mapper.keys.setdefault(Lexicon._meta.label, {})
    for plan in plans:
        row = plan.row
        if plan.local is not None:
            mapping[row["id"]] = plan.local.pk
            report.lexicons_reused.append(plan.local.label)
            continue
        values = mapper.fields(Lexicon, row)
        taken = Lexicon.objects.filter(name=row["name"]).aggregate(v=Max("version"))["v"]
        if Lexicon.objects.filter(name=row["name"], version=row["version"]).exists():
            values["version"] = (taken or 0) + 1
        if plan.entry["member"] or plan.beside:
            values["file_path"] = f"graphs/{row['content_hash']}.kwg"
        lex = Lexicon.objects.create(**values)
        mapping[row["id"]] = lex.pk
        report.lexicons_copied.append(lex.label)


def _training(archive: Archive, mapper: Mapper, report: RestoreReport) -> None:
    """The archive's training games, club sessions and runs, those already here kept as they are."""
    games, clubs, runs = (archive.rows(m) for m in (TrainingGame, TrainingClub, TrainingRun))
    found = training.match(games, clubs, runs)
    mapper.keys.setdefault(TrainingGame._meta.label, {}).update({k: g.pk for k, g in found.games.items()})
    mapper.keys.setdefault(TrainingClub._meta.label, {}).update(found.clubs)
    for model, rows, here in ((TrainingGame, games, found.games), (TrainingClub, clubs, found.clubs),
                              (TrainingRun, runs, found.runs)):
        report.counts[model._meta.label] = mapper.insert(model, [r for r in rows if r["id"] not in here])
    training.relink(found, games, mapper.keys[Game._meta.label])
    report.training_kept = len(found.runs)


def restore_archive(archive: Archive, *, replace: bool = False, actor: audit.Actor = None) -> RestoreReport:
    """Restores the archive's tournaments into this database (see the module's documentation)."""
    started = time.monotonic()
    report = RestoreReport()
    check_schema(archive)
    here = tournaments_here(archive)
    if here and not replace:
        raise BackupError(_("This database already holds %(list)s. To put the archive's copy in its place (the "
                            "current rows are deleted), restore again with --replace. Nothing was changed.")
                          % {"list": ", ".join(t.slug for t in here)})
    plans = plan_lexicons(archive.manifest["lexicons"], archive.rows(Lexicon), archive.path)
    copied = copy_lexicon_files(archive.extract_lexicon, plans)
    mapper = Mapper()
    try:
        with transaction.atomic():
            seen = max((t.screen_version for t in here), default=0)  # a replaced copy's screens saw this
            with archived_timestamps():
                for t in here:
                    delete_tournament(t)
                    report.replaced.append(t.slug)
                _users(archive, mapper, report)
                report.counts["code keys"] = _code_keys(archive)
                _lexicons(archive, plans, mapper, report)
                for model in (Tournament, Tournament.arbiters.through, Player, Registration, Game, HallGame, Round,
                              Slip, Verdict, Penalty, Solo, AuditLog):
                    report.counts[model._meta.label] = mapper.insert(model, archive.rows(model))
                _training(archive, mapper, report)
                if connection.vendor == "postgresql" and mapper.explicit:
                    with connection.cursor() as cur:
                        for sql in connection.ops.sequence_reset_sql(no_style(), mapper.explicit):
                            cur.execute(sql)
            restored = Tournament.objects.filter(pk__in=mapper.keys[Tournament._meta.label].values())
            restored.update(screen_version=F("screen_version") + seen + VERSION_JUMP)
            m = archive.manifest
            for t in restored.order_by("slug"):
                report.tournaments.append(t.slug)
                audit.record(actor, "tournament.restore", t, tournament=t, after={
                    "archive": archive.path.name, "written_at": m["created_at"], "host": m["host"],
                    "program": m["program"], "replaced": t.slug in report.replaced})
    except IntegrityError as exc:
        for path in copied:
            path.unlink(missing_ok=True)
        raise BackupError(_("The archive's rows conflict with this database (%(why)s). Nothing was changed.")
                          % {"why": str(exc).splitlines()[0]}) from None
    except BaseException:
        for path in copied:
            path.unlink(missing_ok=True)
        raise
    forget_code_keys()  # (a running web process reads the keys again within CODE_KEYS_TTL seconds)
    for key in ("LANGUAGE_CODE", "TIME_ZONE"):
        theirs = archive.manifest["settings"].get(key)
        if theirs and theirs != getattr(settings, key):
            report.notes.append(_("The archive's machine had %(key)s=%(theirs)s, this one has %(ours)s.")
                                % {"key": key, "theirs": theirs, "ours": getattr(settings, key)})
    report.seconds = time.monotonic() - started
    return report
