"""Telling a file that is not a backup archive of this system at all (a text file, random bytes, a ZIP of
something else) from an archive of ours that is damaged or cut off: the two are refused with different words.

An archive of ours is a ZIP whose first part is one of its own (``data.json`` comes first, then the lexicon
files, the manifest last): its first local header, the first bytes of the file, survives a copy cut short.
"""

from __future__ import annotations

from pathlib import Path

from django.utils.translation import gettext as _

#: A ZIP's local file header: its signature, and where the member's name length and name are.
LOCAL_HEADER = b"PK\x03\x04"
NAME_LENGTH_AT, NAME_AT = 26, 30


def first_member(path: Path) -> str | None:
    """The name of the first part of a ZIP file, read from its first header; None when it does not start as one."""
    with path.open("rb") as fh:
        head = fh.read(NAME_AT)
        if len(head) < NAME_AT or not head.startswith(LOCAL_HEADER):
            return None
        name = fh.read(int.from_bytes(head[NAME_LENGTH_AT:NAME_AT], "little"))
    return name.decode("utf-8", "replace")


def starts_as_ours(path: Path, parts: tuple[str, ...], folders: tuple[str, ...]) -> bool:
    """Whether the file starts as an archive of this system: a ZIP whose first part is one of ``parts`` or in one
    of ``folders``."""
    name = first_member(path)
    return name is not None and (name in parts or name.startswith(folders))


def not_a_backup_text(path: Path) -> str:
    return _("%(file)s is not a backup archive of this system (a file written by 'manage.py backup', the "
             "console's download or the automatic backups). Nothing was changed.") % {"file": path.name}


__all__ = ["first_member", "not_a_backup_text", "starts_as_ours"]
