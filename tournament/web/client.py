"""The address of the person behind a request, as rate limits and the audit log see it.

Behind a reverse proxy every request comes from the proxy's address: ten wrong access codes typed on one
tablet would lock out the whole hall. The address is then read from ``X-Forwarded-For`` — but only when the
request comes from a proxy the settings trust (``TRUSTED_PROXIES``, env ``DJANGO_TRUSTED_PROXIES``: addresses
or networks), and only the part the trusted proxies wrote: the right-most address that is not a trusted
proxy. Without trusted proxies the header is ignored (anyone can send it). ``X-Forwarded-Proto`` likewise
(``ForwardedScheme``). The rule itself is ``tournament/proxies.py``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase

from .. import proxies
from ..services import audit


def client_address(request: HttpRequest) -> str:
    """The client's address: ``REMOTE_ADDR``, or behind a trusted proxy the nearest untrusted address of
    ``X-Forwarded-For``."""
    return proxies.client_address(request.META, getattr(settings, "TRUSTED_PROXIES", ()))


class ForwardedScheme:
    """Middleware, first of all: ``X-Forwarded-Proto: https`` makes a request secure only when it comes from a
    trusted proxy. It sets (or removes) ``proxies.FORWARDED_HTTPS``, the key ``SECURE_PROXY_SSL_HEADER`` names,
    so that a client that sends the header itself still gets the redirect to HTTPS and no secure cookie."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if proxies.forwarded_https(request.META, getattr(settings, "TRUSTED_PROXIES", ())):
            request.META[proxies.FORWARDED_HTTPS] = "https"
        else:
            request.META.pop(proxies.FORWARDED_HTTPS, None)
        return self.get_response(request)


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


__all__ = ["ClientAddress", "ForwardedScheme", "client_address"]
