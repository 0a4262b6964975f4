"""The home page opens a door for each audience."""

import pytest

pytestmark = pytest.mark.django_db


def test_home_lists_tournaments_with_their_hall_display(client, tournament):
    client.cookies["django_language"] = "en"
    page = client.get("/").content.decode()
    assert tournament.name in page
    assert f'href="/display/{tournament.slug}/"' in page
    assert 'href="/tablet/login/"' in page and 'href="/arbiter/login/"' in page


def test_home_in_russian(client, tournament):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Арбитр" in page
