"""The training tests' world: a finished game of a tournament, played by three players."""

from __future__ import annotations

import pytest

from tests.tools.wordlist_solver import WordListSolver
from tests.tools.world import EN, WORDS, run_round

#: Round 1 and round 2 racks; the top of round 1 is H4 CARTS (20), of round 2 4H CaRDS (14).
RACKS = ["CATSROE", "OE+DRSZ?"]
#: Each player's slips, round by round: right, wrong score, other place, nothing.
SLIPS = {
    "Anna": ["H4 CARTS 20", "4H CaRDS 14"],
    "Boris": ["H8 CARTS 16", "5G ZAS 99"],
    "Clara": ["CARTS 20", None],
}


@pytest.fixture
def training_tools(monkeypatch):
    """The imported games' lexicon: the small English word list (a tournament game's is the eager fixture's)."""
    from tournament.training import services

    solver = WordListSolver(EN, WORDS)
    monkeypatch.setattr(services, "lexicon_tools", lambda game: (solver, WORDS))
    return solver


@pytest.fixture
def finished_game(alice, tournament, eager, training_tools):
    """A finished two-round game of the tournament; returns (game, {name: registration})."""
    from tournament import services

    regs = {name: services.players.register_player(alice, tournament, name=name)[0] for name in SLIPS}
    game = services.games.create_game(alice, tournament, prepared_racks=RACKS)
    for i in range(2):
        slips = {regs[name]: texts[i] for name, texts in SLIPS.items() if texts[i]}
        rnd = run_round(alice, game, eager, slips)
        services.rounds.publish_round(alice, rnd)
    services.games.finish_game(alice, game, why="prepared racks used up")
    game.refresh_from_db()
    return game, regs
