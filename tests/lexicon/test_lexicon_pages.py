"""Arbiter lexicon pages: word check, list, upload with progress, permissions."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from lexicon import services, sources
from lexicon.models import Lexicon, forget_graphs
from scoring.rules import RULESET_NAMES
from tests.paths import ROOT
from tests.tools.pagetext import english_sentences, visible_text

FIXTURES = ROOT / "fixtures" / "lexicons"

# The pages as tournament/urls.py mounts them: inside the arbiter console (its menu, logout, language switch).
#: pages over word files and graphs; their few rows (the lexicon records) are written on both back ends by the
#: tournament tests
pytestmark = [pytest.mark.django_db, pytest.mark.one_backend]


@pytest.fixture(autouse=True)
def english(settings):
    """The assertions read English texts; the site's default language is Russian."""
    settings.LANGUAGE_CODE = "en"



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
    assert 'id="build-progress"' in html and 'id="build-bar" max="100" value="42"' in html
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


# -- inside the arbiter console: its menu, its language, the tournament's lexicon ------------------------------


@pytest.fixture
def uk_tournament(alice, lexdir):
    """A Ukrainian tournament (alice arbitrates it, staff) whose lexicon is not the first of the list."""
    from tournament import services as tournament_services

    alice.is_staff = True
    alice.save()
    services.import_wordlist("aa-first", "en", FIXTURES / "judge-en.txt")
    club = services.import_wordlist("zz-club", "en", FIXTURES / "en.txt", skip_capitalised=True)
    return tournament_services.tournaments.create_tournament(
        alice, name="Кубок Полтави", slug="kubok-poltavy", ruleset="en", lexicon=club, arbiters=[alice], language="uk")


def selected_lexicon(page: str) -> str:
    found = re.search(r'<option value="(\d+)" selected>([^<]*)</option>', page)
    assert found, "no lexicon selected"
    return found.group(2)


@pytest.mark.parametrize("language,logout", [("uk", "Вийти"), ("ru", "Выйти")])  # Cyrillic: no English run hides
def test_lexicon_pages_are_console_pages_in_the_tournaments_language(client, alice, uk_tournament, language, logout):
    uk_tournament.language = language
    uk_tournament.save()
    client.force_login(alice)
    slug = uk_tournament.slug
    club = uk_tournament.lexicon
    pages = [reverse("lexicon:check") + f"?tournament={slug}", reverse("lexicon:list"),
             reverse("lexicon:upload"), reverse("lexicon:detail", args=[club.pk])]
    for url in pages:
        response = client.get(url)
        html = response.content.decode()
        assert response.status_code == 200, url
        assert f'<html lang="{language}">' in html, url
        assert f'action="{reverse("logout")}"' in html and logout in html, url  # logout
        assert 'id="lang-select"' in html and f'action="{reverse("arbiter:language")}"' in html, url  # language switch
        assert f'href="{reverse("arbiter:tournament", args=[slug])}"' in html, url  # the way back
        assert f'href="{reverse("arbiter:audit", args=[slug])}"' in html, url  # the tournament's menu
        data = tuple(Lexicon.objects.values_list("source", flat=True)) + tuple(
            f"{name} {ruleset}" for name, ruleset in Lexicon.objects.values_list("name", "ruleset")) + tuple(
            f"{r} — {RULESET_NAMES[r]}" for r in RULESET_NAMES) + ("ru, ru-nouns, en-bench",)  # data, examples
        assert english_sentences(html, allowed=data) == [], (url, english_sentences(html, data))


def test_a_lexicon_page_without_a_tournament_leads_back_to_the_tournaments(client, arbiter, en_lexicon):
    client.force_login(arbiter)
    html = client.get(reverse("lexicon:check"), HTTP_ACCEPT_LANGUAGE="uk").content.decode()
    assert f'href="{reverse("arbiter:tournaments")}"' in html and f'action="{reverse("logout")}"' in html
    assert 'id="lang-select"' in html
    assert "en-mini v1" in selected_lexicon(html)
    assert 'id="lexicon-in-use"' in html


def test_word_check_uses_the_lexicon_of_the_tournament_the_arbiter_comes_from(client, alice, uk_tournament):
    client.force_login(alice)
    check = reverse("lexicon:check")
    assert "aa-first" in selected_lexicon(client.get(check).content.decode())  # no tournament yet: the first list

    # the link of the tournament's pages names it
    console = client.get(reverse("arbiter:tournament", args=[uk_tournament.slug])).content.decode()
    assert f'href="{check}?tournament={uk_tournament.slug}"' in console
    html = client.get(f"{check}?tournament={uk_tournament.slug}").content.decode()
    assert "zz-club v1" in selected_lexicon(html)
    assert "zz-club v1" in visible_text(html.split('id="lexicon-in-use"')[1].split("</p>")[0])
    assert "Кубок Полтави" in html.split('id="lexicon-in-use"')[1].split("</p>")[0]

    # the tournament last opened in the session, without the query
    assert "zz-club v1" in selected_lexicon(client.get(check).content.decode())
    # a list chosen on the page wins
    first = Lexicon.objects.get(name="aa-first")
    assert "aa-first" in selected_lexicon(client.get(f"{check}?lexicon={first.pk}").content.decode())
    # and the words are checked in the tournament's list
    html = client.post(f"{check}?tournament={uk_tournament.slug}",
                       {"lexicon": uk_tournament.lexicon_id, "words": "quiz"}).content.decode()
    assert verdicts(html) == [("QUIZ", "1")] and "zz-club v1" in html


def test_a_tournament_the_user_does_not_arbitrate_is_not_used(client, bob, uk_tournament):
    client.force_login(bob)
    html = client.get(reverse("lexicon:check") + f"?tournament={uk_tournament.slug}").content.decode()
    assert "aa-first" in selected_lexicon(html)
    assert reverse("arbiter:tournament", args=[uk_tournament.slug]) not in html and "Кубок Полтави" not in html


def test_the_chosen_language_wins_over_the_tournaments(client, alice, uk_tournament, settings):
    client.force_login(alice)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "pl"
    html = client.get(reverse("lexicon:check") + f"?tournament={uk_tournament.slug}").content.decode()
    assert '<html lang="pl">' in html
