"""A client generated from ``/api/schema/`` plays a round against a live server, imported as generated.

``openapi-python-client`` (a dev extra of pyproject.toml) writes the client once for this module from the schema
the running server serves, with no configuration at all; the test imports it unchanged and, through it only,
plays a round: the arbiter's token, two players registered, a game, the draw, the open, two tablets that log in
and hand in their slips, the close, the judging, the publication, then the standings of the public API.
The schema's own promises that make such a client work are checked beside it: JSON bodies only, no read-only
field asked for on input, an explicit operationId (the client's function names) for every operation.

A second generator, ``openapi-typescript`` (tests/tools/npm, installed by ``./hall setup``), writes the
TypeScript types of the same schema, and ``tsc --strict`` checks ``generated_round.ts`` against them: the same
round's bodies and the answers' fields it reads. Its one option, ``--default-non-nullable false``, reads a field
with a default as one a body may leave out (the schema's meaning; the generator's own default reads it as
always there, which suits answers only).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import pkgutil
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.paths import ROOT

pytestmark = [pytest.mark.usefixtures("local_cache")]

GENERATOR = Path(sys.executable).with_name("openapi-python-client")
NPM = ROOT / "tests" / "tools" / "npm" / "node_modules"
TYPESCRIPT_ROUND = Path(__file__).with_name("generated_round.ts")
PACKAGE = "hall_api_client"
PASSWORD = "correct horse battery"
PREPARED = ["CATSROE", "OE+DRSZ?"]
#: drf-spectacular's own operationIds end so (the path's words and the method's): every view names its own
AUTOMATIC_SUFFIXES = ("_list", "_retrieve", "_create", "_update", "_partial_update", "_destroy")


def fetch_schema(base_url: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{base_url}/api/schema/?format=json", timeout=30) as answer:
        return json.loads(answer.read())


@pytest.fixture(scope="module")
def schema(live_server) -> dict[str, Any]:
    return fetch_schema(live_server.url)


@pytest.fixture(scope="module")
def client_package(schema, tmp_path_factory) -> ModuleType:
    """The client generated from the served schema, imported as the generator wrote it."""
    assert GENERATOR.exists(), f"{GENERATOR} is missing: ./hall setup installs the dev extras"
    folder = tmp_path_factory.mktemp("generated")
    path = folder / "schema.json"
    path.write_text(json.dumps(schema))
    env = {**os.environ, "PATH": f"{GENERATOR.parent}{os.pathsep}{os.environ.get('PATH', '')}"}  # its ruff hooks
    done = subprocess.run([str(GENERATOR), "generate", "--path", str(path), "--output-path",
                           str(folder / PACKAGE), "--meta", "none"], env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Warning" not in done.stdout + done.stderr, done.stdout + done.stderr
    sys.path.insert(0, str(folder))
    try:
        package = importlib.import_module(PACKAGE)
        for module in pkgutil.walk_packages(package.__path__, PACKAGE + "."):  # every endpoint and model
            importlib.import_module(module.name)
        yield package
    finally:
        sys.path.remove(str(folder))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def test_the_schema_offers_json_bodies_and_names_its_operations(schema):
    ids = []
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            ids.append(operation["operationId"])
            assert not operation["operationId"].endswith(AUTOMATIC_SUFFIXES), (method, path)
            body = operation.get("requestBody")
            if body is not None:
                assert list(body["content"]) == ["application/json"], (method, path)
    assert len(ids) == len(set(ids)) > 40
    token_input = schema["components"]["schemas"]["AuthTokenRequest"]
    assert set(token_input["required"]) == {"username", "password"} and "token" not in token_input["properties"]
    for name, component in schema["components"]["schemas"].items():
        if name.endswith("Request"):  # an input: nothing the server writes is asked for
            assert not any(field.get("readOnly") for field in component.get("properties", {}).values()), name


@pytest.mark.django_db(transaction=True)
def test_a_form_body_is_refused(live_server, alice):
    """JSON only: a form-encoded body is a 415 in the API's error shape, never read as the form it claims."""
    alice.set_password(PASSWORD)
    alice.save()
    request = urllib.request.Request(f"{live_server.url}/api/arbiter/token/", method="POST",
                                     data=f"username=alice&password={PASSWORD}".encode(),
                                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 415
    body = json.loads(refused.value.read())
    assert body["code"] == "unsupported_media_type" and body["detail"], body


def ok(answer: Any, status: int, kind: type) -> Any:
    """The parsed answer of a generated call that had ``status``, of the generated model ``kind``."""
    assert answer.status_code == status, (answer.status_code, answer.content[:500])
    assert isinstance(answer.parsed, kind), (type(answer.parsed), answer.content[:500])
    return answer.parsed


def api(package: ModuleType, module: str) -> ModuleType:
    """One generated endpoint module (``<package>.api.<tag>.<operationId>``)."""
    return importlib.import_module(f"{package.__name__}.api.{module}")


@pytest.fixture
def opened():
    """Opens a generated client for the test: its connections closed after it, so that the server's threads end
    and close their database connections before the test database goes."""
    with contextlib.ExitStack() as stack:
        yield stack.enter_context


@pytest.mark.django_db(transaction=True)
def test_a_round_played_with_the_generated_client(client_package, opened, live_server, alice, tournament, eager):
    pkg, m = client_package, importlib.import_module(f"{client_package.__name__}.models")
    alice.set_password(PASSWORD)
    alice.save()
    anonymous = opened(pkg.Client(base_url=live_server.url, raise_on_unexpected_status=True))
    token = ok(api(pkg, "arbiter.arbiter_obtain_token").sync_detailed(
        client=anonymous, body=m.AuthTokenRequest(username="alice", password=PASSWORD)), 200, m.ArbiterToken)
    arbiter = opened(pkg.AuthenticatedClient(base_url=live_server.url, token=token.token, prefix="Token",
                                             raise_on_unexpected_status=True))
    slug = tournament.slug

    codes = {}
    for name in ("Ada", "Bo"):
        registered = ok(api(pkg, "arbiter.arbiter_register_player").sync_detailed(
            slug, client=arbiter, body=m.RegisterRequest(name=name, club="Club")), 201, m.Registered)
        codes[name] = registered.access_code
    game = ok(api(pkg, "arbiter.arbiter_create_game").sync_detailed(
        slug, client=arbiter, body=m.GameCreateRequest(prepared_racks=PREPARED)), 201, m.ArbiterGame)
    drawn = ok(api(pkg, "arbiter.arbiter_draw_round").sync_detailed(
        slug, game.number, client=arbiter, body=m.DrawRequest()), 201, m.ArbiterRound)
    assert (drawn.number, drawn.rack) == (1, "CATSROE")
    is_open = ok(api(pkg, "arbiter.arbiter_open_round").sync_detailed(drawn.id, client=arbiter), 200, m.ArbiterRound)
    assert is_open.status.value == "open"

    tablets = {}
    for name, code in codes.items():
        login = ok(api(pkg, "tablet.tablet_login").sync_detailed(
            client=anonymous, body=m.TabletLoginRequest(code=code)), 200, m.TabletToken)
        assert login.name == name
        tablets[name] = opened(pkg.AuthenticatedClient(base_url=live_server.url, token=login.token,
                                                       prefix="Tablet", raise_on_unexpected_status=True))
    state = ok(api(pkg, "tablet.tablet_get_state").sync_detailed(client=tablets["Ada"]), 200, m.TabletState)
    assert state.round_.rack == "CATSROE" and state.round_.accepting_slips
    for name, (coordinates, word, score) in {"Ada": ("H4", "CARTS", 20), "Bo": ("H8", "CATS", 12)}.items():
        slip = ok(api(pkg, "tablet.tablet_hand_in_slip").sync_detailed(
            client=tablets[name], idempotency_key=f"{name}-1",
            body=m.TabletSlipRequest(word=word, coordinates=coordinates, score=score, round_=drawn.id)), 201, m.OwnSlip)
        assert (slip.word, slip.round_, slip.late) == (word, drawn.id, False)
    count = ok(api(pkg, "arbiter.arbiter_count_slips").sync_detailed(drawn.id, client=arbiter), 200, m.SlipCount)
    assert (count.received, count.missing) == (2, [])

    for action in ("arbiter_close_round", "arbiter_judge_round", "arbiter_publish_round"):
        done = ok(api(pkg, f"arbiter.{action}").sync_detailed(drawn.id, client=arbiter), 200, m.ArbiterRound)
    assert done.status.value == "published" and done.chosen_move == "H4 CARTS"
    verdicts = ok(api(pkg, "arbiter.arbiter_list_verdicts").sync_detailed(drawn.id, client=arbiter), 200, list)
    assert sorted((v.name, v.awarded) for v in verdicts) == [("Ada", 20), ("Bo", 12)]
    seen = ok(api(pkg, "tablet.tablet_get_state").sync_detailed(client=tablets["Bo"]), 200, m.TabletState)
    assert (seen.verdict.awarded, seen.top.move) == (12, "H4 CARTS")

    standings = ok(api(pkg, "public.public_get_tournament_standings").sync_detailed(slug, client=anonymous),
                   200, m.Standings)
    assert [(row.rank, row.name) for row in standings.rows] == [(1, "Ada"), (2, "Bo")]
    assert (standings.rows[1].total, standings.top_total) == (12, 20)
    shown = ok(api(pkg, "public.public_get_tournament").sync_detailed(slug, client=anonymous), 200,
               m.PublicTournament)
    assert [(g.number, g.published_rounds) for g in shown.games] == [(game.number, 1)]
    rounds = ok(api(pkg, "public.public_list_rounds").sync_detailed(slug, game.number, client=anonymous), 200, list)
    assert [(r.rack, r.top.move, r.top.score) for r in rounds] == [("CATSROE", "H4 CARTS", 20)]


def test_the_typescript_types_of_the_schema_fit_the_round(schema, tmp_path):
    node = shutil.which("node")
    tools = [NPM / "openapi-typescript" / "bin" / "cli.js", NPM / "typescript" / "bin" / "tsc"]
    assert node and all(tool.exists() for tool in tools), "node or tests/tools/npm's packages are missing: ./hall setup"
    (tmp_path / "schema.json").write_text(json.dumps(schema))
    shutil.copy(TYPESCRIPT_ROUND, tmp_path / "round.ts")
    for command in ([str(tools[0]), "schema.json", "--output", "api.ts", "--default-non-nullable", "false"],
                    [str(tools[1]), "--noEmit", "--strict", "--target", "es2022", "--module", "es2022",
                     "--moduleResolution", "bundler", "round.ts"]):
        done = subprocess.run([node, *command], cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
