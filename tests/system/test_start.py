"""``./hall run``'s start (``tournament/management/start.py``): each set-up step runs only when it has work,
found without starting Django; the start itself loads neither Django's applications nor Celery.

The time from ``./hall run`` to the first 200 after a crash: ``test_fault_restart.py``."""

from __future__ import annotations

import sqlite3
import struct
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings as django_settings
from django.db import connection

from lexicon.graph import build
from lexicon.models import Lexicon
from tests.paths import ROOT
from tournament import demo
from tournament.management import start

WORDS = ["CAT", "CATS", "DOG", "DOGS", "ACT"]


def copy_database(dest: Path) -> Path:
    """The test database as it is now (its WAL included), in a file of this test."""
    src = sqlite3.connect(connection.settings_dict["NAME"])
    dst = sqlite3.connect(dest)
    try:
        src.backup(dst)
    finally:
        src.close()
        dst.close()
    return dest


def settings_for(db: Path, lexicons: Path, *, engine: str = "django.db.backends.sqlite3") -> SimpleNamespace:
    return SimpleNamespace(DATABASES={"default": {"ENGINE": engine, "NAME": str(db)}}, LEXICON_DIR=lexicons,
                           INSTALLED_APPS=django_settings.INSTALLED_APPS, BASE_DIR=ROOT, LOGIN_URL="/arbiter/login/")


def sql(db: Path, query: str, *args: object) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute(query, args)


@pytest.fixture
def hall(transactional_db, tournament, tmp_path: Path) -> SimpleNamespace:
    """A set-up hall's database (migrated, with the demo tournament) and an empty lexicon folder."""
    if connection.vendor != "sqlite":
        pytest.skip("the start reads a SQLite database (with another it runs the set-up commands each time)")
    db = copy_database(tmp_path / "db.sqlite3")
    sql(db, "UPDATE tournament_tournament SET slug = ? WHERE id = ?", start.DEMO_SLUG, tournament.pk)
    (tmp_path / "lexicons").mkdir()
    return settings_for(db, tmp_path / "lexicons")


def test_the_demo_slug_is_the_demo_commands():
    assert start.DEMO_SLUG == demo.DEMO_SLUG


def test_the_migration_files_are_found_without_importing_the_apps():
    files = start.migration_files(list(django_settings.INSTALLED_APPS))
    assert files is not None
    assert {("tournament", "0001_initial"), ("lexicon", "0001_initial"), ("auth", "0001_initial"),
            ("authtoken", "0001_initial"), ("contenttypes", "0001_initial")} <= files
    assert start.migration_files(["tournament.apps.TournamentConfig"]) is None  # its label is not known here


def test_nothing_is_due_on_a_set_up_folder(hall):
    db = Path(hall.DATABASES["default"]["NAME"])
    assert not start.migrations_due(hall, db)
    assert start.lexicons_due(hall, db) == []
    assert not start.demo_due(db)


def test_a_migration_the_database_lacks_is_due(hall):
    db = Path(hall.DATABASES["default"]["NAME"])
    sql(db, "DELETE FROM django_migrations WHERE app = 'tournament' AND name = '0013_game_variant_7among8'")
    assert start.migrations_due(hall, db)


def test_a_missing_database_needs_everything(tmp_path: Path):
    hall = settings_for(tmp_path / "none.sqlite3", tmp_path)
    db = tmp_path / "none.sqlite3"
    assert start.migrations_due(hall, db) and start.demo_due(db) and start.lexicons_due(hall, db) == []
    assert not db.exists()  # only read: nothing created


def old_format(path: Path) -> None:
    """The file's header says format 1 (what ``lexicon upgrade`` rewrites)."""
    data = bytearray(path.read_bytes())
    struct.pack_into("<I", data, 8, 1)
    path.write_bytes(bytes(data))


def test_a_compiled_file_of_an_older_format_is_due(hall, lexicon_row):
    db = Path(hall.DATABASES["default"]["NAME"])
    graphs, cache = hall.LEXICON_DIR / "graphs", hall.LEXICON_DIR / "cache"
    graphs.mkdir()
    cache.mkdir()
    build(WORDS, "ACDGOST", graphs / "en.kwg")
    build(WORDS, "ACDGOST", cache / "list.kwg")
    sql(db, "UPDATE lexicon_lexicon SET file_path = 'graphs/en.kwg', status = ? WHERE id = ?",
        Lexicon.Status.READY, lexicon_row.pk)
    assert start.lexicons_due(hall, db) == []
    old_format(graphs / "en.kwg")
    assert start.lexicons_due(hall, db) == [graphs / "en.kwg"]
    old_format(cache / "list.kwg")
    assert start.lexicons_due(hall, db) == [cache / "list.kwg", graphs / "en.kwg"]
    sql(db, "UPDATE lexicon_lexicon SET status = 'failed'")
    assert start.lexicons_due(hall, db) == [cache / "list.kwg"]  # a lexicon not ready is not upgraded


def test_set_up_runs_only_what_is_due(hall, monkeypatch, capsys):
    ran: list[tuple[str, ...]] = []
    monkeypatch.setattr(start, "manage", lambda base, *args: ran.append(args))
    assert start.set_up(hall, 8107) == [] and ran == []
    assert "http://localhost:8107/arbiter/login/" in capsys.readouterr().out
    db = Path(hall.DATABASES["default"]["NAME"])
    sql(db, "DELETE FROM tournament_tournament")
    assert start.set_up(hall, 8107) == ["load_demo"] and ran == [("load_demo", "--if-missing")]
    ran.clear()
    sql(db, "DELETE FROM django_migrations WHERE app = 'lexicon'")
    assert start.set_up(hall, 8107) == ["migrate", "load_demo"]


def test_with_another_database_every_step_runs(tmp_path: Path, monkeypatch):
    ran: list[tuple[str, ...]] = []
    monkeypatch.setattr(start, "manage", lambda base, *args: ran.append(args))
    other = settings_for(tmp_path / "unused", tmp_path, engine="django.db.backends.postgresql")
    assert start.set_up(other, 8107) == ["migrate", "lexicon upgrade", "load_demo"]
    assert ran == [("migrate", "--noinput"), ("lexicon", "upgrade"), ("load_demo", "--if-missing")]


def test_the_start_loads_neither_django_apps_nor_celery():
    """What ``./hall run`` runs before the web server: the settings module and the checks, not the project."""
    probe = ("import sys, tournament.management.start as s; s.load_settings(); "
             "print(sorted({m.split('.')[0] for m in sys.modules} & {'celery', 'kombu', 'rest_framework'}), "
             "'django.db.models' in sys.modules, 'tournament.models' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[] False False"


def test_the_start_writes_the_bytecode_python_would_not(tmp_path: Path, monkeypatch):
    """With ``PYTHONDONTWRITEBYTECODE`` (some shells, CI images) every start would compile the project again."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text("X = 1\n")
    monkeypatch.setattr(start, "PACKAGES", ("pkg",))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    start.compile_sources(tmp_path)
    assert list((tmp_path / "pkg" / "__pycache__").glob("mod.*.pyc"))
