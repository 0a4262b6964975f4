"""Which parts of a request a trusted reverse proxy wrote: the client's address and the scheme.

Behind a reverse proxy every request comes from the proxy's address, and only the proxy knows whether the
client spoke HTTPS. ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed only when the request comes
from a proxy the settings trust (``TRUSTED_PROXIES``, env ``DJANGO_TRUSTED_PROXIES``: addresses or networks);
from anyone else they are ignored, since any client can send them. Pure functions of the request's WSGI
environ (``request.META``), shared by the pages (``tournament/web/client.py``) and the WSGI layer that answers
polls before Django (``tournament/live/wsgi.py``). A trusted proxy also says when a request reached the hall's
front door (``X-Request-Start``): a tablet's slip is late or not by that time (:func:`door_time`).
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

#: The environ key that says "a trusted proxy received this request over HTTPS". It has no ``HTTP_`` prefix,
#: so no client can send it as a header; ``ForwardedScheme`` sets or removes it on every request, and
#: ``SECURE_PROXY_SSL_HEADER`` names it (``DJANGO_HTTPS=1``) so that Django's ``is_secure()`` reads it.
FORWARDED_HTTPS = "HALL_FORWARDED_HTTPS"


#: The environ key where the WSGI entry (``tournament.live.wsgi.FastVersionPolls``) writes when it received the
#: request (a float, epoch seconds); no ``HTTP_`` prefix, so no client can send it.
DOOR_TIME = "HALL_DOOR_TIME"
#: The ASGI scope key where the ASGI application (``tournament.live.stream.StreamApp``) writes when the request
#: reached it; a2wsgi hands the scope to Django as ``environ["asgi.scope"]``.
SCOPE_DOOR = "hall.door"
#: How far back a proxy's request start is believed (a request does not wait at the door longer than this).
DOOR_WINDOW_SECONDS = 300.0


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


def request_start(value: str) -> float | None:
    """Epoch seconds of nginx's ``X-Request-Start: t=<$msec>`` (seconds with milliseconds), or None."""
    text = value.strip().removeprefix("t=")
    try:
        seconds = float(text)
    except ValueError:
        return None
    return seconds if seconds == seconds and 0 < seconds < 1e11 else None  # not NaN, not in microseconds


def door_time(meta: Mapping[str, Any], proxies: Iterable[str], now: float | None = None) -> float:
    """When the request reached the hall's front door (epoch seconds): the request start a trusted proxy wrote
    (``X-Request-Start``, nginx's ``$msec``), else when this server's ASGI application or WSGI entry received
    it, else now. Never later than now, and a proxy's time never more than :data:`DOOR_WINDOW_SECONDS` before."""
    now = time.time() if now is None else now
    nets = networks(proxies)
    if nets and trusted(str(meta.get("REMOTE_ADDR") or ""), nets):
        started = request_start(str(meta.get("HTTP_X_REQUEST_START", "")))
        if started is not None and now - DOOR_WINDOW_SECONDS <= started:
            return min(started, now)
    scope = meta.get("asgi.scope")
    received = scope.get(SCOPE_DOOR) if isinstance(scope, Mapping) else None
    if received is None:
        received = meta.get(DOOR_TIME)
    return min(float(received), now) if isinstance(received, float) else now


__all__ = ["DOOR_TIME", "DOOR_WINDOW_SECONDS", "FORWARDED_HTTPS", "SCOPE_DOOR", "client_address", "door_time",
           "forwarded_https", "networks", "request_start", "trusted"]
