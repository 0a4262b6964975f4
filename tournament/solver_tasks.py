"""Celery tasks of a round: solve, close at deadline + grace, judge.

Import this module from ``tournament/tasks.py`` (``from .solver_tasks import *``)
so that the worker's autodiscovery registers the tasks. Tasks take primary keys,
are idempotent and acknowledged late (a task whose worker dies is redelivered).
"""

from __future__ import annotations

import logging

from celery import shared_task
from celery.signals import worker_ready
from django.db import transaction
from django.utils import timezone

from scoring.board import Board
from scoring.game import offered_moves, rank_tops
from scoring.rules import get_ruleset

from .models import Round

log = logging.getLogger(__name__)


@shared_task(name="tournament.solve_round", bind=True, acks_late=True, reject_on_worker_lost=True,
             autoretry_for=(OSError,), retry_backoff=True, max_retries=5, ignore_result=True)
def solve_round(self, round_id: int) -> str:
    """Every legal move of the round's rack: keeps the best 50 (proposed top first) and the count.

    Skipped when the same rack on the same board was already solved.
    """
    from . import services

    rnd = Round.objects.select_related("game__tournament").filter(pk=round_id).first()
    if rnd is None or rnd.status == Round.Status.CANCELLED:
        return "gone"
    t = rnd.game.tournament
    key = services.state_hash(t.ruleset, str(t.lexicon_id), rnd.board_before, rnd.rack)
    if rnd.solver_status in (Round.SolverStatus.DONE, Round.SolverStatus.NO_MOVE) and rnd.solver_key == key:
        return "already"
    Round.objects.filter(pk=round_id).update(solver_status=Round.SolverStatus.RUNNING)
    try:
        solve_fn, _lexicon = services.round_tools(t)
        ruleset = get_ruleset(t.ruleset)
        board = Board.from_fen(ruleset, rnd.board_before)
        moves = offered_moves(board, solve_fn(board, list(rnd.rack)))
        state = rnd.game.state
        bag = state.get("bag", {}).get("tiles", []) if isinstance(state.get("bag"), dict) else []
        tops = rank_tops(ruleset, board, list(rnd.rack), list(bag), moves)
        rest = sorted((m for m in moves if m.score != (tops[0].score if tops else None)),
                      key=lambda m: (-m.score, m.notation()))
        kept = [services._move_dict(m) for m in [*tops, *rest][: services.TOP_MOVES_KEPT]]
        status = Round.SolverStatus.DONE if moves else Round.SolverStatus.NO_MOVE
        Round.objects.filter(pk=round_id).update(top_moves=kept, move_count=len(moves), solver_status=status,
                                                 solver_key=key, solver_error="")
    except Exception as exc:
        Round.objects.filter(pk=round_id).update(solver_status=Round.SolverStatus.FAILED, solver_error=str(exc)[:2000])
        log.exception("solving round %s failed", round_id)
        raise
    return "solved"


@shared_task(name="tournament.close_round", bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def close_round(self, round_id: int) -> str:
    """Closes the round at deadline + grace (scheduled at opening), then judges it. Idempotent."""
    from datetime import timedelta

    from . import services

    rnd = Round.objects.filter(pk=round_id).first()
    if rnd is None or rnd.status != Round.Status.OPEN:
        return "not_open"
    due = rnd.deadline + timedelta(seconds=rnd.grace_seconds)
    if timezone.now() < due:
        if not self.request.is_eager:  # woke up early (clock, broker): try again at the due time
            close_round.apply_async((round_id,), eta=due)
        return "not_due"
    services.close_round(rnd)
    transaction.on_commit(lambda: judge_round.delay(round_id))
    return "closed"


@shared_task(name="tournament.judge_round", bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def judge_round(self, round_id: int) -> str:
    from . import services

    rnd = Round.objects.filter(pk=round_id).first()
    if rnd is None or rnd.status != Round.Status.CLOSED:
        return "skipped"
    services.judge_round(rnd)
    return "judged"


@shared_task(name="tournament.sweep_rounds", ignore_result=True)
def sweep_rounds() -> dict:
    """Recovery: (re)sends the work a lost message would leave undone — a round past its deadline + grace
    still open, a closed round not judged, a rack not solved. Run every few seconds by beat and when a
    worker starts; every task it sends is idempotent, so a duplicate does nothing."""

    from django.db import DatabaseError

    try:
        return _sweep(timezone.now())
    except DatabaseError as exc:  # e.g. a worker started before the migrations: nothing to recover yet
        log.warning("recovery sweep skipped: %s", exc)
        return {}


def _sweep(now) -> dict:
    from datetime import timedelta

    sent = {"close": 0, "judge": 0, "solve": 0}
    for r in Round.objects.filter(status=Round.Status.OPEN, deadline__isnull=False).only("pk", "deadline",
                                                                                          "grace_seconds"):
        if r.deadline + timedelta(seconds=r.grace_seconds) <= now:
            close_round.delay(r.pk)
            sent["close"] += 1
    for pk in Round.objects.filter(status=Round.Status.CLOSED).values_list("pk", flat=True):
        judge_round.delay(pk)
        sent["judge"] += 1
    stale = now - timedelta(seconds=10)  # a solve takes milliseconds: one still "running" after 10 s was lost
    for pk in (Round.objects.filter(solver_status=Round.SolverStatus.PENDING, created_at__lte=now - timedelta(seconds=5))
               .exclude(status=Round.Status.CANCELLED).values_list("pk", flat=True)):
        solve_round.delay(pk)
        sent["solve"] += 1
    for pk in (Round.objects.filter(solver_status=Round.SolverStatus.RUNNING, created_at__lte=stale)
               .exclude(status=Round.Status.CANCELLED).values_list("pk", flat=True)):
        solve_round.delay(pk)
        sent["solve"] += 1
    return sent


@worker_ready.connect
def _recover_on_start(**_kwargs) -> None:
    sweep_rounds.delay()
