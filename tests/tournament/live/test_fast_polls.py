"""The WSGI layer that answers unchanged version polls with a 304 before Django (tournament/fast_polls.py)."""

from __future__ import annotations

import io
import json
from datetime import datetime

import pytest

from tournament.live import version as live_version
from tournament.live.wsgi import FastVersionPolls

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_cache")]


class Inner:
    """The Django application as the layer sees it: records what it was given."""

    def __init__(self):
        self.paths: list[str] = []

    def __call__(self, environ, start_response):
        self.paths.append(environ["PATH_INFO"])
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"django"]


def call(app, path: str, *, etag: str | None = None, method: str = "GET", scheme: str = "http", **extra):
    environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "", "wsgi.url_scheme": scheme,
               "wsgi.input": io.BytesIO(b""), "SERVER_NAME": "testserver", "SERVER_PORT": "80", **extra}
    if etag is not None:
        environ["HTTP_IF_NONE_MATCH"] = etag
    seen = {}

    def start_response(status, headers, exc_info=None):
        seen["status"], seen["headers"] = status, dict(headers)

    body = b"".join(app(environ, start_response))
    return seen["status"], seen["headers"], body


@pytest.fixture
def layer():
    live_version.expire()
    inner = Inner()
    return FastVersionPolls(inner), inner


def test_unchanged_poll_is_answered_before_django_with_the_views_headers(client, tournament, layer):
    app, inner = layer
    tablet, display = f"/tablet/version/{tournament.slug}/", f"/display/{tournament.slug}/version/"
    # nothing known yet in this process: Django answers (and the view memoises the version)
    assert call(app, tablet, etag='"0.x"')[0] == "200 OK" and inner.paths == [tablet]
    first = client.get(tablet)
    etag = first["ETag"]
    django_304 = client.get(tablet, HTTP_IF_NONE_MATCH=etag)
    assert django_304.status_code == 304

    for path in (tablet, display):
        status, headers, body = call(app, path, etag=etag)
        assert (status, body) == ("304 Not Modified", b"")
        assert headers["ETag"] == etag and abs(int(headers["X-Server-Time"]) - int(django_304["X-Server-Time"])) < 60_000
        for name in ("Cache-Control", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy",
                     "Cross-Origin-Opener-Policy", "Content-Security-Policy"):
            assert headers[name] == django_304[name], name
    assert call(app, tablet, etag=f'W/{etag}, "other"')[0] == "304 Not Modified"  # weak tags, lists

    # a poll with another version (or none) gets the 200 with the body the view sends
    django_200 = client.get(tablet, HTTP_IF_NONE_MATCH='"1.0000000000000000"')
    for kw in ({"etag": '"1.0000000000000000"'}, {}):
        status, headers, body = call(app, tablet, **kw)
        assert status == "200 OK" and headers["ETag"] == etag and headers["Content-Type"] == "application/json"
        assert int(headers["Content-Length"]) == len(body)
        mine, theirs = json.loads(body), json.loads(django_200.content)
        assert mine.pop("server_time") and theirs.pop("server_time") and mine == theirs
        for name in ("Cache-Control", "X-Content-Type-Options", "X-Frame-Options", "Content-Security-Policy"):
            assert headers[name] == django_200[name], name
    assert inner.paths == [tablet] and app.answered == 5


def test_everything_else_goes_to_django(client, tournament, layer, monkeypatch):
    app, inner = layer
    tablet = f"/tablet/version/{tournament.slug}/"
    etag = client.get(tablet)["ETag"]
    cases = [
        (tablet, {"etag": etag, "method": "HEAD"}),
        (tablet, {"etag": etag, "method": "POST"}),
        ("/tablet/version/other-slug/", {"etag": etag}),  # a slug this process has not seen
        (f"/tablet/version/{tournament.slug}/x/", {"etag": etag}),
        (f"/api/tablet/version/{tournament.slug}/", {"etag": etag}),
        ("/tablet/", {"etag": etag}),
    ]
    for path, kw in cases:
        assert call(app, path, **kw)[2] == b"django", (path, kw)
    assert len(inner.paths) == len(cases) and app.answered == 0
    monkeypatch.setattr(live_version, "VERSION_TTL", 0)  # the memo is stale: Django computes the version again
    assert call(app, tablet, etag=etag)[2] == b"django"


def test_a_change_reaches_the_polls_within_the_memo_time(client, alice, tournament, layer, monkeypatch):
    from tournament import services

    app, inner = layer
    tablet = f"/tablet/version/{tournament.slug}/"
    etag = client.get(tablet)["ETag"]
    assert call(app, tablet, etag=etag)[0] == "304 Not Modified"
    services.games.create_game(alice, tournament)
    monkeypatch.setattr(live_version, "VERSION_TTL", 0)  # as VERSION_TTL seconds later
    assert call(app, tablet, etag=etag)[2] == b"django"
    fresh = client.get(tablet, HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200 and fresh["ETag"] != etag


def test_https_settings_plain_http_polls_are_redirected_by_django(client, tournament, settings):
    settings.SECURE_SSL_REDIRECT, settings.SECURE_HSTS_SECONDS = True, 3600
    settings.SECURE_PROXY_SSL_HEADER = ("HALL_FORWARDED_HTTPS", "https")
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    live_version.expire()
    inner = Inner()
    app = FastVersionPolls(inner)
    tablet = f"/tablet/version/{tournament.slug}/"
    etag = client.get(tablet, HTTP_X_FORWARDED_PROTO="https", REMOTE_ADDR="127.0.0.1")["ETag"]
    assert call(app, tablet, etag=etag)[2] == b"django"
    status, headers, _ = call(app, tablet, etag=etag, HTTP_X_FORWARDED_PROTO="https", REMOTE_ADDR="127.0.0.1")
    assert status == "304 Not Modified" and headers["Strict-Transport-Security"].startswith("max-age=3600")
    # the same header from a client that is not a trusted proxy: plain HTTP, so Django redirects it
    assert call(app, tablet, etag=etag, HTTP_X_FORWARDED_PROTO="https", REMOTE_ADDR="10.0.0.5")[2] == b"django"


def test_the_served_application_has_the_layer():
    from tournament import wsgi

    assert isinstance(wsgi.application, FastVersionPolls)
    assert wsgi.application.app is wsgi.django_application


def test_the_public_round_shows_the_rack_from_the_open_and_never_the_top(client, alice, tournament, layer, eager):
    from tests.tools.world import PREPARED
    from tournament import services

    app, _inner = layer
    tablet = f"/tablet/version/{tournament.slug}/"
    assert client.get(tablet).json()["round"] is None
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    live_version.expire()
    drawn = client.get(tablet).json()["round"]
    assert drawn == {"id": rnd.pk, "game": 1, "number": 1, "status": "drawn", "rack": None, "deadline": None,
                     "grace_seconds": rnd.grace_seconds}
    with eager(execute=False):
        rnd = services.rounds.open_round(alice, rnd)
    live_version.expire()
    opened = client.get(tablet).json()["round"]
    assert opened["status"] == "open" and opened["rack"] == rnd.rack
    assert datetime.fromisoformat(opened["deadline"]) == rnd.deadline
    # the layer sends the same, and nothing of the top or the slips at any stage
    body = call(app, tablet)[2].decode()
    assert json.loads(body)["round"] == opened
    services.slips.submit_slip(rnd, services.players.register_player(alice, tournament, name="Ann")[0], word="CARTS", score=20,
                         idempotency_key="pub-1")
    services.rounds.close_round(rnd, alice, force=True)
    live_version.expire()
    closed = client.get(tablet).content.decode()
    for secret in ("CARTS", "top", "chosen", str(rnd.top_moves[0]["score"]) + ","):
        assert secret not in closed, secret


def test_a_judged_rounds_tablet_state_is_served_from_the_memo_as_django_sends_it(client, alice, tournament, layer,
                                                                                 eager, monkeypatch):
    from rest_framework.test import APIClient

    from tests.tools.world import PREPARED, run_round
    from tournament import services
    from tournament.live import tablet as live_tablet

    app, inner = layer
    live_tablet.reset()
    players = [services.players.register_player(alice, tournament, name=n) for n in ("Ann", "Ben")]
    tokens = []
    for _reg, code in players:
        tokens.append(APIClient().post("/api/tablet/login/", {"code": code}, format="json").json()["token"])
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    rnd = run_round(alice, game, eager, {players[0][0]: "H4 CARTS 20", players[1][0]: "H4 CARTS 16"})
    services.rounds.publish_round(alice, rnd)
    version = client.get(f"/tablet/version/{tournament.slug}/")["ETag"].strip('"')
    path = "/api/tablet/state/"
    monkeypatch.setattr(live_version, "VERSION_TTL", 60.0)  # the memo stays fresh through a loaded machine's pause

    def django_state(token):
        tablet = APIClient()
        tablet.credentials(HTTP_AUTHORIZATION=f"Tablet {token}")
        return tablet.get(f"{path}?v={version}", HTTP_ACCEPT="application/json")

    def fast(token, **kw):
        return call(app, path, QUERY_STRING=f"v={version}", HTTP_AUTHORIZATION=f"Tablet {token}",
                    HTTP_ACCEPT="application/json", **kw)

    assert fast(tokens[0])[2] == b"django"  # nothing read yet for this version
    first = django_state(tokens[0])  # the first read fills the memo
    for token in tokens:
        theirs = django_state(token)
        status, headers, body = fast(token)
        assert status == "200 OK" and headers["Content-Type"] == "application/json"
        mine, expected = json.loads(body), json.loads(theirs.content)
        assert mine.pop("server_time") and expected.pop("server_time") and mine == expected
        for name in ("X-Content-Type-Options", "X-Frame-Options", "Vary", "Allow", "Content-Security-Policy"):
            assert headers[name] == theirs[name], name
    assert json.loads(fast(tokens[1])[2])["verdict"]["warning"] is True and first.json()["result"]["rank"] == 1
    # Django answers: unknown token, the browsable API, another version, a version that is not current
    calls = len(inner.paths)
    assert fast("not-a-token")[2] == b"django"
    assert call(app, path, QUERY_STRING=f"v={version}", HTTP_AUTHORIZATION=f"Tablet {tokens[0]}",
                HTTP_ACCEPT="text/html")[2] == b"django"
    assert call(app, path, QUERY_STRING="v=1.other", HTTP_AUTHORIZATION=f"Tablet {tokens[0]}")[2] == b"django"
    assert call(app, path, HTTP_AUTHORIZATION=f"Tablet {tokens[0]}")[2] == b"django"
    live_version.expire()  # the memo is stale: the version may have changed
    assert fast(tokens[0])[2] == b"django"
    assert len(inner.paths) == calls + 5
