"""The slip's door (:mod:`tournament.live.slipdoor`) in-process, through the ASGI application: slips read there,
written in batches and answered as Django's view answers; what it does not settle answered by Django; a slip
sent before the deadline never late because the database stalled at the deadline; a batch committed whose
answers were lost found again by its keys; the close waits for a batch in flight (PostgreSQL)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
import uuid
from datetime import timedelta
from urllib.parse import urlencode

import pytest
from a2wsgi import WSGIMiddleware
from asgiref.testing import ApplicationCommunicator
from django.db import connection, connections, transaction
from django.utils import timezone

from tests.tools.api import T, tablet_client
from tests.tools.world import round_with_tablets
from tournament import services
from tournament.live.slipdoor import SlipDoor, write
from tournament.live.stream import StreamApp
from tournament.models import Round, Slip
from tournament.services import slipbatch
from tournament.wsgi import application as wsgi_application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("local_cache", "fresh_slip_tokens")]


@pytest.fixture
def door():
    door = SlipDoor()
    yield door
    door.close()  # its thread's connection: the test database is dropped after


@pytest.fixture
def app(door):
    return StreamApp(WSGIMiddleware(wsgi_application, workers=2), door=door)  # type: ignore[arg-type]


@pytest.fixture
def hall(alice, tournament, eager):
    """Round 1 open, six players with logged-in tablets: (round, [(registration, token)])."""
    return round_with_tablets(alice, tournament, eager, [f"Player {i}" for i in range(6)])


async def post(app, token: str, key: str, body: dict, *, language: str = "en", extra=(),
               content_type: bytes = b"application/json") -> tuple[int, dict]:
    raw = json.dumps(body).encode() if content_type == b"application/json" else urlencode(body).encode()
    scope = {"type": "http", "method": "POST", "path": "/api/tablet/slip/", "query_string": b"",
             "http_version": "1.1", "scheme": "http", "server": ("testserver", 80), "client": ("10.1.2.3", 5000),
             "headers": [(b"host", b"testserver"), (b"content-type", content_type),
                         (b"authorization", f"Tablet {token}".encode()), (b"idempotency-key", key.encode()),
                         (b"accept-language", language.encode()), (b"content-length", str(len(raw)).encode()),
                         *extra]}
    comm = ApplicationCommunicator(app, scope)
    await comm.send_input({"type": "http.request", "body": raw, "more_body": False})
    start = await comm.receive_output(30)
    chunks = b""
    while True:
        message = await comm.receive_output(30)
        chunks += message.get("body", b"")
        if not message.get("more_body"):
            break
    return start["status"], json.loads(chunks)


def run(coroutine):
    return asyncio.run(coroutine)


def test_slips_through_the_door_are_written_in_batches_and_answered_as_the_view(app, door, hall):
    rnd, players = hall
    keys = [str(uuid.uuid4()) for _ in players]

    async def burst():
        return await asyncio.gather(*[post(app, token, key, {"word": "CARTS", "coordinates": "H4", "score": 20,
                                                             "round": rnd.pk})
                                      for (_reg, token), key in zip(players, keys, strict=True)])

    answers = run(burst())
    assert [status for status, _body in answers] == [201] * len(players)
    assert door.slips == len(players) and door.batches < len(players) and door.largest > 1, vars(door)
    body = answers[0][1]
    assert set(body) == {"id", "round", "word", "coordinates", "announced_score", "received_at", "version",
                         "is_current", "late", "source", "topped", "points", "seconds"}
    assert (body["word"], body["coordinates"], body["announced_score"], body["late"], body["source"]) == (
        "CARTS", "H4", 20, False, "tablet")
    # the same key again, through Django's view: the same slip (200)
    reg, token = players[0]
    again = tablet_client(token).post(f"{T}/slip/", {"word": "CARTS", "coordinates": "H4", "score": 20},
                                      format="json", HTTP_IDEMPOTENCY_KEY=keys[0])
    assert again.status_code == 200 and again.json() == answers[0][1]
    assert Slip.objects.filter(round=rnd).count() == len(players)
    # another body under the same key, through the door: refused
    status, refused = run(post(app, token, keys[0], {"word": "OATS"}))
    assert (status, refused["code"]) == (409, "idempotency_conflict")


def test_what_the_door_does_not_settle_is_answered_by_django_in_the_players_language(app, hall):
    rnd, [(_reg, token), *_rest] = hall
    status, body = run(post(app, token, "k1", {"word": "CAT5"}, language="uk"))
    assert status == 400 and body["code"] == "bad_letter" and "слово" in body["detail"], body
    status, body = run(post(app, "no-such-token", "k2", {"word": "CARTS"}))
    assert status == 401, body
    status, body = run(post(app, token, "k3", {"word": "CARTS", "score": "many"}))
    assert status == 400 and body["code"] == "invalid", body
    # the API takes JSON only: a form's slip is Django's 415, as through the view alone
    form = {"word": "CARTS", "coordinates": "H4", "score": 20}
    status, body = run(post(app, token, "k4", form, content_type=b"application/x-www-form-urlencoded"))
    assert status == 415 and body["code"] == "unsupported_media_type", body
    assert tablet_client(token).post(f"{T}/slip/", form, HTTP_IDEMPOTENCY_KEY="k5").status_code == 415
    assert Slip.objects.filter(round=rnd).count() == 0


def stall_database(round_id: int, seconds: float, held: threading.Event) -> threading.Thread:
    """Another connection holds a write lock on the round (SQLite: the database's; PostgreSQL: the row's)."""

    def hold():
        try:
            with transaction.atomic():
                with connection.cursor() as cur:
                    cur.execute(f'UPDATE "{Round._meta.db_table}" SET "rack" = "rack" WHERE "id" = %s', [round_id])
                held.set()
                time.sleep(seconds)
        finally:
            connections.close_all()

    thread = threading.Thread(target=hold, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("batches", [True, False], ids=["door", "django-view"])
def test_a_slip_sent_before_the_deadline_is_not_late_when_the_database_stalls_at_the_deadline(app, hall, batches):
    rnd, players = hall
    if not batches:
        app.door = None  # DUPLICATE_SLIP_BATCHES=0: each slip through Django's view, late by the same door time
    deadline = timezone.now() + timedelta(seconds=2.5)  # (room for a slow machine to send them before it)
    Round.objects.filter(pk=rnd.pk).update(deadline=deadline)
    held = threading.Event()
    staller = stall_database(rnd.pk, 5.0, held)
    assert held.wait(5)
    began = time.monotonic()

    async def before_the_deadline():
        return await asyncio.gather(*[post(app, token, f"stall-{i}", {"word": "CARTS", "score": 20})
                                      for i, (_reg, token) in enumerate(players)])

    answers = run(before_the_deadline())
    waited = time.monotonic() - began
    staller.join(10)
    print(f"slips answered {waited:.1f} s after they were sent, the deadline {2.5:.1f} s after")
    assert timezone.now() > deadline
    assert [status for status, _body in answers] == [201] * len(players), answers
    assert not Slip.objects.filter(round=rnd, late=True).exists()
    assert all(s.received_at < deadline for s in Slip.objects.filter(round=rnd))


def test_a_proxy_s_request_start_is_the_door_and_a_stranger_s_is_ignored(app, hall, settings):
    rnd, [(_a, a), (_b, b), *_rest] = hall
    deadline = timezone.now() - timedelta(seconds=3)
    Round.objects.filter(pk=rnd.pk).update(deadline=deadline)
    start = [(b"x-request-start", f"t={deadline.timestamp() - 1:.3f}".encode())]
    settings.TRUSTED_PROXIES = ["10.1.2.3"]
    status, body = run(post(app, a, "proxy", {"word": "CARTS"}, extra=start))
    assert (status, body["late"]) == (201, False), body
    settings.TRUSTED_PROXIES = []
    status, body = run(post(app, b, "stranger", {"word": "CARTS"}, extra=start))
    assert (status, body["code"], body["slip"]["late"]) == (409, "time_over", True), body


def test_a_batch_whose_answers_were_lost_is_found_again_by_its_keys(app, hall):
    rnd, players = hall
    items = [slipbatch.Incoming(token=token, key=f"lost-{i}", word="CARTS", coordinates="", score=None,
                                round_id=None, door=timezone.now(), language="en")
             for i, (_reg, token) in enumerate(players)]
    first = write(items)  # committed; the node dies before it answers
    assert [a.status for a in first if a is not None] == [201] * len(players)
    status, body = run(post(app, players[2][1], "lost-2", {"word": "CARTS"}))
    assert status == 200 and body["id"] == json.loads(first[2].body)["id"]
    assert Slip.objects.filter(round=rnd).count() == len(players)


def test_the_close_waits_for_a_batch_in_flight(app, hall, alice, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("row locks and concurrent writers need PostgreSQL (SQLite has one writer at a time)")
    rnd, players = hall
    inside, release = threading.Event(), threading.Event()
    real = slipbatch._audit

    def audit_then_hold(work):
        real(work)
        inside.set()
        release.wait(10)

    monkeypatch.setattr(slipbatch, "_audit", audit_then_hold)
    answers: list = []
    sender = threading.Thread(target=lambda: answers.append(run(post(app, players[0][1], "held", {"word": "CARTS"}))))
    sender.start()
    assert inside.wait(10)
    closed: dict = {}

    def close():
        try:
            closed["round"] = services.rounds.close_round(Round.objects.get(pk=rnd.pk), alice, force=True)
        finally:
            connections.close_all()

    closer = threading.Thread(target=close)
    closer.start()
    time.sleep(0.8)
    assert "round" not in closed and Round.objects.get(pk=rnd.pk).status == Round.Status.OPEN, \
        "the close did not wait for the batch in flight"
    release.set()
    sender.join(10)
    closer.join(10)
    assert answers[0][0] == 201 and closed["round"].status == Round.Status.CLOSED
    assert Slip.objects.get(round=rnd).is_current
