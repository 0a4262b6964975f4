"""Arbiter lexicon pages: word check, list, upload with progress, permissions."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import include, path, reverse

from lexicon import services, sources
from lexicon.models import Lexicon, forget_graphs
from tests.paths import ROOT

FIXTURES = ROOT / "fixtures" / "lexicons"

# The pages as tournament/urls.py mounts them.
urlpatterns = [path("arbiter/lexicons/", include("lexicon.urls"))]
pytestmark = [pytest.mark.urls(__name__), pytest.mark.django_db]


@pytest.fixture(autouse=True)
def english(settings):
    """The assertions read English texts; the site's default language is Russian."""
    settings.LANGUAGE_CODE = "en"


@pytest.fixture
def lexdir(settings, tmp_path):
    settings.LEXICON_DIR = tmp_path / "lexicons"
    settings.LEXICON_DIR.mkdir()
    forget_graphs()
    yield settings.LEXICON_DIR
    forget_graphs()


@pytest.fixture
def arbiter(django_user_model):
    return django_user_model.objects.create_user("arbiter", password="x")


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("chief", password="x", is_staff=True)


@pytest.fixture
def en_lexicon(lexdir):
    return services.import_wordlist("en-mini", "en", FIXTURES / "en.txt", skip_capitalised=True)


def verdicts(html: str) -> list[tuple[str, str]]:
    return re.findall(r'data-word="([^"]+)" data-valid="([01])"', html)


# -- permissions -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name,args", [("check", []), ("list", []), ("upload", []), ("detail", [1]), ("status", [1])])
def test_anonymous_is_sent_to_the_login_page(client, name, args):
    url = reverse(f"lexicon:{name}", args=args)
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/arbiter/login/?next=")
    assert url in response["Location"].replace("%2F", "/")


def test_non_staff_cannot_upload(client, arbiter, lexdir):
    client.force_login(arbiter)
    assert client.get(reverse("lexicon:upload")).status_code == 403
    upload = SimpleUploadedFile("w.txt", b"cat\ndog\n")
    response = client.post(reverse("lexicon:upload"), {"name": "x", "ruleset": "en", "file": upload})
    assert response.status_code == 403
    assert not Lexicon.objects.exists()
    assert not (lexdir / "uploads").exists()


def test_non_staff_can_check_words_and_see_the_list(client, arbiter, en_lexicon):
    client.force_login(arbiter)
    assert client.get(reverse("lexicon:check")).status_code == 200
    response = client.get(reverse("lexicon:list"))
    assert response.status_code == 200
    assert reverse("lexicon:upload") not in response.content.decode()


# -- word check ------------------------------------------------------------------------------------------


def test_check_page_answers_each_word(client, arbiter, en_lexicon):
    client.force_login(arbiter)
    page = client.get(reverse("lexicon:check")).content.decode()
    assert "en-mini v1" in page  # offered, and chosen by default
    response = client.post(
        reverse("lexicon:check"), {"lexicon": en_lexicon.pk, "words": "quiz, zebra\nLondon  café xyz"}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert verdicts(html) == [("QUIZ", "1"), ("ZEBRA", "1"), ("LONDON", "0"), ("CAFÉ", "0"), ("XYZ", "0")]
    assert 'class="verdict valid"' in html and 'class="verdict invalid"' in html
    assert en_lexicon.hash_prefix in html


def test_check_page_all_valid_and_form_errors(client, arbiter, en_lexicon):
    client.force_login(arbiter)
    html = client.post(reverse("lexicon:check"), {"lexicon": en_lexicon.pk, "words": "cat"}).content.decode()
    assert verdicts(html) == [("CAT", "1")]
    assert 'class="summary ok"' in html
    html = client.post(reverse("lexicon:check"), {"lexicon": en_lexicon.pk, "words": "  "}).content.decode()
    assert verdicts(html) == [] and "errorlist" in html
    html = client.post(reverse("lexicon:check"), {"lexicon": 987654, "words": "cat"}).content.decode()
    assert verdicts(html) == [] and "errorlist" in html


def test_check_page_with_a_damaged_file_says_so(client, arbiter, en_lexicon):
    data = en_lexicon.absolute_path.read_bytes()
    en_lexicon.absolute_path.write_bytes(data[:200])
    forget_graphs()
    client.force_login(arbiter)
    html = client.post(reverse("lexicon:check"), {"lexicon": en_lexicon.pk, "words": "cat"}).content.decode()
    assert "msg-error" in html and "truncated" in html


# -- list ------------------------------------------------------------------------------------------------------


def test_list_page_shows_each_version(client, staff, en_lexicon):
    services.import_wordlist("en-mini", "en", FIXTURES / "judge-en.txt")
    client.force_login(staff)
    html = client.get(reverse("lexicon:list")).content.decode()
    assert html.count("en-mini") >= 2
    assert en_lexicon.hash_prefix in html
    assert reverse("lexicon:upload") in html


# -- upload with progress ------------------------------------------------------------------------------------------


def test_upload_builds_in_the_background_and_reports(client, staff, lexdir, settings, django_capture_on_commit_callbacks):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    client.force_login(staff)
    assert client.get(reverse("lexicon:upload")).status_code == 200
    upload = SimpleUploadedFile("polish.txt", (FIXTURES / "pl.txt").read_bytes())
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client.post(
            reverse("lexicon:upload"),
            {"name": "pl-club", "ruleset": "pl", "file": upload, "skip_capitalised": "on"},
        )
    assert len(callbacks) == 1
    row = Lexicon.objects.get(name="pl-club")
    assert response.status_code == 302 and response["Location"] == reverse("lexicon:detail", args=[row.pk])
    assert row.status == "ready" and row.version == 1 and row.word_count == 8
    assert row.created_by == staff
    assert (lexdir / row.input_path).is_file() and row.input_path.startswith("uploads/")

    status = client.get(reverse("lexicon:status", args=[row.pk])).json()
    assert status["status"] == "ready" and status["progress"] == 100 and status["done"] is True
    assert status["word_count"] == 8 and status["content_hash"] == row.content_hash

    html = client.get(response["Location"]).content.decode()
    assert 'id="word-count">8<' in html
    assert row.content_hash in html
    assert "Kraków" in html and "video (V)" in html and "quiz (Q)" in html
    assert 'id="build-progress"' not in html  # done: no progress bar any more


def test_detail_of_a_pending_build_shows_a_polling_progress_bar(client, staff, lexdir):
    row = Lexicon.objects.create(name="later", ruleset="en", input_path="uploads/x.txt", options={"kind": "file"})
    Lexicon.objects.filter(pk=row.pk).update(status="building", progress=42)
    client.force_login(staff)
    html = client.get(reverse("lexicon:detail", args=[row.pk])).content.decode()
    assert 'id="build-progress"' in html and "width: 42%" in html
    assert reverse("lexicon:status", args=[row.pk]) in html
    status = client.get(reverse("lexicon:status", args=[row.pk])).json()
    assert status == {**status, "status": "building", "progress": 42, "done": False, "version": None}


def test_upload_that_fails_shows_the_error(client, staff, lexdir, settings, django_capture_on_commit_callbacks):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    client.force_login(staff)
    upload = SimpleUploadedFile("bad.txt", "über\nstraße\n".encode())
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("lexicon:upload"), {"name": "bad", "ruleset": "en", "file": upload})
    row = Lexicon.objects.get(name="bad")
    assert row.status == "failed" and row.version is None
    html = client.get(response["Location"]).content.decode()
    assert "no word was accepted" in html and 'id="build-error"' in html
    assert not (lexdir / "graphs").exists() or not any((lexdir / "graphs").iterdir())
    assert client.get(reverse("lexicon:status", args=[row.pk])).json()["status"] == "failed"


def test_upload_form_errors(client, staff, lexdir):
    client.force_login(staff)
    url = reverse("lexicon:upload")
    response = client.post(url, {"name": "x", "ruleset": "en"})
    assert response.status_code == 200 and "Choose a word-list file or an installed source" in response.content.decode()
    response = client.post(url, {"name": "bad name", "ruleset": "en", "file": SimpleUploadedFile("a.txt", b"cat\n")})
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    response = client.post(url, {"name": "x", "ruleset": "en", "installed": "package:ru"})
    assert "gives words of the rule set ru" in response.content.decode()
    response = client.post(url, {"name": "x", "ruleset": "en", "file": SimpleUploadedFile("a.txt", b"")})
    assert "errorlist" in response.content.decode()
    assert not Lexicon.objects.exists()
    assert not (lexdir / "uploads").exists() or not any((lexdir / "uploads").iterdir())


@pytest.mark.skipif(not Path("/usr/share/dict/french").is_file(), reason="Debian wfrench is not installed")
def test_upload_page_offers_and_builds_an_installed_debian_list(
    client, staff, lexdir, settings, django_capture_on_commit_callbacks
):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    client.force_login(staff)
    html = client.get(reverse("lexicon:upload")).content.decode()
    assert "debian:fr" in html and "package:ru" in html
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("lexicon:upload"),
            {"name": "fr-debian", "ruleset": "fr", "installed": "debian:fr", "skip_capitalised": "on"},
        )
    row = Lexicon.objects.get(name="fr-debian")
    assert row.status == "ready", row.error
    assert row.word_count > 100_000
    assert "wfrench" in row.source
    assert row.options["kind"] == "debian"
    assert services.check_words(row, ["été", "cœur", "qzxw"]) == [("ETE", True), ("COEUR", True), ("QZXW", False)]
    assert sources.debian_list("fr").path == Path("/usr/share/dict/french")
