"""Wrong access codes counted per client address: the tablet login API refuses a client after
:data:`LOGIN_MAX_FAILURES` of them in :data:`LOGIN_WINDOW_SECONDS`, and the login page of a QR link
(``/tablet/login/?code=…``, which looks the code's tournament up for its language) counts with it, so that
neither tells valid codes apart without limit."""

from __future__ import annotations

import hashlib
import logging

from django.core.cache import cache
from django.http import HttpRequest

from .client import client_address

log = logging.getLogger(__name__)

LOGIN_MAX_FAILURES = 10
LOGIN_WINDOW_SECONDS = 300


def login_failures_key(request: HttpRequest) -> str:
    return "api:tablet-login-failures:" + hashlib.sha256(client_address(request).encode()).hexdigest()[:32]


def failures(key: str) -> int:
    try:
        return int(cache.get(key, 0))
    except Exception:  # the cache (Redis) is down: the 40+-bit codes still guard, players can log in
        log.warning("cache unavailable: login attempts not counted", exc_info=True)
        return 0


def too_many(request: HttpRequest) -> bool:
    """This client gave :data:`LOGIN_MAX_FAILURES` wrong codes within the window."""
    return failures(login_failures_key(request)) >= LOGIN_MAX_FAILURES


def count_failure(key: str) -> None:
    try:
        cache.add(key, 0, LOGIN_WINDOW_SECONDS)
        cache.incr(key)
    except ValueError:  # expired in between
        cache.set(key, 1, LOGIN_WINDOW_SECONDS)
    except Exception:
        log.warning("cache unavailable: a wrong access code not counted", exc_info=True)


__all__ = ["LOGIN_MAX_FAILURES", "LOGIN_WINDOW_SECONDS", "count_failure", "failures", "login_failures_key",
           "too_many"]
