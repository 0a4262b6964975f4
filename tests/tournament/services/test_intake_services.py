"""Issue 14: access codes without look-alikes read tolerantly; the recovery sweep logs only when it acts."""

from __future__ import annotations

import logging
import math
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.tools.world import PREPARED
from tournament import services, tasks
from tournament.errors import ServiceError
from tournament.models import Registration, Round, secret_hash
from tournament.services import players

pytestmark = [pytest.mark.django_db]


def test_codes_have_no_look_alikes_and_enough_entropy():
    codes = {players.access_code() for _ in range(300)}
    assert len(codes) == 300
    assert not set("".join(codes)) & set("0O1IL")
    assert set("".join(codes)) <= set(players.CODE_ALPHABET)
    assert all(len(c) == 10 for c in codes)
    assert 10 * math.log2(len(players.CODE_ALPHABET)) >= 40


def test_codes_are_read_tolerantly(alice, tournament):
    reg, code = players.register_player(alice, tournament, name="A")
    typed = f" {code[:5].lower()} - {code[5:]} "
    assert players.login(typed)[0] == reg
    assert players.login(f"{code[:3]}–{code[3:6]}.{code[6:]}")[0] == reg
    with pytest.raises(ServiceError):
        players.login(code[:-1])
    with pytest.raises(ServiceError):
        players.login("   ")


def test_codes_made_before_still_work_with_look_alikes(alice, tournament):
    reg, _code = players.register_player(alice, tournament, name="B")
    old = "IOLABC2345"  # the base32 codes made before: I, O and L possible
    Registration.objects.filter(pk=reg.pk).update(access_code_hash=secret_hash(old))
    assert players.login("ioLABC2345")[0] == reg
    assert players.login("10LABC2345")[0] == reg  # 1 for I, 0 for O
    old_l = "LOABC23456"
    Registration.objects.filter(pk=reg.pk).update(access_code_hash=secret_hash(old_l))
    assert players.login("10-ABC2-3456")[0] == reg  # 1 for L


# -- the recovery sweep -------------------------------------------------------------------------------------------


def test_the_sweep_logs_only_when_it_acts(alice, tournament, regs, eager, caplog):
    caplog.set_level(logging.INFO, logger="tournament.tasks")
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    with eager(execute=False):
        assert tasks._sweep(timezone.now()) == {"close": 0, "judge": 0, "solve": 0}
    assert not [r for r in caplog.records if r.name == "tournament.tasks"]
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(minutes=5))
    with eager(execute=False):
        sent = tasks._sweep(timezone.now())
    assert sent["close"] == 1
    lines = [r.getMessage() for r in caplog.records if r.name == "tournament.tasks"]
    assert len(lines) == 1 and lines[0].startswith("recovery sweep: close 1")


def test_celery_routine_lines_about_the_sweep_are_dropped():
    quiet = tasks.QuietSweep()

    def record(name, msg, args):
        return logging.LogRecord(name, logging.INFO, __file__, 1, msg, args, None)

    trace = "Task %(name)s[%(id)s] succeeded in %(runtime)ss: %(return_value)s"
    assert not quiet.filter(record("celery.app.trace", trace, ({"name": "tournament.sweep_rounds", "id": "x",
                                                                 "runtime": 0.01, "return_value": {}},)))
    assert quiet.filter(record("celery.app.trace", trace, ({"name": "tournament.judge_round", "id": "x",
                                                            "runtime": 0.01, "return_value": "judged"},)))
    beat = "Scheduler: Sending due task %s (%s)"
    assert not quiet.filter(record("celery.beat", beat, ("sweep-rounds", "tournament.sweep_rounds")))
    assert quiet.filter(record("celery.beat", "Scheduler: Sending due task %s (%s)", ("other", "x.y")))
    assert any(isinstance(f, tasks.QuietSweep) for f in logging.getLogger("celery.app.trace").filters)


def test_the_sweep_judges_a_closed_round_only_once_its_judging_is_overdue(alice, tournament, regs, eager):
    """The close sends the judging: a round closed a moment ago is being judged (10,000 slips take seconds),
    and the sweep does not judge it a second time beside it; still closed after STALE_JUDGE_SECONDS, its
    judging was lost and the sweep sends it."""
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
        services.rounds.close_round(rnd, alice, force=True)
        assert Round.objects.get(pk=rnd.pk).status == Round.Status.CLOSED
        assert tasks._sweep(timezone.now())["judge"] == 0
        later = timezone.now() + timedelta(seconds=tasks.STALE_JUDGE_SECONDS + 1)
        assert tasks._sweep(later)["judge"] == 1
