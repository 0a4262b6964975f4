"""Template filters of the duplicate domain."""

from __future__ import annotations

from django import template
from django.utils import translation

from scoring.coords import Convention, CoordError, format_coord, parse_coord
from scoring.rules import RulesError, get_ruleset

register = template.Library()


def cyrillic_labels(tournament) -> bool:
    """Rows are shown with Cyrillic labels (З8) for a Cyrillic rule set read in Russian or Ukrainian."""
    try:
        ruleset = get_ruleset(tournament.ruleset)
    except (RulesError, AttributeError):
        return False
    if getattr(tournament, "convention", Convention.DUPLICATE) != Convention.DUPLICATE:
        return False
    return ruleset.cyrillic and (translation.get_language() or "")[:2] in ("ru", "uk")


@register.filter
def move_labels(move: str, tournament) -> str:
    """``H8 ЗДОРОВЫ`` → ``З8 ЗДОРОВЫ`` where the board shows Cyrillic row labels; unchanged otherwise."""
    if not move or not cyrillic_labels(tournament):
        return move
    coord_text, sep, rest = str(move).partition(" ")
    try:
        coord = parse_coord(coord_text, cyrillic=True)
    except CoordError:
        return move
    return f"{format_coord(coord, cyrillic=True)}{sep}{rest}"
