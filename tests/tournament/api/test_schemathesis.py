"""Property-based API test: schemathesis drives every operation of the OpenAPI schema (``/api/schema/``)
against the Django WSGI application in-process.

Authenticated as the tournament's arbiter (DRF token) on arbiter operations and as a player's tablet
(``Authorization: Tablet <token>``) on tablet operations, over a fixture tournament with a judged round.
Checks: never a 5xx; every 4xx is JSON with ``detail`` and ``code``.

Each example runs in a savepoint rolled back afterwards, so every example starts from the same world;
half of the examples use the world's real slug / game number / round id in the path so that the
generated bodies reach the views' validation rather than stopping at a 404.
"""

from __future__ import annotations

import json
import time

import pytest
import schemathesis
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token

from tests.tools.world import judged_first_round
from tournament import services

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_cache")]

PREPARED = ["CATSROE", "OE+DRSZ?"]
#: examples per operation: enough to reach each operation's error paths (every operation also gets the real ids
#: half of the time), few enough for CI's loaded passes; the time taken is printed as a figure
MAX_EXAMPLES = 12


@pytest.fixture
def in_process_app():
    """The WSGI app, sharing the test's database connection (as Django's test client does)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield WSGIHandler()
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.fixture
def world(alice, tournament, eager):
    rnd, [(reg_a, code_a), _b] = judged_first_round(alice, tournament, eager, ("SCAT 14", "CATS 12"))
    game = rnd.game
    verdict = rnd.verdicts.first()
    return {
        "slug": tournament.slug, "number": game.number, "round": rnd.pk, "verdict": verdict.pk,
        "arbiter": f"Token {Token.objects.get_or_create(user=alice)[0].key}",
        "tablet": f"Tablet {services.players.issue_tablet_token(reg_a, code_a)}",
    }


def auth_for(path: str, world: dict) -> dict:
    if path.startswith("/api/arbiter/"):
        return {"Authorization": world["arbiter"]}
    if path.startswith(("/api/tablet/", "/tablet/")):
        return {"Authorization": world["tablet"]}
    return {}


def real_path_parameters(case, world: dict) -> None:
    params = dict(case.path_parameters or {})
    if "slug" in params:
        params["slug"] = world["slug"]
    if "number" in params:
        params["number"] = world["number"]
    if "pk" in params:
        params["pk"] = world["verdict"] if "/verdicts/" in case.path else world["round"]
    case.path_parameters = params


def content_type(response) -> str:
    """The Content-Type of a schemathesis response (its headers map names to lists of values)."""
    for name, value in response.headers.items():
        if name.lower() == "content-type":
            return value[0] if isinstance(value, list) else value
    return ""


def check_response(case, response) -> None:
    what = f"{case.method} {case.formatted_path} → {response.status_code}: {response.text[:300]!r}"
    assert response.status_code < 500, what
    if 400 <= response.status_code < 500:
        assert "json" in content_type(response), what
        body = json.loads(response.text)
        assert isinstance(body, dict) and body.get("detail") and body.get("code"), what


def test_every_operation_of_the_schema(world, in_process_app):
    schema = schemathesis.openapi.from_wsgi("/api/schema/", in_process_app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) > 30, "the schema lists every API operation"
    started = time.monotonic()
    seen, failures = [], []
    for operation in operations:
        try:
            exercise(operation, world)
        except AssertionError as exc:  # collect every failing operation, not only the first one
            failures.append(str(exc).splitlines()[0])
        seen.append(f"{operation.method.upper()} {operation.path}")
    assert not failures, "\n".join(failures)
    print(f"\n{len(seen)} operations, up to {MAX_EXAMPLES} examples each: {time.monotonic() - started:.0f} s")
    assert any(p.endswith("/api/tablet/slip/") for p in seen) and any("/api/arbiter/rounds/" in p for p in seen)


def exercise(operation, world: dict) -> None:
    """Up to MAX_EXAMPLES generated requests to one operation, each rolled back afterwards."""

    @settings(max_examples=MAX_EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy(), use_real_ids=st.booleans())
    def run(case, use_real_ids):
        if use_real_ids:
            real_path_parameters(case, world)
        headers = {**(case.headers or {}), **auth_for(operation.path, world)}
        if operation.method.upper() == "POST":
            headers.setdefault("Idempotency-Key", "schemathesis")
        with transaction.atomic():
            response = case.call(headers=headers)
            transaction.set_rollback(True)
        check_response(case, response)

    run()
