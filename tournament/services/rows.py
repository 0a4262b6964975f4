"""Rows read with SQL written once: the hot paths of a big hall (a tablet's token, the open round, a slip's key).

A tablet's slip passes four lookups before it is stored; through the ORM each costs a query compilation that
is most of its CPU (a 10,000-tablet burst is ~420 slips a second on two cores). A :class:`Select` builds its
``SELECT`` (the model's columns and those of the foreign keys it follows, as ``select_related`` would) once,
and turns each row into model instances with the same database converters the ORM applies, so the callers get
the very objects a queryset would give them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any, Generic, TypeVar

from django.db import connection
from django.db.models import Field, Model
from django.db.models.expressions import Expression
from django.db.models.sql import Query

M = TypeVar("M", bound=Model)


class Select(Generic[M]):
    """``SELECT`` of ``model`` (alias ``a0``) and the models its foreign keys ``related`` point to
    (``a1``, ``a2``… in that order), followed by the caller's ``WHERE … ORDER BY … LIMIT`` on those aliases."""

    def __init__(self, model: type[M], *related: str) -> None:
        self.model = model
        self.related = related

    @cached_property
    def _parts(self) -> list[tuple[type[Model], list[Field[Any, Any]], str | None]]:
        """(model, its concrete fields, the foreign key's name on ``model`` or None for ``model`` itself)."""
        parts: list[tuple[type[Model], list[Field[Any, Any]], str | None]] = [
            (self.model, list(self.model._meta.concrete_fields), None)]
        for name in self.related:
            target = self.model._meta.get_field(name).related_model
            assert isinstance(target, type) and issubclass(target, Model)
            parts.append((target, list(target._meta.concrete_fields), name))
        return parts

    @cached_property
    def head(self) -> str:
        """``SELECT <columns> FROM <table> a0 JOIN <related table> a1 ON …``."""
        columns, joins = [], []
        for i, (model, fields, name) in enumerate(self._parts):
            columns += [f'a{i}."{f.column}"' for f in fields]
            if name is not None:
                fk = self.model._meta.get_field(name)
                assert isinstance(fk, Field)
                joins.append(f'JOIN "{model._meta.db_table}" a{i} ON a{i}."{model._meta.pk.column}" = a0."{fk.column}"')
        return f'SELECT {", ".join(columns)} FROM "{self.model._meta.db_table}" a0 ' + " ".join(joins)

    def _converters(self) -> dict[int, tuple[list[Any], Any]]:
        """The ORM's converters for these columns on this connection (SQLite's dates and booleans...)."""
        cached: dict[str, dict[int, tuple[list[Any], Any]]] = self.__dict__.setdefault("_by_vendor", {})
        found = cached.get(connection.vendor)
        if found is None:
            compiler = connection.ops.compiler("SQLCompiler")(Query(self.model), connection, connection.alias)
            cols: list[Expression] = [f.get_col(model._meta.db_table) for model, fields, _name in self._parts for f in fields]
            found = cached[connection.vendor] = compiler.get_converters(cols)
        return found

    def one(self, tail: str, params: Sequence[Any]) -> M | None:
        """The first row of ``head + tail`` as an instance (its followed foreign keys cached on it), or None."""
        with connection.cursor() as cur:
            cur.execute(f"{self.head} {tail}", list(params))
            row = cur.fetchone()
        return None if row is None else self._instance(row)

    def many(self, tail: str, params: Sequence[Any]) -> list[M]:
        """Every row of ``head + tail`` as instances (see :meth:`one`)."""
        with connection.cursor() as cur:
            cur.execute(f"{self.head} {tail}", list(params))
            found = cur.fetchall()
        return [self._instance(row) for row in found]

    def _instance(self, row: Sequence[Any]) -> M:
        converters = self._converters()
        if converters:
            row = list(row)
            for pos, (funcs, expression) in converters.items():
                for func in funcs:
                    row[pos] = func(row[pos], expression, connection)
        found: M | None = None
        start = 0
        for model, fields, name in self._parts:
            values = row[start:start + len(fields)]
            start += len(fields)
            instance = model.from_db(connection.alias, [f.attname for f in fields], values)
            if found is None:
                found = instance  # type: ignore[assignment]
            else:
                self.model._meta.get_field(name or "").set_cached_value(found, instance)  # type: ignore[union-attr]
        assert found is not None
        return found


_INSERTS: dict[type[Model], tuple[str, list[Field[Any, Any]]]] = {}


def insert(instance: M) -> M:
    """``INSERT`` of a new instance with SQL written once per model (values adapted by the fields as
    ``save()`` adapts them); sets and returns it with its primary key. No signals are sent (none is used)."""
    model = type(instance)
    found = _INSERTS.get(model)
    if found is None:
        fields = [f for f in model._meta.concrete_fields if f is not model._meta.pk]
        columns = ", ".join(f'"{f.column}"' for f in fields)
        sql = (f'INSERT INTO "{model._meta.db_table}" ({columns}) VALUES ({placeholders(len(fields))}) '
               f'RETURNING "{model._meta.pk.column}"')
        found = _INSERTS[model] = (sql, fields)
    sql, fields = found
    values = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    with connection.cursor() as cur:
        cur.execute(sql, values)
        row = cur.fetchone()
    assert row is not None
    instance.pk = row[0]
    instance._state.adding = False
    instance._state.db = connection.alias
    return instance


def placeholders(count: int) -> str:
    """``%s, %s, …`` for an ``IN (…)`` of ``count`` values."""
    return ", ".join(["%s"] * count)


__all__ = ["Select", "insert", "placeholders"]
