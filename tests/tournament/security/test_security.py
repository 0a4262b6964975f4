"""Security of the pages (the API matrix is in test_permissions.py): who reaches which page, no leak of an
unpublished round, access codes, CSRF, secrets and DEBUG from the environment, the audit trail."""

from __future__ import annotations

import inspect
import os
import re
import secrets
import subprocess
import sys

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.urls import URLPattern
from rest_framework.test import APIClient

from lexicon import urls as lexicon_urls
from tests.conftest import ROOT
from tests.tools.world import judged_first_round
from tests.tournament.simultaneous.rows import simul_rows
from tournament import services
from tournament.api import tablet as tablet_api
from tournament.console import urls as arbiter_urls
from tournament.display import urls as display_urls
from tournament.models import AuditLog, Registration, Round
from tournament.printing import urls as pdf_urls
from tournament.tablet import urls as tablet_urls
from tournament.training import urls as training_urls

pytestmark = [pytest.mark.usefixtures("local_cache")]

PREPARED = ["CATSROE", "OE+DRSZ?"]
ROLES = ["anonymous", "player", "other_player", "arbiter", "other_arbiter", "staff"]
LOGIN = "login"  # a redirect to the login page (arbiter or tablet)

ARB = {"anonymous": LOGIN, "player": LOGIN, "other_player": LOGIN, "arbiter": 200, "other_arbiter": 404,
       "staff": 404}
ARB_POST_ONLY = {**ARB, "arbiter": 405}
ARB_NO_JOB = {**ARB, "arbiter": 404}
LOGGED_IN = {"anonymous": LOGIN, "player": LOGIN, "other_player": LOGIN, "arbiter": 200, "other_arbiter": 200,
             "staff": 200}
STAFF = {**LOGGED_IN, "arbiter": 403, "other_arbiter": 403}
STAFF_POST_ONLY = {**STAFF, "staff": 405}
PUBLIC = dict.fromkeys(ROLES, 200)
TABLET_APP = {**dict.fromkeys(ROLES, LOGIN), "player": 200, "other_player": 200}

#: (module, url name) → expected answer to a GET by each role
PAGE_MATRIX = {
    ("arbiter", "tournaments"): LOGGED_IN,
    ("arbiter", "tournament_create"): LOGGED_IN,
    ("arbiter", "language"): dict.fromkeys(ROLES, 405),
    ("arbiter", "tournament"): ARB,
    ("arbiter", "settings"): ARB,
    ("arbiter", "backup"): ARB,
    ("arbiter", "players"): ARB,
    ("arbiter", "import"): ARB,
    ("arbiter", "import_status"): ARB_NO_JOB,  # a background import's progress: 404 for a job not of this tournament
    ("arbiter", "game_create"): ARB_POST_ONLY,
    ("arbiter", "game"): ARB,
    ("arbiter", "live"): ARB,
    ("arbiter", "round_action"): ARB_POST_ONLY,
    ("arbiter", "rack_typing"): ARB_POST_ONLY,
    ("arbiter", "slips"): ARB,
    ("arbiter", "review"): ARB,
    ("arbiter", "choose_top"): ARB_POST_ONLY,
    ("arbiter", "board"): ARB,
    ("arbiter", "times"): {**ARB, "arbiter": 302},  # the world's game is classic: back to the game page
    ("arbiter", "override"): ARB_POST_ONLY,
    ("arbiter", "standings"): ARB,
    ("arbiter", "audit"): ARB,
    ("arbiter", "simul_hall"): ARB,
    ("arbiter", "simul_hall_results"): ARB_POST_ONLY,
    ("arbiter", "simuls"): STAFF,
    ("arbiter", "simul"): STAFF,
    ("arbiter", "simul_add_hall"): STAFF_POST_ONLY,
    ("arbiter", "simul_package"): STAFF,
    ("arbiter", "simul_results"): STAFF_POST_ONLY,
    ("lexicon", "list"): LOGGED_IN,
    ("lexicon", "check"): LOGGED_IN,
    ("lexicon", "upload"): STAFF,
    ("lexicon", "detail"): LOGGED_IN,
    ("lexicon", "status"): LOGGED_IN,
    ("pdf", "index"): ARB,
    ("pdf", "request"): ARB_POST_ONLY,
    ("pdf", "job"): ARB_NO_JOB,
    ("pdf", "status"): ARB_NO_JOB,
    ("pdf", "download"): ARB_NO_JOB,
    ("pdf", "national"): STAFF,
    ("tablet", "app"): TABLET_APP,
    ("tablet", "login"): PUBLIC,
    ("tablet", "qr"): dict.fromkeys(ROLES, 400),  # without ?code=
    ("tablet", "version"): PUBLIC,
    ("display", "index"): PUBLIC,
    ("display", "display"): PUBLIC,
    ("display", "state"): PUBLIC,
    ("display", "version"): PUBLIC,
    # training: no login (a run is reached by its code); the game of the world is not finished, the code unknown
    ("training", "index"): PUBLIC,
    ("training", "upload"): dict.fromkeys(ROLES, 405),
    ("training", "start"): dict.fromkeys(ROLES, 405),
    ("training", "resume"): dict.fromkeys(ROLES, 404),
    ("training", "run"): dict.fromkeys(ROLES, 404),
    ("training", "next"): dict.fromkeys(ROLES, 405),
    ("training", "slip"): dict.fromkeys(ROLES, 405),
    ("training", "moves"): dict.fromkeys(ROLES, 405),
    ("training", "run_state"): dict.fromkeys(ROLES, 404),
    ("training", "club_open"): dict.fromkeys(ROLES, 405),
    ("training", "club_join"): dict.fromkeys(ROLES, 405),
    ("training", "club"): dict.fromkeys(ROLES, 404),
    ("training", "club_state"): dict.fromkeys(ROLES, 404),
    ("training", "club_lead"): dict.fromkeys(ROLES, 404),
    ("training", "club_start"): dict.fromkeys(ROLES, 405),
    ("display", "topped"): PUBLIC,
}
MODULES = {"arbiter": arbiter_urls, "lexicon": lexicon_urls, "pdf": pdf_urls, "tablet": tablet_urls,
           "display": display_urls, "training": training_urls}
PREFIXES = {"arbiter": "/arbiter/", "lexicon": "/arbiter/lexicons/", "pdf": "/arbiter/pdf/", "tablet": "/tablet/",
            "display": "/display/", "training": "/training/"}


@pytest.fixture
def world(db, alice, bob, tournament, lexicon_row, eager):
    """A judged round with its top chosen, NOT published; bob arbitrates another tournament; a staff user."""
    services.tournaments.create_tournament(bob, name="Other", slug="other", ruleset="en", lexicon=lexicon_row, arbiters=[bob])
    rnd, [(reg_a, code_a), (reg_b, code_b)] = judged_first_round(alice, tournament, eager, ("SCAT 14", "ACTS 12"))
    game = rnd.game
    services.rounds.choose_top(alice, rnd, "H4 CARTS")
    staff = get_user_model().objects.create_user("stan", password="x", is_staff=True)
    tokens = {"player": services.players.issue_tablet_token(reg_a, code_a),
              "other_player": services.players.issue_tablet_token(reg_b, code_b)}
    users = {"arbiter": alice, "other_arbiter": bob, "staff": staff}
    return {"clients": role_clients(tokens, users), "tokens": tokens, "users": users, "tournament": tournament,
            "game": game, "round": rnd, "verdict": rnd.verdicts.get(registration=reg_a), "lexicon": lexicon_row,
            "regs": (reg_a, reg_b), "simul": simul_rows(lexicon_row)}


def role_clients(tokens: dict[str, str], users: dict) -> dict[str, Client]:
    """A client for each role: anonymous, the tablets (their token cookie), the logged-in users."""
    clients = {"anonymous": Client()}
    for role, token in tokens.items():
        c = Client()
        c.cookies["tablet_token"] = token
        clients[role] = c
    for role, user in users.items():
        c = Client()
        c.force_login(user)
        clients[role] = c
    return clients


def page_url(world, module: str, pattern: URLPattern) -> str:
    route = str(pattern.pattern)
    values = {"slug": world["tournament"].slug, "number": world["game"].number, "job": "no-such-job",
              "game": world["simul"].game_id, "code": "paris", "key": "no-such-key",  # no training run "paris"
              "pk": world["verdict"].pk if module == "arbiter" else world["lexicon"].pk}
    path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values[m.group(1)]), route)
    return PREFIXES[module] + path


def all_pages():
    return [(module, p) for module, mod in MODULES.items() for p in mod.urlpatterns]


def test_page_matrix_covers_every_page():
    names = {(module, p.name) for module, p in all_pages()}
    assert all(name for _m, name in names)
    assert names == set(PAGE_MATRIX), "every page needs a row in the page permission matrix"


@pytest.mark.django_db
@pytest.mark.one_backend  # who reaches which page is decided above the database
def test_page_permission_matrix(world):
    """Every page for every role, in one world: each page's requests come from fresh clients and are rolled back
    after it (a page cannot change what the next one sees); every mismatch is reported, not only the first."""
    failures = []
    for key in sorted(PAGE_MATRIX):
        with transaction.atomic():
            failures += page_mismatches(world, key, role_clients(world["tokens"], world["users"]))
            transaction.set_rollback(True)
    assert not failures, "\n".join(failures)


def page_mismatches(world, key: tuple[str, str], clients: dict[str, Client]) -> list[str]:
    module, name = key
    pattern = next(p for p in MODULES[module].urlpatterns if p.name == name)
    url = page_url(world, module, pattern)
    out = []
    for role in ROLES:
        response = clients[role].get(url)
        expected = PAGE_MATRIX[key][role]
        what = f"{key} {url} as {role}: {response.status_code}, expected {expected}"
        if response.status_code >= 500:
            out.append(what)
        elif expected == LOGIN:
            if response.status_code != 302 or "/login/" not in response["Location"]:
                out.append(what)
        elif response.status_code != expected:
            out.append(what)
    return out


# -- no leak of an unpublished round ------------------------------------------------------------------------


@pytest.mark.django_db
def test_no_slip_or_top_of_an_unpublished_round_leaks_on_any_page(world):
    t, game = world["tournament"], world["game"]
    secrets_ = ["CARTS", "H4 CARTS", "ACTS", "top_moves", "chosen_move"]  # (reason keys are static page text)
    pages = ["/", "/display/", f"/display/{t.slug}/", f"/display/{t.slug}/state.json", f"/display/{t.slug}/version/",
             f"/tablet/version/{t.slug}/", "/tablet/", "/tablet/login/", "/training/", "/api/public/tournaments/",
             f"/api/public/tournaments/{t.slug}/", f"/api/public/tournaments/{t.slug}/standings/",
             f"/api/public/tournaments/{t.slug}/games/{game.number}/rounds/",
             f"/api/public/tournaments/{t.slug}/games/{game.number}/standings/"]
    for role in ("anonymous", "player"):
        for url in pages:
            response = world["clients"][role].get(url)
            if role == "anonymous" and url == "/tablet/":
                assert response.status_code == 302
                continue
            assert response.status_code == 200, (url, role, response.status_code)
            body = response.content.decode()
            for secret in secrets_:
                assert secret not in body, (url, role, secret)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Tablet {world['tokens']['player']}")
    body = api.get("/api/tablet/state/").content.decode()
    for secret in secrets_:
        assert secret not in body, ("tablet state", secret)
    # the arbiter sees it
    assert "CARTS" in world["clients"]["arbiter"].get(f"/arbiter/t/{t.slug}/g/{game.number}/review/").content.decode()


@pytest.mark.django_db
def test_a_pdf_requested_by_a_non_arbiter_is_refused(world):
    t, game = world["tournament"], world["game"]
    data = {"kind": "slips", "game": game.number, "round": world["round"].number, "format": "json"}
    for role in ("anonymous", "player", "other_arbiter", "staff"):
        response = world["clients"][role].post(f"/arbiter/pdf/t/{t.slug}/request/", data)
        assert response.status_code in (302, 403, 404), (role, response.status_code)
        assert response.get("Content-Type", "") != "application/pdf"
        if response.status_code == 302:
            assert "/login/" in response["Location"]


# -- access codes ----------------------------------------------------------------------------------------------


def test_access_codes_have_at_least_40_bits():
    source = inspect.getsource(services.players.access_code)
    assert "secrets." in source, "access codes come from the secrets module"
    codes = {services.players.access_code() for _ in range(2000)}
    assert len(codes) == 2000
    alphabet = set("".join(codes))
    length = min(len(c) for c in codes)
    bits = length * (len(alphabet).bit_length() - 1)
    assert bits >= 40, (length, len(alphabet), bits)


def test_access_codes_and_tokens_compare_in_constant_time():
    assert "compare_digest" in inspect.getsource(Registration.check_access_code)
    assert "compare_digest" in inspect.getsource(services.players.login)
    assert "compare_digest" in inspect.getsource(services.players.issue_tablet_token) or \
        "check_access_code" in inspect.getsource(services.players.issue_tablet_token)


@pytest.mark.django_db
def test_the_tablet_login_page_is_rate_limited(world):
    """The login page posts the code to the tablet login API: after N wrong codes, a clear refusal."""
    page = world["clients"]["anonymous"].get("/tablet/login/")
    assert page.status_code == 200
    login_url = page.context["config"]["urls"]["login"]
    assert login_url == "/api/tablet/login/"
    client = APIClient()
    for _ in range(tablet_api.LOGIN_MAX_FAILURES):
        assert client.post(login_url, {"code": "WRONGCODE1"}, format="json").status_code == 400
    response = client.post(login_url, {"code": "WRONGCODE1"}, format="json")
    assert response.status_code == 429 and response.json()["code"] == "too_many_attempts"
    assert f" {tablet_api.LOGIN_WINDOW_SECONDS // 60} " in response.json()["detail"]  # the minutes to wait
    assert page.context["strings"]["too_many"]  # the page has a text for it


# -- CSRF --------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_arbiter_forms_reject_a_post_without_csrf_token(world, alice):
    t, game = world["tournament"], world["game"]
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    before = AuditLog.objects.count()
    posts = [(f"/arbiter/t/{t.slug}/g/{game.number}/action/", {"action": "draw"}),
             (f"/arbiter/t/{t.slug}/settings/", {"name": "Hacked"}),
             (f"/arbiter/t/{t.slug}/players/", {"form": "player", "name": "Intruder"}),
             ("/arbiter/new/", {"name": "X"}),
             (f"/arbiter/pdf/t/{t.slug}/request/", {"kind": "standings"})]
    for url, data in posts:
        assert client.post(url, data).status_code == 403, url
    # the API with the session cookie also needs the CSRF token (DRF SessionAuthentication)
    response = client.post(f"/api/arbiter/rounds/{world['round'].pk}/publish/", {})
    assert response.status_code == 403
    assert AuditLog.objects.count() == before


@pytest.mark.django_db
def test_the_tablet_cookie_alone_authorises_no_post(world):
    """The tablet cookie renders pages; every state change needs the Authorization header."""
    client = Client(enforce_csrf_checks=True)
    client.cookies["tablet_token"] = world["tokens"]["player"]
    before = AuditLog.objects.count()
    for url in ("/api/tablet/slip/", "/api/tablet/assist/", "/tablet/", "/tablet/login/"):
        response = client.post(url, {"word": "CATS"}, HTTP_IDEMPOTENCY_KEY="csrf")
        assert response.status_code in (401, 403, 405), (url, response.status_code)
    assert AuditLog.objects.count() == before


# -- settings -----------------------------------------------------------------------------------------------


def settings_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(DUPLICATE_VAR_DIR=os.environ.get("DUPLICATE_VAR_DIR", "/tmp/secvar"), **extra)
    return env


def run_manage(env, *args):
    return subprocess.run([sys.executable, str(ROOT / "manage.py"), *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, env=env)


def test_debug_is_off_unless_asked():
    assert django_settings.DEBUG is False or os.environ.get("DJANGO_DEBUG")
    out = subprocess.run([sys.executable, "-c", "import django; from django.conf import settings; django.setup();"
                          "print(settings.DEBUG)"], capture_output=True, text=True, cwd=ROOT,
                         env={**settings_env(), "DJANGO_SETTINGS_MODULE": "tournament.settings"}, timeout=60)
    assert out.stdout.strip() == "False", out.stderr


@pytest.mark.parametrize("flag", [{"DJANGO_ENV": "production"}, {"DJANGO_HTTPS": "1"}])
def test_production_without_secret_key_refuses_to_start(flag):
    result = run_manage(settings_env(**flag), "check")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is not set" in result.stderr


def test_embedded_set_up_keeps_its_generated_key(tmp_path):
    env = {**settings_env(), "DUPLICATE_VAR_DIR": str(tmp_path)}
    assert run_manage(env, "check").returncode == 0
    assert len((tmp_path / "secret_key").read_text().strip()) >= 50


def test_check_deploy_is_clean_in_production():
    env = settings_env(DJANGO_SECRET_KEY=secrets.token_urlsafe(50)[:50] + "x!", DJANGO_HTTPS="1",
                       DJANGO_ALLOWED_HOSTS="hall.example.org",
                       DATABASE_URL="postgres://postgres@127.0.0.1:5432/test")
    result = run_manage(env, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr


# -- audit trail ----------------------------------------------------------------------------------------------


def last_audit(action: str) -> AuditLog:
    rows = list(AuditLog.objects.filter(action=action).order_by("-id"))
    assert rows, f"no audit row for {action}"
    return rows[0]


@pytest.mark.django_db
def test_every_arbiter_change_through_the_console_is_audited(client, alice, tournament, lexicon_row, eager):
    client.force_login(alice)
    t = tournament
    base = f"/arbiter/t/{t.slug}"

    def expect(action, *, before=False):
        row = last_audit(action)
        assert row.actor == alice and row.at is not None and row.after is not None, action
        if before:
            assert row.before is not None, action
        return row

    # CSV import (one audited registration per player), table assignment, settings
    client.post(f"{base}/players/import/", {"text": "Ann;C\nBen;C\nCid;C\n"})
    assert AuditLog.objects.filter(action="player.register", actor=alice).count() == 3
    regs = list(t.registrations.order_by("table_number"))
    client.post(f"{base}/players/", {"form": "tables", **{f"table_{r.pk}": n for r, n in
                                                          zip(regs, (2, 1, 3), strict=True)}})
    expect("tables.assign", before=True)
    form = {"name": "Open renamed", "slug": t.slug, "ruleset": "en", "lexicon": lexicon_row.pk,
            "seconds_per_move": 120, "grace_seconds": 5, "convention": t.convention, "solo_mode": t.solo_mode,
            "solo_bonus": 10, "free_warnings": 1, "free_warnings_fast": 5, "warning_penalty": 5, "tie_break": t.tie_break,
            "language": "en"}
    response = client.post(f"{base}/settings/", form)
    assert response.status_code == 302, response.context["form"].errors if response.context else ""
    assert expect("tournament.update").after.get("name") == "Open renamed"
    # a game: draw, open, paper slip, close, judge, override, choose top, publish
    game = services.games.create_game(alice, t, prepared_racks=PREPARED)
    act = f"{base}/g/{game.number}/action/"
    with eager(execute=True):
        client.post(act, {"action": "draw"})
    rnd = game.rounds.get()
    expect("round.draw")
    with eager(execute=False):
        client.post(act, {"action": "open", "round": rnd.pk})
    expect("round.open")
    client.post(f"{base}/g/{game.number}/slips/", {"table": 1, "word": "CATS", "coordinates": "H4", "score": 12,
                                                   "key": "paper-1"})
    slip_row = expect("slip.submit")
    assert slip_row.after["source"] == "paper"
    client.post(act, {"action": "close", "round": rnd.pk})
    expect("round.close")
    client.post(act, {"action": "judge", "round": rnd.pk})
    expect("round.judge")
    verdict = rnd.verdicts.first()
    client.post(f"{base}/verdicts/{verdict.pk}/override/", {f"v{verdict.pk}-awarded": 7, f"v{verdict.pk}-why": "x"})
    expect("verdict.override", before=True)
    client.post(f"{base}/g/{game.number}/top/", {"move": "H4 CARTS"})
    expect("round.choose_top")
    client.post(act, {"action": "publish", "round": rnd.pk})
    expect("round.publish")
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PUBLISHED
    # penalty, a second round cancelled, end of game
    client.post(act, {"action": "penalty", "table": 1, "points": 5, "reason": "noise"})
    expect("penalty.add")
    with eager(execute=True):
        client.post(act, {"action": "draw"})
    second = game.rounds.exclude(pk=rnd.pk).get()
    client.post(act, {"action": "cancel", "round": second.pk, "why": "wrong rack"})
    expect("round.cancel")
    client.post(act, {"action": "finish", "why": "end"})
    expect("game.finish")
    # every row of this tournament names its actor and its time
    rows = AuditLog.objects.filter(tournament=t)
    assert rows.count() >= 15
    assert not rows.filter(actor__isnull=True).exclude(action__in=["round.judge", "round.close"]).exists()
