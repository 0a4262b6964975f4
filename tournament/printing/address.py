"""The address the tablets open, printed in the access cards' QR codes.

It is not the arbiter's browser address (often ``localhost``): the print form offers the machine's address
on the hall's network (:func:`lan_address`, found without sending anything) with the port the site is
reached on, and checks what the arbiter types (:func:`clean_address`: ``http(s)://host[:port]``).
"""

from __future__ import annotations

import ipaddress
import re
import socket
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from .layout import tr as _

if TYPE_CHECKING:
    from django.http import HttpRequest

#: A private address that a UDP socket is "connected" to, to learn the interface the system would use:
#: connecting a UDP socket sends nothing, so this works without a network (and without reaching it).
PROBE = ("10.255.255.255", 1)

_HOST = re.compile(r"^(?=.{1,253}$)([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}"
                   r"[A-Za-z0-9])?)*\.?$")


class AddressError(ValueError):
    """An address the tablets cannot be sent to; the message (translated) says what is expected."""


def _usable(ip: str) -> bool:
    try:
        addr = ipaddress.ip_address(ip)
    except ValueError:
        return False
    return not (addr.is_loopback or addr.is_unspecified or addr.is_link_local or addr.is_multicast)


def lan_address() -> str | None:
    """This machine's IPv4 address on its network, or None: the interface a UDP socket "connected" to a
    private address would use (nothing is sent), else the host name's addresses."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE)
            ip = probe.getsockname()[0]
        if _usable(ip):
            return str(ip)
    except OSError:
        pass
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET, socket.SOCK_STREAM)
    except OSError:
        return None
    return next((str(info[4][0]) for info in infos if _usable(str(info[4][0]))), None)


def suggested_address(request: HttpRequest) -> str:
    """What the print form offers: ``<scheme>://<LAN address>:<the port the site is reached on>``, or the
    request's own host when the machine's address cannot be found."""
    ip = lan_address()
    if ip is None:
        return request.build_absolute_uri("/").rstrip("/")
    port = str(request.get_port() or "")
    default = {"http": "80", "https": "443"}.get(request.scheme or "http")
    return f"{request.scheme}://{ip}" + (f":{port}" if port and port != default else "")


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


__all__ = ["PROBE", "AddressError", "clean_address", "lan_address", "suggested_address"]
