"""Slips of many players are stored side by side; the close waits for the slips in flight (PostgreSQL row locks)."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections

from tests.tools.world import PREPARED
from tournament import services
from tournament.models import Round, Slip

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("local_cache")]


def in_thread(fn):
    """Runs fn in a thread with its own database connection; returns (thread, result dict)."""
    out: dict = {}

    def run():
        try:
            out["value"] = fn()
        except Exception as exc:  # noqa: BLE001 (reported to the test)
            out["error"] = exc
        finally:
            out["done_at"] = time.monotonic()
            connections.close_all()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, out


def open_round(alice, tournament, eager) -> Round:
    """Round 1 of a new game, open (PostgreSQL only: SQLite has one writer at a time, no row locks)."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks and concurrent writers need PostgreSQL")
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    with eager(execute=False):
        return services.rounds.open_round(alice, rnd)


def test_slips_do_not_wait_for_each_other_and_the_close_waits_for_them(alice, tournament, regs, eager,
                                                                       monkeypatch):
    rnd = open_round(alice, tournament, eager)
    locked, release = threading.Event(), threading.Event()
    real_audit = services.audit.record

    def audit_then_hold(actor, action, obj, **kw):  # player 0's slip stops inside its transaction
        row = real_audit(actor, action, obj, **kw)
        if action == "slip.submit" and obj.registration_id == regs[0].pk:
            locked.set()
            release.wait(10)
        return row

    monkeypatch.setattr(services.audit, "record", audit_then_hold)

    def slip_in_flight():
        services.slips.submit_slip(rnd, regs[0], word="CARTS", score=20, idempotency_key="in-flight")
        return time.monotonic()

    holder, held = in_thread(slip_in_flight)
    assert locked.wait(10)
    t0 = time.monotonic()
    other = services.slips.submit_slip(rnd, regs[1], word="CARTS", score=20, idempotency_key="side-by-side")
    assert time.monotonic() - t0 < 3 and not release.is_set(), "a slip waited for another player's slip"
    assert other.is_current and not other.late

    closer, closed = in_thread(lambda: services.rounds.close_round(Round.objects.get(pk=rnd.pk), alice, force=True))
    time.sleep(0.8)
    assert "done_at" not in closed and Round.objects.get(pk=rnd.pk).status == Round.Status.OPEN, \
        "the close did not wait for the slip in flight"
    release.set()
    holder.join(10)
    closer.join(10)
    assert "error" not in closed and "error" not in held, (closed, held)
    assert closed["done_at"] >= held["value"]
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.CLOSED

    # after the close (forced before the deadline) a tablet slip is kept, as late, and replaces nothing
    late = services.slips.submit_slip(rnd, regs[1], word="CART", score=14, idempotency_key="after-close")
    assert late.late and not late.is_current
    assert Slip.objects.get(pk=other.pk).is_current


def test_concurrent_slips_of_one_player_get_distinct_versions(alice, tournament, regs, eager):
    rnd = open_round(alice, tournament, eager)
    start = threading.Barrier(6)

    def send(i):
        def run():
            start.wait(10)
            return services.slips.submit_slip(rnd, regs[0], word="CARTS", score=20 + i, idempotency_key=f"same-player-{i}")
        return run

    runs = [in_thread(send(i)) for i in range(6)]
    for thread, _ in runs:
        thread.join(20)
    assert all("error" not in out for _, out in runs), [out.get("error") for _, out in runs]
    slips = Slip.objects.filter(round=rnd, registration=regs[0])
    assert sorted(slips.values_list("version", flat=True)) == [1, 2, 3, 4, 5, 6]
    assert slips.filter(is_current=True).count() == 1
