"""Template filters of the duplicate domain (through :mod:`tournament.labels`)."""

from __future__ import annotations

from datetime import date, datetime

from django import template
from django.template.defaultfilters import date as date_filter
from django.utils.html import format_html
from django.utils.safestring import SafeString

from .. import labels

register = template.Library()


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
def reason_label(reason: str) -> str:
    """The short label of a verdict reason, in the page's language."""
    return labels.reason_label(reason)


@register.filter
def explanation(verdict: labels.ExplainedVerdict, tournament: labels.CoordSettings) -> str:
    """Why a verdict is what it is, in the page's language and the tournament's coordinates."""
    return labels.verdict_explanation(verdict, tournament)


@register.filter
def day(value: date | None) -> str:
    """A day as every page shows it (:data:`labels.DATE_FORMAT`, localized); empty for none."""
    return date_filter(value, labels.DATE_FORMAT) if value else ""


@register.filter(expects_localtime=True)
def moment(value: datetime | None) -> str:
    """A moment as every page shows it: in the page's time zone (the tournament's), :data:`labels.DATETIME_FORMAT`."""
    return date_filter(value, labels.DATETIME_FORMAT) if value else ""
