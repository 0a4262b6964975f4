"""Bad input never becomes a 500 or a half-stored change.

Hypothesis on every parser (coordinates, moves, words, racks, FEN boards, the judge's slip text, the CSV
player import, word-list import), then the HTTP edges: oversized and wrongly encoded bodies, letters
outside the set, absurd scores and table numbers — each refused with a message and nothing changed.
"""

from __future__ import annotations

import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from lexicon.sources import SourceError, SourceResult, read_wordlist
from scoring.board import Board, BoardError
from scoring.coords import Convention, CoordError, parse_coord
from scoring.judge import SlipError, parse_slip
from scoring.notation import NotationError, parse_move, parse_rack, parse_word
from scoring.rules import get_ruleset
from tournament import services
from tournament.console import forms
from tournament.models import AuditLog, Player, Registration, Slip

PREPARED = ["CATSROE", "OE+DRSZ?"]
RULESETS = ["en", "ru", "uk", "pl", "fr"]
FAST = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck))
text = st.text(max_size=40)
#: text near the notation: coordinate-like pieces, letters of every set, digits, signs
notation_text = st.lists(st.one_of(
    st.sampled_from(["H8", "8H", "h 8", "З8", "A1", "O15", "P16", "0", "16", "?", "+", "*", "'", "’", " ", "-5"]),
    st.characters(codec="utf-8"), st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZабвгдежзийклмнопрстуфхцчшщъыьэюяіїєґ",
                                          max_size=8)), max_size=6).map("".join)
any_text = st.one_of(text, notation_text)


# -- parsers --------------------------------------------------------------------------------------------


@FAST
@given(any_text, st.booleans(), st.sampled_from(list(Convention)))
def test_parse_coord_reads_or_refuses(value, cyrillic, convention):
    try:
        coord = parse_coord(value, cyrillic=cyrillic, convention=convention)
    except CoordError as exc:
        assert str(exc)
    else:
        assert 0 <= coord.row < 15 and 0 <= coord.col < 15


@FAST
@given(any_text, st.sampled_from(RULESETS), st.booleans())
def test_parse_move_reads_or_refuses(value, ruleset, require_coord):
    try:
        move = parse_move(value, get_ruleset(ruleset), require_coord=require_coord)
    except NotationError as exc:
        assert str(exc)
    else:
        assert move.tiles


@FAST
@given(any_text, st.sampled_from(RULESETS))
def test_parse_word_and_rack_read_or_refuse(value, ruleset):
    rs = get_ruleset(ruleset)
    try:
        tiles = parse_word(value, rs)
    except NotationError as exc:
        assert str(exc)
    else:
        assert all(rs.is_letter(t.letter) for t in tiles)
    try:
        rack = parse_rack(value, rs)
    except NotationError as exc:
        assert str(exc)
    else:
        assert len(rack) <= rs.rack_size


fen_text = st.one_of(text, st.lists(st.text(alphabet="0123456789ABCZabcz*?/15", max_size=20), max_size=16)
                     .map("/".join))


@FAST
@given(fen_text, st.sampled_from(RULESETS))
def test_board_from_fen_reads_or_refuses(value, ruleset):
    try:
        board = Board.from_fen(get_ruleset(ruleset), value)
    except BoardError as exc:
        assert str(exc)
    else:
        assert Board.from_fen(get_ruleset(ruleset), board.to_fen()).to_fen() == board.to_fen()


slip_values = st.one_of(any_text, st.builds(lambda w, c, s: {"word": w, "coord": c, "score": s}, st.none() | any_text,
                                            st.none() | any_text, st.none() | st.integers() | any_text))


@FAST
@given(slip_values, st.sampled_from(RULESETS))
def test_judge_slip_parser_reads_or_refuses(value, ruleset):
    board = Board.from_fen(get_ruleset(ruleset), None)
    try:
        parsed = parse_slip(value, board)
    except SlipError as exc:
        assert str(exc)
    else:
        assert parsed.score is None or 0 <= parsed.score <= 9999


def test_judge_refuses_absurd_scores():
    board = Board.from_fen(get_ruleset("en"), None)
    for score in (-5, "-5", "12abc", "10000", True, 10_000, 10**9):
        with pytest.raises(SlipError):
            parse_slip({"word": "CATS", "coord": "H8", "score": score}, board)
    with pytest.raises(SlipError, match="at most 9999"):
        parse_slip({"word": "CATS", "coord": "H8", "score": 10**9}, board)
    assert parse_slip({"word": "CATS", "coord": "H8", "score": 9999}, board).score == 9999


@FAST
@given(st.text(max_size=300))
def test_csv_parser_reports_per_line(value):
    rows, problems = forms.parse_players_csv(value, {"Known"})
    lines = {r.line for r in rows} | {p.line for p in problems}
    assert len(lines) == len(rows) + len(problems)  # one verdict per line at most
    assert all(p.message for p in problems) and all(r.name for r in rows)


@FAST
@given(st.binary(max_size=400), st.sampled_from(RULESETS), st.booleans())
def test_wordlist_import_reports_never_raises(data, ruleset, skip_capitalised):
    try:
        result = read_wordlist(io.BytesIO(data), ruleset, skip_capitalised=skip_capitalised)
    except SourceError as exc:
        assert str(exc)
    else:
        assert isinstance(result, SourceResult)
        rs = get_ruleset(ruleset)
        assert all(all(rs.is_letter(ch) for ch in rs.split_word(w)) if hasattr(rs, "split_word") else w
                   for w in result.words)


# -- the console's CSV import: arbitrary bytes ---------------------------------------------------------------


def counts():
    return (Player.objects.count(), Registration.objects.count(), Slip.objects.count(), AuditLog.objects.count())


@pytest.mark.django_db
def test_csv_import_of_arbitrary_bytes_is_all_or_nothing(client, alice, tournament):
    client.force_login(alice)
    url = f"/arbiter/t/{tournament.slug}/players/import/"
    existing = services.players.register_player(alice, tournament, name="Déjà Là")[0]
    assert existing

    @SLOW
    @given(st.one_of(st.binary(max_size=300),
                     st.text(max_size=200).map(lambda s: s.encode("utf-8")),
                     st.text(alphabet="аб;,\tcd\n\"é", max_size=200).map(lambda s: s.encode("cp1251", "replace")),
                     st.just("Déjà Là;Club\nNew One;Club".encode())))
    def run(data):
        with transaction.atomic():
            before = counts()
            upload = SimpleUploadedFile("players.csv", data, content_type="text/csv")
            response = client.post(url, {"file": upload})
            assert response.status_code == 200, response.status_code
            after = counts()
            imported = response.context["imported"]
            problems = response.context["problems"]
            if imported:
                assert not problems and after[1] == before[1] + len(imported)
            else:
                assert after == before, (data, problems)
                page = response.content.decode()
                assert problems or response.context["form"].errors or "No player line" in page or \
                    "messages" in page
            transaction.set_rollback(True)

    run()


@pytest.mark.django_db
def test_csv_import_with_a_bad_line_imports_nothing(client, alice, tournament):
    client.force_login(alice)
    before = counts()
    text = "Good One;Club\n;no name\nGood Two;Club\nA;B;C;D;E;F\n"
    response = client.post(f"/arbiter/t/{tournament.slug}/players/import/", {"text": text})
    assert response.status_code == 200
    assert [p.line for p in response.context["problems"]] == [2, 4]
    assert counts() == before
    undecodable = SimpleUploadedFile("x.csv", b"\x98\x98\xff\xfe", content_type="text/csv")
    response = client.post(f"/arbiter/t/{tournament.slug}/players/import/", {"file": undecodable})
    assert response.status_code == 200 and counts() == before


# -- HTTP edges ----------------------------------------------------------------------------------------------


@pytest.fixture
def open_round(alice, tournament, eager):
    reg, code = services.players.register_player(alice, tournament, name="Player")
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    tablet = APIClient()
    tablet.credentials(HTTP_AUTHORIZATION=f"Tablet {services.players.issue_tablet_token(reg, code)}")
    arbiter = APIClient()
    arbiter.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=alice)[0].key}")
    return {"round": rnd, "game": game, "tablet": tablet, "arbiter": arbiter, "reg": reg}


def refused(response, *statuses):
    assert response.status_code in statuses, (response.status_code, response.content[:300])
    assert "json" in response["Content-Type"], response["Content-Type"]
    body = response.json()
    assert body["detail"] and body["code"], body
    return body


@pytest.mark.django_db
def test_oversized_json_body_is_a_json_4xx(open_round):
    before = counts()
    big = json.dumps({"word": "CATS", "padding": "x" * (3 * 1024 * 1024)})
    response = open_round["tablet"].post("/api/tablet/slip/", big, content_type="application/json",
                                         HTTP_IDEMPOTENCY_KEY="big-1")
    refused(response, 400, 413)
    two_mb_word = json.dumps({"word": "C" * (2 * 1024 * 1024)})
    response = open_round["tablet"].post("/api/tablet/slip/", two_mb_word, content_type="application/json",
                                         HTTP_IDEMPOTENCY_KEY="big-2")
    refused(response, 400, 413)
    assert counts() == before


@pytest.mark.django_db
def test_wrong_encodings_and_malformed_json(open_round):
    before = counts()
    tablet = open_round["tablet"]
    for i, body in enumerate([
        '{"word": "CAFÉ"}'.encode("latin-1"),  # latin-1 bytes under a JSON content type
        b'{"word": "CATS"',  # truncated
        b"\xff\xfe\x00",
        b"[1, 2, 3]",
        b'"CATS"',
        b"null",
    ]):
        response = tablet.post("/api/tablet/slip/", body, content_type="application/json",
                               HTTP_IDEMPOTENCY_KEY=f"enc-{i}")
        refused(response, 400)
    response = tablet.post("/api/tablet/slip/", b"word=CATS", content_type="text/plain",
                           HTTP_IDEMPOTENCY_KEY="enc-x")
    refused(response, 400, 415)
    assert counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize("body", [
    {"word": "ЖУК", "coordinates": "H8", "score": 10},  # letters outside the English set
    {"word": "CA7S", "coordinates": "H8", "score": 10},
    {"word": "CATS", "coordinates": "H8", "score": -5},
    {"word": "CATS", "coordinates": "H8", "score": 10**9},
    {"word": "CATS", "coordinates": "H8", "score": "12abc"},
    {"word": "CATS", "coordinates": "H" * 500, "score": 12},
    {"word": "", "score": 12},
    {"word": "CATS", "round": "first"},
    {"word": ["CATS"]},
])
def test_tablet_slip_refuses_bad_values(open_round, body):
    before = counts()
    response = open_round["tablet"].post("/api/tablet/slip/", body, format="json", HTTP_IDEMPOTENCY_KEY="bad")
    refused(response, 400)
    assert counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize("body", [
    {"table": 10**9, "word": "CATS", "score": 12},
    {"table": -1, "word": "CATS", "score": 12},
    {"table": 0, "word": "CATS", "score": 12},
    {"table": "1abc", "word": "CATS", "score": 12},
    {"table": 1, "word": "CATS", "score": -5},
    {"table": 1, "word": "CATS", "score": 10**9},
    {"table": 1, "word": "ЖУК", "score": 12},
])
def test_paper_slip_api_refuses_bad_values(open_round, body):
    before = counts()
    response = open_round["arbiter"].post(f"/api/arbiter/rounds/{open_round['round'].pk}/slips/", body,
                                          format="json")
    refused(response, 400)
    assert counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize("body", [
    {"table": 10**9, "points": 5, "reason": "x"},
    {"table": 1, "points": -5, "reason": "x"},
    {"table": 1, "points": 10**9, "reason": "x"},
    {"table": 1, "points": "12abc", "reason": "x"},
])
def test_penalty_api_refuses_absurd_values(open_round, body):
    before = counts()
    response = open_round["arbiter"].post(
        f"/api/arbiter/tournaments/{open_round['game'].tournament.slug}/games/{open_round['game'].number}/penalties/",
        body, format="json")
    refused(response, 400, 404)
    assert counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize("data", [
    {"table": "1000000000", "word": "CATS", "score": "12"},
    {"table": "-1", "word": "CATS", "score": "12"},
    {"table": "1", "word": "CATS", "score": "-5"},
    {"table": "1", "word": "CATS", "score": "1000000000"},
    {"table": "1", "word": "CATS", "score": "12abc"},
    {"table": "1", "word": "   ", "score": "12"},
])
def test_console_slip_form_refuses_bad_values(client, alice, open_round, data):
    client.force_login(alice)
    before = counts()
    game = open_round["game"]
    response = client.post(f"/arbiter/t/{game.tournament.slug}/g/{game.number}/slips/", {**data, "key": "k1"})
    assert response.status_code == 200  # the form again, with its errors
    assert response.context["form"].errors
    assert counts() == before


@pytest.mark.django_db
def test_console_penalty_and_tables_refuse_absurd_numbers(client, alice, open_round):
    client.force_login(alice)
    game = open_round["game"]
    before = counts()
    for points in ("-5", "1000000000", "12abc"):
        response = client.post(f"/arbiter/t/{game.tournament.slug}/g/{game.number}/action/",
                               {"action": "penalty", "table": "1", "points": points, "reason": "x"}, follow=True)
        assert response.status_code == 200
        assert [m for m in response.context["messages"] if m.level_tag == "error"], points
    reg = open_round["reg"]
    for table in ("0", "-1", "1000000000", "x"):
        response = client.post(f"/arbiter/t/{game.tournament.slug}/players/",
                               {"form": "tables", f"table_{reg.pk}": table})
        assert response.status_code == 200 and response.context["tables_form"].errors
    assert counts() == before
    assert Registration.objects.get(pk=reg.pk).table_number == reg.table_number


@pytest.mark.django_db
def test_csv_import_refuses_a_null_character(client, alice, tournament):
    """PostgreSQL refuses a NUL in text (SQLite keeps it): the import must refuse it first, on every database."""
    client.force_login(alice)
    before = counts()
    upload = SimpleUploadedFile("players.csv", b"Good One;Club\nBad\x00Name;Club\n", content_type="text/csv")
    response = client.post(f"/arbiter/t/{tournament.slug}/players/import/", {"file": upload})
    assert response.status_code == 200
    assert [p.line for p in response.context["problems"]] == [2]
    assert counts() == before


@pytest.mark.django_db
def test_csv_import_reports_every_error_of_the_file_at_once(client, alice, tournament):
    """Columns, names, lengths and duplicates of every line in one report, not one kind after the other."""
    services.players.register_player(alice, tournament, name="Known Player")
    client.force_login(alice)
    client.cookies["django_language"] = "en"
    before = counts()
    text = "\n".join([
        "Good One;Club",
        "Too;Many;Columns;In;This;Line",  # 2: columns
        "good  one;Other",  # 3: the same player as line 1 (case and spaces)
        ";Club only",  # 4: no name
        "known player",  # 5: already registered
        f"{'X' * 300};Club;A;B;C;D",  # 6: too long and too many columns
        "Good One;Again;A;B;C;D",  # 7: too many columns and a duplicate
    ])
    response = client.post(f"/arbiter/t/{tournament.slug}/players/import/", {"text": text})
    problems = {p.line: p.message for p in response.context["problems"]}
    assert sorted(problems) == [2, 3, 4, 5, 6, 7]
    assert "the same player as on line 1" in problems[3]
    assert "too many columns" in problems[6] and "too long: name" in problems[6]
    assert "too many columns" in problems[7] and "the same player as on line 1" in problems[7]
    assert "already registered" in problems[5]
    assert counts() == before
