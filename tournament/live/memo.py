"""Values computed once per key: within a process (:class:`OnceMemo`, also when many threads ask for it at the
same moment) and across processes (:func:`shared_once`, through the cache).

After a change, 1,500 tablets ask for the same new state within a second; a gunicorn process has several
threads. Without this, each thread that misses the memo computes the value (standings of 1,500 players,
every slip of a round) at the same time as the others, and the process spends seconds doing the same
work eight times over. With several web nodes the same holds between them: each node's streams need the
new state at the same moment, and the first one to ask computes it while the others wait for the cache.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar, cast

from django.core.cache import cache

log = logging.getLogger(__name__)

T = TypeVar("T")


class OnceMemo(Generic[T]):
    """A small dict of computed values; :meth:`get` computes a missing key in one thread, the others wait."""

    def __init__(self, keep: int = 16):
        self.keep = keep
        self.values: dict[Hashable, T] = {}
        self._locks: dict[Hashable, threading.Lock] = {}
        self._guard = threading.Lock()

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        try:
            return self.values[key]
        except KeyError:
            pass
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self.values:
                value = compute()
                with self._guard:
                    if len(self.values) >= self.keep:
                        self.values.clear()
                    self.values[key] = value
            value = self.values[key]
        with self._guard:
            self._locks.pop(key, None)
        return value

    def clear(self) -> None:
        with self._guard:
            self.values.clear()


#: How long a process waits for another one computing the same value before it computes it itself.
SHARED_WAIT_SECONDS = 5.0


def shared_once(key: str, compute: Callable[[], T], ttl: float) -> T:
    """The value under ``key`` in the cache, else computed by one process (a lock in the cache) while the
    others wait for it, and kept for ``ttl`` seconds. With the cache away, each process computes it."""
    try:
        found = cache.get(key)
        if found is not None:
            return cast(T, found)
        mine = cache.add(f"{key}:computing", 1, SHARED_WAIT_SECONDS)
    except Exception:  # the cache (Redis) is down: screens carry on without it
        log.warning("cache unavailable: %s computed without it", key, exc_info=True)
        return compute()
    if not mine:
        end = time.monotonic() + SHARED_WAIT_SECONDS
        while time.monotonic() < end:
            time.sleep(0.02)
            try:
                found = cache.get(key)
            except Exception:
                break
            if found is not None:
                return cast(T, found)
    try:
        value = compute()
    except BaseException:
        if mine:  # the others compute it themselves, at once
            _let_go(key)
        raise
    try:
        cache.set(key, cast(Any, value), ttl)
    except Exception:
        log.warning("cache unavailable: %s not kept", key, exc_info=True)
    if mine:
        _let_go(key)
    return value


def _let_go(key: str) -> None:
    with contextlib.suppress(Exception):
        cache.delete(f"{key}:computing")
