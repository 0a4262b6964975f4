"""The hot paths' SQL written once (:mod:`tournament.services.rows`) gives exactly what the ORM gives: the same
instances (dates, booleans, JSON converted as the ORM converts them, on SQLite and PostgreSQL), the foreign keys
followed, and rows inserted as ``save()`` inserts them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.forms.models import model_to_dict
from django.utils import timezone

from tests.tools.world import judged_first_round
from tournament import services
from tournament.models import AuditLog, Registration, Round, Slip
from tournament.services import rows

pytestmark = pytest.mark.django_db


def fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_the_latest_round_and_a_tablets_registration_equal_the_orms(alice, tournament, eager):
    rnd, players = judged_first_round(alice, tournament, eager, ("H4 CARTS 20",), names=("A", "B"))
    found = services.rounds.tournament_round(tournament)
    assert found is not None and fields(found) == fields(Round.objects.get(pk=rnd.pk))
    assert isinstance(found.deadline, type(timezone.now())) and found.deadline.tzinfo is not None
    assert fields(found.game) == fields(rnd.game)  # followed, no query needed
    reg = players[0][0]
    token = services.players.issue_tablet_token(reg, players[0][1])
    by_token = services.players.registration_for_token(token)
    assert by_token is not None and fields(by_token) == fields(Registration.objects.get(pk=reg.pk))
    assert fields(by_token.tournament) == fields(tournament.__class__.objects.get(pk=tournament.pk))
    assert by_token.player.name == "A"
    assert services.players.registration_for_token("not-a-token") is None
    assert services.rounds.tournament_round(tournament.__class__(pk=tournament.pk + 1000)) is None


def test_inserted_rows_read_back_as_the_orm_stores_them(alice, tournament, eager):
    rnd, players = judged_first_round(alice, tournament, eager, (), names=("A",))
    reg = players[0][0]
    when = timezone.now() - timedelta(seconds=3)
    slip = rows.insert(Slip(registration=reg, round_id=rnd.pk, word="CARTS", coordinates="H4", announced_score=None,
                            received_at=when, idempotency_key="rows-test", version=7, is_current=False, late=True))
    stored = Slip.objects.get(pk=slip.pk)
    assert fields(stored) == fields(slip) and stored.received_at == when and stored.late is True
    assert fields(services.slips.slip_for_key("rows-test")) == fields(stored)
    assert services.slips.slip_for_key("no-such-key") is None
    row = rows.insert(AuditLog(actor=alice, tournament=tournament, action="test.rows", object_type="Slip",
                               object_id=str(slip.pk), before=None, after={"text": "H4 CARTS", "late": True, "n": [1]}))
    back = AuditLog.objects.get(pk=row.pk)
    assert back.after == {"text": "H4 CARTS", "late": True, "n": [1]} and back.before is None
    assert back.at is not None and abs((back.at - timezone.now()).total_seconds()) < 60
    assert model_to_dict(back) == model_to_dict(row)
