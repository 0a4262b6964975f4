"""Issue 34: a new Ukrainian tournament offered only the Russian lexicon. The new-tournament form offers to build
the lexicon of a rule set that has none from its installed package (uk: pymorphy3-dicts-uk), keeps what was typed
while the worker builds it, and the built lexicon is then chosen. The package's reader is replaced by a handful of
words so that the build stays quick."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from lexicon import sources
from lexicon.models import Lexicon
from lexicon.skips import SkipReport
from tournament.models import Tournament

pytestmark = [pytest.mark.django_db]

WORDS = ["МОРЕ", "ТИР", "СИРОТА", "МІСТО", "П'ЯТЬ"]


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


@pytest.fixture
def small_uk_package(settings, tmp_path, monkeypatch):
    """The installed uk package read as five words (the real one has millions of forms)."""
    settings.LEXICON_DIR = tmp_path / "lexicons"
    read = []

    def package_source(kind, **_options):
        read.append(kind)
        return sources.SourceResult(WORDS, SkipReport())

    monkeypatch.setattr(sources, "package_source", package_source)
    return read


@pytest.fixture
def staff(alice):
    alice.is_staff = True
    alice.save()
    return alice


def typed(lexicon: Lexicon, **extra) -> dict[str, object]:
    return {"name": "Кубок Полтави", "slug": "", "ruleset": "uk", "lexicon": lexicon.pk, "seconds_per_move": 180,
            "grace_seconds": 10, "convention": "duplicate", "solo_mode": "auto", "solo_bonus": 10,
            "free_warnings": 3, "free_warnings_fast": 5, "warning_penalty": 5, "tie_break": "none",
            "language": "uk", "time_zone": "Europe/Kyiv", **extra}


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_form_builds_the_uk_lexicon_from_the_installed_package_and_then_takes_it(
        client, staff, lexicon_row, eager, small_uk_package):
    client.force_login(staff)
    url = reverse("arbiter:tournament_create")
    page = client.get(url).content.decode()
    assert "No lexicon for the rule set uk — Українська yet." in text_of(page)
    assert 'name="build_lexicon" value="uk"' in page
    # the arbiter chose uk with the only lexicon there is (en): told where to get the uk one, nothing created
    refused = client.post(url, typed(lexicon_row))
    assert refused.status_code == 200 and not Tournament.objects.exists()
    assert "No lexicon for the rule set uk yet: build it below the form" in text_of(refused.content.decode())
    # the button: the build starts on the worker, the form comes back as typed with the build's progress
    with eager(execute=True):
        response = client.post(url, typed(lexicon_row, build_lexicon="uk"))
    page = response.content.decode()
    assert response.status_code == 200 and "The lexicon is being built from the installed package" in text_of(page)
    assert 'value="Кубок Полтави"' in page and 'value="Europe/Kyiv"' in page
    row = Lexicon.objects.get(ruleset="uk")
    assert f'data-lexicon-status="{reverse("lexicon:status", args=[row.pk])}"' in page
    assert small_uk_package == ["uk"]  # built (on commit, as the worker does)
    row.refresh_from_db()
    assert row.status == Lexicon.Status.READY and row.word_count == len(WORDS) and row.options["source"] == "uk"
    # the lexicon is offered no more: it is in the list, and the tournament is created with it
    page = client.get(url).content.decode()
    assert 'name="build_lexicon" value="uk"' not in page and f'<option value="{row.pk}"' in page
    assert client.post(url, typed(row)).status_code == 302
    assert Tournament.objects.get().lexicon == row


def test_a_second_press_while_it_builds_starts_no_second_build(client, staff, lexicon_row, small_uk_package):
    client.force_login(staff)
    url = reverse("arbiter:tournament_create")
    client.post(url, typed(lexicon_row, build_lexicon="uk"))  # no worker in this test: it waits
    page = client.post(url, typed(lexicon_row, build_lexicon="uk")).content.decode()
    assert Lexicon.objects.filter(ruleset="uk").count() == 1 and "data-lexicon-status" in page


def test_only_staff_build_and_only_what_is_offered(client, alice, lexicon_row, small_uk_package):
    client.force_login(alice)  # not a staff member
    url = reverse("arbiter:tournament_create")
    page = client.get(url).content.decode()
    assert "No lexicon for the rule set uk — Українська yet." in text_of(page) and 'name="build_lexicon"' not in page
    response = client.post(url, typed(lexicon_row, build_lexicon="uk"))
    assert "Only staff members may add lexicons." in response.content.decode() and not Lexicon.objects.filter(
        ruleset="uk").exists()
    alice.is_staff = True
    alice.save()
    response = client.post(url, typed(lexicon_row, build_lexicon="en"))  # not an installed package's rule set
    assert "No lexicon to build from an installed package for «en»." in response.content.decode()
    assert Lexicon.objects.count() == 1 and small_uk_package == []
