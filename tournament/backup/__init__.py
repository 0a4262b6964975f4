"""Backups: one archive that brings a tournament (or the whole hall) up on another machine.

* :mod:`.archive` — the archive: what it holds (the database rows, the lexicon files, the code keys,
  a manifest with a SHA-256 of every part), writing it from a consistent snapshot, reading and checking it.
* :mod:`.rows` — which rows (a tournament's, its training sessions' too, or the whole hall's), read from
  one snapshot and written as JSON (by SQLite itself on SQLite).
* :mod:`.lexicons` — the lexicon files: inside an archive, or kept once beside it as
  ``lexicon-<content hash>.kwg``; where a restore finds each one, checked against its hash.
* :mod:`.restore` — putting an archive's rows into this database (refusing a tournament already here
  unless asked to replace it), every foreign key mapped, in one transaction; :mod:`.training` matches the
  training rows this database already holds.
* :mod:`.automatic` — the backups written while a tournament is played (every few minutes and after
  every publication) into ``BACKUP_DIR``, keeping the last ``BACKUP_KEEP`` (the lexicons once beside them),
  and the latest one's facts for the console.

* :mod:`.checks` — what a restore takes from an archive's rows (checked whole before anything is written);
  :mod:`.signature` — the manifest's HMAC with this hall's key.

Commands: ``manage.py backup`` and ``manage.py restore``. Never in an archive: an API token, a password hash, a
staff or superuser flag, a session, Django's secret key (the code keys that hash access codes and tablet tokens
are, so the tablets carry on after a restore).
"""

from .archive import Archive, BackupError, read_archive, write_archive
from .restore import RestoreReport, restore_archive

__all__ = ["Archive", "BackupError", "RestoreReport", "read_archive", "restore_archive", "write_archive"]
