"""The review page (issue 14, bug 2 and the big hall): every judged round of a game, published ones
included (``?round=<n>``), filtered, paged, one table at a time; a correction of a published round
recomputes totals, solos, warning penalties, ranks, PDFs and screens, and is audited."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tools.world import PREPARED, run_round
from tournament import services
from tournament.console.review import PAGE_SIZE
from tournament.models import AuditLog, Penalty, Solo, Tournament, Verdict
from tournament.services import fingerprints

from .bighall import bulk_players, bulk_slips

COORD_LETTER = re.compile(r'<span class="coord-letter">([^<]*)</span>')


def visible(response) -> str:
    """A page's HTML with the letters of coordinates unmarked (З8 reads as written)."""
    return COORD_LETTER.sub(r"\1", response.content.decode())


pytestmark = [pytest.mark.django_db]


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


def review_url(t, **query) -> str:
    url = reverse("arbiter:review", args=[t.slug, 1])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def forms_on(html: str) -> int:
    return len(re.findall(r'<form method="post" action="/arbiter/t/[^"]+/verdicts/\d+/override/"', html))


# -- a hall of 1,000 -----------------------------------------------------------------------------------------


@pytest.fixture
def big_round(alice, tournament, eager):
    """1,000 players, round 1 judged: 300 right (tables 1–300), 200 with a wrong score (301–500),
    100 zeros: a word not in the lexicon (501–600), and 400 without a slip (601–1000)."""
    regs = bulk_players(tournament, 1000)
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    bulk_slips(rnd, regs[:300], "CARTS", "H4", 20)
    bulk_slips(rnd, regs[300:500], "CARTS", "H4", 25)
    bulk_slips(rnd, regs[500:600], "TSAC", "H4", 20)
    services.rounds.close_round(rnd, alice, force=True)
    return services.judging.judge_round(rnd, alice)


def test_the_review_of_1000_verdicts_is_filtered_paged_and_jumps_to_a_table(
        client, alice, tournament, big_round, django_assert_max_num_queries):
    client.force_login(alice)
    with django_assert_max_num_queries(30):
        html = visible(client.get(review_url(tournament)))
    assert forms_on(html) == PAGE_SIZE < 1000  # not a wall of 1,000 forms
    assert "Verdicts 1–100 of 1000" in html and html.count('class="pager') == 1
    tabs = dict(re.findall(r'<a href="[^"]*"[^>]*>([^<]+) <span class="count">(\d+)</span>', html))
    assert tabs == {"All": "1000", "Needs attention": "700", "Warnings": "200", "Zeros": "100",
                    "Overridden": "0", "No slip": "400"}, tabs

    noslip = visible(client.get(review_url(tournament, show="no" + "slip")))
    tables = [int(n) for n in re.findall(r'<tr id="v\d+"[^>]*>\s*<td class="num">(\d+)</td>', noslip)]
    assert tables == list(range(601, 701))  # the first page of 400
    last = visible(client.get(review_url(tournament, show="noslip", page=4)))
    assert re.findall(r'<tr id="v\d+"[^>]*>\s*<td class="num">(\d+)</td>', last)[-1] == "1000"
    zeros = visible(client.get(review_url(tournament, show="zeros")))
    assert "H4 TSAC 20" in zeros and "H4 CARTS 2" not in zeros

    one = visible(client.get(review_url(tournament, table=777)))
    assert re.findall(r'<tr id="v\d+"[^>]*>\s*<td class="num">(\d+)</td>', one) == ["777"]
    assert forms_on(one) == 1 and '<details class="fix" open>' in one
    assert "No verdict for table 5000" in visible(client.get(review_url(tournament, table=5000)))
    assert forms_on(visible(client.get(review_url(tournament, show="bogus")))) == PAGE_SIZE


# -- every round, after publication ---------------------------------------------------------------------------


@pytest.fixture
def two_published(alice, tournament, regs, eager):
    """Solos on; round 1 (Иван H4 CARTS 20, a solo; Ołena CAST 12: not a word, 0) and round 2 (both 14, Иван with
    a warning) published."""
    Tournament.objects.filter(pk=tournament.pk).update(solo_mode="on")
    tournament.refresh_from_db()
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    r1 = run_round(alice, game, eager, {regs[0]: "H4 CARTS 20", regs[1]: "CAST 12"})
    services.rounds.publish_round(alice, r1)
    r2 = run_round(alice, game, eager, {regs[0]: "4H CARDS 10", regs[1]: "4H CaRDS 14"})
    services.rounds.publish_round(alice, r2)
    game.refresh_from_db()
    return game, r1, r2


def standing(game, reg):
    return next(s for s in services.standings.game_standings(game) if s.registration.pk == reg.pk)


def test_an_earlier_published_round_is_reviewed_and_corrected_from_the_page(
        client, alice, tournament, regs, two_published):
    game, r1, r2 = two_published
    client.force_login(alice)
    current = visible(client.get(review_url(tournament)))
    assert "Round 2" in current and "4H CARDS 10" in current
    assert re.search(r'<option value="1">1 · published</option>\s*<option value="2" selected>', current)
    game_page = visible(client.get(reverse("arbiter:game", args=[tournament.slug, 1])))
    assert f'href="{review_url(tournament, round=1)}"' in game_page  # the rounds list leads to each review
    html = visible(client.get(review_url(tournament, round=1)))
    assert "<h1>Review · Round 1" in html and "H4 CARTS 20" in html and "4H CARDS" not in html
    assert "This round is published" in html
    assert forms_on(html) == len(regs)  # correctable after publication

    ivan, olena = standing(game, regs[0]), standing(game, regs[1])
    assert (ivan.total, ivan.solos, ivan.rank, olena.total, olena.rank) == (20 + 14 + 10, 10, 1, 0 + 14, 2)
    version = Tournament.objects.get(pk=tournament.pk).screen_version
    pdf_before = fingerprints.fingerprint("standings", "", tournament)
    verdict = Verdict.objects.get(round=r1, registration=regs[1])
    response = client.post(reverse("arbiter:override", args=[tournament.slug, verdict.pk]), {
        f"v{verdict.pk}-awarded": 30, f"v{verdict.pk}-why": "slip misread: H4 CARTS", "back": "round=2&show=warnings"})
    assert response.status_code == 302
    assert response.url == review_url(tournament, round=1, show="warnings") + f"#v{verdict.pk}"

    verdict.refresh_from_db()
    assert (verdict.awarded, verdict.automatic, verdict.override_reason) == (30, False, "slip misread: H4 CARTS")
    ivan, olena = standing(game, regs[0]), standing(game, regs[1])
    assert (olena.total, olena.solos, olena.rank) == (30 + 10 + 14, 10, 1)  # the solo moved to her
    assert (ivan.total, ivan.solos, ivan.rank) == (20 + 14, 0, 2)
    assert list(Solo.objects.filter(round=r1).values_list("registration_id", flat=True)) == [regs[1].pk]
    row = AuditLog.objects.filter(action="verdict.override").latest("pk")
    assert (row.before["awarded"], row.after["awarded"], row.after["round"], row.after["table"]) == (0, 30, 1, 2)
    assert row.after["why"] == "slip misread: H4 CARTS" and row.actor == alice
    assert Tournament.objects.get(pk=tournament.pk).screen_version > version  # the screens fetch again
    assert fingerprints.fingerprint("standings", "", tournament) != pdf_before  # the standings PDF is built again
    after = client.get(response.url.split("#")[0]).content.decode()  # the filter kept, the change told
    assert "Round 1, table 2: the verdict is changed" in after and '<span class="count">1</span>' in after
    assert "slip misread: H4 CARTS" in visible(client.get(review_url(tournament, round=1, table=2)))


def test_a_correction_after_the_game_ended_recomputes_the_warning_penalties(alice, tournament, regs, two_published):
    game, r1, r2 = two_published
    Tournament.objects.filter(pk=tournament.pk).update(free_warnings=0, warning_penalty=5)
    services.games.finish_game(alice, game, why="prepared racks used up")
    before = list(Penalty.objects.filter(game=game, registration=regs[0]).values_list("points", flat=True))
    verdict = Verdict.objects.get(round=r1, registration=regs[0])
    services.judging.override_verdict(alice, verdict, awarded=20, warning=True, why="spoke during the round")
    after = list(Penalty.objects.filter(game=game, registration=regs[0], kind=Penalty.Kind.WARNINGS)
                 .values_list("points", flat=True))
    assert sum(after) == sum(before) + 5
    game.refresh_from_db()
    assert standing(game, regs[0]).penalties == sum(after)


def test_unknown_round_is_404_and_a_round_without_verdicts_is_shown_as_such(client, alice, tournament, regs, eager):
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    r1 = run_round(alice, game, eager, {regs[0]: "H4 CARTS 20"})
    services.rounds.publish_round(alice, r1)
    with eager(execute=True):
        services.rounds.draw_round(alice, game)
    client.force_login(alice)
    assert client.get(review_url(tournament, round=9)).status_code == 404
    html = visible(client.get(review_url(tournament, round="x")))  # not a number: the current round
    assert re.search(r'<option value="2" selected>2 · drawn</option>', html) and "No verdict yet" in html
    assert forms_on(visible(client.get(review_url(tournament, round=1)))) == 4


# -- the standings of 1,000, searched ----------------------------------------------------------------------------


def standings_tables(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<tr data-table="(\d+)"', html)]


def test_the_standings_of_1000_are_searched_by_name_table_or_club(client, alice, tournament):
    bulk_players(tournament, 1000)
    client.force_login(alice)
    url = reverse("arbiter:standings", args=[tournament.slug])
    everyone = client.get(url).content.decode()
    assert len(standings_tables(everyone)) == 1000 and 'id="standings-q"' in everyone
    assert standings_tables(client.get(url + "?q=777").content.decode()) == [777]  # a table, not 1777 nor 7770
    by_name = client.get(url, {"q": "  гравець   0042 "}).content.decode()
    assert standings_tables(by_name) == [42] and "1 of 1000 players" in by_name
    assert len(standings_tables(client.get(url, {"q": "ЛЬВІВ"}).content.decode())) == 200  # a club, any case
    grouped = client.get(url, {"q": "Одеса", "by": "club"}).content.decode()
    assert len(standings_tables(grouped)) == 200 and grouped.count("<h2>") == 1
    assert "No player matches “Nobody”." in client.get(url, {"q": "Nobody"}).content.decode()


def test_the_api_override_of_a_published_round_reaches_the_public_standings(alice, tournament, regs, two_published):
    game, r1, r2 = two_published
    api = APIClient()
    api.force_authenticate(alice)
    public = reverse("api:public-game-standings", args=[tournament.slug, 1])
    rows = {r["table"]: r for r in APIClient().get(public).json()["rows"]}
    verdict = Verdict.objects.get(round=r1, registration=regs[1])
    response = api.post(reverse("api:arbiter-verdict-override", args=[verdict.pk]),
                        {"awarded": 30, "warning": False, "why": "slip misread"}, format="json")
    assert response.status_code == 200, response.content
    after = {r["table"]: r for r in APIClient().get(public).json()["rows"]}
    assert after[2]["total"] == rows[2]["total"] + 30 + 10 and (after[2]["rank"], after[1]["rank"]) == (1, 2)
