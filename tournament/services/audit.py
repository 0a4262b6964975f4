"""The audit log: every change of the domain writes one row (who, what, before, after).

Writing a row also moves the tournament's *screen version* forward (one counter per tournament,
:attr:`Tournament.screen_version`), unless the action is one that no screen shows (a slip handed
in): the tablets and the hall display poll that counter and fetch their state again when it moved.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import F, Model

from ..models import AuditLog, Tournament
from . import push, rows

#: Actions that change nothing a screen shows (one per slip: they would move the version all round long; a
#: backup downloaded).
QUIET_ACTIONS = frozenset({"slip.submit", "tournament.backup"})

#: The address of the request being served (set by :class:`tournament.web.client.ClientAddress`; behind a
#: trusted proxy the client's, not the proxy's), written into every audit row of the request.
request_address: ContextVar[str | None] = ContextVar("request_address", default=None)

#: Who does something: the request's user (anonymous for a tablet or a public caller), or None (a task).
Actor = User | AnonymousUser | None


def user_or_none(actor: Actor) -> User | None:
    """The acting user, or None for a task, a tablet or an anonymous caller."""
    return actor if isinstance(actor, User) and actor.is_authenticated else None


def record(actor: Actor, action: str, obj: Model, *, before: object = None, after: object = None,
           tournament: Tournament | None = None) -> AuditLog:
    """Writes the audit row of a change (inside the caller's transaction) and moves the screen version."""
    row = rows.insert(AuditLog(  # SQL written once: a row per slip too
        actor=user_or_none(actor), tournament=tournament, action=action, object_type=type(obj).__name__,
        object_id=str(getattr(obj, "pk", "")), before=before, after=after, address=request_address.get(),
    ))
    if tournament is not None and action not in QUIET_ACTIONS:
        Tournament.objects.filter(pk=tournament.pk).update(screen_version=F("screen_version") + 1)
        push.changed(tournament.pk)  # the screens' streams hear of it when the transaction commits
    return row


def claim(model: type[Model], pk: int, old: str | tuple[str, ...], new: str, **fields: Any) -> bool:
    """``UPDATE … SET status=new WHERE pk AND status IN old``; True when this caller won."""
    olds = (old,) if isinstance(old, str) else old
    return model._default_manager.filter(pk=pk, status__in=olds).update(status=new, **fields) == 1


__all__ = ["QUIET_ACTIONS", "Actor", "claim", "record", "request_address", "user_or_none"]
