"""Permission matrix of the API over EVERY endpoint of tournament.api.urls, and no leak of an unpublished round.

Roles: anonymous, player (tablet of table 1), other player (tablet of table 2), arbiter of the tournament,
arbiter of another tournament. A new endpoint without an entry in MATRIX fails ``test_matrix_covers_every_endpoint``.
"""

from __future__ import annotations

import json

import pytest
from django.db import transaction
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.tools.world import judged_first_round
from tests.tournament.simultaneous.rows import simul_rows
from tournament import services
from tournament.api import urls as api_urls

#: who may call what is decided above the database; the endpoints' queries run on both back ends in tests/tournament/api
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_cache"), pytest.mark.one_backend]
PREPARED = ["CATSROE", "OE+DRSZ?"]
ROLES = ["anonymous", "player", "other_player", "arbiter", "other_arbiter"]
DENIED = (401, 403)

# kind of each endpoint: who may use it
ARBITER = {"anonymous": 401, "player": 401, "other_player": 401, "other_arbiter": 403, "arbiter": "allowed"}
ARBITER_LIST = {**ARBITER, "other_arbiter": "allowed"}  # lists only his own tournaments
ANYONE = dict.fromkeys(ROLES, "allowed")
TABLET = {"anonymous": 401, "arbiter": 401, "other_arbiter": 401, "player": "allowed", "other_player": "allowed"}

#: name → (method, body, expectations)
MATRIX = {
    "arbiter-token": ("post", {"username": "nobody", "password": "x"}, ANYONE),
    "arbiter-tournaments": ("get", None, ARBITER_LIST),
    "arbiter-tournament": ("get", None, ARBITER),
    "arbiter-registrations": [("get", None, ARBITER), ("post", {"name": "New player"}, ARBITER)],
    "arbiter-games": [("get", None, ARBITER), ("post", {"seed": 3}, ARBITER)],
    "arbiter-game": ("get", None, ARBITER),
    "arbiter-game-rounds": ("get", None, ARBITER),
    "arbiter-draw": ("post", {}, ARBITER),
    "arbiter-rack-typing": ("post", None, ARBITER),
    "arbiter-game-standings": ("get", None, ARBITER),
    "arbiter-game-finish": ("post", {"why": "test"}, ARBITER),
    "arbiter-game-penalty": ("post", {"table": 1, "points": 5, "reason": "test"}, ARBITER),
    "arbiter-standings": ("get", None, ARBITER),
    "arbiter-audit": ("get", None, ARBITER),
    "arbiter-round": ("get", None, ARBITER),
    "arbiter-round-open": ("post", {}, ARBITER),
    "arbiter-round-close": ("post", {}, ARBITER),
    "arbiter-round-judge": ("post", {}, ARBITER),
    "arbiter-round-review": ("post", {}, ARBITER),
    "arbiter-round-top": ("post", {"move": "H4 CARTS"}, ARBITER),
    "arbiter-round-publish": ("post", {}, ARBITER),
    "arbiter-round-cancel": ("post", {"why": "test"}, ARBITER),
    "arbiter-round-no-move": ("post", {}, ARBITER),
    "arbiter-round-slips": [("get", None, ARBITER), ("post", {"table": 3, "word": "CATS", "score": 12}, ARBITER)],
    "arbiter-round-count": ("get", None, ARBITER),
    "arbiter-round-verdicts": ("get", None, ARBITER),
    "arbiter-round-times": [("get", None, ARBITER), ("post", {"table": 1, "time": "0:42"}, ARBITER)],
    "arbiter-game-times": ("get", None, ARBITER),
    "arbiter-times": ("get", None, ARBITER),
    "arbiter-verdict-override": ("post", {"awarded": 1, "warning": False, "why": "test"}, ARBITER),
    "tablet-login": ("post", {"code": "WRONG"}, ANYONE),
    "tablet-state": ("get", None, TABLET),
    "tablet-slip": ("post", {"word": "CATS", "score": 12}, TABLET),
    "tablet-assist": ("post", {"move": "H4 CARTS"}, TABLET),
    "public-tournaments": ("get", None, ANYONE),
    "public-tournament": ("get", None, ANYONE),
    "public-rounds": ("get", None, ANYONE),
    "public-game-standings": ("get", None, ANYONE),
    "public-standings": ("get", None, ANYONE),
    # a simultaneous game: the hall's token opens its package, the hall key's signature is the results' pass
    "simul-package": ("get", None, ANYONE),
    "simul-results": ("post", {}, ANYONE),
    "public-game-times": ("get", None, ANYONE),
}


def cases(name):
    entry = MATRIX[name]
    return entry if isinstance(entry, list) else [entry]


@pytest.fixture
def world(alice, bob, tournament, lexicon_row, eager):
    """Tournament with a judged, unpublished round (a top chosen); another tournament arbitrated by bob."""
    services.tournaments.create_tournament(bob, name="Other", slug="other", ruleset="en", lexicon=lexicon_row, arbiters=[bob])
    rnd, [(reg_a, code_a), (reg_b, code_b), _c] = judged_first_round(
        alice, tournament, eager, ("SCAT 14", "CATS 12"), names=("A", "B", "C"))
    game = rnd.game
    services.rounds.choose_top(alice, rnd, "H4 CARTS")

    def token_client(user):
        c = APIClient()
        c.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
        return c

    def tablet(reg, code):
        c = APIClient()
        c.credentials(HTTP_AUTHORIZATION=f"Tablet {services.players.issue_tablet_token(reg, code)}")
        return c

    clients = {"anonymous": APIClient(), "player": tablet(reg_a, code_a), "other_player": tablet(reg_b, code_b),
               "arbiter": token_client(alice), "other_arbiter": token_client(bob)}
    verdict = rnd.verdicts.get(registration=reg_a)
    return {"clients": clients, "tournament": tournament, "game": game, "round": rnd, "verdict": verdict,
            "simul": simul_rows(lexicon_row)}


def url_for(world, name: str) -> str:
    pattern = next(p for p in api_urls.urlpatterns if p.name == name)
    route = str(pattern.pattern)
    kwargs = {}
    if "<slug:slug>" in route:
        kwargs["slug"] = world["tournament"].slug
    if "<int:number>" in route:
        kwargs["number"] = world["game"].number
    if "<uuid:game>" in route:
        kwargs["game"] = world["simul"].game_id
    if "<slug:code>" in route:
        kwargs["code"] = "paris"
    if "<int:pk>" in route:
        kwargs["pk"] = world["verdict"].pk if route.startswith("arbiter/verdicts/") else world["round"].pk
    return reverse(f"api:{name}", kwargs=kwargs)


def call(client, method, url, body):
    """One request, rolled back afterwards (the matrix never changes the world it checks)."""
    with transaction.atomic():
        if method == "get":
            response = client.get(url)
        else:
            response = getattr(client, method)(url, body, format="json", HTTP_IDEMPOTENCY_KEY="matrix-key")
        transaction.set_rollback(True)
    return response


def test_matrix_covers_every_endpoint():
    names = [p.name for p in api_urls.urlpatterns]
    assert all(names) and len(names) == len(set(names))
    assert set(names) == set(MATRIX), "every endpoint needs a row in the permission matrix"


@pytest.mark.parametrize("name", sorted(MATRIX))
def test_permission_matrix(world, name):
    url = url_for(world, name)
    for method, body, expected in cases(name):
        for role in ROLES:
            response = call(world["clients"][role], method, url, body)
            what = (name, method, role, response.status_code, response.content[:300])
            assert response.status_code < 500, what
            body_json = response.json()
            if expected[role] == "allowed":  # refused, if at all, for another reason than who is asking
                refused = response.status_code in DENIED and isinstance(body_json, dict)
                assert not refused or body_json["code"] not in ("not_authenticated", "permission_denied"), what
                if response.status_code >= 400:
                    assert body_json["code"] and body_json["detail"], what
            else:
                assert response.status_code == expected[role], what
                assert body_json["code"] in ("not_authenticated", "permission_denied"), what
                assert body_json["detail"], what
        # every other method is refused cleanly
        for other in {"put", "patch", "delete"}:
            response = call(world["clients"]["arbiter"], other, url, {})
            assert response.status_code in (401, 403, 405), (name, other, response.status_code)


def test_other_arbiter_sees_only_his_tournaments(world):
    slugs = [t["slug"] for t in world["clients"]["other_arbiter"].get("/api/arbiter/tournaments/").json()]
    assert slugs == ["other"]
    assert [t["slug"] for t in world["clients"]["arbiter"].get("/api/arbiter/tournaments/").json()] == ["open-test"]


def test_public_endpoints_are_read_only(world):
    for name in MATRIX:
        if name.startswith("public-"):
            response = APIClient().post(url_for(world, name), {}, format="json")
            assert response.status_code in (403, 405), name


def test_no_slip_or_top_of_an_unpublished_round_leaks(world):
    """The round is judged and its top chosen but not published: nothing of it reaches players or the public."""
    rnd = world["round"]
    secrets = ["H4 CARTS", "SCAT", "top_moves", "first_round", '"true_score": 20', "chosen"]
    for name in MATRIX:
        if not (name.startswith("public-") or name == "tablet-state"):
            continue
        for role in ("anonymous", "other_player", "player"):
            response = world["clients"][role].get(url_for(world, name))
            if response.status_code != 200:
                continue
            text = json.dumps(response.json(), ensure_ascii=False)
            for secret in secrets:
                if role == "player" and secret == "SCAT":
                    continue  # his own slip
                assert secret not in text, (name, role, secret)
    own = world["clients"]["player"].get("/api/tablet/state/").json()
    assert own["slip"]["word"] == "SCAT" and own["round"]["id"] == rnd.pk
    assert own["verdict"] is None and own["top"] is None and own["result"] is None
    other = world["clients"]["other_player"].get("/api/tablet/state/").json()
    assert other["slip"]["word"] == "CATS"
    assert world["clients"]["anonymous"].get(url_for(world, "public-rounds")).json() == []
    standings = world["clients"]["anonymous"].get(url_for(world, "public-game-standings")).json()
    assert all(r["total"] == 0 for r in standings["rows"]) and standings["top_total"] == 0


def test_assisted_mode_shows_the_verdict_before_publication(world):
    t = world["tournament"]
    t.assisted_mode = True
    t.save()
    own = world["clients"]["player"].get("/api/tablet/state/").json()
    assert own["verdict"]["reason"] == "first_round_score_wrong" and own["verdict"]["awarded"] == 12
    assert own["top"] is None and own["result"] is None


def test_a_player_submits_only_for_the_open_round_and_keys_are_his_own(world, alice, eager):
    old = world["round"]
    services.rounds.cancel_round(alice, old, why="wrong rack")
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, world["game"])
    player, other = world["clients"]["player"], world["clients"]["other_player"]
    response = player.post("/api/tablet/slip/", {"word": "CATS"}, format="json", HTTP_IDEMPOTENCY_KEY="x1")
    assert response.status_code == 409 and response.json()["code"] == "no_open_round"  # drawn, not open yet
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    response = player.post("/api/tablet/slip/", {"word": "CATS", "round": old.pk}, format="json",
                           HTTP_IDEMPOTENCY_KEY="x1")
    assert response.status_code == 409 and response.json()["code"] == "round_changed"
    mine = player.post("/api/tablet/slip/", {"word": "CATS", "round": rnd.pk}, format="json", HTTP_IDEMPOTENCY_KEY="x1")
    theirs = other.post("/api/tablet/slip/", {"word": "CATS"}, format="json", HTTP_IDEMPOTENCY_KEY="x1")
    assert mine.status_code == theirs.status_code == 201 and mine.json()["id"] != theirs.json()["id"]
    assert rnd.slips.get(pk=theirs.json()["id"]).registration.player.name == "B"
