"""Issue 15: the client's address behind a trusted reverse proxy (rate limits per tablet, not per proxy), and
the embedded database's durability (SQLite synchronous=FULL)."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.test import RequestFactory

from tournament.web.client import client_address


def request(remote: str, forwarded: str | None = None):
    meta = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **meta)


def test_without_a_trusted_proxy_the_header_is_ignored(settings):
    settings.TRUSTED_PROXIES = []
    assert client_address(request("10.0.0.5")) == "10.0.0.5"
    assert client_address(request("10.0.0.5", "1.2.3.4")) == "10.0.0.5"  # anyone can send the header


def test_behind_a_trusted_proxy_the_nearest_untrusted_address_counts(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "10.9.0.0/16"]
    assert client_address(request("127.0.0.1", "192.168.1.23")) == "192.168.1.23"
    # a tablet that writes its own header cannot choose its address: the proxies' part is read from the right
    assert client_address(request("127.0.0.1", "6.6.6.6, 192.168.1.23, 10.9.0.7")) == "192.168.1.23"
    assert client_address(request("127.0.0.1")) == "127.0.0.1"  # no header: the proxy itself
    assert client_address(request("192.168.1.50", "6.6.6.6")) == "192.168.1.50"  # not from the proxy


@pytest.mark.django_db
def test_the_login_lockout_is_per_tablet_behind_the_proxy(settings, client, local_cache):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    url = "/api/tablet/login/"
    for _ in range(10):
        client.post(url, json.dumps({"code": "ZZZZZZZZZZ"}), content_type="application/json",
                    REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="192.168.1.23")
    locked = client.post(url, json.dumps({"code": "ZZZZZZZZZZ"}), content_type="application/json",
                         REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="192.168.1.23")
    other = client.post(url, json.dumps({"code": "ZZZZZZZZZZ"}), content_type="application/json",
                        REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="192.168.1.24")
    assert locked.status_code == 429 and other.status_code != 429


@pytest.mark.django_db
def test_the_embedded_database_commits_durably(manage):
    if connection.vendor != "sqlite":
        pytest.skip("the embedded default only")
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA synchronous")
        assert cursor.fetchone()[0] == 2  # FULL
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
    # a process started as the server is (its own settings, its own connection)
    out = manage("shell", "-c", "from django.db import connection; c = connection.cursor(); "
                 "c.execute('PRAGMA synchronous'); print('synchronous', c.fetchone()[0])")
    assert out.returncode == 0 and "synchronous 2" in out.stdout


@pytest.mark.django_db
@pytest.mark.parametrize("trusted, expected", [([], "127.0.0.1"), (["127.0.0.1"], "192.168.1.23")])
def test_the_audit_log_records_the_client_address(settings, client, local_cache, alice, tournament, trusted, expected):
    """A change made through the proxy is written with the tablet's or arbiter's address only when the proxy is
    trusted (the header alone proves nothing)."""
    from tournament.models import AuditLog

    settings.TRUSTED_PROXIES = trusted
    client.force_login(alice)
    response = client.post(f"/arbiter/t/{tournament.slug}/settings/", {
        "name": "Renamed", "slug": tournament.slug, "ruleset": "en", "lexicon": tournament.lexicon_id,
        "language": "en", "seconds_per_move": 180, "grace_seconds": 10, "solo_mode": "auto", "solo_bonus": 10,
        "free_warnings": 3, "free_warnings_fast": 5, "warning_penalty": 10, "tie_break": "none", "convention": tournament.convention,
        "coordinate_script": tournament.coordinate_script, "time_zone": tournament.time_zone,
    }, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="192.168.1.23")
    assert response.status_code == 302, response.content.decode()[:2000]
    row = AuditLog.objects.filter(tournament=tournament).order_by("-id").first()
    assert row is not None and row.action == "tournament.update" and row.address == expected
    page = client.get(f"/arbiter/t/{tournament.slug}/audit/").content.decode()
    assert expected in page


def test_the_synchronous_level_is_only_a_measurement_knob(monkeypatch):
    from tournament.settings import sqlite_synchronous

    monkeypatch.delenv("DUPLICATE_SQLITE_SYNCHRONOUS", raising=False)
    assert sqlite_synchronous() == "FULL"
    monkeypatch.setenv("DUPLICATE_SQLITE_SYNCHRONOUS", " normal ")
    assert sqlite_synchronous() == "NORMAL"  # what `python -m tests.load --sqlite-synchronous NORMAL` sets
    for level in ("OFF", "0", "FULL; PRAGMA foo"):  # never less than NORMAL, never into the init command
        monkeypatch.setenv("DUPLICATE_SQLITE_SYNCHRONOUS", level)
        with pytest.raises(ImproperlyConfigured):
            sqlite_synchronous()


def production_https_settings() -> dict:
    """SECURE_PROXY_SSL_HEADER and the middleware as tournament/settings.py makes them with DJANGO_HTTPS=1."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(DJANGO_HTTPS="1", DJANGO_SECRET_KEY="k" * 60, DJANGO_SETTINGS_MODULE="tournament.settings")
    script = ("import json, django; from django.conf import settings; django.setup();"
              "print(json.dumps([settings.SECURE_PROXY_SSL_HEADER, settings.MIDDLEWARE]))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60,
                         cwd=Path(__file__).resolve().parents[3])
    assert out.returncode == 0, out.stderr
    header, middleware = json.loads(out.stdout.strip().splitlines()[-1])
    return {"SECURE_PROXY_SSL_HEADER": tuple(header), "MIDDLEWARE": middleware}


@pytest.mark.django_db
def test_forwarded_proto_is_believed_only_from_a_trusted_proxy(settings, client):
    """Issue 35 item 11: with DJANGO_HTTPS=1 a client that sends ``X-Forwarded-Proto: https`` itself is still
    on plain HTTP (redirected, no secure request); the trusted proxy's header makes the request secure."""
    for name, value in production_https_settings().items():
        setattr(settings, name, value)
    settings.SECURE_SSL_REDIRECT = True
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    forged = client.get("/arbiter/login/", HTTP_X_FORWARDED_PROTO="https", REMOTE_ADDR="10.0.0.5")
    assert forged.status_code == 301 and forged["Location"].startswith("https://")
    forged_through = client.get("/arbiter/login/", HTTP_X_FORWARDED_PROTO="https", REMOTE_ADDR="10.0.0.5",
                                HALL_FORWARDED_HTTPS="https")  # the inner key cannot be sent either
    assert forged_through.status_code == 301
    proxied = client.get("/arbiter/login/", HTTP_X_FORWARDED_PROTO="https", REMOTE_ADDR="127.0.0.1")
    assert proxied.status_code == 200
    plain = client.get("/arbiter/login/", HTTP_X_FORWARDED_PROTO="http", REMOTE_ADDR="127.0.0.1")
    assert plain.status_code == 301
