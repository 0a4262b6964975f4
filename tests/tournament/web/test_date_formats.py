"""One date format and one date-time format on every page (the localized ``labels.DATE_FORMAT`` and
``labels.DATETIME_FORMAT``), in the tournament's time zone."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format

from tests.tools.pagetext import visible_text
from tournament import labels, services
from tournament.models import Tournament

pytestmark = [pytest.mark.django_db]

#: Something that looks like a date: 2026-03-07, 07.03.2026, 07/03/2026, 07-03-2026.
DATE_LIKE = re.compile(r"\b\d{1,4}[./-]\d{1,2}[./-]\d{2,4}\b")


def shape(text: str) -> str:
    return re.sub(r"\d", "9", text)


@pytest.fixture
def dated(alice, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(starts_on=date(2026, 3, 7), ends_on=date(2026, 3, 9),
                                                       language="uk", time_zone="Europe/Kyiv")
    tournament.refresh_from_db()
    services.players.register_player(alice, tournament, name="A")
    tournament.lexicon.built_at = datetime(2026, 3, 7, 12, 0, tzinfo=UTC)
    tournament.lexicon.save()
    return tournament


def test_every_page_shows_dates_in_one_format(client, alice, dated):
    alice.is_staff = True
    alice.save()
    client.force_login(alice)
    slug = dated.slug
    with translation.override("uk"):
        day = date_format(date(2026, 3, 7), labels.DATE_FORMAT)
        moment = date_format(datetime(2026, 3, 7, 14, 5), labels.DATETIME_FORMAT)
    pages = [reverse("home"), reverse("arbiter:tournaments"), reverse("arbiter:tournament", args=[slug]),
             reverse("arbiter:audit", args=[slug]), reverse("lexicon:list") + f"?tournament={slug}",
             reverse("lexicon:detail", args=[dated.lexicon_id]) + f"?tournament={slug}"]
    seen = set()
    for url in pages:
        text = visible_text(client.get(url, HTTP_ACCEPT_LANGUAGE="uk").content.decode())
        assert not re.search(r"\b\d{4}-\d{2}-\d{2}\b", text), url  # no ISO date shown to people
        for found in DATE_LIKE.findall(text):
            assert shape(found) == shape(day), (url, found)
            seen.add(url)
    assert day in visible_text(client.get(reverse("arbiter:tournament", args=[slug])).content.decode())
    assert len(seen) >= 4
    # a moment: the day's format, then the time
    assert shape(moment).startswith(shape(day))
    audit = client.get(reverse("arbiter:audit", args=[slug])).content.decode()
    whens = re.findall(r'<td class="small when">([^<]*)</td>', audit)
    assert whens and all(shape(w) == shape(moment) for w in whens)


def test_lexicon_pages_show_times_in_the_zone_of_the_tournament_the_arbiter_comes_from(client, alice, dated):
    client.force_login(alice)
    url = reverse("lexicon:detail", args=[dated.lexicon_id])
    with translation.override("uk"):
        kyiv = date_format(datetime(2026, 3, 7, 14, 0), labels.DATETIME_FORMAT)  # 12:00 UTC in Kyiv
    assert kyiv in visible_text(client.get(url + f"?tournament={dated.slug}").content.decode())


def test_the_filters_use_the_tournaments_zone():
    moment = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    template = Template("{% load duplicate %}{{ when|moment }}|{{ day|day }}|{{ none|moment }}")
    with translation.override("uk"), timezone.override("Asia/Tokyo"):
        assert template.render(Context({"when": moment, "day": date(2026, 3, 1), "none": None})) == (
            "01.03.2026 21:00|01.03.2026|")


@pytest.mark.parametrize(("language", "shown", "typed", "placeholder"), [
    ("uk", "07.03.2026", "08.03.2026", "ДД.ММ.РРРР"), ("ru", "07.03.2026", "08.03.2026", "ДД.ММ.ГГГГ"),
    ("pl", "07-03-2026", "08-03-2026", "DD-MM-RRRR"), ("fr", "07/03/2026", "08/03/2026", "JJ/MM/AAAA"),
    ("en", "03/07/2026", "03/08/2026", "MM/DD/YYYY"),
])
def test_the_tournament_form_takes_days_as_its_pages_write_them(client, alice, dated, language, shown, typed,
                                                                placeholder):
    """No browser date picker (it follows the device's language): the day is shown and typed as the page's
    language writes it, whatever the browser's; ISO is taken too."""
    client.force_login(alice)
    client.cookies["django_language"] = language
    url = reverse("arbiter:settings", args=[dated.slug])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en-US").content.decode()
    field = re.search(r'<input[^>]*name="starts_on"[^>]*>', page).group(0)
    assert 'type="text"' in field and f'value="{shown}"' in field and f'placeholder="{placeholder}"' in field
    from tournament.console.forms import TournamentForm

    with translation.override(language):
        data = TournamentForm(instance=dated).initial | {"starts_on": typed, "ends_on": "2026-03-09"}
        form = TournamentForm(data, instance=dated)
        form.is_valid()
        assert "starts_on" not in form.errors and form.cleaned_data["starts_on"] == date(2026, 3, 8)
        assert form.cleaned_data["ends_on"] == date(2026, 3, 9)
