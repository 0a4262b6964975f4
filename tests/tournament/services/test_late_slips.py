"""A tablet's slip that comes after the round was judged (held in its outbox through an outage) is kept as late
until the top is published, for the arbiter's review; after the publication it is refused."""

from __future__ import annotations

import pytest

from tests.tools.world import judged_first_round
from tournament import services
from tournament.errors import Code, ServiceError

pytestmark = pytest.mark.django_db


def test_a_slip_after_judging_is_kept_as_late_until_the_publication(alice, tournament, eager):
    rnd, players = judged_first_round(alice, tournament, eager, ("H4 CARTS 20",), names=("A", "B", "C"))
    late = services.slips.submit_slip(rnd, players[1][0], word="CARTS", coordinates="H4", score=20,
                                      idempotency_key="held-in-the-outbox")
    assert late.late and not late.is_current
    summary = services.slips.count(rnd)
    assert players[1][0].table_number in summary.late
    # the verdict stays the judged one (a late slip counts as missing) until the arbiter overrides it
    assert rnd.verdicts.get(registration=players[1][0]).awarded == 0
    # the same key again: the same slip, not a second one
    again = services.slips.submit_slip(rnd, players[1][0], word="CARTS", coordinates="H4", score=20,
                                       idempotency_key="held-in-the-outbox")
    assert again.pk == late.pk
    with eager(execute=True):
        services.rounds.publish_round(alice, rnd)
    with pytest.raises(ServiceError) as caught:
        services.slips.submit_slip(rnd, players[2][0], word="CARTS", coordinates="H4", score=20)
    assert caught.value.code == Code.ROUND_NOT_OPEN


def test_a_paper_slip_typed_after_the_judging_is_judged_at_once_until_the_publication(alice, tournament, eager):
    """The runners bring the hall's paper slips after the deadline; the round closed and was judged meanwhile.
    Typed with its hand-in time (the deadline), a slip counts, is judged at once, and a reviewed round goes back
    to judged (a verdict the arbiter has not seen); after the publication a paper slip is refused."""
    from tournament.models import Round, Slip
    rnd, players = judged_first_round(alice, tournament, eager, ("H4 CARTS 20",), names=("A", "B", "C"))
    services.rounds.review_round(alice, rnd)
    reg = players[1][0]
    assert rnd.verdicts.get(registration=reg).awarded == 0  # no slip yet: missing
    slip = services.slips.submit_slip(rnd, reg, word="CARTS", coordinates="H4", score=20, source=Slip.Source.PAPER,
                                      actor=alice, received_at=rnd.deadline, idempotency_key="paper-runner-1")
    assert slip.is_current and not slip.late
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.JUDGED
    verdict = rnd.verdicts.get(registration=reg)
    assert verdict.slip_id == slip.pk and verdict.awarded == 20
    with eager(execute=True):
        services.rounds.publish_round(alice, rnd)
    with pytest.raises(ServiceError) as caught:
        services.slips.submit_slip(rnd, players[2][0], word="CARTS", coordinates="H4", score=20,
                                   source=Slip.Source.PAPER, actor=alice, received_at=rnd.deadline)
    assert caught.value.code == Code.ROUND_NOT_OPEN
