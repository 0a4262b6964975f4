"""The database rows of an archive: which rows (a tournament's or the whole hall's), read from one snapshot,
written as JSON table by table.

A table is ``{"columns": [...], "rows": [[...]]}``: the columns' database names (a foreign key is its ``*_id``
column), a row's values in that order — a JSON field as its JSON value, a date-time as ISO 8601 with its UTC
offset, a boolean as ``true``/``false``. On SQLite (the embedded default) SQLite writes each table's JSON itself
(``json_group_array``): no Python object per row or per value, which is most of an automatic backup's CPU in a
big hall; elsewhere the ORM reads the rows and Python writes them. Both give the same rows (a restore reads
either with each field's ``to_python``).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import uuid
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, transaction
from django.db.models import Count, Field, Model, Q, QuerySet, Sum
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
    TrainingClub,
    TrainingGame,
    TrainingRun,
    Verdict,
)


def table_order() -> list[type[Model]]:
    """The tables of an archive, parents before children (the order a restore inserts them)."""
    return [get_user_model(), Token, CodeKey, Lexicon, Tournament, Tournament.arbiters.through, Player,
            Registration, Game, HallGame, Round, Slip, Verdict, Penalty, Solo, AuditLog, TrainingGame, TrainingClub,
            TrainingRun]


def columns(model: type[Model]) -> list[str]:
    return [f.attname for f in model._meta.concrete_fields]


def training_state(games: QuerySet[TrainingGame]) -> str:
    """Moves whenever a training run or a club session of these games starts or finishes a round (training
    writes no audit row)."""
    runs = TrainingRun.objects.filter(game__in=games).aggregate(
        n=Count("pk"), rounds=Sum("round"), playing=Count("pk", filter=Q(started_at__isnull=False)))
    clubs = TrainingClub.objects.filter(game__in=games).aggregate(n=Count("pk"), rounds=Sum("round"))
    return f"{runs['n']}.{runs['rounds'] or 0}.{runs['playing']}.{clubs['n']}.{clubs['rounds'] or 0}"


def fingerprint(tournament: Tournament) -> str:
    """Changes whenever something of the tournament changes (the screen version and the latest audit row:
    every slip and every change writes one; its training sessions), so an automatic backup of an unchanged
    tournament is skipped."""
    last = AuditLog.objects.filter(tournament=tournament).order_by("-id").values_list("id", flat=True).first()
    version = Tournament.objects.filter(pk=tournament.pk).values_list("screen_version", flat=True).first()
    training = training_state(TrainingGame.objects.filter(source_game__tournament=tournament))
    return f"{version}:{last or 0}:{training}"


def _users_of(ids: list[int], audit: QuerySet[AuditLog], lexicons: QuerySet[Lexicon]) -> set[int]:
    """The users a tournament's rows point to (its arbiters, who entered a slip, overrode a verdict…)."""
    found: set[int] = set()
    for qs in (Tournament.arbiters.through.objects.filter(tournament_id__in=ids).values_list("user_id", flat=True),
               Slip.objects.filter(round__game__tournament_id__in=ids, entered_by__isnull=False)
               .values_list("entered_by_id", flat=True),
               Verdict.objects.filter(round__game__tournament_id__in=ids, overridden_by__isnull=False)
               .values_list("overridden_by_id", flat=True),
               Penalty.objects.filter(game__tournament_id__in=ids, created_by__isnull=False)
               .values_list("created_by_id", flat=True),
               audit.filter(actor__isnull=False).values_list("actor_id", flat=True),
               lexicons.filter(created_by__isnull=False).values_list("created_by_id", flat=True)):
        found.update(qs.order_by().distinct())
    return found


def selection(tournaments: list[Tournament] | None) -> dict[type[Model], QuerySet[Any]]:
    """The rows of the tournaments (None: the whole hall), table by table. A tournament's training games (and
    their runs and club sessions) are those of its games; the whole hall's also hold the imported records'."""
    User = get_user_model()
    if tournaments is None:
        ts = Tournament.objects.all()
        audit = AuditLog.objects.all()
        users = User.objects.all()
        training = TrainingGame.objects.all()
        lexicons = Lexicon.objects.filter(Q(status=Lexicon.Status.READY) | Q(tournaments__isnull=False)
                                          | Q(pk__in=training.values("lexicon_id"))).distinct()
    else:
        ids = [t.pk for t in tournaments]
        ts = Tournament.objects.filter(pk__in=ids)
        audit = AuditLog.objects.filter(tournament_id__in=ids)
        training = TrainingGame.objects.filter(source_game__tournament_id__in=ids)
        lexicons = Lexicon.objects.filter(Q(pk__in=ts.values("lexicon_id")) | Q(pk__in=training.values("lexicon_id")))
        users = User.objects.filter(pk__in=_users_of(ids, audit, lexicons))
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
        TrainingGame: training,
        TrainingClub: TrainingClub.objects.filter(game__in=training),
        TrainingRun: TrainingRun.objects.filter(game__in=training),
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


# -- one table as JSON ----------------------------------------------------------------------------------------


def _json_value(value: Any) -> Any:
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, Decimal | uuid.UUID):
        return str(value)
    raise TypeError(f"cannot write {type(value).__name__} into a backup")


def orm_rows(qs: QuerySet[Any], cols: list[str]) -> tuple[bytes, int]:
    """The rows as a JSON array of arrays, read through the ORM (any database)."""
    rows = [list(r) for r in qs.order_by("pk").values_list(*cols)]
    return json.dumps(rows, default=_json_value, ensure_ascii=False, separators=(",", ":")).encode(), len(rows)


#: The fields whose SQLite value JSON holds as it is (numbers, text, NULL).
_SQLITE_PLAIN = frozenset({
    "AutoField", "BigAutoField", "SmallAutoField", "IntegerField", "BigIntegerField", "SmallIntegerField",
    "PositiveIntegerField", "PositiveBigIntegerField", "PositiveSmallIntegerField", "FloatField", "CharField",
    "TextField", "SlugField", "EmailField", "URLField", "GenericIPAddressField", "UUIDField"})


def _sqlite_value(field: Field[Any, Any], target: Field[Any, Any]) -> str | None:
    """The SQL that gives the field's JSON value in SQLite (None: a field this path does not write)."""
    column = connection.ops.quote_name(str(field.column))
    kind = target.get_internal_type()
    if kind in _SQLITE_PLAIN:
        return column
    if kind == "DateTimeField":  # Django keeps them as UTC without an offset ("YYYY-MM-DD HH:MM:SS[.ffffff]")
        return f"{column} || '+00:00'"
    if kind in ("DateField", "TimeField"):
        return f"CAST({column} AS TEXT)"
    if kind == "JSONField":  # valid JSON (a CHECK constraint): embedded as JSON, not as a string
        return f"json({column})"
    if kind == "BooleanField":
        return f"json(CASE {column} WHEN 1 THEN 'true' WHEN 0 THEN 'false' END)"
    return None


def sqlite_rows(qs: QuerySet[Any], model: type[Model]) -> tuple[bytes, int] | None:
    """The rows as a JSON array of arrays, written by SQLite itself (in no particular order: a restore needs
    none); None when a column is of a kind this path does not write (or SQLite has no JSON functions): then
    :func:`orm_rows` reads them."""
    values = []
    for f in model._meta.concrete_fields:
        target = f.target_field if f.is_relation else f  # type: ignore[attr-defined]
        sql = _sqlite_value(f, target)
        if sql is None:
            return None
        values.append(sql)
    inner = qs.order_by().values_list(*columns(model))  # in the order SQLite finds them (a sort costs ~20 %)
    sql, params = inner.query.get_compiler(using=inner.db).as_sql()
    query = f"SELECT COUNT(*), CAST(json_group_array(json_array({', '.join(values)})) AS BLOB) FROM ({sql})"
    try:
        with connection.cursor() as cur:
            cur.execute(query, params)
            count, rows = cur.fetchone()
    except DatabaseError:  # pragma: no cover — an SQLite built without its JSON functions
        return None
    return bytes(rows), int(count)


def table_json(model: type[Model], qs: QuerySet[Any]) -> tuple[bytes, int]:
    """One table's rows as JSON, and how many."""
    if connection.vendor == "sqlite" and settings.USE_TZ:
        written = sqlite_rows(qs, model)
        if written is not None:
            return written
    return orm_rows(qs, columns(model))


def data_json(picked: dict[type[Model], QuerySet[Any]]) -> tuple[bytes, dict[str, int]]:
    """``{"tables": {label: {"columns": [...], "rows": [...]}}}`` of the picked rows, and each table's count."""
    parts = [b'{"tables":{']
    counts = {}
    for model, qs in picked.items():
        label = model._meta.label
        rows, counts[label] = table_json(model, qs)
        head = ("," if len(parts) > 1 else "") + json.dumps(label) + ':{"columns":' + json.dumps(columns(model))
        parts += [head.encode(), b',"rows":', rows, b"}"]
    parts.append(b"}}")
    return b"".join(parts), counts  # (each table's rows copied once)
