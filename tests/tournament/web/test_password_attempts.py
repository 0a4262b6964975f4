"""Issue 35 item 10: wrong arbiter passwords are limited per account and per client address on the console's
login page and on /api/arbiter/token/: after 10 within 15 minutes even the right password is refused, with
when to try again (the page in its language, the API with 429 and Retry-After), until the window ends."""

from __future__ import annotations

import hashlib
import time

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tournament.models import Tournament
from tournament.web import passwords

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_cache")]
PASSWORD = "right-horse-battery"
LOGIN = "/arbiter/login/"
TOKEN = "/api/arbiter/token/"


@pytest.fixture
def arbiter(alice, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast: 50 checks a test
    alice.set_password(PASSWORD)
    alice.save()
    return alice


def page_login(client: Client, password: str, *, address: str = "10.0.0.1", username: str = "alice"):
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address)


def api_login(password: str, *, address: str = "10.0.0.1", username: str = "alice"):
    return APIClient().post(TOKEN, {"username": username, "password": password}, format="json",
                            REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE="uk")


def later(monkeypatch, seconds: float) -> None:
    """The clock moved on: the windows' starts (the cache's ``since``) are older by ``seconds``."""
    real = time.time
    monkeypatch.setattr(passwords.time, "time", lambda: real() + seconds)


def test_the_login_page_locks_the_account_and_says_when_to_retry(arbiter, monkeypatch):
    Tournament.objects.all().delete()
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    for _ in range(passwords.MAX_FAILURES - 1):
        assert page_login(client, "wrong").status_code == 200
    tenth = page_login(client, "wrong")
    assert tenth.status_code == 429 and int(tenth["Retry-After"]) > 14 * 60
    right = page_login(client, PASSWORD)  # the right password, from another address too: still refused
    assert right.status_code == 429 and "_auth_user_id" not in client.session
    other = page_login(Client(HTTP_ACCEPT_LANGUAGE="ru"), PASSWORD, address="10.0.0.2")
    assert other.status_code == 429
    assert "Слишком много неверных паролей" in right.content.decode() and "15 минут" in right.content.decode()
    later(monkeypatch, passwords.WINDOW_SECONDS + 1)
    assert page_login(client, PASSWORD).status_code == 302  # the window is over


def test_the_token_api_answers_429_with_retry_after(arbiter, monkeypatch):
    for _ in range(passwords.MAX_FAILURES - 1):
        assert api_login("wrong").status_code == 400
    tenth = api_login("wrong")
    assert tenth.status_code == 429 and tenth.json()["code"] == "too_many_attempts"
    assert "Забагато неправильних паролів" in tenth.json()["detail"]
    right = api_login(PASSWORD)
    assert right.status_code == 429 and "token" not in right.json()
    assert 14 * 60 < int(right["Retry-After"]) <= 15 * 60
    later(monkeypatch, 10 * 60)
    assert 4 * 60 < int(api_login(PASSWORD)["Retry-After"]) <= 5 * 60  # the window began with the first failure
    later(monkeypatch, passwords.WINDOW_SECONDS + 1)
    assert "token" in api_login(PASSWORD).json()


def test_one_address_trying_many_accounts_is_locked_behind_the_trusted_proxy(arbiter, settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    client = APIClient()
    proxied = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "192.168.1.23"}
    for i in range(passwords.MAX_FAILURES):
        client.post(TOKEN, {"username": f"ghost{i}", "password": "x"}, format="json", **proxied)
    locked = client.post(TOKEN, {"username": "alice", "password": PASSWORD}, format="json", **proxied)
    assert locked.status_code == 429  # this client's address, whatever the account
    other = client.post(TOKEN, {"username": "alice", "password": PASSWORD}, format="json", REMOTE_ADDR="127.0.0.1",
                        HTTP_X_FORWARDED_FOR="192.168.1.24")
    assert other.status_code == 200  # another client behind the same proxy is not locked


def test_a_right_password_resets_the_accounts_count(arbiter):
    for _ in range(passwords.MAX_FAILURES - 1):
        api_login("wrong", address="10.0.0.7")
    assert api_login(PASSWORD, address="10.0.0.8").status_code == 200
    assert api_login("wrong", address="10.0.0.8").status_code == 400  # the account counts from 0 again


def test_the_tablets_limit_is_unchanged(tournament):
    client = APIClient()
    for _ in range(10):
        client.post("/api/tablet/login/", {"code": "ZZZZZZZZZZ"}, format="json", REMOTE_ADDR="10.1.1.1")
    assert client.post("/api/tablet/login/", {"code": "ZZZZZZZZZZ"}, format="json",
                       REMOTE_ADDR="10.1.1.1").status_code == 429


def test_the_embedded_file_cache_keeps_the_whole_window(settings, tmp_path):
    """The embedded default (the file cache, whose incr does not keep a timeout) counts and locks as Redis does."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                                   "LOCATION": str(tmp_path), "TIMEOUT": 300}}
    for _ in range(passwords.MAX_FAILURES):
        passwords.count_failure("alice", None)
    assert passwords.WINDOW_SECONDS - 60 < passwords.wait_seconds("alice", None) <= passwords.WINDOW_SECONDS
    from django.core.cache import cache  # noqa: PLC0415 (the cache of the settings above)

    key = "arbiter-password:account:" + hashlib.sha256(b"alice").hexdigest()[:32]
    assert cache.get(key) == passwords.MAX_FAILURES
    assert passwords.wait_seconds("bob", None) == 0
