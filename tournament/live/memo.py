"""A per-process memo computed once per key, also when many threads ask for it at the same moment.

After a change, 1,500 tablets ask for the same new state within a second; a gunicorn process has several
threads. Without this, each thread that misses the memo computes the value (standings of 1,500 players,
every slip of a round) at the same time as the others, and the process spends seconds doing the same
work eight times over.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

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
