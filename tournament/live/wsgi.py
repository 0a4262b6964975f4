"""Version polls answered before Django: the WSGI layer in front of the application.

Every tablet and display asks about once a second whether the tournament's state changed
(``GET /tablet/version/<slug>/`` or ``/display/<slug>/version/`` with ``If-None-Match``). Almost
every answer is ``304 Not Modified``. Going through Django's URL resolver, middleware and view for
each of 1,500 polls a second costs most of a core; here, when this process knows the tournament's
current version and public round (:func:`tournament.live.version.known_screen_state`, refreshed by
the Django view every :data:`~tournament.live.version.VERSION_TTL` seconds), the answer is sent at
once with the same headers and body the view would send: a 304 when the poll already has the
version, else the 200 with the version and the public round (a round's open reaches 1,500 tablets
this way, with no Django request at all). Every other request, and every poll of a tournament this
process has no fresh memo of, goes to Django.

After a judged round's version has been read once through Django, this process also answers
``GET /api/tablet/state/?v=<that version>`` here while the version is current: every player's slip,
verdict and result are in the memo (:func:`tournament.live.tablet.fast_state`), and the token is
checked against the roster read with it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING
from urllib.parse import parse_qs

from django.conf import settings

from .. import proxies
from . import tablet, version

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

#: The tablet's state, answered here for a judged round (a publication read by 1,500 tablets at once).
STATE_PATH = "/api/tablet/state/"
#: The two polled paths (Django's ``<slug:slug>`` is ``[-a-zA-Z0-9_]+``).
POLL_PATH = re.compile(r"^/(?:tablet/version/([-a-zA-Z0-9_]+)|display/([-a-zA-Z0-9_]+)/version)/$")


def security_headers() -> list[tuple[str, str]]:
    """The headers Django's security, clickjacking and Content-Security-Policy middleware add to every answer
    (the policy is written as ``tournament.web.csp.header_value`` writes it, which this layer may not import)."""
    out = [("Cache-Control", "no-cache")]
    if settings.SECURE_CONTENT_TYPE_NOSNIFF:
        out.append(("X-Content-Type-Options", "nosniff"))
    if settings.SECURE_REFERRER_POLICY:
        policy = settings.SECURE_REFERRER_POLICY
        out.append(("Referrer-Policy", policy if isinstance(policy, str) else ",".join(policy)))
    if settings.SECURE_CROSS_ORIGIN_OPENER_POLICY:
        out.append(("Cross-Origin-Opener-Policy", settings.SECURE_CROSS_ORIGIN_OPENER_POLICY))
    out.append(("X-Frame-Options", getattr(settings, "X_FRAME_OPTIONS", "DENY")))
    directives: dict[str, list[str] | str] = getattr(settings, "SECURE_CSP", {})
    if directives:
        out.append(("Content-Security-Policy", "; ".join(
            " ".join([name, *([sources] if isinstance(sources, str) else sources)])
            for name, sources in directives.items())))
    return out


class FastVersionPolls:
    """WSGI middleware: ``304`` for a version poll whose ``If-None-Match`` is this process's current version."""

    def __init__(self, app: WSGIApplication):
        self.app = app
        self.static_headers = security_headers()
        self.hsts = None
        if settings.SECURE_HSTS_SECONDS:
            value = f"max-age={settings.SECURE_HSTS_SECONDS}"
            if settings.SECURE_HSTS_INCLUDE_SUBDOMAINS:
                value += "; includeSubDomains"
            if settings.SECURE_HSTS_PRELOAD:
                value += "; preload"
            self.hsts = value
        self.redirect = settings.SECURE_SSL_REDIRECT  # plain-HTTP polls go to Django, which redirects them
        self.answered = 0  # polls answered here (this process), for the load test and the tests

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        environ[proxies.DOOR_TIME] = time.time()  # when this server received it (a tablet's slip is late by it)
        answered = self.answer_here(environ, start_response)
        return self.app(environ, start_response) if answered is None else answered

    def answer_here(self, environ: WSGIEnvironment, start_response: StartResponse) -> list[bytes] | None:
        """The answer when this layer can give it (a known version, a judged round's state), else None:
        Django's to give (also called by the ASGI application, without a thread, for the streams' nodes)."""
        if environ.get("REQUEST_METHOD") == "GET" and (not self.redirect or self.is_secure(environ)):
            if environ.get("PATH_INFO") == STATE_PATH:
                body = self.tablet_state(environ)
                return None if body is None else self.json(environ, start_response, body)
            match = POLL_PATH.match(environ.get("PATH_INFO", ""))
            if match:
                slug = match.group(1) or match.group(2)
                tid = version.known_tournament_id(slug)
                known = version.known_screen_state(tid) if tid is not None else None
                if known is not None:
                    return self.answer(environ, start_response, *known)
        return None

    def answer(self, environ: WSGIEnvironment, start_response: StartResponse, current: str,
               rnd: version.PublicRound | None) -> list[bytes]:
        """The 304 (the poll has this version) or the 200 with the version's body, as the Django view."""
        etag = version.etag_of(current)
        fresh = version.matches(environ.get("HTTP_IF_NONE_MATCH") or "", etag)
        headers = [("ETag", etag), ("X-Server-Time", str(int(time.time() * 1000))), *self.static_headers]
        if self.hsts and self.is_secure(environ):
            headers.append(("Strict-Transport-Security", self.hsts))
        self.answered += 1
        if fresh:
            start_response("304 Not Modified", headers)
            return []
        body = version.version_body(current, rnd)
        start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                                  *headers])
        return [body]

    @staticmethod
    def tablet_state(environ: WSGIEnvironment) -> bytes | None:
        """A judged round's tablet state from the process memo (:func:`tablet.fast_state`), else None."""
        if "text/html" in environ.get("HTTP_ACCEPT", ""):
            return None  # the browsable API: Django's
        auth = environ.get("HTTP_AUTHORIZATION", "").split()
        if len(auth) != 2 or auth[0].lower() != "tablet":
            return None
        seen = parse_qs(environ.get("QUERY_STRING", "")).get("v", [""])[0].strip().removeprefix("W/").strip('"')
        return tablet.fast_state(auth[1], seen) if seen else None

    def json(self, environ: WSGIEnvironment, start_response: StartResponse, body: bytes) -> list[bytes]:
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                   ("Vary", "Accept, Accept-Language"),
                   ("Allow", "GET, HEAD, OPTIONS"), *self.static_headers]
        if self.hsts and self.is_secure(environ):
            headers.append(("Strict-Transport-Security", self.hsts))
        self.answered += 1
        start_response("200 OK", headers)
        return [body]

    @staticmethod
    def is_secure(environ: WSGIEnvironment) -> bool:
        # DJANGO_HTTPS=1: X-Forwarded-Proto only from a trusted proxy (tournament/proxies.py)
        if settings.SECURE_PROXY_SSL_HEADER and proxies.forwarded_https(environ, settings.TRUSTED_PROXIES):
            return True
        return environ.get("wsgi.url_scheme") == "https"
