"""A round is judged once when two judgings of it cross (the close task's and the recovery sweep's, on two
worker processes): the one that finds the round already judged writes nothing."""

from __future__ import annotations

import pytest

from tournament import services, tasks
from tournament.models import AuditLog, Round, Verdict

pytestmark = pytest.mark.django_db(transaction=False)


def test_a_judging_that_finds_the_round_judged_meanwhile_writes_nothing(alice, tournament, eager, regs,
                                                                         monkeypatch):
    game = services.games.create_game(alice, tournament, prepared_racks=["CATSROE", "OE+DRSZ?"])
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    services.slips.submit_slip(rnd, regs[0], word="CARTS", coordinates="H4", score=20)
    with eager(execute=False):
        services.rounds.close_round(rnd, alice, force=True)
    tools = services.solving.round_tools
    crossed = []

    def other_worker_judges_first(tournament):
        # this judging has read the round as closed; another worker judges it in the meantime
        if not crossed:
            crossed.append("started")
            crossed[0] = tasks.judge_round.apply(args=(rnd.pk,)).get()
        return tools(tournament)

    monkeypatch.setattr(services.solving, "round_tools", other_worker_judges_first)
    tasks.judge_round.apply(args=(rnd.pk,)).get()  # the sweep's judging, which read the round closed
    assert crossed == ["judged"]
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.JUDGED
    assert AuditLog.objects.filter(action="round.judge", object_id=str(rnd.pk)).count() == 1
    assert Verdict.objects.filter(round=rnd).count() == len(regs)
