"""What a restore takes from an archive's rows, checked before anything is written (by :func:`.archive.read_archive`,
so ``restore --check`` refuses what a restore would).

An archive is a stranger's file as far as a restore knows: its checksums show damage, not who wrote it. So:

* every table is one of :func:`.rows.table_order`'s and every column one of its model's; every row has as many
  values as its table has columns; a primary key is given once per table;
* every value is one its field accepts, as the models check it: its type (``to_python``), NULL only where the
  field allows it, one of the field's choices for a code (a status, a rule set, a language: a number's choices,
  such as the time per move, are what the forms offer, and the services take others), its length and validators
  (a user name, a slug…); a JSON field holds any JSON value;
* every key a row points to is a row of the archive (a nullable one may point nowhere: it is left empty);
* no archive of this format holds the columns no backup writes (:data:`.rows.WITHHELD`: a user's password hash,
  staff and superuser flags) nor API tokens; archives of the earlier formats held them, and a restore drops them.

The values are put back in the rows converted (a date-time as a date-time), so the restore reads them as checked.
A lexicon row's file paths are never taken (:data:`NOT_TAKEN`; the restore derives the file from the checked
content hash).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db.models import BooleanField, CharField, Field, IntegerField, Model, TextField
from django.utils.translation import gettext as _

from .rows import WITHHELD, table_order

#: The first archive format without the withheld columns and without API tokens.
WITHHELD_SINCE = 3
#: Tables archives of the formats before :data:`WITHHELD_SINCE` held, that a restore drops.
DROPPED_TABLES = ("authtoken.Token",)
#: Columns of a table a restore never takes from an archive (it sets them itself).
NOT_TAKEN = {"lexicon.Lexicon": ("file_path", "input_path")}


class RowError(Exception):
    """An archive's rows refused: the reason, translated, for "<file> is not a usable backup: <reason>"."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


def check_tables(tables: dict[str, Any], format_version: int) -> None:
    """Checks the archive's tables (see the module), dropping what an earlier format held and converting every
    value in place; :class:`RowError` with the first fault found."""
    models = {m._meta.label: m for m in table_order()}
    for label in list(tables):
        if label in models:
            continue
        if label in DROPPED_TABLES and format_version < WITHHELD_SINCE:
            del tables[label]
            continue
        raise RowError(_("it holds a table %(table)s that no backup of this program holds") % {"table": label})
    keys: dict[str, set[Any]] = {}
    for label, table in tables.items():
        _shape(models[label], label, table, format_version)
        keys[label] = _primary_keys(models[label], label, table)
    for label, table in tables.items():
        _values(models[label], label, table, keys)


def _shape(model: type[Model], label: str, table: Any, format_version: int) -> None:
    if not isinstance(table, dict) or not isinstance(table.get("columns"), list) \
            or not isinstance(table.get("rows"), list):
        raise RowError(_("its table %(table)s cannot be read") % {"table": label})
    cols = table["columns"]
    known = {f.attname for f in model._meta.concrete_fields}
    withheld = WITHHELD.get(label, ())
    for column in cols:
        if not isinstance(column, str) or column not in known or cols.count(column) > 1:
            raise RowError(_("its table %(table)s has a column %(column)s that this table does not have")
                           % {"table": label, "column": column})
        if column in withheld and format_version >= WITHHELD_SINCE:
            raise RowError(_("its table %(table)s holds %(column)s, which no backup of this program holds")
                           % {"table": label, "column": column})
    width = len(cols)
    for row in table["rows"]:
        if not isinstance(row, list) or len(row) != width:
            raise RowError(_("a row of its table %(table)s is longer or shorter than its columns")
                           % {"table": label})
    dropped = [i for i, column in enumerate(cols) if column in withheld]
    for i in reversed(dropped):  # an earlier format's password hashes and flags: never taken
        del cols[i]
        for row in table["rows"]:
            del row[i]
    pk = model._meta.pk
    assert pk is not None
    if pk.attname not in cols:
        raise RowError(_("its table %(table)s has no %(column)s column") % {"table": label, "column": pk.attname})


def _primary_keys(model: type[Model], label: str, table: dict[str, Any]) -> set[Any]:
    pk = model._meta.pk
    assert pk is not None
    at = table["columns"].index(pk.attname)
    keys: set[Any] = set()
    check = _value_check(pk, label)
    for row in table["rows"]:
        value = check(row[at], row[at])
        if value is None or value in keys:
            raise RowError(_("its table %(table)s gives the key %(key)s twice or not at all")
                           % {"table": label, "key": row[at]})
        row[at] = value
        keys.add(value)
    return keys


def _values(model: type[Model], label: str, table: dict[str, Any], keys: dict[str, set[Any]]) -> None:
    pk = model._meta.pk
    assert pk is not None
    cols = table["columns"]
    fields = {f.attname: f for f in model._meta.concrete_fields}
    checks = [(i, _checker(fields[column], label, keys)) for i, column in enumerate(cols) if column != pk.attname]
    at = cols.index(pk.attname)
    for row in table["rows"]:
        for i, check in checks:
            row[i] = check(row[i], row[at])


def _plain(f: Field[Any, Any]) -> Callable[[Any], bool] | None:
    """A quick test that a value is already what the field holds and passes its validators (a number within its
    range, a text within its length), so that the model's own conversion and validators can be skipped; None
    when the field has others."""
    kinds = {type(v).__name__ for v in f.validators}
    if f.choices:
        return None
    if isinstance(f, IntegerField) and kinds <= {"MinValueValidator", "MaxValueValidator"}:
        lo = max((v.limit_value for v in f.validators if isinstance(v, MinValueValidator)), default=None)
        hi = min((v.limit_value for v in f.validators if isinstance(v, MaxValueValidator)), default=None)
        return lambda v: type(v) is int and (lo is None or v >= lo) and (hi is None or v <= hi)
    if type(f) in (CharField, TextField) and kinds <= {"MaxLengthValidator", "ProhibitNullCharactersValidator"}:
        most = f.max_length
        return lambda v: type(v) is str and (most is None or len(v) <= most) and "\x00" not in v
    return None


def _null(f: Field[Any, Any], label: str, key: Any) -> None:
    """A NULL where the column takes one; else the row is refused with the field's own message."""
    if f.null:
        return None
    raise _invalid(label, key, f, str(f.error_messages["null"]))


def _value_check(f: Field[Any, Any], label: str) -> Callable[[Any, Any], Any]:
    """Checks one column's values as the model would (its type, NULL, a code's choices, validators) and gives each
    as the field holds it; what can be is worked out once per column."""
    json_field = f.get_internal_type() == "JSONField"
    codes = {k for k, _v in f.flatchoices} if f.choices else set()
    plain = _plain(f)
    boolean = isinstance(f, BooleanField)

    def check(value: Any, key: Any) -> Any:
        if value is None:
            return _null(f, label, key)
        if json_field or (plain is not None and plain(value)):
            return value
        if boolean and type(value) is int and value in (0, 1):
            return bool(value)
        if isinstance(value, dict | list):
            raise _invalid(label, key, f, _("a list or an object where one value belongs"))
        if isinstance(value, str) and "\x00" in value:  # (the forms refuse it; PostgreSQL cannot store it)
            raise _invalid(label, key, f, _("a text holding a NUL character"))
        try:
            value = f.to_python(value)
            if codes and isinstance(value, str) and value not in codes and not (f.blank and value in f.empty_values):
                raise ValidationError(f.error_messages["invalid_choice"], params={"value": value})
            f.run_validators(value)  # (a number's choices are what the forms offer: only a code's are checked)
        except ValidationError as exc:
            raise _invalid(label, key, f, " ".join(exc.messages)) from None
        return value
    return check


def _checker(f: Field[Any, Any], label: str, keys: dict[str, set[Any]]) -> Callable[[Any, Any], Any]:
    if not f.is_relation:
        return _value_check(f, label)
    target = f.related_model
    assert target is not None and not isinstance(target, str)
    parents = keys.get(target._meta.label)
    target_pk = target._meta.pk
    assert target_pk is not None
    key_check = _value_check(target_pk, label)

    def related(value: Any, key: Any) -> Any:
        if value is None:
            return _null(f, label, key)
        value = key_check(value, key)
        if (parents is None or value not in parents) and not f.null:
            raise RowError(_("row %(key)s of its table %(table)s points to a row %(target)s of %(parent)s that the "
                             "archive does not hold") % {"key": key, "table": label, "target": value,
                                                         "parent": target._meta.label})
        return value
    return related


def _invalid(label: str, key: Any, f: Field[Any, Any], why: str) -> RowError:
    return RowError(_("row %(key)s of its table %(table)s has an invalid %(column)s (%(why)s)")
                    % {"key": key, "table": label, "column": f.attname, "why": why.rstrip(".")})
