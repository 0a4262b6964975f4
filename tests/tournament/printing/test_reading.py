"""What the printed documents read (:mod:`tournament.services.reading`) and that they read nothing else:
the player sheet's figures are those of the standings, the documents lay out their read models without a
query, the printing package holds no ORM call, a request whose round went away is refused."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

from tests.paths import ROOT
from tests.tools.world import PREPARED, run_round
from tests.tournament.printing.conftest import BASE_URL
from tests.tournament.printing.test_pdf import flat
from tournament import services
from tournament.models import Penalty, Round, Tournament
from tournament.printing import build as pdf
from tournament.printing import documents
from tournament.printing import spec as specs
from tournament.services import reading, standings

pytestmark = [pytest.mark.django_db]


def ru_percent(value: float) -> str:
    return f"{value:.2f}".replace(".", ",")


def ru_minus(n: int) -> str:
    return str(n).replace("-", "\u2212")


@pytest.fixture
def scored(alice, tournament, people, eager):
    """Game 1 with solos on and no free warning: Іван's 20 in round 1 is a solo (+10), every warning costs 5
    at the end of the game, and the arbiter fines Іван 3 points. Returns the finished game."""
    Tournament.objects.filter(pk=tournament.pk).update(solo_mode="on", free_warnings=0)
    tournament.refresh_from_db()
    ivan, lukasz, yolkin, jean = (reg for reg, _code in people)
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    r1 = run_round(alice, game, eager, {ivan: "H4 CARTS 20", lukasz: "CATS 12", yolkin: "ACT 11"})
    services.rounds.publish_round(alice, r1)
    r2 = run_round(alice, game, eager, {ivan: "4H CARDS 10", lukasz: "4H CaRDS 14", jean: "4H CaRDS 14"})
    services.rounds.publish_round(alice, r2)
    services.games.add_penalty(alice, game, ivan, points=3, reason="talking")
    services.games.finish_game(alice, game, why="time")
    game.refresh_from_db()
    return game


def test_the_player_sheet_shows_the_figures_of_the_standings(tournament, people, scored, tmp_path):
    ivan = people[0][0]
    row = next(r for r in standings.game_standings(scored) if r.registration.pk == ivan.pk)
    # the game really has a solo, a warning penalty and an arbiter's penalty for this player
    assert row.solos == 10 and row.warnings == 1 and row.penalties == 5 + 3
    kinds = set(Penalty.objects.filter(game=scored, registration=ivan).values_list("kind", flat=True))
    assert kinds == {Penalty.Kind.WARNINGS, Penalty.Kind.OTHER}
    assert (row.total, row.top_total) == (20 + 14 + 10 - 8, 34)

    sheet = reading.player_sheet(ivan)
    game, = sheet.games
    assert (game.line.total, game.line.top_total, game.line.percentage) == (row.total, row.top_total,
                                                                            row.percentage)
    assert (game.line.awarded, game.line.solos, game.line.penalties, game.line.deficit) == (
        row.awarded, row.solos, row.penalties, row.deficit)
    assert [r.awarded for r in game.rounds] == row.per_round and [r.solo for r in game.rounds] == [10, 0]
    overall = next(r for r in standings.tournament_standings(tournament) if r.registration.pk == ivan.pk)
    assert (sheet.overall.total, sheet.overall.top_total, sheet.overall.percentage) == (
        overall.total, overall.top_total, overall.percentage)

    # … and the printed sheet says so
    spec = specs.make_spec(tournament, "player-sheet", player=ivan.player_id)
    pdf.build(spec, out=tmp_path / "ivan.pdf")
    text = flat(tmp_path / "ivan.pdf")
    assert f"Итого за партию {row.total}" in text and f"Сумма топов {row.top_total}" in text
    assert f"Отставание от топа {ru_minus(row.deficit)}" in text and f"% {ru_percent(row.percentage)}" in text
    assert "Соло +10" in text and "соло +10" in text
    assert "штраф арбитра — talking −3" in text and "1 warnings, 0 free: 1 × 5 −5" in text
    assert f"Сумма {row.awarded} {row.top_total} {ru_minus(row.awarded - row.top_total)}" in text


def test_documents_lay_out_their_read_models_without_a_query(tournament, people, played,
                                                             django_assert_num_queries):
    info = reading.tournament_info(tournament)
    round_1 = played.rounds.get(number=1)
    papers = [
        documents.StandingsDocument(info, reading.standings_sheet(tournament, group_by="club"), group_by="club"),
        documents.StandingsDocument(info, reading.standings_sheet(tournament, game=played)),
        documents.GameSheetDocument(info, reading.game_sheet(played)),
        documents.PlayerSheetDocument(info, reading.player_sheet(people[1][0])),
        documents.ArbitrationDocument(info, reading.arbitration_sheet(round_1)),
        documents.SlipsDocument(info, [(s.table, s.name) for s in reading.seats(tournament)], game=1,
                                round_number=3),
        documents.AccessCardsDocument(info, [(reading.seat_of(people[2][0]), "ABCDEFGHIJ")], base_url=BASE_URL),
    ]
    with translation.override("ru"), django_assert_num_queries(0):
        texts = [flat(paper.build()) for paper in papers]
    assert "Клуб: Kraków" in texts[0] and "Łukasz Żółć" in texts[3] and "ABCDEFGHIJ" in texts[6]


ORM = re.compile(r"\.objects\b|\.(filter|exclude|select_related|prefetch_related|annotate|aggregate|values_list|"
                 r"order_by|bulk_create|get_or_create|update_or_create|refresh_from_db|delete)\(|(?<!Canvas)\.save\(|"
                 r"\.(registrations|games|rounds|slips|verdicts|solos|penalties)\.")


def test_printing_runs_no_query_of_its_own():
    folder = ROOT / "tournament" / "printing"
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path in sorted(Path(folder).rglob("*.py"))
             for n, line in enumerate(path.read_text().splitlines(), start=1) if ORM.search(line)]
    assert not found, "\n".join(found)


def test_the_game_sheet_reads_the_rounds_played_and_the_live_round(alice, tournament, people, eager):
    ivan, lukasz = people[0][0], people[1][0]
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    services.rounds.publish_round(alice, run_round(alice, game, eager, {ivan: "H4 CARTS 20"}))
    live = run_round(alice, game, eager, {lukasz: "4H CaRDS 14"})  # judged, not published
    game.refresh_from_db()
    sheet = reading.game_sheet(game)
    assert [(r.number, r.move, r.score, r.cumulative) for r in sheet.rounds] == [(1, "H4 CARTS", 20, 20),
                                                                                 (2, "", None, None)]
    assert (sheet.rounds[1].kept, sheet.rounds[1].drawn, sheet.rounds[1].status) == (live.leftover, live.drawn,
                                                                                      live.status)
    assert sheet.rounds[0].kept == "" and sheet.rounds[0].drawn == "CATSROE" and not sheet.finished
    arbitration = reading.arbitration_sheet(live)
    assert [(line.table, line.slip, line.flagged) for line in arbitration.lines] == [
        (1, "", True), (2, "4H CaRDS 14", False), (3, "", True), (4, "", True)]
    assert arbitration.lines[1].verdict is not None and arbitration.lines[1].verdict.awarded == 14


def test_a_request_names_rows_that_exist(alice, tournament, people, eager):
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    services.rounds.publish_round(alice, run_round(alice, game, eager, {people[0][0]: "H4 CARTS 20"}))
    live = run_round(alice, game, eager, {})
    found = reading.subjects(tournament.pk, game=1, round=2, player=people[3][0].player_id)
    assert (found.tournament, found.game, found.round, found.registration) == (tournament, game, live, people[3][0])
    missing = reading.subjects(tournament, game=9, round=1, player=99999)
    assert (missing.game, missing.round, missing.registration) == (None, None, None)
    assert reading.subjects(tournament, game=1, round=7).round is None
    # a round cancelled after the request was made: the build is refused, not failed
    spec = specs.make_spec(tournament, "arbitration", game=1, round=2)
    services.rounds.cancel_round(alice, live, why="wrong rack")
    assert Round.objects.get(pk=live.pk).status == Round.Status.CANCELLED
    assert reading.subjects(tournament, game=1, round=2).round is None
    with translation.override("en"), pytest.raises(specs.SpecError, match="Game 1 has no round 2"):
        pdf.build(spec)


def test_the_printing_page_and_the_cards_read_the_players_in_table_order(tournament, people, played, alice):
    menu = reading.print_menu(tournament)
    assert [g.number for g in menu.games] == [1] and menu.last_round == 2
    assert [r.table_number for r in menu.registrations] == [1, 2, 3, 4]
    assert [(s.table, s.name) for s in reading.seats(tournament)][:2] == [(1, "Іван Ґудзь"), (2, "Łukasz Żółć")]
    assert reading.card_registrations(tournament, people[2][0].player_id) == [people[2][0]]
    assert reading.requester(alice.pk) == alice and reading.requester(None) is None
