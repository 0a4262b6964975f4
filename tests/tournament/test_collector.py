"""The garbage collector of a stream process (:mod:`tournament.collector`)."""

from __future__ import annotations

import gc

from tournament import collector


def test_settle_freezes_what_is_loaded_and_sets_the_thresholds():
    before = gc.get_threshold()
    try:
        collector.settle()
        assert gc.get_threshold() == collector.THRESHOLDS
        assert gc.get_freeze_count() > 10_000  # the modules, settings and tables loaded by now
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
