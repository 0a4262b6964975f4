"""Tablet and display pages, the state version (ETag / 304), the display state and the assisted-mode endpoint."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest
from rest_framework.test import APIClient

from tests.tools.browser import page_scripts
from tests.tools.world import PREPARED
from tournament import labels, services
from tournament.live import version as live_version
from tournament.models import Game, Round, Slip

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_cache")]


@pytest.fixture
def fresh_versions(monkeypatch):
    """No memo: every request computes the version (the memo's own test sets it back)."""
    monkeypatch.setattr(live_version, "VERSION_TTL", 0)


def login(code: str) -> str:
    response = APIClient().post("/api/tablet/login/", {"code": code}, format="json")
    assert response.status_code == 200, response.content
    return response.json()["token"]


def start_round(alice, game, eager) -> Round:
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    return rnd


def open_(alice, rnd, eager) -> Round:
    with eager(execute=False):
        return services.rounds.open_round(alice, rnd)


# -- pages ----------------------------------------------------------------------------------------------


def test_login_page_and_qr_code_url(client, tournament):
    page = client.get("/tablet/login/?code=ABCD234567&lang=en")
    assert page.status_code == 200 and page["Referrer-Policy"] == "no-referrer"
    html = page.content.decode()
    assert 'value="ABCD234567"' in html and 'id="login-config"' in html
    assert page_scripts(html) == ["text", "session"]  # the session and the login, nothing of the tablet
    config = json.loads(re.search(r'id="login-config" type="application/json">(.*?)</script>', html).group(1))
    assert config["urls"] == {"login": "/api/tablet/login/", "app": "/tablet/"}
    qr = client.get("/tablet/qr.svg?code=ABCD234567")
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml" and b"<svg" in qr.content
    assert client.get("/tablet/qr.svg?code=<script>").status_code == 400


def test_tablet_page_needs_a_token_and_speaks_the_tournament_language(client, alice, tournament):
    reg, code = services.players.register_player(alice, tournament, name="Иван Петров")
    assert client.get("/tablet/")["Location"] == "/tablet/login/"
    client.cookies["tablet_token"] = "stale"
    assert client.get("/tablet/")["Location"] == "/tablet/login/?expired=1"

    tournament.language = "ru"
    tournament.save()
    client.cookies["tablet_token"] = login(code)
    page = client.get("/tablet/")
    assert page.status_code == 200 and page["Content-Language"] == "ru"
    html = page.content.decode()
    assert "Иван Петров" in html and 'lang="ru"' in html
    assert page_scripts(html) == ["text", "coords", "clock", "stream", "board", "session", "outbox", "slip", "assist",
                                  "receipt", "tablet"]  # the shared parts first, in order; no inline script
    config = json.loads(re.search(r'id="tablet-config" type="application/json">(.*?)</script>', html).group(1))
    assert config["urls"]["version"] == f"/tablet/version/{tournament.slug}/"
    assert config["urls"]["state"] == "/api/tablet/state/" and config["urls"]["slip"] == "/api/tablet/slip/"
    assert config["board"]["rows"][0] == "A" and config["board"]["cols"][7] == "8"  # en rule set: Latin rows
    assert config["board"]["values"]["Z"] == 10 and config["board"]["premiums"][7][7] == "dw"
    strings = json.loads(re.search(r'id="tablet-strings" type="application/json">(.*?)</script>', html).group(1))
    assert set(strings["reasons"]) >= {"ok", "score_wrong", "late", "invalid_word", "no_slip"}
    assert strings["hand_in"] == "Сдать бланк" and strings["status_published"] == "Итоги хода"
    assert [strings["points"][n] for n in "125"] == ["%(n)s очко", "%(n)s очка", "%(n)s очков"]

    # the language switch: a cookie for this tablet; "auto" goes back to the tournament's language
    page = client.get("/tablet/?lang=pl")
    assert page["Content-Language"] == "pl" and page.cookies["tablet_lang"].value == "pl"
    assert "Zastąp kartkę" in json.loads(re.search(r'id="tablet-strings" type="application/json">(.*?)</script>',
                                                    page.content.decode()).group(1))["replace"]
    assert client.get("/tablet/")["Content-Language"] == "pl"
    page = client.get("/tablet/?lang=auto")
    assert page["Content-Language"] == "ru" and page.cookies["tablet_lang"].value == ""


def test_board_labels_follow_the_tournaments_script_and_convention():
    def board(ruleset: str, convention: str, script: str) -> labels.BoardConfig:
        return labels.board_config(SimpleNamespace(ruleset=ruleset, convention=convention, coordinate_script=script))

    ru = board("ru", "duplicate", "cyrillic")
    assert ru["rows"][:3] == ["А", "Б", "В"] and ru["rows"][14] == "П" and ru["cols"][0] == "1"
    assert ru["cyrillic"] and ru["cyrillic_input"] and "Ё" in ru["alphabet"]
    assert board("ru", "duplicate", "latin")["rows"][0] == "A"
    en = board("en", "english", "latin")
    assert en["rows"][0] == "1" and en["cols"][0] == "A" and not en["cyrillic_input"]
    literaki = board("pl-literaki", "duplicate", "latin")
    assert literaki["colours"] and {"ly", "lg", "lb", "lr"} & {c for row in literaki["premiums"] for c in row}


# -- state version ---------------------------------------------------------------------------------------


def test_state_version_etag_304_and_what_bumps_it(client, alice, tournament, regs, eager, fresh_versions):
    url = f"/tablet/version/{tournament.slug}/"
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"] == f'"{first.json()["version"]}"'
    assert first["Cache-Control"] == "no-cache" and int(first["X-Server-Time"]) > 1.7e12
    same = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert same.status_code == 304 and same["ETag"] == first["ETag"] and same["X-Server-Time"] and not same.content
    assert client.get(f"/display/{tournament.slug}/version/", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert client.get("/tablet/version/nope/").status_code == 404

    seen = {first["ETag"]}

    def number(tag: str) -> int:
        return int(tag.strip('"').split(".")[0])

    def changed() -> str:
        r = client.get(url, HTTP_IF_NONE_MATCH=", ".join(seen))
        assert r.status_code == 200, "the version did not change"
        assert number(r["ETag"]) >= max(number(t) for t in seen)  # the audit part only grows
        seen.add(r["ETag"])
        return r["ETag"]

    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    changed()
    rnd = start_round(alice, game, eager)
    changed()
    open_(alice, rnd, eager)
    tag = changed()
    services.slips.submit_slip(rnd, regs[0], word="CARTS", score=20, idempotency_key="k1")  # slips don't change screens
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    services.rounds.close_round(rnd, alice, force=True)
    changed()
    services.judging.judge_round(rnd, alice)
    changed()
    verdict = rnd.verdicts.first()
    services.judging.override_verdict(alice, verdict, awarded=3, warning=False, why="test")
    changed()
    services.rounds.publish_round(alice, rnd)
    changed()
    Round.objects.filter(pk=rnd.pk).update(chosen_score=99)  # even without an audit row
    changed()


def test_state_version_memo_costs_no_query(client, tournament, django_assert_num_queries, monkeypatch):
    monkeypatch.setattr(live_version, "VERSION_TTL", 60.0)  # "within VERSION_TTL" through a loaded machine's pause
    url = f"/tablet/version/{tournament.slug}/"
    with django_assert_num_queries(3):  # slug → id once, then the round and the audit row
        etag = client.get(url)["ETag"]
    with django_assert_num_queries(0):  # within VERSION_TTL: memo, no query at all
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    monkeypatch.setattr(live_version, "VERSION_TTL", 0)
    with django_assert_num_queries(2):
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_tablet_state_after_a_poll_skips_the_version_queries(client, alice, tournament, regs, eager,
                                                              django_assert_num_queries, monkeypatch):
    from tournament.live import tablet as live_tablet

    monkeypatch.setattr(live_version, "VERSION_TTL", 60.0)  # the poll's memo stays fresh through a loaded pause

    live_version.expire()
    live_tablet.reset()
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    rnd = open_(alice, start_round(alice, game, eager), eager)
    _reg, code = services.players.register_player(alice, tournament, name="Zoe Late")
    tablet = APIClient()
    tablet.credentials(HTTP_AUTHORIZATION=f"Tablet {login(code)}")
    tag = client.get(f"/tablet/version/{tournament.slug}/")["ETag"]
    tablet.get(f"/api/tablet/state/?v={tag.strip(chr(34))}")  # the first tablet builds the shared state
    with django_assert_num_queries(2):  # then: the tablet (token) and its own slip; the version is the poll's
        state = tablet.get(f"/api/tablet/state/?v={tag.strip(chr(34))}").json()
    assert state["round"]["id"] == rnd.pk and state["round"]["rack"] == rnd.rack
    assert state["version"] == tag.strip('"')  # the tablet keeps it as its ETag
    with django_assert_num_queries(4):  # no version given (or an unknown one): looked up again
        assert tablet.get("/api/tablet/state/?v=1.nonsense").json()["round"]["rack"] == rnd.rack
    # a change: the poll's new version gives the new state (never the old one under the new tag)
    with eager(execute=False):
        services.rounds.close_round(rnd, alice, force=True)
    live_version.expire()  # as VERSION_TTL seconds later
    new_tag = client.get(f"/tablet/version/{tournament.slug}/", HTTP_IF_NONE_MATCH=tag)["ETag"]
    assert new_tag != tag
    state = tablet.get(f"/api/tablet/state/?v={new_tag.strip(chr(34))}").json()
    assert state["round"]["status"] == "closed" and state["round"]["accepting_slips"] is False
    assert state["version"] == new_tag.strip('"')
    # asked with a tag this process does not know: the version is looked up, the answer says which it is
    assert tablet.get(f"/api/tablet/state/?v={tag.strip(chr(34))}").json()["version"] == new_tag.strip('"')


def test_results_after_publication_are_read_once_per_version(client, alice, tournament, eager,
                                                               django_assert_num_queries, monkeypatch):
    from tests.tools.world import run_round
    from tournament.live import tablet as live_tablet

    # the version memo lives VERSION_TTL seconds: long enough here that a slow (loaded) machine does not
    # outlast it between the two tablets; the passing of time is live_version.expire() below
    monkeypatch.setattr(live_version, "VERSION_TTL", 60)
    live_version.expire()
    live_tablet.reset()
    (ann, ann_code), (ben, ben_code) = (services.players.register_player(alice, tournament, name=n) for n in ("Ann", "Ben"))
    tablets = []
    for code in (ann_code, ben_code):
        tablets.append(APIClient())
        tablets[-1].credentials(HTTP_AUTHORIZATION=f"Tablet {login(code)}")
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    rnd = run_round(alice, game, eager, {ann: "H4 CARTS 20", ben: "H4 CARTS 16"})
    services.rounds.publish_round(alice, rnd)
    tag = client.get(f"/tablet/version/{tournament.slug}/")["ETag"].strip('"')
    first = tablets[0].get(f"/api/tablet/state/?v={tag}").json()  # builds the shared state and the rows
    with django_assert_num_queries(1):  # then each tablet: its token, nothing else
        second = tablets[1].get(f"/api/tablet/state/?v={tag}").json()
    assert (first["slip"]["word"], first["verdict"]["awarded"], first["verdict"]["warning"]) == ("CARTS", 20, False)
    assert (second["slip"]["announced_score"], second["verdict"]["awarded"], second["verdict"]["warning"]) == (
        16, 20, True)
    assert first["result"]["round_score"] == 20 and first["top"] == {"move": "H4 CARTS", "score": 20}
    assert first["result"]["rank"] == second["result"]["rank"] == 1
    # a verdict changed by the arbiter is a new version: the tablets read it again
    services.judging.override_verdict(alice, rnd.verdicts.get(registration=ben), awarded=0, warning=True, why="test")
    live_version.expire()
    tag = client.get(f"/tablet/version/{tournament.slug}/")["ETag"].strip('"')
    again = tablets[1].get(f"/api/tablet/state/?v={tag}").json()
    assert again["verdict"]["awarded"] == 0 and again["result"]["round_score"] == 0 and again["version"] == tag


# -- display ---------------------------------------------------------------------------------------------


def test_display_page_and_state(client, alice, tournament, regs, eager, fresh_versions):
    tournament.language = "uk"
    tournament.save()
    page = client.get(f"/display/{tournament.slug}/")
    assert page.status_code == 200 and page["Content-Language"] == "uk"
    assert page_scripts(page.content.decode()) == ["text", "coords", "clock", "stream", "board", "display"]
    assert client.get(f"/display/{tournament.slug}/?lang=en")["Content-Language"] == "en"
    assert client.get("/display/nope/").status_code == 404
    assert tournament.name in client.get("/display/").content.decode()

    url = f"/display/{tournament.slug}/state.json"
    empty = client.get(url).json()
    assert empty["game"] is None and empty["round"] is None and empty["tournament"]["name"] == tournament.name

    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    rnd = start_round(alice, game, eager)
    drawn = client.get(url)
    state = drawn.json()
    assert state["round"]["status"] == "drawn" and state["round"]["rack"] is None  # not before the round opens
    assert client.get(url, HTTP_IF_NONE_MATCH=drawn["ETag"]).status_code == 304
    open_(alice, rnd, eager)
    state = client.get(url).json()
    assert state["round"]["rack"] == "CATSROE" and 170 <= state["round"]["seconds_left"] <= 180
    assert state["round"]["deadline"] and state["previous"] is None and state["board"] == "15/" * 14 + "15"

    services.slips.submit_slip(rnd, regs[0], word="CARTS", score=20)
    services.rounds.close_round(rnd, alice, force=True)
    services.judging.judge_round(rnd, alice)
    services.rounds.publish_round(alice, rnd)
    state = client.get(url).json()
    assert state["round"]["status"] == "published"
    assert state["previous"] == {"number": 1, "rack": "CATSROE", "move": "H4 CARTS", "score": 20}
    assert state["board"].split("/")[7] == "3CARTS7"
    assert sorted(state["last_move"]) == [[7, c] for c in range(3, 8)] and state["standings"] is None

    rnd2 = start_round(alice, game, eager)
    state = client.get(url).json()
    assert (state["round"]["number"], state["round"]["rack"]) == (2, None)
    assert state["previous"]["move"] == "H4 CARTS"  # the previous top stays on the screen

    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)  # end of the game
    services.rounds.cancel_round(alice, rnd2, why="end the game for the test")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    state = client.get(url).json()
    assert state["game"]["status"] == "finished" and state["round"]["number"] == 1
    rows = state["standings"]["rows"]
    assert len(rows) == len(regs) and rows[0] == {
        "rank": 1, "table": regs[0].table_number, "name": regs[0].player.name, "club": regs[0].player.club,
        "total": 20, "deficit": 0, "percentage": 100.0, "tournament_total": None}
    assert state["standings"]["top_total"] == 20


# -- assisted mode ---------------------------------------------------------------------------------------


def test_assist_endpoint(alice, tournament, regs, eager):
    reg, code = services.players.register_player(alice, tournament, name="Assisted Player")
    tablet = APIClient()
    tablet.credentials(HTTP_AUTHORIZATION=f"Tablet {login(code)}")
    url = "/api/tablet/assist/"
    body = {"placements": [{"row": 7, "col": c, "letter": ch} for c, ch in zip(range(5, 9), "CATS", strict=True)]}
    assert APIClient().post(url, body, format="json").status_code == 401
    refused = tablet.post(url, body, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "not_assisted"

    tournament.assisted_mode = True
    tournament.save()
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    assert tablet.post(url, body, format="json").status_code == 409  # no round open
    rnd = start_round(alice, game, eager)
    assert tablet.post(url, body, format="json").json()["code"] == "no_open_round"
    open_(alice, rnd, eager)

    played = tablet.post(url, body, format="json").json()
    assert played == {"legal": True, "code": None, "error": None, "move": "H6 CATS", "coordinates": "H6",
                      "word": "CATS", "score": 12, "bingo": False, "words": [{"word": "CATS", "score": 12}]}
    vertical = [{"row": r, "col": 7, "letter": ch} for r, ch in zip(range(7, 12), "CARTS", strict=True)]
    assert tablet.post(url, {"placements": vertical}, format="json").json()["move"] == "8H CARTS"
    assert tablet.post(url, {"move": "H4 CARTS"}, format="json").json()["score"] == 20
    # a blank, and a word the lexicon lacks: scored, validity not revealed
    blank = [{"row": 7, "col": 7, "letter": "X", "blank": True}, {"row": 7, "col": 8, "letter": "O"}]
    out = tablet.post(url, {"placements": blank}, format="json").json()
    assert out["legal"] is False and out["code"] == "not_on_rack"  # no blank on CATSROE
    odd = tablet.post(url, {"move": "H8 TAXI"}, format="json").json()
    assert odd["code"] == "not_on_rack"
    nonsense = tablet.post(url, {"move": "H8 SECTOR"}, format="json").json()
    assert nonsense["legal"] is True and nonsense["score"] > 0  # not a word of the list, scored all the same
    gap = [{"row": 7, "col": 7, "letter": "C"}, {"row": 7, "col": 9, "letter": "T"}]
    assert tablet.post(url, {"placements": gap}, format="json").json()["code"] == "gap"
    off_centre = [{"row": 0, "col": 0, "letter": "A"}, {"row": 0, "col": 1, "letter": "T"}]
    assert tablet.post(url, {"placements": off_centre}, format="json").json()["code"] == "first_off_centre"
    assert tablet.post(url, {}, format="json").status_code == 400
    assert tablet.post(url, {"placements": [{"row": 15, "col": 0, "letter": "A"}]}, format="json").status_code == 400
    assert not Slip.objects.exists()  # scoring never hands a slip in
