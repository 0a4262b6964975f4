"""The login pages speak the hall's language (a browser in English in a Ukrainian hall), a card replaced by a new
one is told so, and the tablets hear that the arbiter is typing the rack drawn from the bag."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.tools.world import PREPARED
from tournament import services
from tournament.live import version as live_version
from tournament.services import signs

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_cache")]

ENGLISH_BROWSER = {"HTTP_ACCEPT_LANGUAGE": "en-US,en;q=0.9"}


@pytest.fixture
def halls(alice, tournament, lexicon_row):
    """Two halls of one server: the test tournament in Ukrainian, another in Russian."""
    tournament.language = "uk"
    tournament.save()
    other = services.tournaments.create_tournament(alice, name="Кубок", slug="kubok", ruleset="en", lexicon=lexicon_row,
                                                   language="ru", arbiters=[alice])
    return tournament, other


def test_the_tablets_login_page_speaks_the_halls_language(client, alice, tournament):
    tournament.language = "uk"
    tournament.save()
    # one hall on this server: its language, whatever the browser's
    page = client.get("/tablet/login/", **ENGLISH_BROWSER)
    assert page["Content-Language"] == "uk" and 'lang="uk"' in page.content.decode()
    assert client.get("/tablet/login/?expired=1", **ENGLISH_BROWSER)["Content-Language"] == "uk"
    # a language the player picked stays
    client.cookies["tablet_lang"] = "pl"
    assert client.get("/tablet/login/", **ENGLISH_BROWSER)["Content-Language"] == "pl"


def test_with_halls_of_several_languages_the_card_or_the_hall_says_which(client, alice, halls):
    uk, ru = halls
    _reg, ru_code = services.players.register_player(alice, ru, name="Пётр")
    assert client.get("/tablet/login/", **ENGLISH_BROWSER)["Content-Language"] == "en"  # nothing says which hall
    assert client.get(f"/tablet/login/?code={ru_code}", **ENGLISH_BROWSER)["Content-Language"] == "ru"  # the QR card
    assert client.get(f"/tablet/login/?hall={uk.slug}", **ENGLISH_BROWSER)["Content-Language"] == "uk"  # after logout
    assert client.get("/tablet/login/?code=NOSUCHCODE", **ENGLISH_BROWSER)["Content-Language"] == "en"


def test_the_consoles_login_page_speaks_the_halls_language(client, alice, halls):
    uk, ru = halls
    assert client.get("/arbiter/login/", **ENGLISH_BROWSER)["Content-Language"] == "en"  # two languages
    page = client.get(f"/arbiter/login/?next=/arbiter/t/{ru.slug}/", **ENGLISH_BROWSER)
    assert page["Content-Language"] == "ru" and "Вход для арбитра" in page.content.decode()
    ru.delete()
    page = client.get("/arbiter/login/", **ENGLISH_BROWSER)  # every hall speaks Ukrainian
    assert page["Content-Language"] == "uk" and 'lang="uk"' in page.content.decode()
    client.force_login(alice)
    page = client.post("/arbiter/logout/", follow=True, **ENGLISH_BROWSER)
    assert page["Content-Language"] == "uk"
    assert [str(m) for m in page.context["messages"]] == ["Ви вийшли з системи."]
    client.cookies["django_language"] = "fr"  # the arbiter's own choice stays
    assert client.get("/arbiter/login/", **ENGLISH_BROWSER)["Content-Language"] == "fr"


def test_a_replaced_card_is_told_so_in_its_halls_language(client, alice, tournament):
    tournament.language = "uk"
    tournament.save()
    reg, old = services.players.register_player(alice, tournament, name="Оксана")
    (_reg, new), = services.players.issue_access_codes(alice, [reg])
    api = APIClient()
    answer = api.post("/api/tablet/login/", {"code": old}, format="json", **ENGLISH_BROWSER)
    assert answer.status_code == 400 and answer.json()["code"] == "code_replaced"
    assert answer.json()["detail"].startswith("Цю картку замінено новою")
    assert answer.json()["language"] == "uk"
    picked = api.post("/api/tablet/login/", {"code": old.lower(), "language": "en"}, format="json").json()
    assert picked["code"] == "code_replaced" and picked["detail"].startswith("This card was replaced by a new one")
    never = api.post("/api/tablet/login/", {"code": "23456789AB"}, format="json").json()
    assert never["code"] == "bad_code"
    assert api.post("/api/tablet/login/", {"code": new}, format="json").status_code == 200
    # the QR link of the old card opens the login page in the hall's language
    assert client.get(f"/tablet/login/?code={old}", **ENGLISH_BROWSER)["Content-Language"] == "uk"
    # a second new card: both old codes are told apart from a wrong one
    services.players.issue_access_codes(alice, [reg])
    for code in (old, new):
        assert api.post("/api/tablet/login/", {"code": code}, format="json").json()["code"] == "code_replaced"


def test_the_tablets_hear_that_the_arbiter_is_typing_the_rack(client, alice, tournament, eager, monkeypatch):
    from tests.tools.world import run_round

    monkeypatch.setattr(live_version, "VERSION_TTL", 0)
    reg, code = services.players.register_player(alice, tournament, name="Ann")
    token = APIClient().post("/api/tablet/login/", {"code": code}, format="json").json()["token"]
    tablet = APIClient()
    tablet.credentials(HTTP_AUTHORIZATION=f"Tablet {token}")
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    client.force_login(alice)
    typing = f"/arbiter/t/{tournament.slug}/g/{game.number}/typing/"
    version = client.get(f"/tablet/version/{tournament.slug}/")["ETag"]

    assert client.post(typing).json() == {"shown": True}  # no round yet: the first rack is being typed
    assert client.get(f"/tablet/version/{tournament.slug}/", HTTP_IF_NONE_MATCH=version).status_code == 200
    until = tablet.get("/api/tablet/state/").json()["rack_typing_until"]
    left = (timezone.datetime.fromisoformat(until) - timezone.now()).total_seconds()
    assert signs.RACK_TYPING_SECONDS - 5 < left <= signs.RACK_TYPING_SECONDS
    # his next keys within RACK_TYPING_RENEW seconds change nothing the screens show
    version = client.get(f"/tablet/version/{tournament.slug}/")["ETag"]
    assert client.post(typing).json() == {"shown": True}
    assert client.get(f"/tablet/version/{tournament.slug}/", HTTP_IF_NONE_MATCH=version).status_code == 304

    # the draw: the round's own state (no sign); its publication: a sign typed before it is stale
    rnd = run_round(alice, game, eager, {reg: "H4 CARTS 20"})
    assert tablet.get("/api/tablet/state/").json()["rack_typing_until"] is None
    services.rounds.publish_round(alice, rnd)
    assert tablet.get("/api/tablet/state/").json()["rack_typing_until"] is None
    assert client.post(typing).json() == {"shown": True}
    state = tablet.get("/api/tablet/state/").json()
    assert state["round"]["status"] == "published" and state["rack_typing_until"] is not None
    display = client.get(f"/display/{tournament.slug}/state.json").json()  # the hall display says it too
    parsed = timezone.datetime.fromisoformat
    assert parsed(display["rack_typing_until"]) == parsed(state["rack_typing_until"].replace("Z", "+00:00"))
    assert state["result"]["total"] == 20  # the last round's results stay on the tablet

    # a round drawn and not published, or the game over: no sign (the form is not there)
    with eager(execute=True):
        services.rounds.draw_round(alice, game)
    assert client.post(typing).json() == {"shown": False}
    assert client.get(f"/display/{tournament.slug}/state.json").json()["rack_typing_until"] is None
    assert client.post(f"/arbiter/t/{tournament.slug}/g/99/typing/").status_code == 404
    assert client.get(typing).status_code == 405


def test_a_sign_counts_only_after_the_last_publication():
    now = timezone.now()
    assert signs.rack_typing_until(None, None) is None
    assert signs.rack_typing_until(now, None) == now + timedelta(seconds=signs.RACK_TYPING_SECONDS)
    assert signs.rack_typing_until(now, now - timedelta(seconds=1)) is not None
    assert signs.rack_typing_until(now - timedelta(seconds=1), now) is None


def test_a_qr_links_code_counts_as_a_login_with_it(client, alice, halls):
    """The login page of a QR link looks the code up for its hall's language: a wrong code counts towards the
    login limit, and over the limit the page no longer looks codes up (no unlimited oracle of valid codes)."""
    from tournament.web import attempts

    _uk, ru = halls
    _reg, code = services.players.register_player(alice, ru, name="Пётр")
    for _ in range(attempts.LOGIN_MAX_FAILURES):
        assert client.get("/tablet/login/?code=23456789AB", **ENGLISH_BROWSER)["Content-Language"] == "en"
    assert APIClient().post("/api/tablet/login/", {"code": code}, format="json").status_code == 429
    assert client.get(f"/tablet/login/?code={code}", **ENGLISH_BROWSER)["Content-Language"] == "en"


def test_the_arbiter_api_gives_the_sign_too(alice, tournament):
    """A client of the arbiter API (a console of its own) says that the arbiter is typing the rack."""
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    api = APIClient()
    url = f"/api/arbiter/tournaments/{tournament.slug}/games/{game.number}/rack-typing/"
    assert api.post(url).status_code == 401
    api.force_authenticate(alice)
    assert api.post(url).json() == {"shown": True}
    assert api.post(f"/api/arbiter/tournaments/{tournament.slug}/games/9/rack-typing/").status_code == 404
    tournament.refresh_from_db()
    assert tournament.rack_typing_at is not None
