"""The arbiter's round actions by name: the console's action buttons and the API's round endpoints both
go through :func:`act`, so an action means the same thing wherever it is pressed."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from django.utils.translation import gettext as _

from ..errors import Code, ServiceError
from ..models import Round
from . import audit, judging, rounds


class Action(StrEnum):
    OPEN = "open"
    CLOSE = "close"
    JUDGE = "judge"
    REVIEW = "review"
    TOP = "top"
    PUBLISH = "publish"
    CANCEL = "cancel"
    NO_MOVE = "no_move"


#: (actor, round, the request's data) → the round (or the one drawn instead, or None)
RoundAction = Callable[[audit.Actor, Round, dict[str, object]], Round | None]

ACTIONS: dict[Action, RoundAction] = {
    Action.OPEN: lambda actor, rnd, data: rounds.open_round(actor, rnd),
    Action.CLOSE: lambda actor, rnd, data: rounds.close_round(rnd, actor, force=True),
    Action.JUDGE: lambda actor, rnd, data: judging.judge_round(rnd, actor),
    Action.REVIEW: lambda actor, rnd, data: rounds.review_round(actor, rnd),
    Action.TOP: lambda actor, rnd, data: rounds.choose_top(actor, rnd, str(data.get("move") or "")),
    Action.PUBLISH: lambda actor, rnd, data: rounds.publish_round(actor, rnd),
    Action.CANCEL: lambda actor, rnd, data: rounds.cancel_round(actor, rnd, why=str(data.get("why") or "")),
    Action.NO_MOVE: lambda actor, rnd, data: rounds.redraw_no_move(actor, rnd),
}


def act(actor: audit.Actor, action: str, rnd: Round, **data: object) -> Round | None:
    """Runs a round action. Returns the round (for ``no_move``: the round drawn instead, or None when the
    game ended)."""
    try:
        run = ACTIONS[Action(action)]
    except ValueError:
        raise ServiceError(Code.UNKNOWN_ACTION, _("unknown round action «%(action)s»") % {"action": action}) from None
    return run(actor, rnd, data)


__all__ = ["ACTIONS", "Action", "act"]
