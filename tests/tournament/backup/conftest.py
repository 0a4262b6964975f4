"""The backup tests' world: a tournament played halfway on a real (compiled) lexicon, another finished and
trained on, pages in English."""

from __future__ import annotations

import pytest
from django.utils import translation

from lexicon import services as lexicon_services
from scoring.judge import SlipParts
from tests.tools.world import PREPARED, WORDLIST, run_round
from tournament import services
from tournament.models import Game, TrainingGame
from tournament.training import clubs as training_clubs
from tournament.training import services as training


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def real_lexicon(settings, tmp_path):
    settings.LEXICON_DIR = tmp_path / "lexicons"
    return lexicon_services.import_wordlist("judge-en", "en", WORDLIST)


@pytest.fixture
def played(alice, real_lexicon, eager):
    """A tournament of three players: round 1 published, round 2 open with a slip in; a tablet logged in."""
    t = services.tournaments.create_tournament(alice, name="Open de sauvegarde", slug="backup-open", ruleset="en",
                                               lexicon=real_lexicon, arbiters=[alice])
    players = [services.players.register_player(alice, t, name=n) for n in ("Anna", "Boris", "Chloé")]
    regs = [reg for reg, _code in players]
    game = services.games.create_game(alice, t, prepared_racks=PREPARED)
    rnd = run_round(alice, game, eager, {regs[0]: "H4 CARTS 20", regs[1]: "H4 CAT 10"})
    with eager(execute=True):
        services.rounds.publish_round(alice, rnd)
    with eager(execute=True):
        rnd2 = services.rounds.draw_round(alice, game)
    with eager(execute=False):
        services.rounds.open_round(alice, rnd2)
    reg, token = services.players.login(players[2][1])
    services.slips.submit_slip(rnd2, reg, word="DOZERS", coordinates="5E", score=None)
    return t, players, token


@pytest.fixture
def trained(alice, real_lexicon, eager):
    """A tournament whose one-round game is finished; its training game with a run that played round 1 and a
    club session of two; an imported training game with a run of its own."""
    t = services.tournaments.create_tournament(alice, name="Open", slug="trained", ruleset="en",
                                               lexicon=real_lexicon, arbiters=[alice])
    reg, _code = services.players.register_player(alice, t, name="Anna")
    game = services.games.create_game(alice, t, prepared_racks=PREPARED[:1])
    rnd = run_round(alice, game, eager, {reg: "H4 CARTS 20"})
    with eager(execute=True):
        services.rounds.publish_round(alice, rnd)
    game.refresh_from_db()
    if game.status != Game.Status.FINISHED:
        services.games.finish_game(alice, game, why="prepared racks used up")
        game.refresh_from_db()
    tg = training.from_tournament_game(game)
    dora = training.next_round(training.start_run(tg, "Dora"))
    training.hand_in(dora, SlipParts("CARTS", "H4", 20))
    club = training_clubs.open_club(tg, "Club des lettres")
    for name in ("Eve", "Fay"):
        training_clubs.join(club, name)
    training_clubs.start_round(club)
    imported = TrainingGame.objects.create(title="A record", ruleset="en", lexicon=real_lexicon, rounds=tg.rounds,
                                           language="fr")
    training.start_run(imported, "Gus")
    return t, tg, imported
