"""Python's cyclic garbage collector in a stream process (the ASGI application, :mod:`tournament.asgi`), and in
the load generator's processes (``tests/load/fleet.py``). No Django here: the generator imports it as it is.

A web node holding 5,000 streams keeps some 300,000 objects alive for hours (each stream's task, coroutine,
protocol, scope, wake-up event). With the interpreter's defaults (a young collection every 700 allocations,
a full one whenever a quarter as many objects again have survived) a full collection walks all of them:
in a 10,000-tablet run (docs/en/developer/performance.md) each node spent 9–10 s of its life in the
collector, 28 full collections of about 0.2 s each, some of them in the middle of a publication.

:func:`settle`, called once the application is loaded, takes the loaded modules, settings and tables out of
every collection (``gc.freeze``: they live as long as the process) and lets the young generation grow to
:data:`THRESHOLDS`\\[0] objects before it is collected; objects freed by their reference count (most of them)
are freed at once as before. The same run: 3–4 s of collection per node, no full collection in a round.
"""

from __future__ import annotations

import gc

#: ``gc.set_threshold``: young collections every 50,000 allocations, the middle generation every 20 of them,
#: the old one every 10 of those (and only when a quarter of its size has been added since the last).
THRESHOLDS = (50_000, 20, 10)


def settle(thresholds: tuple[int, int, int] = THRESHOLDS) -> None:
    """What is loaded now is never collected (it is never garbage); then the collector's thresholds."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)


__all__ = ["THRESHOLDS", "settle"]
