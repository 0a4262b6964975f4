"""The database rows of an archive: which rows (a tournament's or the whole hall's), read from one snapshot,
written as JSON table by table.

A table is ``{"columns": [...], "rows": [[...]]}``: the columns' database names (a foreign key is its ``*_id``
column), a row's values in that order — a JSON field as its JSON value, a date-time as ISO 8601 with its UTC
offset. On SQLite (the embedded default) SQLite writes each table's JSON itself (``json_group_array``): no
Python object per row or per value (the ORM's converters and Python's JSON take ten times its CPU in a big
hall); it writes the values as it holds them — a boolean 0 or 1, a JSON field as its JSON text and a date-time in UTC without its
offset, the table naming those columns (``json_text``, ``utc_naive``) — and :func:`decode_tables` puts them
back in their JSON form when an archive is read. Elsewhere the ORM reads the rows and Python writes them. Both
give the same rows (a restore reads either with each field's ``to_python``).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, transaction
from django.db.models import Count, Exists, Field, Model, OuterRef, Q, QuerySet, Sum

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

#: Columns no archive holds: a user's password hash and rights (a restored arbiter new on a machine sets his
#: password there; rights are given by that hall). The arbiters' API tokens are not in an archive either.
WITHHELD: dict[str, tuple[str, ...]] = {settings.AUTH_USER_MODEL: ("password", "is_superuser", "is_staff")}


def table_order() -> list[type[Model]]:
    """The tables of an archive, parents before children (the order a restore inserts them)."""
    return [get_user_model(), CodeKey, Lexicon, Tournament, Tournament.arbiters.through, Player,
            Registration, Game, HallGame, Round, Slip, Verdict, Penalty, Solo, AuditLog, TrainingGame, TrainingClub,
            TrainingRun]


def written_fields(model: type[Model]) -> list[Field[Any, Any]]:
    """The model's fields an archive holds (all but :data:`WITHHELD`)."""
    withheld = WITHHELD.get(model._meta.label, ())
    return [f for f in model._meta.concrete_fields if f.attname not in withheld]


def columns(model: type[Model]) -> list[str]:
    return [f.attname for f in written_fields(model)]


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


def _users_of(ids: list[int], audit: QuerySet[AuditLog], lexicons: QuerySet[Lexicon]) -> Q:
    """The users a tournament's rows point to (its arbiters, who entered a slip, overrode a verdict…): each user
    looked up in the indexes of those columns, not every slip and verdict read."""
    user = OuterRef("pk")
    found = Q(pk__in=Tournament.arbiters.through.objects.filter(tournament_id__in=ids).values("user_id"))
    for rows in (Slip.objects.filter(entered_by=user, round__game__tournament_id__in=ids),
                 Verdict.objects.filter(overridden_by=user, round__game__tournament_id__in=ids),
                 Penalty.objects.filter(created_by=user, game__tournament_id__in=ids),
                 audit.filter(actor=user), lexicons.filter(created_by=user)):
        found |= Q(Exists(rows))
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
        users = User.objects.filter(_users_of(ids, audit, lexicons))
    tids = ts.values("pk")
    return {
        User: users,
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


#: The fields whose SQLite value JSON holds as it is (numbers, text, NULL; a boolean is 0 or 1).
_SQLITE_PLAIN = frozenset({
    "AutoField", "BigAutoField", "SmallAutoField", "IntegerField", "BigIntegerField", "SmallIntegerField",
    "PositiveIntegerField", "PositiveBigIntegerField", "PositiveSmallIntegerField", "FloatField", "CharField",
    "TextField", "SlugField", "EmailField", "URLField", "GenericIPAddressField", "UUIDField", "BooleanField"})
#: A table's columns whose values are JSON texts (a JSON field: its value is ``json.loads`` of the text).
JSON_TEXT = "json_text"
#: A table's columns whose values are date-times in UTC written without their offset (Django's SQLite form).
UTC_NAIVE = "utc_naive"


@dataclass
class TableRows:
    """One table's rows as a JSON array of arrays, how many, and the columns written in a raw form."""

    rows: bytes
    count: int
    raw: dict[str, list[str]] = field(default_factory=dict)  # JSON_TEXT / UTC_NAIVE → columns


def orm_rows(qs: QuerySet[Any], cols: list[str]) -> TableRows:
    """The rows read through the ORM (any database), every value in its JSON form."""
    rows = [list(r) for r in qs.order_by("pk").values_list(*cols)]
    return TableRows(json.dumps(rows, default=_json_value, ensure_ascii=False, separators=(",", ":")).encode(),
                     len(rows))


def _sqlite_value(f: Field[Any, Any], target: Field[Any, Any]) -> tuple[str, str | None] | None:
    """The SQL that gives the field's value in SQLite and the raw form it is in (None: a field this path does
    not write). JSON fields and date-times are written as SQLite holds them (a JSON text, a UTC date-time
    without its offset), which costs SQLite a quarter less than parsing or extending them; a restore reads them
    back (:func:`decode_tables`)."""
    column = connection.ops.quote_name(str(f.column))
    kind = target.get_internal_type()
    if kind in _SQLITE_PLAIN:
        return column, None
    if kind == "DateTimeField":  # "YYYY-MM-DD HH:MM:SS[.ffffff]" in UTC
        return column, UTC_NAIVE
    if kind in ("DateField", "TimeField"):
        return f"CAST({column} AS TEXT)", None
    if kind == "JSONField":  # valid JSON text (a CHECK constraint)
        return column, JSON_TEXT
    return None


def sqlite_rows(qs: QuerySet[Any], model: type[Model]) -> TableRows | None:
    """The rows as a JSON array of arrays, written by SQLite itself (in no particular order: a restore needs
    none); None when a column is of a kind this path does not write (or SQLite has no JSON functions): then
    :func:`orm_rows` reads them."""
    values = []
    raw: dict[str, list[str]] = {}
    for f in written_fields(model):
        target = f.target_field if f.is_relation else f  # type: ignore[attr-defined]
        written = _sqlite_value(f, target)
        if written is None:
            return None
        values.append(written[0])
        if written[1]:
            raw.setdefault(written[1], []).append(f.attname)
    inner = qs.order_by().values_list(*columns(model))  # in the order SQLite finds them (a sort costs ~20 %)
    sql, params = inner.query.get_compiler(using=inner.db).as_sql()
    query = f"SELECT COUNT(*), CAST(json_group_array(json_array({', '.join(values)})) AS BLOB) FROM ({sql})"
    try:
        with connection.cursor() as cur:
            cur.execute(query, params)
            count, rows = cur.fetchone()
    except DatabaseError:  # pragma: no cover — an SQLite built without its JSON functions
        return None
    return TableRows(bytes(rows), int(count), raw)


def table_json(model: type[Model], qs: QuerySet[Any]) -> TableRows:
    """One table's rows as JSON."""
    if connection.vendor == "sqlite" and settings.USE_TZ:
        written = sqlite_rows(qs, model)
        if written is not None:
            return written
    return orm_rows(qs, columns(model))


def data_json(picked: dict[type[Model], QuerySet[Any]]) -> tuple[bytes, dict[str, int]]:
    """``{"tables": {label: {"columns": [...], "rows": [...]}}}`` of the picked rows (with ``json_text`` and
    ``utc_naive``: the columns written in a raw form), and each table's count."""
    parts = [b'{"tables":{']
    counts = {}
    for model, qs in picked.items():
        label = model._meta.label
        table = table_json(model, qs)
        counts[label] = table.count
        head = ("," if len(parts) > 1 else "") + json.dumps(label) + ':{"columns":' + json.dumps(columns(model))
        parts += [head.encode(), *(f',"{k}":{json.dumps(v)}'.encode() for k, v in table.raw.items()), b',"rows":',
                  table.rows, b"}"]
    parts.append(b"}}")
    return b"".join(parts), counts  # (each table's rows copied once)


def decode_tables(tables: dict[str, Any]) -> None:
    """Puts the raw columns of the tables in their JSON form, in place: a JSON text becomes its value, a UTC
    date-time without an offset gets ``+00:00``. ValueError (or TypeError, KeyError) when a table is not as
    written."""
    for table in tables.values():
        cols = table["columns"]
        texts = [cols.index(c) for c in table.pop(JSON_TEXT, [])]
        times = [cols.index(c) for c in table.pop(UTC_NAIVE, [])]
        if not texts and not times:
            continue
        rows = table["rows"]
        for i in texts:  # a column's texts parsed at once (one parse, not one per value)
            present = [row[i] for row in rows if row[i] is not None]
            if not all(isinstance(text, str) for text in present):
                raise TypeError("a JSON text is not a string")
            values = iter(json.loads("[" + ",".join(present) + "]"))
            decoded = [row for row in rows if row[i] is not None]
            for row, value in zip(decoded, values, strict=True):  # ValueError: a text held more than one value
                row[i] = value
        for i in times:
            for row in rows:
                if row[i] is not None:
                    row[i] = row[i] + "+00:00"
