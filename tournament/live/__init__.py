"""What the screens show, live: the state version every tablet and display polls, the one builder of
the tablet's and the display's state, and the WSGI layer that answers the polls before Django.

``version``: the tournament's screen version (a counter the audited services move) and the public
round, memoised per process for a fraction of a second; ``tablet``: the tablet's state (the Django view
and the WSGI layer both call :func:`tablet.tablet_state`); ``display``: the projector's state;
``views``: the version poll; ``wsgi``: :class:`wsgi.FastVersionPolls`; ``memo``: computed once per
key when many threads ask at once. :func:`reset` forgets every memo (tests).
"""

from __future__ import annotations

from . import tablet, version


def reset() -> None:
    """Forgets what this process memoised (versions, slugs, shared tablet states, judged halls)."""
    version.reset()
    tablet.reset()
