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
from django.db.models import Field, Model
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
    for row in table["rows"]:
        value = _converted(pk, label, row[at], row[at])
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


def _converted(f: Field[Any, Any], label: str, value: Any, key: Any) -> Any:
    """The value as the field holds it, checked as the model would (its type, NULL, choices, validators)."""
    if value is None:
        if f.null:
            return None
        raise _invalid(label, key, f, str(f.error_messages["null"]))
    if f.get_internal_type() == "JSONField":
        return value
    if isinstance(value, dict | list):
        raise _invalid(label, key, f, _("a list or an object where one value belongs"))
    try:
        value = f.to_python(value)
        if f.choices and isinstance(value, str) and value not in {k for k, _v in f.flatchoices} \
                and not (f.blank and value in f.empty_values):  # (a number's choices are the forms' offer only)
            raise ValidationError(f.error_messages["invalid_choice"], params={"value": value})
        f.run_validators(value)
    except ValidationError as exc:
        raise _invalid(label, key, f, " ".join(exc.messages)) from None
    return value


def _checker(f: Field[Any, Any], label: str, keys: dict[str, set[Any]]) -> Callable[[Any, Any], Any]:
    if not f.is_relation:
        return lambda value, key: _converted(f, label, value, key)
    target = f.related_model
    assert target is not None and not isinstance(target, str)
    parents = keys.get(target._meta.label)
    target_pk = target._meta.pk
    assert target_pk is not None

    def related(value: Any, key: Any) -> Any:
        if value is None:
            if f.null:
                return None
            raise _invalid(label, key, f, str(f.error_messages["null"]))
        value = _converted(target_pk, label, value, key)
        if (parents is None or value not in parents) and not f.null:
            raise RowError(_("row %(key)s of its table %(table)s points to a row %(target)s of %(parent)s that the "
                             "archive does not hold") % {"key": key, "table": label, "target": value,
                                                         "parent": target._meta.label})
        return value
    return related


def _invalid(label: str, key: Any, f: Field[Any, Any], why: str) -> RowError:
    return RowError(_("row %(key)s of its table %(table)s has an invalid %(column)s (%(why)s)")
                    % {"key": key, "table": label, "column": f.attname, "why": why.rstrip(".")})
