"""Template filters of the duplicate domain (through :mod:`tournament.labels`)."""

from __future__ import annotations

from django import template
from django.utils import translation

from .. import labels

register = template.Library()


@register.filter
def move_labels(move: str, tournament: labels.CoordSettings | None) -> str:
    """A stored move (``H8 ЗДОРОВЫ``) as the page's reader sees coordinates (``З8 ЗДОРОВЫ`` in Russian)."""
    if not move or tournament is None:
        return move
    return labels.tournament_style(tournament, translation.get_language() or "").move(move)


@register.filter
def reason_label(reason: str) -> str:
    """The short label of a verdict reason, in the page's language."""
    return labels.reason_label(reason)
