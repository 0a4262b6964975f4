"""Verdicts: every slip of a closed round judged by the RULES table (:func:`scoring.judge.judge_slip`),
the arbiter's overrides, and the round's solo (:func:`scoring.sheet.round_solos`)."""

from __future__ import annotations

from collections.abc import Hashable

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import sheet
from scoring.judge import SlipParts, judge_slip
from scoring.judge import Verdict as Judged
from scoring.variants import get_variant

from ..errors import Code, ServiceError
from ..models import Game, Round, Slip, Solo, Verdict
from . import audit, games, solving

VERDICT_FIELDS = ["slip", "awarded", "warning", "reason", "message", "explanation", "true_score", "move"]


def _slips_to_judge(rnd: Round) -> tuple[dict[int, Slip], dict[int, Slip]]:
    """(current slip, latest late slip) of each registration, in one query."""
    current: dict[int, Slip] = {}
    latest_late: dict[int, Slip] = {}
    for slip in Slip.objects.filter(round=rnd).order_by("registration_id", "-version"):
        if slip.is_current:
            current.setdefault(slip.registration_id, slip)
        elif slip.late:
            latest_late.setdefault(slip.registration_id, slip)
    return current, latest_late


def judge_round(rnd: Round, actor: audit.Actor = None) -> Round:
    """Automatic verdicts for every registered table (missing slips → 0). Overridden verdicts are kept.

    Allowed on a closed round (→ judged) and again on a judged/reviewed one (re-judging).
    """
    rnd.refresh_from_db()
    if rnd.status not in (Round.Status.CLOSED, Round.Status.JUDGED, Round.Status.REVIEWED):
        raise ServiceError(Code.ROUND_NOT_CLOSED, _("round %(n)s is %(status)s: close it before judging")
                           % {"n": rnd.number, "status": rnd.get_status_display()})
    first = rnd.status == Round.Status.CLOSED
    t = rnd.game.tournament
    tools = solving.round_tools(t)
    moves = solving.round_moves(rnd, tools)
    board = solving.board_of(rnd)
    lexicon = tools[1]
    regs = list(t.registrations.all())
    timed = get_variant(rnd.game.variant).timed
    current, latest_late = _slips_to_judge(rnd)
    existing = {v.registration_id: v for v in Verdict.objects.filter(round=rnd)}
    memo: dict[Hashable, Judged] = {}  # many players hand in the same move: judge it once
    new, changed = [], []
    for reg in regs:
        slip = current.get(reg.pk)
        late = False
        if slip is None:
            slip = latest_late.get(reg.pk)
            late = slip is not None
        announced = None if slip is None else slip.announced_score
        if timed and slip is not None and slip.points is not None:  # topping: the points are the server's, not asked
            announced = slip.points
        key = None if slip is None else (slip.word, slip.coordinates or None, announced, late)
        if key not in memo:
            parts = None if slip is None else SlipParts(slip.word, slip.coordinates or None, announced)
            memo[key] = judge_slip(board, list(rnd.rack), parts, round_number=rnd.number, lexicon=lexicon,
                                   solve_fn=lambda _board, _rack: moves, convention=t.convention, late=late)
        v = memo[key]
        values = dict(slip=slip, awarded=v.awarded, warning=v.warning, reason=v.reason, message=v.message,
                      explanation=v.explanation.to_json(),
                      true_score=v.true_score, move=v.move or "")
        verdict = existing.get(reg.pk)
        if verdict is None:
            new.append(Verdict(registration=reg, round=rnd, history=[], **values))
        elif verdict.automatic:
            for k, val in values.items():
                setattr(verdict, k, val)
            changed.append(verdict)
    with transaction.atomic():
        # the first judging claims the round before writing: when two cross (the close task's and the
        # recovery sweep's, on two worker processes), the one that finds it judged meanwhile writes nothing
        if first and not audit.claim(Round, rnd.pk, Round.Status.CLOSED, Round.Status.JUDGED,
                                     judged_at=timezone.now()):
            rnd.refresh_from_db()
            return rnd
        Verdict.objects.bulk_create(new, batch_size=500)
        Verdict.objects.bulk_update(changed, VERDICT_FIELDS, batch_size=500)
        compute_solos(rnd)
        audit.record(actor, "round.judge", rnd, after={"verdicts": len(regs)}, tournament=t)
    rnd.refresh_from_db()
    return rnd


def compute_solos(rnd: Round) -> None:
    """The round's solo, from its verdicts (recomputed after every judging and override)."""
    t = rnd.game.tournament
    Solo.objects.filter(round=rnd).delete()
    if not sheet.solos_active(t.solo_mode, t.registrations.count()):
        return
    scores = dict(rnd.verdicts.values_list("registration_id", "awarded"))
    for reg_id, points in sheet.round_solos(scores, bonus=t.solo_bonus).items():
        Solo.objects.create(round=rnd, registration_id=reg_id, points=points)


def override_verdict(actor: audit.Actor, verdict: Verdict, *, awarded: int, warning: bool, why: str,
                     reason: str = "override") -> Verdict:
    """The arbiter's decision on a verdict: kept through re-judging, its history and the reason recorded.

    Any round but a cancelled one, published rounds too: what follows from the verdict is recomputed
    here or read afresh from it — the round's solos, the warning penalties of a finished game; the
    totals and ranks (:mod:`.standings`), the PDFs (their cache key is a fingerprint of the verdicts) and
    the screens (the audit row moves the screen version).
    """
    if not why or not why.strip():
        raise ServiceError(Code.WHY_MISSING, _("an override needs a reason"))
    with transaction.atomic():
        verdict = Verdict.objects.select_for_update().get(pk=verdict.pk)
        if verdict.round.status in (Round.Status.CANCELLED,):
            raise ServiceError(Code.ROUND_CANCELLED, _("the round was cancelled"))
        before = verdict.snapshot()
        now = timezone.now()
        verdict.history = [*verdict.history, {**before, "at": now.isoformat()}]
        verdict.awarded, verdict.warning, verdict.reason = awarded, warning, reason
        verdict.automatic = False
        verdict.overridden_by = audit.user_or_none(actor)
        verdict.override_reason = why.strip()
        verdict.overridden_at = now
        verdict.save()
        rnd = verdict.round
        compute_solos(rnd)
        if rnd.game.status == Game.Status.FINISHED and rnd.status == Round.Status.PUBLISHED:
            games.apply_warning_penalties(rnd.game)  # the end-of-game penalties follow the warnings
        where = {"round": rnd.number, "game": rnd.game.number, "table": verdict.registration.table_number}
        audit.record(actor, "verdict.override", verdict, before={**before, **where},
                     after={**verdict.snapshot(), **where, "why": why.strip()}, tournament=rnd.game.tournament)
    return verdict


__all__ = ["compute_solos", "judge_round", "override_verdict"]
