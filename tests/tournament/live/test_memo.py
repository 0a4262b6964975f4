"""tournament/memo.py: one computation per key and process, however many threads ask at once."""

from __future__ import annotations

import threading
import time

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
