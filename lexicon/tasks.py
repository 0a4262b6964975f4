"""Celery tasks: building an uploaded (or installed) word list into a lexicon; a build of an installed package
started from a page (:func:`start_package_build`)."""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from . import sources
from .models import Lexicon, LexiconError
from .services import run_build, validate_name

log = logging.getLogger(__name__)

#: A row left "building" without a progress update for this long is taken to be
#: abandoned (its worker died) and may be claimed again by a redelivered task.
STALE_AFTER = timedelta(minutes=15)


def claim(lexicon_id: int) -> bool:
    """Takes the row for building: one conditional UPDATE; True only for the caller that changed it."""
    stale = timezone.now() - STALE_AFTER
    changed = (
        Lexicon.objects.filter(pk=lexicon_id)
        .filter(Q(status=Lexicon.Status.PENDING) | Q(status=Lexicon.Status.BUILDING, updated_at__lt=stale))
        .update(status=Lexicon.Status.BUILDING, progress=0, error="", updated_at=timezone.now())
    )
    return changed == 1


@shared_task(acks_late=True, ignore_result=True, name="lexicon.build_uploaded_lexicon")
def build_uploaded_lexicon(lexicon_id: int) -> str:
    """Builds the pending Lexicon ``lexicon_id``. Idempotent: a second delivery finds the row
    already claimed (or ready/failed) and does nothing."""
    if not claim(lexicon_id):
        log.info("lexicon %s: not pending (already built, building or gone); nothing to do", lexicon_id)
        return "skipped"
    row = Lexicon.objects.get(pk=lexicon_id)
    try:
        run_build(row)
    except LexiconError as exc:
        log.warning("lexicon %s (%s): build failed: %s", lexicon_id, row.name, exc)
        return "failed"
    except Exception:
        log.exception("lexicon %s (%s): build failed", lexicon_id, row.name)
        return "failed"
    return "ready"


def enqueue_build(lexicon_id: int) -> None:
    """Sends the build of a pending row to the worker; a broker that does not answer is said on the row (failed,
    with why) rather than leaving it pending for ever."""
    try:
        build_uploaded_lexicon.delay(lexicon_id)
    except Exception as exc:
        log.exception("lexicon %s: cannot queue the build", lexicon_id)
        Lexicon.objects.filter(pk=lexicon_id, status=Lexicon.Status.PENDING).update(
            status=Lexicon.Status.FAILED, error=f"the build could not be queued: {exc}")


def building(source: str) -> Lexicon | None:
    """The build of the installed package ``source`` waiting or under way, if one is."""
    return (Lexicon.objects.filter(options__kind="package", options__source=source,
                                   status__in=(Lexicon.Status.PENDING, Lexicon.Status.BUILDING))
            .order_by("-created_at").first())


def start_package_build(source: str, user: User | None = None) -> Lexicon:
    """A lexicon built from the installed package ``source`` (a key of :data:`lexicon.sources.PACKAGE_SOURCES`,
    e.g. ``uk``) by the worker, under the name of the source: the pending row (the one already waiting or under
    way when there is one), its build sent after commit. LexiconError for an unknown source."""
    if source not in sources.PACKAGE_SOURCES:
        raise LexiconError(f"unknown source {source!r} (known: {', '.join(sources.PACKAGE_SOURCES)})")
    with transaction.atomic():
        row = building(source)
        if row is not None:
            return row
        row = Lexicon.objects.create(
            name=validate_name(source), ruleset=sources.PACKAGE_SOURCES[source][0],
            source=sources.describe_package_source(source), options={"kind": "package", "source": source,
                                                                     "yo_as_e": False},
            status=Lexicon.Status.PENDING, created_by=user)
        pk = row.pk
        transaction.on_commit(lambda: enqueue_build(pk))
    return row
