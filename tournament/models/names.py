"""Names as people read them: no invisible control in a stored name.

A name typed, imported from a CSV file or sent to the API may hold characters that change how the text
around them is drawn without showing themselves: bidi controls (U+202A–U+202E, U+2066–U+2069, U+200E/F)
turn "Ivan\u202eNOSLIW Petrov" into "Ivan Petrov WILSON"-like reversed text on pages and in PDFs; other
controls (category Cc: NUL, escape, line breaks; category Cf: invisible format characters) break lines or
hide letters. They are **stripped**, not refused: a name comes from federation lists and club exports whose
author cannot see them, and refusing a 30,000-row import for an invisible character would leave the arbiter
hunting for it; what remains is exactly what everyone sees. The joiners that some scripts need to spell a
name (U+200C ZERO WIDTH NON-JOINER, U+200D ZERO WIDTH JOINER) are kept; a tab, line or paragraph break
becomes a space.

:class:`NameField` cleans on every save (``save()``, ``bulk_create``, ``update()``); the arbiters' names
(Django's users) are cleaned by the ``pre_save`` receiver below.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.signals import pre_save

#: Format characters a name may need (joiners of Persian, Indic scripts, emoji sequences).
KEPT = frozenset("\u200c\u200d")
#: Controls and separators that stand between words: a space.
SPACES = frozenset("\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\u2028\u2029")


def clean_name(text: str) -> str:
    """``text`` without control characters (Cc) nor format characters (Cf, bidi controls included) other
    than the joiners; breaks become spaces."""
    if text.isprintable():  # the usual case: nothing to look at (isprintable is False for Cc, Cf, Zl, Zp)
        return text
    out = []
    for ch in text:
        if ch in SPACES:
            out.append(" ")
        elif ch in KEPT or unicodedata.category(ch) not in ("Cc", "Cf"):
            out.append(ch)
    return "".join(out)


class NameField(models.CharField):
    """A CharField whose value is cleaned by :func:`clean_name` before it is stored (and on the instance).

    It deconstructs as a plain CharField: the column is the same, so no migration follows from it."""

    def pre_save(self, model_instance: models.Model, add: bool) -> Any:
        value = getattr(model_instance, self.attname)
        if isinstance(value, str):
            value = clean_name(value)
            setattr(model_instance, self.attname, value)
        return value

    def get_prep_value(self, value: Any) -> Any:
        value = super().get_prep_value(value)
        return clean_name(value) if isinstance(value, str) else value

    def deconstruct(self) -> Any:
        name, _path, args, kwargs = super().deconstruct()
        return name, "django.db.models.CharField", args, kwargs


USER_NAMES = ("username", "first_name", "last_name")


def _clean_user(sender: type, instance: Any, **kwargs: Any) -> None:
    """An arbiter's login name and names, cleaned as every other name before they are stored."""
    for field in USER_NAMES:
        value = getattr(instance, field, None)
        if isinstance(value, str):
            setattr(instance, field, clean_name(value))


pre_save.connect(_clean_user, sender=settings.AUTH_USER_MODEL, dispatch_uid="tournament.names.clean_user")

__all__ = ["NameField", "clean_name"]
