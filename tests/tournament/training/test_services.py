"""Training services: a tournament game and imported records replayed, judged as the tournament judged them,
the results against the top and against the players who played it live; bad records create nothing."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone, translation

from scoring import sheet
from scoring.game import DuplicateGame
from scoring.judge import SlipParts
from scoring.records import dumps, game_to_gcg
from scoring.training import read_gcg, training_rounds
from tests.conftest import SHARED
from tests.tools.world import EN
from tournament.models import Game, Round, Slip, TrainingGame, Verdict
from tournament.training import services

pytestmark = pytest.mark.django_db


def _play(run, slips, *, late_by: int | None = None):
    """Plays every round of a run with ``slips`` (None: the clock runs out)."""
    for text in slips:
        run = services.next_round(run)
        now = None
        if late_by is not None:
            now = run.started_at + timedelta(seconds=run.game.seconds_per_move + late_by)
        services.hand_in(run, text, now=now)
        run.refresh_from_db()
    return run


def test_a_tournament_game_is_taken_once_from_its_published_rounds(finished_game):
    game, _regs = finished_game
    tg = services.from_tournament_game(game)
    assert services.from_tournament_game(game) == tg and TrainingGame.objects.count() == 1
    rounds = list(game.rounds.filter(status=Round.Status.PUBLISHED).order_by("number"))
    assert [(r["round"], r["rack"], r["board_before"], r["top"], r["score"]) for r in tg.rounds] == [
        (r.number, r.rack, r.board_before, r.chosen_move, r.chosen_score) for r in rounds
    ]
    assert tg.rounds[0]["top"] == "H4 CARTS" and tg.top_total == 34
    assert (tg.lexicon, tg.ruleset, tg.seconds_per_move) == (game.tournament.lexicon, "en", 180)


def test_a_game_not_finished_is_refused(alice, tournament, eager):
    from tournament import services as tournament_services

    game = tournament_services.games.create_game(alice, tournament, prepared_racks=["CATSROE"])
    with pytest.raises(services.TrainingError):
        services.from_tournament_game(game)
    assert not TrainingGame.objects.exists()


def test_the_same_slips_get_the_tournaments_verdicts_and_no_tournament_row_changes(finished_game):
    game, regs = finished_game
    tg = services.from_tournament_game(game)
    counts = (Slip.objects.count(), Verdict.objects.count(), Round.objects.count())
    state = Game.objects.get(pk=game.pk).state
    for name, reg in regs.items():
        slips = []
        for rnd in game.rounds.order_by("number"):
            slip = Slip.objects.filter(round=rnd, registration=reg, is_current=True).first()
            slips.append(
                None if slip is None else SlipParts(slip.word, slip.coordinates or None, slip.announced_score)
            )
        run = _play(services.start_run(tg, name), slips)
        verdicts = Verdict.objects.filter(registration=reg).order_by("round__number")
        assert [(r["awarded"], r["warning"], r["reason"], r["move"]) for r in run.results] == [
            (v.awarded, v.warning, v.reason, v.move) for v in verdicts
        ], name
    assert (Slip.objects.count(), Verdict.objects.count(), Round.objects.count()) == counts
    assert Game.objects.get(pk=game.pk).state == state


def test_results_percentage_and_would_be_rank_among_the_live_players(finished_game):
    game, _regs = finished_game
    tg = services.from_tournament_game(game)
    live = services.live_totals(tg)
    assert len(live) == 3 and live == sorted(live, reverse=True) and live[0] == 34  # Anna played both tops
    run = _play(services.start_run(tg, "Dora"), [SlipParts("CARTS", "H4", 20), None])
    score = services.score(run)
    assert (score.total, score.top_total, score.deficit) == (20, 34, -14)
    assert score.percentage == sheet.percentage(20, 34) == 58.82
    assert services.is_finished(run)
    compared = services.comparison(run)
    assert compared is not None
    assert compared.players == 3 and compared.rank == 1 + sum(1 for t in live if t > 20)
    assert compared.best_total == 34 and compared.percentage_of_best == 58.82


def test_equal_totals_share_the_would_be_rank():
    assert services.compare(50, [60, 50, 50, 40]) == services.Comparison(4, 2, 60, 83.33)
    assert services.compare(70, [60]).rank == 1 and services.compare(10, []) is None


def test_a_slip_after_the_clock_counts_as_missing(finished_game):
    game, _regs = finished_game
    tg = services.from_tournament_game(game)
    run = _play(
        services.start_run(tg, "Eve"), [SlipParts("CARTS", "H4", 20)], late_by=services.GRACE_SECONDS + 1
    )
    assert (run.results[0]["awarded"], run.results[0]["reason"], run.results[0]["late"]) == (0, "late", True)
    on_time = _play(
        services.start_run(tg, "Fay"), [SlipParts("CARTS", "H4", 20)], late_by=services.GRACE_SECONDS - 1
    )
    assert on_time.results[0]["awarded"] == 20


def test_rounds_start_when_asked_and_a_slip_needs_a_round(finished_game):
    game, _regs = finished_game
    run = services.start_run(services.from_tournament_game(game), "  Gil  ")
    assert run.name == "Gil" and len(run.code) == 8 and services.run_for_code(run.code.lower()) == run
    with pytest.raises(services.TrainingError):
        services.hand_in(run, None)
    run = services.next_round(run)
    with pytest.raises(services.TrainingError):
        services.next_round(run)
    assert services.deadline(run) == run.started_at + timedelta(seconds=180)
    result = services.hand_in(run, None)
    assert (result["awarded"], result["reason"], result["top_score"]) == (0, "no_slip", 20)
    assert [m["move"] for m in result["best"]][:1] == ["H4 CARTS"] and len(
        result["best"]
    ) <= services.BEST_MOVES
    with pytest.raises(services.TrainingError):
        services.start_run(run.game, " ")


def _engine_game(training_tools, seed: int = 3) -> DuplicateGame:
    game = DuplicateGame(EN, seed)
    for _ in range(4):
        game.play_round(training_tools)
    return game


def test_an_imported_json_record_is_replayed_and_judged(lexicon_row, training_tools):
    game = _engine_game(training_tools)
    tg = services.import_record(
        text=dumps(game), lexicon=lexicon_row, seconds_per_move=120, title="", language="uk"
    )
    assert tg.rounds == training_rounds(game) and len(tg.rounds) == 4 and tg.source_game is None
    assert tg.coordinate_script == "latin" and tg.seconds_per_move == 120 and "4" in tg.title
    tops = [SlipParts(r["top"].split()[1], r["top"].split()[0], r["score"]) for r in tg.rounds]
    run = _play(services.start_run(tg, "Hal"), tops)
    assert [r["awarded"] for r in run.results] == [r["score"] for r in tg.rounds]
    assert services.score(run).percentage == 100.0 and services.comparison(run) is None


def test_an_imported_gcg_record_gives_the_same_rounds(lexicon_row, training_tools):
    game = _engine_game(training_tools, seed=5)
    tg = services.import_record(
        text=game_to_gcg(game), lexicon=lexicon_row, seconds_per_move=180, title="Club", language="ru"
    )
    assert tg.title == "Club"
    assert [(r["board_before"], r["top"], r["score"], sorted(r["rack"])) for r in tg.rounds] == [
        (r["board_before"], r["top"], r["score"], sorted(r["rack"])) for r in training_rounds(game)
    ]
    assert training_rounds(read_gcg(game_to_gcg(game))) == tg.rounds


BAD = [
    ("", "empty"),
    ("{not json", "JSON"),
    ("hello", "neither"),
    (
        '{"seed": 1, "ruleset": "en", "rounds": [{"round": 1, "leftover": "", "drawn": "ZZZZZZZ", "rack": "ZZZZZZZ", '
        '"redraws": 0, "top": {"move": "H8 ZZZ", "score": 30}, "bag_after": 93}], "total": 30}',
        "Round 1",
    ),
    ("#player1 A A\n#player2 B B\n>A: AEINRST 8H STAINER +66 66\n>B: AEINRST 9H AE +5 5\n", "two players"),
    ('{"seed": 1, "ruleset": "ru", "rounds": [], "total": 0, "end_reason": "no_move"}', "rule set"),
]


@pytest.mark.parametrize(("text", "said"), BAD)
def test_a_bad_record_is_refused_with_its_reason_and_creates_nothing(lexicon_row, text, said):
    with translation.override("en"), pytest.raises(services.TrainingError) as exc:
        services.import_record(text=text, lexicon=lexicon_row, seconds_per_move=180, title="", language="en")
    assert said in str(exc.value)
    assert not TrainingGame.objects.exists()


def test_a_real_two_player_gcg_is_refused(lexicon_row):
    path = SHARED / "records/en/woogles-io_liwords/pkg/stats/testdata/josh_nationals_round_29.gcg"
    if not Path(path).exists():  # pragma: no cover
        pytest.skip("the shared records are not here")
    with translation.override("en"), pytest.raises(services.TrainingError, match="two players"):
        services.import_record(
            text=path.read_text(encoding="utf-8"),
            lexicon=lexicon_row,
            seconds_per_move=180,
            title="",
            language="en",
        )


def test_the_board_shown_after_the_last_round_holds_the_last_top(finished_game):
    game, _regs = finished_game
    run = _play(services.start_run(services.from_tournament_game(game), "Ida"), [None, None])
    fen = services.board_before_next(run)
    assert fen != run.game.rounds[-1]["board_before"] and fen.count("a") == 1  # CaRDS: the blank as A
    assert timezone.now() > run.created_at
