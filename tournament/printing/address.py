"""The address the tablets open, printed in the access cards' QR codes.

It is not the arbiter's browser address (often ``localhost``): the print form offers the machine's address
on the hall's network (:func:`tournament.web.address.suggested_address`) and checks what the arbiter types
(:func:`clean_address`: ``http(s)://host[:port]``).
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

from .layout import tr as _

_HOST = re.compile(r"^(?=.{1,253}$)([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}"
                   r"[A-Za-z0-9])?)*\.?$")


class AddressError(ValueError):
    """An address the tablets cannot be sent to; the message (translated) says what is expected."""


def clean_address(value: str) -> str:
    """``value`` as the cards print it (``http(s)://host[:port]``, no path, query or user), or
    :class:`AddressError` with a translated explanation."""
    text = (value or "").strip()
    refused = AddressError(_("The tablets' address must look like http://192.168.1.10:8000: http:// or "
                             "https://, the machine's name or address, an optional port, nothing after it."))
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise refused from None
    host = parts.hostname or ""
    if parts.scheme not in ("http", "https") or not host or parts.username is not None or parts.password is not None:
        raise refused
    if parts.path not in ("", "/") or parts.query or parts.fragment or text.endswith(("?", "#")):
        raise refused
    if port == 0 or not (_is_ip(host) or (_HOST.match(host) and not re.fullmatch(r"[0-9.]+", host))):
        raise refused
    shown = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{shown}" + (f":{port}" if port is not None else "")


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


__all__ = ["AddressError", "clean_address"]
