"""Every state change of the tournament domain, one module per aggregate.

``tournaments`` (set-up, tables), ``players`` (registration, access codes, tablet tokens), ``games``
(start, end, penalties), ``rounds`` (draw → open → close → review → top → publish, cancel, no-move
redraw), ``judging`` (verdicts, overrides, solos), ``slips`` (hand-in, idempotency, live count),
``solving`` (the round's moves and its ranked tops), ``standings`` (the bridge from the rows to
:mod:`scoring.sheet`), ``audit`` (the log every change writes), ``jobs`` (Celery tasks sent after
commit), ``reading`` (what the printed documents read).

Each change runs in a transaction and writes an audit row; a refusal raises
:class:`tournament.errors.ServiceError` with a code of the one catalogue. Status changes are *claims*
(``UPDATE … WHERE status = old``) so that two arbiters, or an arbiter and a task, cannot both move a
round forward. Nothing here knows about HTTP, pages or PDFs.
"""

from . import (
           actions,
           audit,
           games,
           jobs,
           judging,
           players,
           reading,
           rounds,
           slips,
           solving,
           standings,
           tournaments,
)

__all__ = ["actions", "audit", "games", "jobs", "judging", "players", "reading", "rounds", "slips", "solving",
           "standings", "tournaments"]
