"""Slips written in batches (:func:`tournament.services.slipbatch.store_batch`): one transaction for many slips,
with the rules of one slip at a time — versions and replacement, the idempotency key, lateness by the time the
request reached the door, the audit rows — and everything it does not settle left to Django's view."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from tests.tools.world import round_with_tablets
from tournament import services
from tournament.models import AuditLog, Registration, Round, Slip
from tournament.services import slipbatch

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_cache", "fresh_slip_tokens")]


@pytest.fixture
def hall(alice, tournament, eager):
    """Round 1 open, three players with logged-in tablets: (round, [(registration, token)])."""
    return round_with_tablets(alice, tournament, eager, ("Anna", "Boris", "Clara"))


def slip(token: str, key: str, word: str = "CARTS", *, score: int | None = 20, coordinates: str = "H4",
         door: datetime | None = None, round_id: int | None = None) -> slipbatch.Incoming:
    return slipbatch.Incoming(token=token, key=key, word=word, coordinates=coordinates, score=score,
                              round_id=round_id, door=door or timezone.now(), language="en", address="10.0.0.7")


def test_a_batch_stores_every_slip_in_one_go_with_its_audit_row(hall):
    rnd, players = hall
    outcomes = slipbatch.store_batch([slip(t, f"k{i}") for i, (_r, t) in enumerate(players)])
    assert all(o is not None and o.created and not o.conflict for o in outcomes)
    stored = Slip.objects.filter(round=rnd).order_by("registration_id")
    assert [(s.version, s.is_current, s.late, s.source) for s in stored] == [(1, True, False, "tablet")] * 3
    assert {s.idempotency_key for s in stored} == {f"tablet:{r.pk}:k{i}" for i, (r, _t) in enumerate(players)}
    audit = AuditLog.objects.filter(action="slip.submit").order_by("id")
    assert [(a.object_id, a.after["text"], a.address, a.tournament_id) for a in audit] == [
        (str(o.slip.pk), "H4 CARTS 20", "10.0.0.7", rnd.game.tournament_id) for o in outcomes]


def test_a_player_replaces_his_slip_in_a_batch_and_across_batches(hall):
    rnd, [(anna, token), *_rest] = hall
    first = slipbatch.store_batch([slip(token, "a1", "CAT", score=5), slip(token, "a2", "CART", score=6)])
    assert [(o.slip.version, o.slip.is_current) for o in first] == [(1, False), (2, True)]
    [third] = slipbatch.store_batch([slip(token, "a3", "CARTS", score=7)])
    versions = list(Slip.objects.filter(registration=anna, round=rnd).order_by("version")
                    .values_list("version", "is_current", "word"))
    assert versions == [(1, False, "CAT"), (2, False, "CART"), (3, True, "CARTS")]
    assert third.slip.is_current


def test_a_retry_is_answered_as_the_first_time_and_another_body_refused(hall):
    rnd, [(anna, token), *_rest] = hall
    [first] = slipbatch.store_batch([slip(token, "same")])
    [again, twice_a, twice_b, other] = slipbatch.store_batch([
        slip(token, "same"), slip(token, "new"), slip(token, "new"), slip(token, "same", "OATS")])
    assert (again.slip.pk, again.created) == (first.slip.pk, False)
    assert twice_a.created and twice_b.slip.pk == twice_a.slip.pk  # one key twice in a batch: one slip
    assert other.conflict and other.slip is None
    assert Slip.objects.filter(registration=anna, round=rnd).count() == 2
    # the API's one-at-a-time path finds the batch's slip under the same key
    found = services.slips.retried_slip(f"tablet:{anna.pk}:same", anna, word="CARTS", coordinates="H4", score=20)
    assert found is not None and found.pk == first.slip.pk


def test_late_by_the_time_the_slip_reached_the_door(hall):
    rnd, [(anna, a), (boris, b), _c] = hall
    deadline = timezone.now() - timedelta(seconds=2)  # the batch is written after the deadline
    Round.objects.filter(pk=rnd.pk).update(deadline=deadline)
    before, after = deadline - timedelta(seconds=1), deadline + timedelta(milliseconds=5)
    on_time, late = slipbatch.store_batch([slip(a, "in-time", door=before), slip(b, "too-late", door=after)])
    assert (on_time.slip.late, on_time.slip.is_current, on_time.slip.received_at) == (False, True, before)
    assert (late.slip.late, late.slip.is_current) == (True, False)
    [late_again] = slipbatch.store_batch([slip(a, "after", "OATS", door=after)])
    assert late_again.slip.late  # and Anna's on-time slip still counts
    assert Slip.objects.get(registration=anna, round=rnd, is_current=True).word == "CARTS"


def test_after_the_close_a_tablet_slip_is_kept_as_late(hall, alice):
    rnd, [(_anna, token), *_rest] = hall
    services.rounds.close_round(rnd, alice, force=True)
    [kept] = slipbatch.store_batch([slip(token, "closed", door=datetime.now(UTC) - timedelta(hours=1))])
    assert kept.created and kept.slip.late and not kept.slip.is_current


def test_what_the_batch_does_not_settle_goes_to_django(hall, alice):
    rnd, [(anna, a), (boris, b), (clara, c)] = hall
    outcomes = slipbatch.store_batch([
        slip("not-a-token", "x"),  # 401 from Django
        slip(a, "bad-letter", "CAT5"),  # bad_letter, explained in the player's language
        slip(b, "long", "CARTOONS"),  # more tiles than a rack: Django's view counts them on the board
        slip(c, "other-round", round_id=rnd.pk + 100),  # round_changed
        slip(c, "fine"),
    ])
    assert outcomes[:4] == [None] * 4 and outcomes[4] is not None and outcomes[4].created
    assert Slip.objects.filter(round=rnd).count() == 1
    # a tablet logged out after its token was placed: the lock's check finds it, Django says why
    Registration.objects.filter(pk=clara.pk).update(token_hash=None)
    assert slipbatch.store_batch([slip(c, "after-logout")]) == [None]
    services.rounds.close_round(rnd, alice, force=True)
    services.judging.judge_round(rnd, alice)
    services.rounds.publish_round(alice, rnd)
    assert slipbatch.store_batch([slip(a, "published")]) == [None]  # no round takes slips: no_open_round
