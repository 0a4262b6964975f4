"""Issue 35 items 7–8: JSON from a stranger — nested 10,000 deep, a 5,000-digit integer, a body over the limit,
a field of the wrong kind — is a 400 with the reason in the request's language on every endpoint that reads
JSON (the API's bodies, the arbiter's token, a simultaneous hall's results, a training record), never a 500."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import translation
from rest_framework.parsers import JSONParser
from rest_framework.test import APIClient

from tests.tournament.simultaneous.rows import simul_rows
from tournament import safejson
from tournament.api.parsers import LimitedJSONParser
from tournament.models import Registration, SimulResult, TrainingGame

DEEP = "[" * 10_000 + "]" * 10_000
DEEP_OBJECT = '{"a":' * 5_000 + "1" + "}" * 5_000
HUGE_INT = '{"code": ' + "9" * 5_000 + "}"
BIG = json.dumps({"code": "x" * (safejson.MAX_BODY_BYTES + 10)})


@translation.override("en")
def test_the_limits_are_checked_without_recursion():
    assert safejson.depth('{"a": [1, {"b": "[[[[[["}]}') == 3  # brackets inside strings do not count
    assert safejson.loads('{"a": [1, {"b": "[\\"[["}]}') == {"a": [1, {"b": '["[['}]}
    assert safejson.loads("[" * 64 + "]" * 64) is not None
    assert safejson.loads("9" * 40) == int("9" * 40) and safejson.loads("-" + "9" * 40) == -int("9" * 40)
    for text, said in ((DEEP, "nested deeper than 64"), (DEEP_OBJECT, "nested deeper than 64"),
                       ("9" * 41, "more than 40 digits"), (HUGE_INT, "more than 40 digits"),
                       ('{"a": NaN}', "NaN"), ("[1,", "not JSON")):
        with pytest.raises(safejson.JsonRefused, match=said):
            safejson.loads(text)
    with pytest.raises(safejson.JsonRefused, match="larger than 1 kB"):
        safejson.loads(b"[" + b"1," * 1000 + b"1]", max_bytes=1024)


def _views(resolver: URLResolver | None = None):
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            yield from _views(pattern)
        elif isinstance(pattern, URLPattern):
            view = getattr(pattern.callback, "cls", None)
            if view is not None and hasattr(view, "parser_classes"):
                yield str(pattern.pattern), view


def test_every_api_view_reads_json_within_the_limits():
    views = list(_views())
    assert len(views) > 30
    bare = [(route, view.__name__) for route, view in views
            if any(issubclass(p, JSONParser) and not issubclass(p, LimitedJSONParser) for p in view.parser_classes)]
    assert not bare, f"views that read JSON without the limits: {bare}"


@pytest.mark.django_db
@pytest.mark.usefixtures("local_cache")
@pytest.mark.parametrize("body", [DEEP, DEEP_OBJECT, HUGE_INT, BIG], ids=["deep", "deep-object", "huge-int", "big"])
def test_unauthenticated_endpoints_refuse_bad_json_with_a_400(body, tournament):
    api = APIClient()
    for url in ("/api/tablet/login/", "/api/arbiter/token/"):
        answer = api.post(url, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
        assert answer.status_code == 400, (url, answer.status_code)
        assert answer.json()["code"] == "parse_error" and answer.json()["detail"][0].isupper(), answer.json()
    assert not Registration.objects.exists()


@pytest.mark.django_db
@pytest.mark.usefixtures("local_cache")
def test_authenticated_endpoints_refuse_bad_json_in_the_requests_language(alice, tournament):
    api = APIClient()
    api.force_authenticate(alice)
    url = f"/api/arbiter/tournaments/{tournament.slug}/registrations/"
    deep = api.post(url, DEEP, content_type="application/json", HTTP_ACCEPT_LANGUAGE="ru")
    assert deep.status_code == 400 and deep.json()["code"] == "parse_error"
    assert "64" in deep.json()["detail"] and "JSON" in deep.json()["detail"]
    assert "nested" not in deep.json()["detail"]  # said in Russian
    huge = api.post(url, '{"name": "A", "table": ' + "1" * 5_000 + "}", content_type="application/json")
    assert huge.status_code == 400 and "40" in huge.json()["detail"]
    games = api.post(f"/api/arbiter/tournaments/{tournament.slug}/games/", BIG, content_type="application/json")
    assert games.status_code == 400 and games.json()["code"] == "parse_error"
    assert not Registration.objects.exists() and not tournament.games.exists()


@pytest.mark.django_db
@pytest.mark.usefixtures("local_cache")
def test_a_halls_results_nested_deep_are_refused(lexicon_row):
    simul = simul_rows(lexicon_row)
    url = f"/api/simultaneous/{simul.game_id}/results/"
    for body in (DEEP, HUGE_INT):
        answer = Client().post(url, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
        assert answer.status_code == 400 and answer.json()["code"] == "simul_bad_file", answer.content
    assert not SimulResult.objects.exists()


def _upload(lexicon, content: bytes):
    record = SimpleUploadedFile("game.json", content, content_type="application/json")
    return Client().post("/training/upload/?lang=en", {"record": record, "lexicon": lexicon.pk,
                                                      "seconds_per_move": 120, "title": ""})


@pytest.mark.django_db
@pytest.mark.parametrize(("content", "said"), [
    (DEEP_OBJECT.encode(), "nested deeper than 64 levels"),
    (("{" + '"seed": ' + "7" * 5_000 + "}").encode(), "more than 40 digits"),
    (b'{"seed": 1, "ruleset": "en", "rounds": [], "variant": {}}', "variant"),
    (b'{"seed": 1, "ruleset": "en", "rounds": [], "variant": 5}', "variant"),
    (b'{"seed": 1, "ruleset": "en", "rounds": {}, "variant": "joker"}', "rounds"),
])
def test_a_training_record_of_the_wrong_shape_is_refused_with_the_reason(lexicon_row, content, said):
    answer = _upload(lexicon_row, content)
    assert answer.status_code == 400
    assert said in answer.content.decode()
    assert not TrainingGame.objects.exists()
