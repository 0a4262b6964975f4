"""Template filters of the duplicate domain (through :mod:`tournament.labels`)."""

from __future__ import annotations

import re
from typing import Protocol

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from .. import labels

register = template.Library()


COORDINATE_LETTER_FIRST = re.compile(r"^[^\W\d_]\d{1,2}$")
COORDINATE_LETTER_LAST = re.compile(r"^\d{1,2}[^\W\d_]$")


class SlipLike(Protocol):
    coordinates: str
    word: str
    announced_score: int | None

    @property
    def text(self) -> str: ...


@register.filter
def move_labels(move: str, tournament: labels.CoordSettings | None) -> str | SafeString:
    """A stored move (``H8 ЗДОРОВЫ``) in the tournament's coordinates (``З8 ЗДОРОВЫ`` with Cyrillic rows), the
    letter of the coordinate marked (``coord-letter``: never read as a digit)."""
    if not move or tournament is None:
        return move
    before, letter, after = labels.tournament_style(tournament).move_parts(move)
    if not letter:
        return before
    return format_html('{}<span class="coord-letter">{}</span>{}', before, letter, after)


@register.filter
def slip_text(slip: SlipLike | None, tournament: labels.CoordSettings | None) -> str | SafeString:
    """A slip as the hall reads it (its coordinates in the tournament's script, the letter marked)."""
    if slip is None:
        return ""
    if tournament is None:
        return slip.text
    style = labels.tournament_style(tournament)
    return _marked(style, style.slip(slip.coordinates, slip.word, slip.announced_score))


def _marked(style: labels.CoordStyle, text: str) -> str | SafeString:
    coord, sep, rest = text.partition(" ")
    if COORDINATE_LETTER_FIRST.match(coord):
        return format_html('<span class="coord-letter">{}</span>{}{}{}', coord[0], coord[1:], sep, rest)
    if COORDINATE_LETTER_LAST.match(coord):
        return format_html('{}<span class="coord-letter">{}</span>{}{}', coord[:-1], coord[-1], sep, rest)
    return text


@register.filter
def reason_label(reason: str) -> str:
    """The short label of a verdict reason, in the page's language."""
    return labels.reason_label(reason)


@register.filter
def explanation(verdict: labels.ExplainedVerdict, tournament: labels.CoordSettings) -> str:
    """Why a verdict is what it is, in the page's language and the tournament's coordinates."""
    return labels.verdict_explanation(verdict, tournament)
