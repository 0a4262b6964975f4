"""The API's JSON bodies read within limits (``tournament/safejson.py``): size, depth, integer digits.

A body refused here is a 400 in the API's usual shape, ``{"detail", "code": "parse_error"}`` (DRF's code for a bad body), its detail in
the request's language — never a 500 for a body nested 10,000 deep nor a body read whole whatever its size.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from .. import safejson


def read_json(stream: IO[bytes] | None, limit: int = safejson.MAX_BODY_BYTES) -> Any:
    """The JSON value of a request body of at most ``limit`` bytes (read no further); ParseError otherwise."""
    data = stream.read(limit + 1) if stream is not None else b""
    try:
        return safejson.loads(data, max_bytes=limit)
    except safejson.JsonRefused as exc:
        raise ParseError(str(exc)) from None


class LimitedJSONParser(JSONParser):
    """DRF's JSON parser with the limits of ``safejson`` (the default parser of every API view)."""

    def parse(self, stream: IO[bytes] | None, media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:
        return read_json(stream)


__all__ = ["LimitedJSONParser", "read_json"]
