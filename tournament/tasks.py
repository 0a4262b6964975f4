"""The Celery tasks: thin wrappers over the services, by primary key, idempotent, acknowledged late.

A task whose worker dies is delivered again (``acks_late``, ``reject_on_worker_lost``); doing its work
twice changes nothing. :func:`sweep_rounds` (every few seconds from beat, and when a worker starts)
sends again what a lost message would leave undone. The services send tasks by name
(:mod:`tournament.services.jobs`); the Celery app imports this module when it starts.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, TypeVar, cast

from celery import Task, shared_task
from celery.signals import after_setup_logger, worker_ready
from django.core.cache import cache
from django.db import DatabaseError, connections, transaction
from django.db.models import Q
from django.utils import timezone

from .backup import automatic as backups
from .models import Round, Tournament
from .printing import jobs as print_jobs
from .services import judging, playerimport, rounds, solving

log = logging.getLogger(__name__)
T = TypeVar("T")

HEARTBEAT_KEY = "worker-heartbeat:{token}"
#: A solve takes milliseconds: a round still "running" after this many seconds lost its task.
STALE_SOLVE_SECONDS = 10
PENDING_SOLVE_SECONDS = 5
#: A judging takes seconds (10,000 slips: about 4 s on a busy 2-core machine), sent when the round closes: a round
#: closed longer ago than this and still not judged lost its task (sooner, the sweep would judge it a second
#: time beside the running judging, at the hall's busiest moment).
STALE_JUDGE_SECONDS = 15

ROUND_TASK: dict[str, Any] = {"bind": True, "acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}


@shared_task(name="tournament.solve_round", autoretry_for=(OSError,), retry_backoff=True, max_retries=5,
             **ROUND_TASK)
def solve_round(self: Task, round_id: int) -> str:
    """Every legal move of the round's rack: keeps the best 50 (proposed top first) and the count."""
    rnd = Round.objects.select_related("game__tournament").filter(pk=round_id).first()
    if rnd is None:
        return "gone"
    return solving.solve_round(rnd)


@shared_task(name="tournament.close_round", **ROUND_TASK)
def close_round(self: Task, round_id: int) -> str:
    """Closes the round at deadline + grace (scheduled at opening), then judges it. Idempotent."""
    rnd = Round.objects.filter(pk=round_id).first()
    if rnd is None or rnd.status != Round.Status.OPEN or rnd.deadline is None:
        return "not_open"
    due = rnd.deadline + timedelta(seconds=rnd.grace_seconds)
    if timezone.now() < due:
        if not self.request.is_eager:  # woke up early (clock, broker): try again at the due time
            close_round.apply_async((round_id,), eta=due)
        return "not_due"
    rounds.close_round(rnd)
    transaction.on_commit(lambda: judge_round.delay(round_id))
    return "closed"


@shared_task(name="tournament.judge_round", **ROUND_TASK)
def judge_round(self: Task, round_id: int) -> str:
    rnd = Round.objects.filter(pk=round_id).first()
    if rnd is None or rnd.status != Round.Status.CLOSED:
        return "skipped"
    judging.judge_round(rnd)
    return "judged"


def _quietly(work: Callable[[], T]) -> T:
    """``work()`` in a thread of the lowest CPU priority (on Linux a thread has a nice value of its own): a
    backup's seconds of CPU right after a publication never take a core from the web nodes sending that
    publication to every tablet. The thread's database connection is closed when it ends."""
    done: dict[str, Any] = {}

    def run() -> None:
        if sys.platform.startswith("linux"):
            with contextlib.suppress(OSError):
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
        try:
            done["value"] = work()
        except BaseException as exc:  # noqa: BLE001 (raised again in the caller's thread)
            done["error"] = exc
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, name="backup", daemon=True)
    thread.start()
    thread.join()
    if "error" in done:
        raise done["error"]
    return cast(T, done["value"])


@shared_task(name="tournament.backup_tournament", bind=True, ignore_result=True, acks_late=True)
def backup_tournament(self: Task, tournament_id: int, reason: str = "publication") -> str:
    """An archive of the tournament into BACKUP_DIR after a publication, so the stick always holds the round
    just published (skipped when the latest archive already holds this state); written at the lowest CPU
    priority (:func:`_quietly`; at once when run eagerly, in the caller's transaction)."""
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        return "gone"
    try:
        if self.request.is_eager:
            written = backups.back_up(t, reason=reason)
        else:
            written = _quietly(lambda: backups.back_up(t, reason=reason))
    except OSError as exc:  # a full or missing stick must not stop the hall: the next pass tries again
        log.error("backup of %s failed: %s", t.slug, exc)
        return f"failed: {exc}"
    return written.name if written else "unchanged"


@shared_task(name="tournament.backup_tournaments", ignore_result=True)
def backup_tournaments() -> dict[str, str]:
    """Every BACKUP_SECONDS (beat): an archive of each tournament in play that changed since its last one,
    written at the lowest CPU priority."""
    return _quietly(backups.back_up_changed)


@shared_task(name="tournament.sweep_rounds", ignore_result=True)
def sweep_rounds() -> dict[str, int]:
    """Recovery: (re)sends the work a lost message would leave undone — a round past its deadline + grace
    still open, a closed round not judged, a rack not solved. Every task it sends is idempotent."""
    try:
        return _sweep(timezone.now())
    except DatabaseError as exc:  # e.g. a worker started before the migrations: nothing to recover yet
        log.warning("recovery sweep skipped: %s", exc)
        return {}


def _sweep(now: datetime) -> dict[str, int]:
    sent = {"close": 0, "judge": 0, "solve": 0}
    for r in Round.objects.filter(status=Round.Status.OPEN, deadline__isnull=False).only("pk", "deadline",
                                                                                          "grace_seconds"):
        assert r.deadline is not None
        if r.deadline + timedelta(seconds=r.grace_seconds) <= now:
            close_round.delay(r.pk)
            sent["close"] += 1
    unjudged = Round.objects.filter(status=Round.Status.CLOSED).filter(
        Q(closed_at__isnull=True) | Q(closed_at__lte=now - timedelta(seconds=STALE_JUDGE_SECONDS)))
    for pk in unjudged.values_list("pk", flat=True):
        judge_round.delay(pk)
        sent["judge"] += 1
    live = Round.objects.exclude(status=Round.Status.CANCELLED)
    pending = live.filter(solver_status=Round.SolverStatus.PENDING,
                          created_at__lte=now - timedelta(seconds=PENDING_SOLVE_SECONDS))
    running = live.filter(solver_status=Round.SolverStatus.RUNNING,
                          created_at__lte=now - timedelta(seconds=STALE_SOLVE_SECONDS))
    for pk in [*pending.values_list("pk", flat=True), *running.values_list("pk", flat=True)]:
        solve_round.delay(pk)
        sent["solve"] += 1
    if any(sent.values()):  # nothing logged on a tick that did nothing
        log.info("recovery sweep: %s", ", ".join(f"{what} {n}" for what, n in sent.items() if n))
    return sent


class QuietSweep(logging.Filter):
    """Drops Celery's routine lines about the recovery sweep (beat sent it, the worker received it, it
    succeeded): every few seconds, they would drown the log. The sweep logs itself when it acts."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, dict):  # the worker: "Task %(name)s[%(id)s] received / succeeded …"
            return args.get("name") != sweep_rounds.name
        if isinstance(args, tuple) and args:  # beat: "Sending due task %s (%s)", the entry and the task
            return args[-1] != sweep_rounds.name
        return True


QUIET_LOGGERS = ("celery.app.trace", "celery.worker.strategy", "celery.beat")


@after_setup_logger.connect
def quiet_sweep(**_kwargs: Any) -> None:
    """Installs :class:`QuietSweep` on the loggers of Celery's routine lines (once)."""
    for name in QUIET_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, QuietSweep) for f in logger.filters):
            logger.addFilter(QuietSweep())


quiet_sweep()


@worker_ready.connect
def _recover_on_start(**_kwargs: Any) -> None:
    sweep_rounds.delay()


@shared_task(name="tournament.build_pdf", **ROUND_TASK)
def build_pdf(self: Task, job_id: str, spec: dict[str, Any], base_url: str | None = None,
              actor_id: int | None = None, log_out_tablets: bool = False) -> str:
    """Builds the document of a print job (or finds it cached) and records where the file is."""
    return print_jobs.run_job(job_id, spec, base_url=base_url, actor_id=actor_id, log_out_tablets=log_out_tablets)


@shared_task(name="tournament.import_players", **ROUND_TASK)
def import_players(self: Task, job: str) -> str:
    """A CSV import's players registered in short transactions (services.playerimport); its final state."""
    done = playerimport.run(job)
    return done["status"] if done else "unknown job"


@shared_task(name="tournament.worker_heartbeat", ignore_result=True)
def worker_heartbeat(token: str) -> None:
    """Proof of life: the arbiter console shows whether a worker answers (and the tests use it)."""
    cache.set(HEARTBEAT_KEY.format(token=token), time.time(), timeout=3600)


def heartbeat_seen(token: str) -> float | None:
    value = cache.get(HEARTBEAT_KEY.format(token=token))
    return float(value) if value is not None else None
