"""Template filters of the duplicate domain (through :mod:`tournament.labels`)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime
from typing import Protocol

from django import template
from django.template.defaultfilters import date as date_filter
from django.utils.formats import number_format
from django.utils.html import conditional_escape, format_html, json_script
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import npgettext, pgettext

from .. import labels

register = template.Library()


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
    return _marked(labels.tournament_style(tournament).move(move))


@register.filter
def slip_text(slip: SlipLike | None, tournament: labels.CoordSettings | None) -> str | SafeString:
    """A slip as the hall reads it (its coordinates in the tournament's script, the letter marked)."""
    if slip is None:
        return ""
    if tournament is None:
        return slip.text
    style = labels.tournament_style(tournament)
    return _marked(style.slip(slip.coordinates, slip.word, slip.announced_score))


@register.filter
def coord_marked(text: str) -> str | SafeString:
    """A written slip or move ("З8 WORD 24", already in the tournament's rows) with the letter of its
    coordinates marked."""
    return _marked(text or "")


def _marked(text: str) -> str | SafeString:
    before, letter, after = labels.letter_parts(text)
    if not letter:
        return text
    return format_html('{}<span class="coord-letter">{}</span>{}', before, letter, after)


@register.simple_tag
def coord_texts() -> SafeString:
    """The texts of the coordinate inputs' echo in the page's language, as the JSON block ``coord-texts`` that
    ``static/js/coords.js`` reads."""
    return json_script(labels.coordinate_texts(), "coord-texts")


@register.filter
def coord_config(tournament: labels.BoardSettings) -> dict[str, object]:
    """What ``static/js/coords.js`` reads and writes a tournament's coordinates with (a page with a coordinate
    input and no board: the paper slips)."""
    config = labels.board_config(tournament)
    return {"rows": config["rows"], "cols": config["cols"], "convention": config["convention"],
            "cyrillic": config["cyrillic"], "cyrillic_input": config["cyrillic_input"]}


@register.filter
def reason_label(reason: str) -> str:
    """The short label of a verdict reason, in the page's language."""
    return labels.reason_label(reason)


@register.filter
def explanation(verdict: labels.ExplainedVerdict, tournament: labels.CoordSettings) -> str | SafeString:
    """Why a verdict is what it is, in the page's language and the tournament's coordinates (their letters
    marked)."""
    if verdict.automatic and verdict.explanation:
        html = explained(verdict.explanation, labels.tournament_style(tournament))
        if html:
            return html
    return labels.verdict_explanation(verdict, tournament)


def explained(message: Mapping[str, object] | None, style: labels.CoordStyle, fallback: str = "") -> str | SafeString:
    """An engine message in the page's language and ``style``, every parameter escaped and the letter of each
    coordinate marked (a page's HTML); ``fallback`` (escaped by the template) when there is none."""
    html = labels.explain(message, style, "", text=lambda t: str(conditional_escape(t)),
                          coordinate=lambda c: str(_marked(c)))
    return mark_safe(html) if html else fallback  # noqa: S308 - the catalogue's template, every parameter escaped


@register.filter
def day(value: date | None) -> str:
    """A day as every page shows it (:data:`labels.DATE_FORMAT`, localized); empty for none."""
    return date_filter(value, labels.DATE_FORMAT) if value else ""


@register.filter(expects_localtime=True)
def moment(value: datetime | None) -> str:
    """A moment as every page shows it: in the page's time zone (the tournament's), :data:`labels.DATETIME_FORMAT`."""
    return date_filter(value, labels.DATETIME_FORMAT) if value else ""


@register.filter
def minus(value: int | float | None) -> str:
    """A number with a typographic minus (:func:`labels.minus`, as the PDFs print it): a deficit reads "−112";
    "" for none."""
    return "" if value is None else labels.minus(value)


@register.filter
def blank_replaced(replaced: Mapping[int, str] | None, number: int) -> str:
    """The tiles that replaced round ``number``'s blank on the board (the Joker variant, :func:`gamestate.replaced_blanks`),
    written "? → S" ("" when none)."""
    letters = (replaced or {}).get(number, "")
    return ", ".join(f"? \u2192 {letter}" for letter in letters)


@register.filter
def file_size(size: int | None) -> str:
    """A file's size as every page writes it, in the page's language: "512 bytes", then one decimal in KB, MB, GB
    (1 KB = 1,024 bytes; Russian and Ukrainian write КБ, МБ, ГБ — never Django's "Мб", a megabit); "" for none."""
    if size is None:
        return ""
    if size < 1024:
        return npgettext("file size", "%(n)d byte", "%(n)d bytes", size) % {"n": size}
    units = (pgettext("file size", "%(size)s KB"), pgettext("file size", "%(size)s MB"),
             pgettext("file size", "%(size)s GB"))
    value = size / 1024
    for unit in units[:-1]:
        if round(value, 1) < 1024:
            return unit % {"size": number_format(round(value, 1), 1)}  # number_format cuts, not rounds
        value /= 1024
    return units[-1] % {"size": number_format(round(value, 1), 1)}
