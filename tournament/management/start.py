"""What ``./hall run`` runs once its virtualenv is there: the set-up steps that have something to do, then the
servers (:mod:`tournament.management.servers`).

A laptop that crashed must serve again within seconds, so each step is skipped unless it has work, and this
is found without starting Django (the settings module alone, and the SQLite database read directly):

* ``migrate``: a migration file of an installed app is not in the database's ``django_migrations`` (a new
  version of the code, a new or replaced database);
* ``lexicon upgrade``: a compiled word graph of a ready lexicon (or of the word-list cache) is not in the
  current format (its header: :func:`lexicon.graph_file.file_in_current_format`);
* ``load_demo``: there is no demo tournament.

With another database than SQLite (``DATABASE_URL``) the three steps run as commands each time. Then the
project's bytecode is brought up to date (:func:`compile_sources`), and the servers start from here
(``--push`` and ``--nodes`` go on to ``manage.py serve``).

``python -m tournament.management.start [serve's options]`` (what ``./hall run ARGS`` does).
"""

from __future__ import annotations

import argparse
import compileall
import importlib
import importlib.util
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

from lexicon.graph_file import file_in_current_format

from . import servers

#: The project's packages (their bytecode: :func:`compile_sources`).
PACKAGES = ("tournament", "lexicon", "scoring")
#: The demo tournament's slug (``tournament.demo.DEMO_SLUG``; a test keeps them equal).
DEMO_SLUG = "demo"


def load_settings() -> ModuleType:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    return importlib.import_module(os.environ["DJANGO_SETTINGS_MODULE"])


def sqlite_file(settings: ModuleType) -> Path | None:
    """The database's file when it is SQLite (None: another database)."""
    db = settings.DATABASES["default"]
    return Path(db["NAME"]) if db["ENGINE"] == "django.db.backends.sqlite3" else None


def query(db: Path, sql: str, *args: object) -> list[tuple[object, ...]] | None:
    """The rows of a read on the database (None: no database, or not that table yet)."""
    if not db.exists():  # (a connection would create it)
        return None
    try:
        conn = sqlite3.connect(db, timeout=30)
    except sqlite3.Error:
        return None
    try:
        return conn.execute(sql, args).fetchall()
    except sqlite3.Error:
        return None
    finally:
        conn.close()


def migration_files(apps: list[str]) -> set[tuple[str, str]] | None:
    """(app label, migration name) of every migration file of the installed apps, found without importing
    them; None when an entry is not a plain app module (an AppConfig path: its label is not known here)."""
    found: set[tuple[str, str]] = set()
    for app in apps:
        parts = app.split(".")
        if any(part[:1].isupper() for part in parts):
            return None
        spec = importlib.util.find_spec(parts[0])
        if spec is None or not spec.submodule_search_locations:
            return None
        folder = Path(list(spec.submodule_search_locations)[0]).joinpath(*parts[1:], "migrations")
        found.update((parts[-1], f.stem) for f in folder.glob("*.py") if f.stem != "__init__")
    return found


def migrations_due(settings: ModuleType, db: Path) -> bool:
    files = migration_files(list(settings.INSTALLED_APPS))
    applied = query(db, "SELECT app, name FROM django_migrations")
    return files is None or applied is None or not files <= {(str(a), str(n)) for a, n in applied}


def lexicons_due(settings: ModuleType, db: Path) -> list[Path]:
    """The compiled files ``lexicon upgrade`` would rewrite."""
    base = Path(settings.LEXICON_DIR)
    rows = query(db, "SELECT file_path FROM lexicon_lexicon WHERE status = 'ready' AND file_path != ''") or []
    paths = {base / str(path) for (path,) in rows} | set((base / "cache").glob("*.kwg"))
    return sorted(p for p in paths if p.is_file() and not file_in_current_format(p))


def demo_due(db: Path) -> bool:
    return not query(db, "SELECT 1 FROM tournament_tournament WHERE slug = ?", DEMO_SLUG)


def manage(base: Path, *args: str) -> None:
    subprocess.run([sys.executable, str(base / "manage.py"), *args], cwd=base, check=True)


def set_up(settings: ModuleType, port: int) -> list[str]:
    """Runs the steps that have work; the names of those it ran."""
    base, db = Path(settings.BASE_DIR), sqlite_file(settings)
    ran = []
    if db is None or migrations_due(settings, db):
        manage(base, "migrate", "--noinput")
        ran.append("migrate")
    if db is None or lexicons_due(settings, db):
        manage(base, "lexicon", "upgrade")  # files of an earlier format: rewritten in place (same words, hash)
        ran.append("lexicon upgrade")
    if db is None or demo_due(db):
        manage(base, "load_demo", "--if-missing")
        ran.append("load_demo")
    else:
        print(f"Arbiter console: http://localhost:{port}{settings.LOGIN_URL} (the demo tournament: user "
              "arbiter, password as printed when the demo was loaded, or DEMO_ARBITER_PASSWORD)", flush=True)
    return ran


def compile_sources(base: Path) -> None:
    """Writes the bytecode of the project's modules that changed since it was last written (nothing to do
    after the first start), even where ``PYTHONDONTWRITEBYTECODE`` keeps Python from writing it: without it,
    every start would compile them again (a third of the web server's start-up)."""
    for package in PACKAGES:
        compileall.compile_dir(base / package, quiet=2)  # a read-only checkout: nothing written, no noise


def main(argv: list[str] | None = None) -> int:
    t0 = time.monotonic()
    args = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="./hall run", description="Set up what is due, then serve.")
    servers.add_arguments(parser)
    opts = vars(parser.parse_args(args))
    settings = load_settings()
    try:
        ran = set_up(settings, opts["port"])
    except subprocess.CalledProcessError as exc:
        print(f"./hall run: {' '.join(exc.cmd[1:])} failed (status {exc.returncode})", file=sys.stderr)
        return exc.returncode or 1
    base = Path(settings.BASE_DIR)
    compile_sources(base)
    print(f"Set-up: {', '.join(ran) if ran else 'nothing to do'} ({time.monotonic() - t0:.2f} s).", flush=True)
    if opts["push"] or opts["nodes"] > 0:  # the ASGI servers and nginx: manage.py serve
        os.execv(sys.executable, [sys.executable, str(base / "manage.py"), "serve", *args])
    return servers.serve(opts, cwd=base, say=lambda text: print(text, flush=True),
                         warn=lambda text: print(text, file=sys.stderr, flush=True),
                         broker=str(settings.CELERY_BROKER_URL))


if __name__ == "__main__":
    sys.exit(main())
