"""Celery tasks: building an uploaded (or installed) word list into a lexicon."""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.db.models import Q
from django.utils import timezone

from .models import Lexicon, LexiconError
from .services import run_build

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
