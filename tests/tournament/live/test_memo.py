"""tournament/live/memo.py: one computation per key and process, however many threads ask at once; one per key
across processes through the cache."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

from tournament.live.memo import OnceMemo


def test_threads_asking_at_once_compute_once():
    memo, calls, barrier = OnceMemo(), [], threading.Barrier(8)
    results = []

    def compute():
        calls.append(threading.get_ident())
        time.sleep(0.2)  # long enough for every thread to arrive while it runs
        return {"standings": 1500}

    def ask():
        barrier.wait(5)
        results.append(memo.get("v1", compute))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    assert len(calls) == 1 and len(results) == 8 and all(r is results[0] for r in results)
    assert memo.get("v1", lambda: 1 / 0) is results[0]  # kept: no second computation


def test_a_failed_computation_is_not_kept_and_the_memo_stays_small():
    memo = OnceMemo(keep=3)

    def boom():
        raise RuntimeError("database down")

    try:
        memo.get("v", boom)
    except RuntimeError:
        pass
    assert memo.get("v", lambda: "ok") == "ok"
    for i in range(10):
        memo.get(i, lambda i=i: i)
    assert len(memo.values) <= 3
    memo.clear()
    assert memo.values == {}


def test_one_process_computes_a_shared_value_the_others_wait_for_it(local_cache, monkeypatch):
    """:func:`shared_once`: of several callers (nodes) missing the cache at the same moment, one computes, the
    others take its value from the cache; with the cache away each computes it."""
    from django.core.cache import cache

    from tournament.live import memo

    calls: list[int] = []
    barrier = threading.Barrier(4)

    def compute() -> dict:
        calls.append(1)
        time.sleep(0.2)
        return {"standings": 1500}

    def node() -> dict:
        barrier.wait()
        return memo.shared_once("test-shared:1", compute, 60)

    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda _i: node(), range(4)))
    assert got == [{"standings": 1500}] * 4 and len(calls) == 1
    assert cache.get("test-shared:1:computing") is None  # the lock is let go

    class Down:
        def __getattr__(self, _name: str):
            raise ConnectionError("the cache is down")

    monkeypatch.setattr(memo, "cache", Down())
    assert memo.shared_once("test-shared:2", compute, 60) == {"standings": 1500} and len(calls) == 2


def test_a_failed_shared_computation_lets_the_others_compute_at_once(local_cache):
    from tournament.live import memo

    def fails() -> dict:
        raise RuntimeError("the database went away")

    try:
        memo.shared_once("test-shared:3", fails, 60)
    except RuntimeError:
        pass
    began = time.monotonic()
    assert memo.shared_once("test-shared:3", lambda: {"ok": True}, 60) == {"ok": True}
    assert time.monotonic() - began < 1  # no wait for a lock nobody holds any more
