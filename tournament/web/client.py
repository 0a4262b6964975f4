"""The address of the person behind a request, as rate limits and the audit log see it.

Behind a reverse proxy every request comes from the proxy's address: ten wrong access codes typed on one
tablet would lock out the whole hall. The address is then read from ``X-Forwarded-For`` — but only when the
request comes from a proxy the settings trust (``TRUSTED_PROXIES``, env ``DJANGO_TRUSTED_PROXIES``: addresses
or networks), and only the part the trusted proxies wrote: the right-most address that is not a trusted
proxy. Without trusted proxies the header is ignored (anyone can send it).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from functools import cache

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase

from ..services import audit

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@cache
def _networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(e.strip(), strict=False) for e in entries if e.strip())


def _trusted(address: str, networks: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip in net for net in networks)


def client_address(request: HttpRequest) -> str:
    """The client's address: ``REMOTE_ADDR``, or behind a trusted proxy the nearest untrusted address of
    ``X-Forwarded-For``."""
    remote = str(request.META.get("REMOTE_ADDR") or "unknown")
    networks = _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ())))
    if not networks or not _trusted(remote, networks):
        return remote
    chain = [a.strip() for a in str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",") if a.strip()]
    for address in reversed(chain):
        if not _trusted(address, networks):
            return address
    return chain[0] if chain else remote


class ClientAddress:
    """Middleware: the request's client address for the audit rows written while it is served."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        token = audit.request_address.set(client_address(request)[:64])
        try:
            return self.get_response(request)
        finally:
            audit.request_address.reset(token)


__all__ = ["ClientAddress", "client_address"]
