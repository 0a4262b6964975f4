"""Wrong arbiter passwords counted per account and per client address, wherever a password is checked.

An arbiter's password opens every tournament he runs: :data:`MAX_FAILURES` wrong passwords for one account,
or from one client address (behind a trusted proxy the client's own, ``client.py``), within
:data:`WINDOW_SECONDS` lock that account, or that address, until the window that began with the first of
them ends — the right password included. :class:`LimitedModelBackend` (``AUTHENTICATION_BACKENDS``) applies it
to every password check (the console's login page, ``/api/arbiter/token/``, Django's admin); the pages ask
:func:`wait_seconds` first to say when to try again. The counts live in Django's cache (the embedded file
cache or Redis); with the cache down, passwords are checked without a limit (logged), as the tablets' codes
are. The tablets' access codes have their own limit (``attempts.py``).
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils.translation import ngettext

from .client import client_address

log = logging.getLogger(__name__)

MAX_FAILURES = 10
WINDOW_SECONDS = 15 * 60


def _keys(username: str, request: HttpRequest | None) -> list[str]:
    """The counters a password check adds to: the account's and, with a request, the client address's."""
    account = hashlib.sha256(username.strip().casefold().encode()).hexdigest()[:32]
    keys = [f"arbiter-password:account:{account}"]
    if request is not None:
        address = hashlib.sha256(client_address(request).encode()).hexdigest()[:32]
        keys.append(f"arbiter-password:address:{address}")
    return keys


def _wait(key: str, now: float) -> int:
    count, since = cache.get(key, 0), cache.get(key + ":since")
    if int(count or 0) < MAX_FAILURES or since is None:
        return 0
    return max(1, math.ceil(float(since) + WINDOW_SECONDS - now))


def wait_seconds(username: str, request: HttpRequest | None) -> int:
    """Seconds until this account and this address may try a password again; 0: now."""
    try:
        now = time.time()
        return max(_wait(key, now) for key in _keys(username, request))
    except Exception:  # the cache (Redis) is down: passwords are still checked, without a limit
        log.warning("cache unavailable: arbiter password attempts not limited", exc_info=True)
        return 0


def count_failure(username: str, request: HttpRequest | None) -> None:
    """One wrong password more for this account and this address (a window starts with the first)."""
    now = time.time()
    try:
        for key in _keys(username, request):
            cache.add(key + ":since", now, WINDOW_SECONDS)
            since = float(cache.get(key + ":since", now))
            left = max(1, math.ceil(since + WINDOW_SECONDS - now))
            if not cache.add(key, 1, left):
                try:
                    cache.incr(key)
                except ValueError:  # expired in between
                    cache.set(key, 1, left)
                cache.touch(key, left)  # incr may give the key the cache's default timeout: the window's end
    except Exception:
        log.warning("cache unavailable: a wrong arbiter password not counted", exc_info=True)


def forget_account(username: str) -> None:
    """The account's count after its right password (an address keeps its count)."""
    try:
        key = _keys(username, None)[0]
        cache.delete_many([key, key + ":since"])
    except Exception:
        log.warning("cache unavailable: arbiter password attempts not reset", exc_info=True)


def retry_message(seconds: int) -> str:
    """What the login page and the API say while locked, in the active language."""
    minutes = max(1, math.ceil(seconds / 60))
    return ngettext("Too many wrong passwords for this account or from this address: try again in %(n)s minute.",
                    "Too many wrong passwords for this account or from this address: try again in %(n)s minutes.",
                    minutes) % {"n": minutes}


class LimitedModelBackend(ModelBackend):
    """Django's password check, refused while the account or the address is locked; failures counted."""

    def authenticate(self, request: HttpRequest | None, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> Any:
        name = str(username if username is not None else kwargs.get("username", "") or "")
        if password is None or not name:
            return None
        if wait_seconds(name, request):
            raise PermissionDenied  # stops every backend: the right password is refused as well until then
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            count_failure(name, request)
        else:
            forget_account(name)
        return user


__all__ = ["MAX_FAILURES", "WINDOW_SECONDS", "LimitedModelBackend", "count_failure", "forget_account",
           "retry_message", "wait_seconds"]
