"""gunicorn's configuration hooks for the web server ``serve`` and ``./hall run`` start (``-c
python:tournament.management.webconf``): no garbage collection while the application loads, then its objects
frozen before the workers are forked.

Loading the application (``--preload``) makes a few hundred thousand objects that all live as long as the
process: collecting meanwhile is wasted work (a tenth of the start-up). Once loaded they are moved out of the
collector's way (``gc.freeze``, Python's documentation, "gc"): the forked workers' collections never touch
them, so the pages of memory they share with the master stay shared.
"""

from __future__ import annotations

import gc
from typing import Any

gc.disable()


def when_ready(server: Any) -> None:
    """The master has loaded the application: freeze what it made, and collect again from here on."""
    gc.freeze()
    gc.enable()
