"""Which parts of a request a trusted reverse proxy wrote: the client's address and the scheme.

Behind a reverse proxy every request comes from the proxy's address, and only the proxy knows whether the
client spoke HTTPS. ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed only when the request comes
from a proxy the settings trust (``TRUSTED_PROXIES``, env ``DJANGO_TRUSTED_PROXIES``: addresses or networks);
from anyone else they are ignored, since any client can send them. Pure functions of the request's WSGI
environ (``request.META``), shared by the pages (``tournament/web/client.py``) and the WSGI layer that answers
polls before Django (``tournament/live/wsgi.py``).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

#: The environ key that says "a trusted proxy received this request over HTTPS". It has no ``HTTP_`` prefix,
#: so no client can send it as a header; ``ForwardedScheme`` sets or removes it on every request, and
#: ``SECURE_PROXY_SSL_HEADER`` names it (``DJANGO_HTTPS=1``) so that Django's ``is_secure()`` reads it.
FORWARDED_HTTPS = "HALL_FORWARDED_HTTPS"


@cache
def _networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(e.strip(), strict=False) for e in entries if e.strip())


def networks(entries: Iterable[str]) -> tuple[Network, ...]:
    """The trusted proxies' networks of the setting's entries (addresses or networks)."""
    return _networks(tuple(entries))


def trusted(address: str, nets: tuple[Network, ...]) -> bool:
    """Whether ``address`` is one of the trusted proxies."""
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip in net for net in nets)


def client_address(meta: Mapping[str, Any], proxies: Iterable[str]) -> str:
    """``REMOTE_ADDR``, or behind a trusted proxy the nearest untrusted address of ``X-Forwarded-For``."""
    remote = str(meta.get("REMOTE_ADDR") or "unknown")
    nets = networks(proxies)
    if not nets or not trusted(remote, nets):
        return remote
    chain = [a.strip() for a in str(meta.get("HTTP_X_FORWARDED_FOR", "")).split(",") if a.strip()]
    for address in reversed(chain):
        if not trusted(address, nets):
            return address
    return chain[0] if chain else remote


def forwarded_https(meta: Mapping[str, Any], proxies: Iterable[str]) -> bool:
    """Whether a trusted proxy says the client spoke HTTPS: ``X-Forwarded-Proto: https`` from a trusted
    proxy. The right-most value counts (the one the nearest proxy wrote), as for the address."""
    nets = networks(proxies)
    if not nets or not trusted(str(meta.get("REMOTE_ADDR") or ""), nets):
        return False
    values = [v.strip().lower() for v in str(meta.get("HTTP_X_FORWARDED_PROTO", "")).split(",") if v.strip()]
    return bool(values) and values[-1] == "https"


__all__ = ["FORWARDED_HTTPS", "client_address", "forwarded_https", "networks", "trusted"]
