"""The refusal of a backup or a restore."""

from __future__ import annotations


class BackupError(Exception):
    """A backup or a restore refused, with a message for the arbiter (translated)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
