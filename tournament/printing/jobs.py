"""Print jobs: documents built by a Celery worker, with their progress kept in the cache for the arbiter's page.

A *job* is a request for one document: ``{id, tournament_id, user_id, kind, spec, state, progress, stage,
file, filename, cached, pages, error, created, finished}`` under the cache key ``pdf-job:<id>`` (the
cache is shared by the web processes and the workers: Redis in production, files in the embedded set-up).
States: ``queued`` → ``running`` → ``done`` | ``failed``. A request whose document is already cached
for the data as it is now is ``done`` at once, without a task.

The task (``tournament.build_pdf`` in :mod:`tournament.tasks`) runs :func:`run_job`.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import logging
import secrets
import time
from pathlib import Path
from typing import Any

from django.core.cache import cache
from django.utils import translation

from ..models import Tournament
from ..services import jobs, reading
from . import build as pdf
from .layout import tr as _
from .spec import Spec, SpecError

log = logging.getLogger(__name__)

#: A print job as kept in the cache (see the module doc for its keys).
Job = dict[str, Any]

JOB_KEY = "pdf-job:{id}"
JOB_TTL = 6 * 3600


def job_key(job_id: str) -> str:
    return JOB_KEY.format(id=job_id)


def get_job(job_id: str) -> Job | None:
    if not job_id or len(job_id) > 64:
        return None
    return cache.get(job_key(job_id))


def update_job(job_id: str, **fields: Any) -> Job | None:
    job = get_job(job_id)
    if job is None:
        return None
    job.update(fields)
    cache.set(job_key(job_id), job, JOB_TTL)
    return job


def _relative(path: Path) -> str:
    return str(Path(path).resolve().relative_to(pdf.pdf_root().resolve()))


def job_file(job: Job) -> Path | None:
    """The file of a finished job when it is still there (inside MEDIA_ROOT/pdf, nowhere else)."""
    rel = job.get("file")
    if not rel:
        return None
    root = pdf.pdf_root().resolve()
    path = (root / rel).resolve()
    if root not in path.parents or not path.is_file():
        return None
    return path


def start_job(tournament: Tournament, user: Any, spec: Spec, *, base_url: str | None = None,
              log_out_tablets: bool = False) -> Job:
    """Creates the job of a request; reuses the cached file when the data it shows did not change,
    otherwise sends :func:`build_pdf` to the workers."""
    job_id = secrets.token_urlsafe(12)
    job = {
        "id": job_id, "tournament_id": tournament.pk, "user_id": getattr(user, "pk", None), "kind": spec.kind,
        "spec": spec.to_json(), "state": "queued", "progress": 0, "stage": "queued", "file": "",
        "filename": pdf.download_name(spec, tournament), "cached": False, "pages": None, "error": "",
        "created": time.time(), "finished": None,
    }
    cached = pdf.cached_file(spec)
    if cached is not None:
        job.update(state="done", progress=100, stage="done", file=_relative(cached), cached=True,
                   finished=time.time())
        cache.set(job_key(job_id), job, JOB_TTL)
        return job
    cache.set(job_key(job_id), job, JOB_TTL)
    try:
        jobs.send_now(jobs.BUILD_PDF, job_id, spec.to_json(), base_url=base_url,
                      actor_id=getattr(user, "pk", None), log_out_tablets=log_out_tablets)
    except Exception as exc:  # the broker is down: say so on the progress page
        log.exception("cannot send the PDF task")
        failed = update_job(job_id, state="failed", stage="failed",
                            error=_("The task queue cannot be reached (%(error)s): is the broker running?")
                            % {"error": type(exc).__name__})
        return failed or job
    return get_job(job_id) or job


class _Progress:
    """Writes the job's progress to the cache now and then (each 3 % or a new stage)."""

    def __init__(self, job_id: str):
        self.job_id = job_id
        self.last = (-100, "")

    def __call__(self, fraction: float, stage: str) -> None:
        percent = max(0, min(99, int(fraction * 100)))
        if percent - self.last[0] >= 3 or stage != self.last[1]:
            self.last = (percent, stage)
            update_job(self.job_id, state="running", progress=percent, stage=stage)


def run_job(job_id: str, spec: dict[str, Any], *, base_url: str | None = None, actor_id: int | None = None,
            log_out_tablets: bool = False) -> str:
    """Builds the document of a job (or finds it cached) and records where the file is."""
    if get_job(job_id) is None:  # expired: keep a trace so that the page can say something
        cache.set(job_key(job_id), {"id": job_id, "state": "queued", "spec": spec, "kind": spec.get("kind")}, JOB_TTL)
    update_job(job_id, state="running", stage="data", progress=1, started=time.time())
    try:
        return _run(job_id, spec, base_url=base_url, actor_id=actor_id, log_out_tablets=log_out_tablets)
    finally:
        give_back_memory()


def give_back_memory() -> None:
    """After a document: what it made is freed, and the C library hands the freed heap back to the system —
    without it a worker's process keeps the peak of the day's biggest document (the player sheets of a hall)."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def _run(job_id: str, spec: dict[str, Any], *, base_url: str | None, actor_id: int | None,
         log_out_tablets: bool) -> str:
    try:
        s = Spec.from_json(spec)
        actor = reading.requester(actor_id)
        with translation.override(s.language or reading.tournament_language(s.tournament_id)):
            built = pdf.build(s, progress=_Progress(job_id), actor=actor, base_url=base_url,
                              log_out_tablets=log_out_tablets)
    except SpecError as exc:
        update_job(job_id, state="failed", stage="failed", error=str(exc), finished=time.time())
        return "refused"
    except Exception as exc:
        log.exception("PDF job %s failed", job_id)
        update_job(job_id, state="failed", stage="failed", error=f"{type(exc).__name__}: {exc}"[:500],
                   finished=time.time())
        return "failed"
    update_job(job_id, state="done", stage="done", progress=100, file=_relative(built.path), cached=built.cached,
               pages=built.pages, filename=built.filename, finished=time.time())
    return "cached" if built.cached else "built"
