"""JSON written by a stranger, read within limits: depth, integer digits, size.

Python's ``json`` recurses once per nesting level (an array nested 10,000 deep raises ``RecursionError``) and
turns a 5,000-digit number into a ``ValueError`` of its own. Every JSON body or file the server reads from a
client — the API's bodies (``tournament/api/parsers.py``), a training record, a simultaneous game's package or
results — goes through :func:`loads`, which refuses such a text with :class:`JsonRefused` (its message in the
active language, the limit in it) before anything is built from it.
"""

from __future__ import annotations

import json
import re
from typing import Any, NoReturn

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

#: Arrays and objects nested deeper than this are refused (the deepest body the system writes is 6).
MAX_DEPTH = 64
#: Integers with more digits than this are refused (a seed is at most 20 digits).
MAX_INT_DIGITS = 40
#: A request body of the API read as JSON is at most this (a slip is under 1 kB; the largest body, a
#: simultaneous game's results, has its own limit, ``simulfiles.MAX_BYTES``).
MAX_BODY_BYTES = 1024 * 1024

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


class JsonRefused(ValueError):
    """A JSON text refused, with the reason in the active language; ``syntax``: it is not JSON at all (as
    opposed to JSON over a limit)."""

    def __init__(self, message: str, *, syntax: bool = False) -> None:
        super().__init__(message)
        self.syntax = syntax


def too_large(limit: int) -> JsonRefused:
    """The refusal of a text over ``limit`` bytes."""
    return JsonRefused(_("The JSON body is larger than %(kb)s kB.") % {"kb": limit // 1024})


def too_deep() -> JsonRefused:
    """The refusal of a text nested deeper than ``MAX_DEPTH``."""
    return JsonRefused(ngettext("The JSON is nested deeper than %(n)s level.",
                                "The JSON is nested deeper than %(n)s levels.", MAX_DEPTH) % {"n": MAX_DEPTH})


def depth(text: str) -> int:
    """How deep arrays and objects nest in ``text`` (strings skipped), counted without recursion; a text
    that is not JSON gets some number and is refused by the parser afterwards."""
    deepest = level = 0
    for match in _BRACKETS.finditer(_STRINGS.sub("", text)):
        if match.group() in "[{":
            level += 1
            deepest = max(deepest, level)
            if deepest > MAX_DEPTH:
                return deepest
        else:
            level -= 1
    return deepest


def _integer(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise JsonRefused(ngettext("The JSON holds an integer of more than %(n)s digit.",
                                   "The JSON holds an integer of more than %(n)s digits.", MAX_INT_DIGITS)
                          % {"n": MAX_INT_DIGITS})
    return int(digits)


def _constant(name: str) -> NoReturn:
    raise JsonRefused(_("The JSON holds %(value)s, which JSON does not allow.") % {"value": name})


def loads(data: bytes | str, *, max_bytes: int | None = None) -> Any:
    """The value of a JSON text, or JsonRefused: over ``max_bytes``, not UTF-8, nested deeper than
    ``MAX_DEPTH``, an integer longer than ``MAX_INT_DIGITS`` digits, NaN or Infinity, or not JSON at all."""
    if max_bytes is not None and len(data) > max_bytes:
        raise too_large(max_bytes)
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise JsonRefused(_("The JSON is not text in UTF-8."), syntax=True) from None
    else:
        text = data
    if depth(text) > MAX_DEPTH:
        raise too_deep()
    try:
        return json.loads(text, parse_int=_integer, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise JsonRefused(_("The text is not JSON (line %(line)s, column %(column)s).")
                          % {"line": exc.lineno, "column": exc.colno}, syntax=True) from None
    except RecursionError:  # cannot happen below MAX_DEPTH; kept so that no text ever gives a 500
        raise too_deep() from None


__all__ = ["MAX_BODY_BYTES", "MAX_DEPTH", "MAX_INT_DIGITS", "JsonRefused", "depth", "loads", "too_large"]
