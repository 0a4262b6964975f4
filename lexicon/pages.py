"""Where a lexicon page sits in the arbiter console: the tournament the arbiter comes from, if any.

The lexicon knows nothing of tournaments (docs/en/developer/index.md, the map): the tournament side says, through one function
named by the setting ``LEXICON_ARBITER_PAGE`` (a dotted path, read like a context processor), which
tournament a request comes from (``?tournament=<slug>`` on its links, or the one last opened), its lexicon
and its language. Without the setting a lexicon page stands alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils.module_loading import import_string


@dataclass(frozen=True)
class ArbiterPage:
    """What a lexicon page takes from the console around it."""

    #: the tournament the arbiter comes from (its menu: ``slug``, ``name``), or None
    tournament: Any = None
    #: the lexicon that tournament plays with (the word check's default), or None
    lexicon_id: int | None = None
    #: the language of the page when the reader chose none (the tournament's), or None
    language: str | None = None
    #: the time zone of the times shown (the tournament's: the hall's), or None (the site's)
    time_zone: str | None = None


def arbiter_page(request: HttpRequest) -> ArbiterPage:
    """The console around a lexicon page (an empty one when no tournament side is configured)."""
    path = getattr(settings, "LEXICON_ARBITER_PAGE", "")
    if not path:
        return ArbiterPage()
    provider: Callable[[HttpRequest], ArbiterPage] = import_string(path)
    return provider(request)


__all__ = ["ArbiterPage", "arbiter_page"]
