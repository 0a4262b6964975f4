"""While the database does not answer, pages and polls answer 503 with Retry-After and a short text (JSON for the
API and the screens' polls), not a 500; a bug (an integrity error) is still a 500."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, OperationalError, connection
from django.test import Client

from tournament.live import version as live_version

pytestmark = pytest.mark.django_db


def failing(error: type[Exception]):
    def wrapper(execute, sql, params, many, context):
        raise error("simulated: the database server is restarting")

    return wrapper


@pytest.fixture
def client_down(tournament, alice):
    live_version.expire()
    live_version.reset()
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    client.cookies["django_language"] = "en"
    return client


def test_the_screens_poll_and_the_console_answer_503_while_the_database_is_down(client_down, tournament):
    with connection.execute_wrapper(failing(OperationalError)):
        poll = client_down.get(f"/tablet/version/{tournament.slug}/", HTTP_ACCEPT="application/json")
        page = client_down.get("/arbiter/")
        slip = client_down.post("/api/tablet/slip/", {}, content_type="application/json",
                                HTTP_AUTHORIZATION="Tablet x", HTTP_IDEMPOTENCY_KEY="k")
    assert poll.status_code == 503 and poll["Retry-After"] == "5"
    assert poll.json() == {"detail": "The database is not answering: try again in a moment.", "code": "unavailable"}
    assert page.status_code == 503 and page["Retry-After"] == "5"
    assert "The database is not answering" in page.content.decode() and page["Content-Type"].startswith("text/html")
    assert slip.status_code == 503 and slip.json()["code"] == "unavailable"  # the API's own answer
    assert client_down.get(f"/tablet/version/{tournament.slug}/").status_code == 200  # back


def test_a_programming_error_is_still_a_server_error(client_down, tournament):
    with connection.execute_wrapper(failing(IntegrityError)):
        poll = client_down.get(f"/tablet/version/{tournament.slug}/", HTTP_ACCEPT="application/json")
    assert poll.status_code == 500
