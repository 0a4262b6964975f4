"""Fixtures of the tournament tests: a small English lexicon, eager Celery, a tournament with players."""

from __future__ import annotations

import pytest

from scoring.rules import get_ruleset
from tests.paths import LEXICONS
from tests.tools.users import ARBITER, OTHER_ARBITER, PLAYERS, user
from tests.tools.wordlist_solver import WordListSolver

WORDLIST = LEXICONS / "judge-en.txt"
WORDS = frozenset(WORDLIST.read_text().split())
SIM_EN = LEXICONS / "sim-en.txt"
EN = get_ruleset("en")
#: A prepared game: round 1 rack, then round 2 (leftover + drawn).
PREPARED = ["CATSROE", "SOR+DEZ?"]


@pytest.fixture
def eager(settings, monkeypatch, django_capture_on_commit_callbacks):
    from tournament import services
    from tournament.celery import app

    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.BACKUP_SECONDS = 0  # no archive after each publication (tests/tournament/backup turn it on)
    saved = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    solver = WordListSolver(EN, WORDS)
    monkeypatch.setattr(services.solving, "round_tools", lambda tournament: (solver, WORDS))
    yield django_capture_on_commit_callbacks
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved


@pytest.fixture
def sim_eager(eager, monkeypatch):
    """Eager Celery with the compiled solver over the 3,000 English words of ``sim-en.txt``: whole games have
    moves to their end (the Joker game of seed 1 plays 28 rounds, as ``simulate --variant joker`` does)."""
    from lexicon.resolve import open_lexicon
    from scoring.solver import solver_for
    from tournament import services

    graph = open_lexicon(SIM_EN, "en")
    monkeypatch.setattr(services.solving, "round_tools",  # the board's rule set: a 7-among-8 game's racks of 8
                        lambda tournament: ((lambda board, rack: solver_for(board.ruleset, graph).solve(board, rack).moves), graph))
    return eager


@pytest.fixture
def alice(db):
    return user(ARBITER)


@pytest.fixture
def bob(db):
    return user(OTHER_ARBITER)


@pytest.fixture
def lexicon_row(db):
    from lexicon.models import Lexicon

    return Lexicon.objects.create(name="judge-en", ruleset="en", status=Lexicon.Status.READY, version=1,
                                  content_hash="0" * 64, file_path="none.kwg")


@pytest.fixture
def tournament(alice, lexicon_row):
    from tournament import services

    return services.tournaments.create_tournament(alice, name="Open de test", slug="open-test", ruleset="en",
                                      lexicon=lexicon_row, arbiters=[alice])


@pytest.fixture
def regs(tournament, alice):
    from tournament import services

    return [services.players.register_player(alice, tournament, name=n, club=c, category=cat, series=s)[0]
            for n, c, cat, s in PLAYERS]


def run_round(alice, game, eager, slips: dict, *, typed=None):
    """Draw, open, take slips {registration: text}, close (forced), judge; returns the round."""
    from tournament import services

    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game, typed_rack=typed)
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    for reg, text in slips.items():
        parts = text.split()
        score = int(parts[-1]) if parts[-1].isdigit() else None
        words = parts[:-1] if score is not None else parts
        coord, word = (words[0], words[1]) if len(words) == 2 else ("", words[0])
        services.slips.submit_slip(rnd, reg, word=word, coordinates=coord, score=score)
    services.rounds.close_round(rnd, alice, force=True)
    return services.judging.judge_round(rnd, alice)


def judged_first_round(alice, tournament, eager, slips: tuple[str, ...], names=("A", "B")):
    """Players ``names`` registered; round 1 of a new prepared game with ``slips`` of the first players, closed
    and judged. Returns (round, [(registration, access code), ...])."""
    from tournament import services

    players = [services.players.register_player(alice, tournament, name=n) for n in names]
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    rnd = run_round(alice, game, eager, {reg: text for (reg, _code), text in zip(players, slips, strict=False)})
    return rnd, players


def round_with_tablets(alice, tournament, eager, names) -> tuple:
    """Players ``names`` registered and logged in on tablets, round 1 of a new prepared game open:
    (round, [(registration, tablet token), ...])."""
    from tournament import services

    players = [services.players.register_player(alice, tournament, name=n) for n in names]
    tokens = [services.players.login(code)[1] for _reg, code in players]
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    with eager(execute=False):
        rnd = services.rounds.open_round(alice, rnd)
    return rnd, [(reg, token) for (reg, _code), token in zip(players, tokens, strict=True)]


@pytest.fixture
def fresh_slip_tokens():
    """The slips' batches forget the tablet tokens an earlier test's players had (same tokens, other rows)."""
    from tournament.services import slipbatch

    slipbatch.forget_tokens()
    yield
    slipbatch.forget_tokens()


@pytest.fixture
def local_cache(settings):
    """A private in-memory cache (rate limits, idempotency, state versions) emptied around each test (the
    process's live memos are emptied for every test: tests/conftest.py)."""
    from django.core.cache import cache

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "tests"}}
    cache.clear()
    yield
    cache.clear()


__all__ = ["alice", "bob", "eager", "fresh_slip_tokens", "lexicon_row", "local_cache", "regs", "round_with_tablets",
           "sim_eager", "tournament"]
