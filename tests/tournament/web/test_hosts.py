"""A tablet reaching the arbiter's laptop at its address on the hall's network (the address the access cards'
QR codes give) is served when the operator named no hosts; a request naming another host is refused."""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from tournament.web import hosts


def test_with_no_hosts_named_the_settings_take_the_machines() -> None:
    import tournament.settings as configured  # the module's value (the test runner copies it into a list)
    if os.environ.get("DJANGO_ALLOWED_HOSTS"):
        pytest.skip("DJANGO_ALLOWED_HOSTS is set here")
    assert isinstance(configured.ALLOWED_HOSTS, hosts.MachineHosts)
    assert {"localhost", "127.0.0.1"} <= set(configured.ALLOWED_HOSTS)


@pytest.fixture
def hall_network(monkeypatch: pytest.MonkeyPatch, settings: Any) -> list[str]:
    """The machine's address on the hall's network, as the probe would find it: 192.0.2.41 (then .42)."""
    found = ["192.0.2.41"]
    monkeypatch.setattr(hosts, "probed_address", lambda: found[0])
    settings.ALLOWED_HOSTS = hosts.MachineHosts(["localhost", "testserver"])
    return found


@pytest.mark.django_db
def test_the_machines_address_on_the_hall_network_is_served(hall_network: list[str]) -> None:
    client = Client()
    assert client.get("/tablet/login/", HTTP_HOST="192.0.2.41:8000").status_code == 200
    assert client.get("/tablet/login/", HTTP_HOST="localhost:8000").status_code == 200
    assert client.get("/tablet/login/", HTTP_HOST="hall.example.org").status_code == 400


@pytest.mark.django_db
def test_an_address_the_laptop_got_after_the_start_is_served_once_looked_up(
        hall_network: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    client = Client()
    assert client.get("/tablet/login/", HTTP_HOST="192.0.2.42").status_code == 400
    hall_network[0] = "192.0.2.42"  # the laptop joined the hall's Wi-Fi
    monkeypatch.setattr(settings.ALLOWED_HOSTS, "_at", float("-inf"))  # REFRESH_SECONDS later
    assert client.get("/tablet/login/", HTTP_HOST="192.0.2.42").status_code == 200


def test_hosts_named_by_the_operator_are_the_only_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    from django.http.request import validate_host
    monkeypatch.setattr(hosts, "probed_address", lambda: "192.0.2.41")
    machine = hosts.MachineHosts(["localhost"])
    assert validate_host("192.0.2.41", machine) and validate_host("localhost", machine)
    assert not validate_host("192.0.2.41", ["hall.example.org"])
    assert "192.0.2.41" in machine and "evil.example" not in machine
