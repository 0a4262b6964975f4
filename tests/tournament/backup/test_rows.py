"""The rows of an archive as SQLite writes them (its JSON functions, the embedded default's fast path; JSON
fields as JSON texts, date-times without their offset) are the rows the ORM reads: every table of a hall with
slips, verdicts, an audit log, training sessions (JSON fields, booleans, date-times, empty values), value for
value once read back as a restore reads them."""

from __future__ import annotations

import json
import zipfile

import pytest
from django.db import connection

from tests.tournament.backup.helpers import forged
from tournament.backup import BackupError, read_archive, rows, write_archive
from tournament.backup.archive import DATA
from tournament.backup.rows import (
    columns,
    decode_tables,
    orm_rows,
    selection,
    sqlite_rows,
    table_order,
    written_fields,
)
from tournament.models import Verdict

pytestmark = pytest.mark.django_db


def as_restored(model, table: list[list]) -> list[list]:
    """The values as a restore reads them (``to_python``; a JSON field's value as it is)."""
    fields = written_fields(model)
    return [[value if value is None or f.get_internal_type() == "JSONField" else f.to_python(value)
             for f, value in zip(fields, row, strict=True)] for row in table]


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the fast path is SQLite's")
def test_sqlites_json_gives_the_orms_rows(played, trained):
    Verdict.objects.filter(pk=Verdict.objects.order_by("pk").first().pk).update(explanation=None)  # an empty JSON
    picked = selection(None)
    assert set(picked) == set(table_order())
    seen = 0
    for model, qs in picked.items():
        fast = sqlite_rows(qs, model)
        assert fast is not None, f"{model._meta.label} was not written by SQLite"
        slow = orm_rows(qs, columns(model))
        assert fast.count == slow.count and not slow.raw
        tables = {"fast": {"columns": columns(model), "rows": json.loads(fast.rows), **fast.raw},
                  "slow": {"columns": columns(model), "rows": json.loads(slow.rows)}}
        decode_tables(tables)  # as an archive is read
        key = columns(model).index(model._meta.pk.attname)
        fast_rows, slow_rows = (sorted(tables[k]["rows"], key=lambda r: r[key]) for k in ("fast", "slow"))
        assert as_restored(model, fast_rows) == as_restored(model, slow_rows), model._meta.label
        seen += fast.count
    assert seen > 50


def test_an_archive_is_written_without_the_orm_reading_its_rows_on_sqlite(played, trained, monkeypatch, tmp_path):
    if connection.vendor != "sqlite":
        pytest.skip("the fast path is SQLite's")

    def refused(*_args, **_kwargs):
        raise AssertionError("the ORM read a table's rows")

    monkeypatch.setattr(rows, "orm_rows", refused)
    path = tmp_path / "hall.zip"
    manifest = write_archive(path)
    assert manifest["counts"]["tournament.Slip"] == 4 and manifest["counts"]["tournament.TrainingRun"] == 4
    with zipfile.ZipFile(path) as zf:
        tables = json.loads(zf.read(DATA))["tables"]
    assert {label: len(t["rows"]) for label, t in tables.items()} == manifest["counts"]


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the raw columns are SQLite's")
@pytest.mark.parametrize("text", ['{"key": "valid"}, {"key": "missing"}', "{", 7])
def test_a_json_text_that_is_not_one_value_is_refused(played, tmp_path, text):
    t, _players, _token = played
    path = tmp_path / "t.zip"
    write_archive(path, [t])

    def change(data: dict) -> None:
        table = data["tables"]["tournament.Verdict"]
        assert "explanation" in table["json_text"]
        table["rows"][0][table["columns"].index("explanation")] = text
    bad = forged(path, tmp_path / "bad.zip", lambda m: None, change)
    with pytest.raises(BackupError, match="its database rows cannot be read"):
        read_archive(bad)
