"""The REST API: a full game with 30 players through the arbiter, tablet and public endpoints; errors; schema."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.tools.api import A, Hall, P, T, arbiter_client, error, ok, slip_body, tablet_client
from tournament import services
from tournament.models import AuditLog, Round, Slip

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_cache")]
PREPARED = ["CATSROE", "OE+DRSZ?"]


def test_full_game_with_30_players(alice, tournament, eager):
    """A whole two-round game through the API: 30 tablets, paper slips, every verdict of the table, an
    override, the top chosen, publication, standings with solos and penalties, what tablets and the public see."""
    hall = Hall(alice, tournament)
    arb, slug = hall.arbiter, tournament.slug
    tournament.free_warnings = 1  # so that a second warning costs within a two-round game
    tournament.save()
    game = ok(arb.post(f"{A}/tournaments/{slug}/games/", {"prepared_racks": PREPARED}, format="json"), 201)
    assert game["number"] == 1 and game["prepared"] is True
    games_url = f"{A}/tournaments/{slug}/games/1"

    r1 = open_round_one(hall, eager, games_url)
    hand_in_round_one(hall, arb, r1)
    judge_and_publish_round_one(hall, arb, r1, slug)
    play_round_two(hall, eager, games_url, tournament)
    check_standings(hall, arb, slug, games_url)


def open_round_one(hall, eager, games_url):
    arb = hall.arbiter
    with eager(execute=True):
        r1 = ok(arb.post(f"{games_url}/draw/", {}, format="json"), 201)
    assert (r1["number"], r1["rack"], r1["status"]) == (1, "CATSROE", "drawn")
    assert ok(arb.get(f"{A}/rounds/{r1['id']}/"))["top_moves"][0]["move"] == "H4 CARTS"
    # the rack is not on the tablets before the round opens
    assert ok(hall.tablets[0].get(f"{T}/state/"))["round"]["rack"] is None
    with eager(execute=False):
        opened = ok(hall.round_action(r1["id"], "open"))
    assert opened["status"] == "open" and opened["deadline"]

    state = ok(hall.tablets[0].get(f"{T}/state/"))
    assert state["round"]["rack"] == "CATSROE" and state["round"]["accepting_slips"] is True
    assert 170 <= state["round"]["seconds_left"] <= 180 and state["board"] == "15/" * 14 + "15"

    return r1


def hand_in_round_one(hall, arb, r1):
    """Tablet slips (a retry, a conflicting key, a revision), a paper slip, the live count, a late slip."""
    first = ok(hall.send(0, "CARTS 20", key="p0-1"), 201)
    again = ok(hall.send(0, "CARTS 20", key="p0-1"), 200)
    assert again["id"] == first["id"] and Slip.objects.filter(idempotency_key__endswith="p0-1").count() == 1
    error(hall.send(0, "CARTS 16", key="p0-1"), 409, "idempotency_conflict")
    error(hall.tablets[0].post(f"{T}/slip/", slip_body("CARTS 20"), format="json"), 400, "idempotency_key_missing")
    # the same key from another tablet is another slip (keys are per tablet)
    plan = {1: "CARTS 16", 2: "CARTS", 3: "CATSR 20", 4: "CARDS 20"}
    for i, text in plan.items():
        ok(hall.send(i, text), 201)
    ok(hall.send(5, "CAT 8"), 201)
    revised = ok(hall.send(5, "CARTS 20"), 201)  # revised before the deadline: the new version counts
    assert revised["version"] == 2 and revised["is_current"]
    for i in range(8, 30):
        if i != 9:
            ok(hall.send(i, "CATS 12"), 201)
    # a paper slip typed by the arbiter (table 10 = player 9), retried with the same key
    paper = ok(arb.post(f"{A}/rounds/{r1['id']}/slips/", {"table": hall.tables[9], **slip_body("CARTS 20")},
                        format="json", HTTP_IDEMPOTENCY_KEY="paper-10"), 201)
    assert paper["source"] == "paper" and paper["entered_by"] == "alice"
    assert ok(arb.post(f"{A}/rounds/{r1['id']}/slips/", {"table": hall.tables[9], **slip_body("CARTS 20")},
                       format="json", HTTP_IDEMPOTENCY_KEY="paper-10"))["id"] == paper["id"]
    error(arb.post(f"{A}/rounds/{r1['id']}/slips/", {"table": 999, **slip_body("CARTS 20")}, format="json"),
          400, "unknown_table")

    count = ok(arb.get(f"{A}/rounds/{r1['id']}/count/"))
    assert (count["registered"], count["received"]) == (30, 28)
    assert count["missing"] == [hall.tables[6], hall.tables[7]] and count["late"] == []

    # time is over: player 7's slip is refused with the reason, and stored as late
    Round.objects.filter(pk=r1["id"]).update(deadline=timezone.now() - timedelta(seconds=1))
    late = error(hall.send(7, "CARTS 20"), 409, "time_over")
    assert late["detail"] and late["slip"]["late"] is True  # the detail is in the request's language
    assert Slip.objects.get(pk=late["slip"]["id"]).late
    count = ok(arb.get(f"{A}/rounds/{r1['id']}/count/"))
    assert count["late"] == [hall.tables[7]] and count["seconds_left"] == 0


def judge_and_publish_round_one(hall, arb, r1, slug):
    """Every verdict of round 1, the slip but no verdict on tablets before publication, an override."""
    ok(hall.round_action(r1["id"], "close"))
    error(hall.send(0, "CATS 12"), 409, "time_over")  # closed: still late, never replaces the on-time slip
    assert ok(hall.round_action(r1["id"], "judge"))["status"] == "judged"
    v1 = hall.verdicts(r1["id"])
    expect1 = {0: (20, False, "first_round"), 1: (20, True, "first_round_score_wrong"),
               2: (20, True, "first_round_score_missing"), 3: (0, False, "invalid_word"),
               4: (0, False, "not_on_rack"), 5: (20, False, "first_round"), 6: (0, False, "no_slip"),
               7: (0, False, "late"), 8: (12, False, "first_round"), 9: (20, False, "first_round")}
    for i, (awarded, warning, reason) in expect1.items():
        v = v1[hall.tables[i]]
        assert (v["awarded"], v["warning"], v["reason"]) == (awarded, warning, reason), (i, v)
    assert all(v1[hall.tables[i]]["awarded"] == 12 for i in range(10, 30))

    # before publication the tablet shows the slip, never the verdict, true score or top
    state = ok(hall.tablets[1].get(f"{T}/state/"))
    assert state["slip"]["word"] == "CARTS" and state["slip"]["announced_score"] == 16
    assert state["verdict"] is None and state["top"] is None and state["result"] is None

    # the arbiter overrides a verdict: audited with who and why
    error(arb.post(f"{A}/verdicts/{v1[hall.tables[3]]['id']}/override/",
                   {"awarded": 5, "warning": False, "why": "  "}, format="json"), 400)
    over = ok(arb.post(f"{A}/verdicts/{v1[hall.tables[3]]['id']}/override/",
                       {"awarded": 5, "warning": False, "why": "slip misread"}, format="json"))
    assert (over["awarded"], over["automatic"], over["overridden_by"], over["override_reason"]) == (
        5, False, "alice", "slip misread")
    assert over["history"][0]["awarded"] == 0
    log = ok(arb.get(f"{A}/tournaments/{slug}/audit/?action=verdict.override"))
    assert len(log) == 1 and log[0]["actor"] == "alice" and log[0]["before"]["awarded"] == 0
    assert log[0]["after"]["awarded"] == 5 and log[0]["after"]["why"] == "slip misread"
    ok(hall.round_action(r1["id"], "judge"))  # re-judging keeps the override
    assert hall.verdicts(r1["id"])[hall.tables[3]]["awarded"] == 5

    assert ok(hall.round_action(r1["id"], "review"))["status"] == "reviewed"
    published = ok(hall.round_action(r1["id"], "publish"))
    assert (published["status"], published["chosen_move"], published["chosen_score"]) == ("published", "H4 CARTS", 20)
    state = ok(hall.tablets[1].get(f"{T}/state/"))
    assert state["verdict"]["awarded"] == 20 and state["verdict"]["warning"] is True
    assert state["top"] == {"move": "H4 CARTS", "score": 20}
    assert state["board"].split("/")[7] == "3CARTS7"
    assert state["result"]["round_score"] == 20 and state["result"]["total"] == 20 and state["result"]["rank"] == 1
    error(hall.send(0, "CATS 12"), 409, "no_open_round")  # slips only while the round is open


def play_round_two(hall, eager, games_url, tournament):
    """Round 2: the verdict table's other rows, the arbiter's top among equal scores, warnings → penalties."""
    arb = hall.arbiter
    with eager(execute=True):
        r2 = ok(arb.post(f"{games_url}/draw/", {}, format="json"), 201)
    assert r2["rack"] == "OEDRSZ?"
    with eager(execute=False):
        ok(hall.round_action(r2["id"], "open"))
    plan2 = {0: "4H CaRDS 14", 1: "5G ZAS 10", 2: "G5 ZAS 12", 3: "7E ZAS 12", 4: "6G ZAS 12", 5: "ZAS 12",
             6: "ZAS 20", 7: "6H RODS 9", 8: "5G ZAS"}
    for i, text in plan2.items():
        ok(hall.send(i, text), 201)
    for i in range(10, 30):
        ok(hall.send(i, "6H RED 8"), 201)
    ok(hall.round_action(r2["id"], "close"))
    ok(hall.round_action(r2["id"], "judge"))
    v2 = hall.verdicts(r2["id"])
    expect2 = {0: (14, False, "ok"), 1: (12, True, "score_wrong"), 2: (12, True, "direction_reversed"),
               3: (12, True, "coordinates_swapped"), 4: (7, False, "place_wrong"), 5: (7, False, "place_missing"),
               6: (0, False, "place_and_score_wrong"), 7: (0, False, "invalid_word"), 8: (12, True, "score_missing"),
               9: (0, False, "no_slip")}
    for i, (awarded, warning, reason) in expect2.items():
        v = v2[hall.tables[i]]
        assert (v["awarded"], v["warning"], v["reason"]) == (awarded, warning, reason), (i, v)
    assert all(v2[hall.tables[i]]["awarded"] == 8 for i in range(10, 30))

    error(hall.round_action(r2["id"], "top", {"move": "5G ZAS"}), 400, "not_top")
    error(hall.round_action(r2["id"], "top", {"move": "Z9 NOPE"}), 400, "not_legal")
    error(hall.round_action(r2["id"], "top", {}), 400, "invalid")
    assert ok(hall.round_action(r2["id"], "top", {"move": "4H CaRDS"}))["chosen_move"] == "4H CaRDS"
    ok(hall.round_action(r2["id"], "publish"))
    game_obj = tournament.games.get(number=1)
    services.games.apply_warning_penalties(game_obj)  # what the end of the game does (a 2-round prepared game doesn't end)


def check_standings(hall, arb, slug, games_url):
    """Totals, deficits, percentages, solos, penalties, ranks; the tablets' results; the public rounds."""
    standings = ok(arb.get(f"{games_url}/standings/"))
    assert standings["top_total"] == 34
    rows = {r["table"]: r for r in standings["rows"]}
    expect = {0: (44, 10, 0, 1), 1: (27, 0, 5, 2), 2: (27, 0, 5, 2), 5: (27, 0, 0, 2), 8: (24, 0, 0, 5),
              9: (20, 0, 0, 6), 3: (17, 0, 0, 27), 4: (7, 0, 0, 28), 6: (0, 0, 0, 29), 7: (0, 0, 0, 29)}
    for i, (total, solos, penalties, rank) in expect.items():
        r = rows[hall.tables[i]]
        assert (r["total"], r["solos"], r["penalties"], r["rank"]) == (total, solos, penalties, rank), (i, r)
        assert r["deficit"] == total - 34 and r["percentage"] == round(100 * total / 34, 2)
    assert rows[hall.tables[1]]["warnings"] == 2 and rows[hall.tables[3]]["warnings"] == 1
    assert all((rows[hall.tables[i]]["total"], rows[hall.tables[i]]["rank"]) == (20, 6) for i in range(10, 30))
    assert [r["rank"] for r in standings["rows"]] == sorted(r["rank"] for r in standings["rows"])
    assert ok(arb.get(f"{A}/tournaments/{slug}/standings/"))["rows"] == standings["rows"]
    by_club = ok(arb.get(f"{A}/tournaments/{slug}/standings/?group_by=club"))
    assert [g["name"] for g in by_club["groups"]] == ["A", "B"] and by_club["rows"] == []
    assert by_club["groups"][0]["rows"][0]["table"] == hall.tables[0] and by_club["groups"][0]["rows"][0]["rank"] == 1
    error(arb.get(f"{A}/tournaments/{slug}/standings/?group_by=colour"), 400, "bad_group")
    assert ok(APIClient().get(f"{P}/tournaments/{slug}/games/1/standings/"))["rows"] == standings["rows"]

    # tablet after publication: verdict, top, round score, solo, total, rank
    state = ok(hall.tablets[0].get(f"{T}/state/"))
    assert state["top"] == {"move": "4H CaRDS", "score": 14}
    assert state["result"] == {"round_score": 14, "solo": 10, "total": 44, "top_total": 34, "rank": 1, "players": 30}

    # public: published rounds with rack, top and boards
    public = ok(APIClient().get(f"{P}/tournaments/{slug}/games/1/rounds/"))
    assert [(r["number"], r["rack"], r["top"]["move"]) for r in public] == [
        (1, "CATSROE", "H4 CARTS"), (2, "OEDRSZ?", "4H CaRDS")]
    assert public[0]["board_after"] == public[1]["board_before"] != public[1]["board_after"]
    assert AuditLog.objects.filter(action="slip.submit").count() == Slip.objects.count()


def test_tablet_login_rate_limit_and_constant_time_check(alice, tournament, monkeypatch):
    reg, code = services.players.register_player(alice, tournament, name="Иван Петров")
    checked = []
    original = type(reg).check_access_code
    monkeypatch.setattr(type(reg), "check_access_code", lambda self, c: checked.append(c) or original(self, c))
    client = APIClient()
    assert ok(client.post(f"{T}/login/", {"code": code.lower()}, format="json"))["name"] == "Иван Петров"
    assert checked == [code]  # the model's hmac.compare_digest decided (on the code as read: upper case)
    error(client.post(f"{T}/login/", {}, format="json"), 400, "invalid")
    for _ in range(10):
        error(client.post(f"{T}/login/", {"code": "WRONGCODE1"}, format="json"), 400, "bad_code")
    body = error(client.post(f"{T}/login/", {"code": code}, format="json"), 429, "too_many_attempts")
    assert " 5 " in body["detail"]  # wait 5 minutes, in the request's language
    # another address is not blocked
    assert ok(client.post(f"{T}/login/", {"code": code}, format="json", REMOTE_ADDR="10.0.0.9"))["token"]
    error(tablet_client("not-a-token").get(f"{T}/state/"), 401, "authentication_failed")


def test_cancel_and_typed_racks(alice, tournament, eager):
    arb = arbiter_client(alice)
    slug = tournament.slug
    ok(arb.post(f"{A}/tournaments/{slug}/games/", {"seed": 7}, format="json"), 201)
    error(arb.post(f"{A}/tournaments/{slug}/games/1/draw/", {"typed_rack": "ZZZZZZZ"}, format="json"), 400)
    with eager(execute=True):
        rnd = ok(arb.post(f"{A}/tournaments/{slug}/games/1/draw/", {"typed_rack": "CATSROE"}, format="json"), 201)
    assert rnd["rack"] == "CATSROE" and rnd["solver_status"] in ("pending", "done")
    error(arb.post(f"{A}/tournaments/{slug}/games/1/draw/", {}, format="json"), 409, "round_pending")
    error(arb.post(f"{A}/rounds/{rnd['id']}/publish/", {}, format="json"), 409, "not_judged")
    error(arb.post(f"{A}/rounds/{rnd['id']}/cancel/", {}, format="json"), 400, "invalid")
    cancelled = ok(arb.post(f"{A}/rounds/{rnd['id']}/cancel/", {"why": "wrong rack announced"}, format="json"))
    assert cancelled["status"] == "cancelled"
    assert AuditLog.objects.get(action="round.cancel").after["why"] == "wrong rack announced"
    assert [r["status"] for r in ok(arb.get(f"{A}/tournaments/{slug}/games/1/rounds/"))] == ["cancelled"]


def test_errors_are_clear_json(alice, tournament, regs):
    arb = arbiter_client(alice)
    error(arb.get(f"{A}/rounds/999999/"), 404, "not_found")
    error(arb.get(f"{A}/tournaments/nope/"), 404, "not_found")
    error(arb.post(f"{A}/tournaments/{tournament.slug}/games/", "{not json", content_type="application/json"),
          400, "parse_error")
    error(arb.post(f"{A}/tournaments/{tournament.slug}/games/", {"seed": "abc"}, format="json"), 400, "invalid")
    error(arb.post(f"{A}/tournaments/{tournament.slug}/registrations/", {"name": "X", "table_number": 1},
                   format="json"), 409, "table_taken")
    error(arb.get(f"{A}/tournaments/{tournament.slug}/audit/?limit=x"), 400, "invalid")
    error(arb.post(f"{A}/verdicts/12345/override/", {"awarded": "x"}, format="json"), 404, "not_found")
    error(arb.delete(f"{A}/tournaments/{tournament.slug}/"), 405, "method_not_allowed")
    error(APIClient().get(f"{A}/tournaments/"), 401, "not_authenticated")
    # a session works as well as a token
    session = APIClient()
    session.force_login(alice)
    assert [t["slug"] for t in ok(session.get(f"{A}/tournaments/"))] == [tournament.slug]
    # the tablet: slips only with an open round; bad bodies are 400, never 500
    _reg, code = services.players.register_player(alice, tournament, name="Z")
    tab = tablet_client(ok(APIClient().post(f"{T}/login/", {"code": code}, format="json"))["token"])
    error(tab.post(f"{T}/slip/", {"word": "CAT"}, format="json", HTTP_IDEMPOTENCY_KEY="a"), 409, "no_open_round")
    error(tab.post(f"{T}/slip/", {"word": "", "score": -3}, format="json", HTTP_IDEMPOTENCY_KEY="b"), 400, "invalid")
    error(tab.post(f"{T}/slip/", {"word": "CAT"}, format="json", HTTP_IDEMPOTENCY_KEY="x" * 65), 400,
          "idempotency_key_invalid")
    assert ok(tab.get(f"{T}/state/"))["round"] is None


def test_arbiter_token_endpoint(alice):
    alice.set_password("correct horse")
    alice.save()
    token = ok(APIClient().post(f"{A}/token/", {"username": "alice", "password": "correct horse"}, format="json"))
    assert token["token"] == Token.objects.get(user=alice).key
    error(APIClient().post(f"{A}/token/", {"username": "alice", "password": "no"}, format="json"), 400)


def test_schema_is_complete_and_valid(client):
    import json

    out = io.StringIO()
    call_command("spectacular", "--validate", "--fail-on-warn", "--format",
                 "openapi-json", stdout=out)
    schema = json.loads(out.getvalue())
    from tournament.api import urls

    assert all(p.startswith("/api/") for p in schema["paths"]) and len(schema["paths"]) == len(urls.urlpatterns)
    for path_item in schema["paths"].values():
        for operation in path_item.values():
            assert operation["responses"] and operation.get("summary")
    assert schema["components"]["securitySchemes"]["tabletToken"]["type"] == "apiKey"
    response = client.get("/api/schema/")
    assert response.status_code == 200


def test_game_control_endpoints(alice, tournament, regs, eager):
    """No legal move → redraw, an arbiter's penalty, ending the game — through the API."""
    client = APIClient()
    client.force_authenticate(alice)
    game = services.games.create_game(alice, tournament, seed=5)
    base = f"/api/arbiter/tournaments/{tournament.slug}/games/{game.number}"
    with eager(execute=True):
        drawn = client.post(f"{base}/draw/", {"typed_rack": "UUQVVWW"}, format="json")
    assert drawn.status_code == 201, drawn.json()
    stuck = drawn.json()["id"]
    with eager(execute=True):
        redrawn = client.post(f"/api/arbiter/rounds/{stuck}/no-move/", format="json")
    assert redrawn.status_code == 201 and redrawn.json()["id"] != stuck
    assert client.get(f"/api/arbiter/rounds/{stuck}/").json()["status"] == "cancelled"
    penalty = client.post(f"{base}/penalties/", {"table": regs[0].table_number, "points": 5, "reason": "noise"},
                          format="json")
    assert penalty.status_code == 201 and penalty.json()["points"] == 5
    assert client.post(f"{base}/penalties/", {"table": 999, "points": 5, "reason": "x"},
                       format="json").status_code == 404
    assert client.post(f"{base}/penalties/", {"table": 1, "points": -3, "reason": "x"},
                       format="json").status_code == 400
    busy = client.post(f"{base}/finish/", {"why": "time"}, format="json")
    assert busy.status_code == 409 and busy.json()["code"] == "round_pending"
    client.post(f"/api/arbiter/rounds/{redrawn.json()['id']}/cancel/", {"why": "end"}, format="json")
    done = client.post(f"{base}/finish/", {"why": "time"}, format="json")
    assert done.status_code == 200 and done.json()["status"] == "finished"
