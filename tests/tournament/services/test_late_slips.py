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
