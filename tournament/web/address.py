"""This server's address on the hall's network, for what other machines open: the tablets (the access cards'
QR codes, the print page) and the other halls of a simultaneous game (where they send their results).

The arbiter's browser often reaches the server as ``localhost``, an address no other machine can use: the
pages offer the machine's address on its network instead (:func:`lan_address`, found without sending
anything), with the port the site is reached on (:func:`suggested_address`); an address for another hall's
server keeps the name the browser used unless it is this machine itself (:func:`address_of`).
"""

from __future__ import annotations

import ipaddress
import socket
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from django.http import HttpRequest

#: A private address that a UDP socket is "connected" to, to learn the interface the system would use:
#: connecting a UDP socket sends nothing, so this works without a network (and without reaching it).
PROBE = ("10.255.255.255", 1)


def usable(ip: str) -> bool:
    """Whether an address is one another machine could reach this one by (not loopback, link-local, …)."""
    try:
        addr = ipaddress.ip_address(ip)
    except ValueError:
        return False
    return not (addr.is_loopback or addr.is_unspecified or addr.is_link_local or addr.is_multicast)


def probed_address() -> str | None:
    """The IPv4 address of the interface a UDP socket "connected" to a private address would use, or None (no
    route): nothing is sent and no name is looked up."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE)
            ip = str(probe.getsockname()[0])
    except OSError:
        return None
    return ip if usable(ip) else None


def lan_address() -> str | None:
    """This machine's IPv4 address on its network, or None: the probed one (:func:`probed_address`), else the
    host name's addresses."""
    ip = probed_address()
    if ip is not None:
        return ip
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET, socket.SOCK_STREAM)
    except OSError:
        return None
    return next((str(info[4][0]) for info in infos if usable(str(info[4][0]))), None)


def suggested_address(request: HttpRequest) -> str:
    """``<scheme>://<LAN address>:<the port the site is reached on>``, or the request's own host when the
    machine's address cannot be found (no path, no trailing slash)."""
    ip = lan_address()
    if ip is None:
        return request.build_absolute_uri("/").rstrip("/")
    try:  # the port the browser used (its Host), else the one the server listens on
        port = str(urlsplit(f"//{request.get_host()}").port or request.get_port() or "")
    except ValueError:
        port = str(request.get_port() or "")
    default = {"http": "80", "https": "443"}.get(request.scheme or "http")
    return f"{request.scheme}://{ip}" + (f":{port}" if port and port != default else "")


def local_only(host: str) -> bool:
    """Whether a host name (as a browser reached the server: ``localhost:8000``, ``[::1]``) means this machine
    itself, an address no other machine can use."""
    name = (urlsplit(f"//{host}").hostname or "").rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        addr = ipaddress.ip_address(name)
    except ValueError:
        return False
    return addr.is_loopback or addr.is_unspecified


def address_of(request: HttpRequest, path: str) -> str:
    """The absolute address of ``path`` on this server for another machine (another hall's server): the address
    the browser reached it by, unless that is this machine itself (``localhost``, a loopback address): then
    the machine's address on its network (:func:`suggested_address`)."""
    if local_only(request.get_host()):
        return suggested_address(request) + path
    return request.build_absolute_uri(path)


__all__ = ["PROBE", "address_of", "lan_address", "local_only", "probed_address", "suggested_address", "usable"]
