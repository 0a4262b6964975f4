"""The rehearsal's hall: a tournament of one hall (its rule set, language, zone and row letters), three
players (two tablets, one paper slip), the compiled solver over the hall's 3,000 words, and racks chosen so that
the play meets every state: a first rack redrawn by the computer, a rack typed by the arbiter from the bag, racks
with a move to play.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from lexicon.resolve import open_lexicon
from scoring.draw import check_rack
from scoring.game import DuplicateGame
from scoring.rules import get_ruleset
from scoring.solver import solver_for
from tournament import gamestate, services
from tournament.models import Game, Registration, Round, Tournament

from .stage import SERVER_ZONE, HallSpec


@dataclass
class World:
    spec: HallSpec
    tournament: Tournament
    arbiter: Any
    password: str
    regs: list[Registration]
    codes: list[str]
    solve: Any

    @property
    def slug(self) -> str:
        return self.tournament.slug

    def moves(self, board: Any, rack: list[str]) -> list[Any]:
        return self.solve(board, rack)


def build(spec: HallSpec, arbiter: Any, monkeypatch: Any, settings: Any) -> World:
    """The tournament, its players and the solver (tasks run eagerly in the live server's thread)."""
    from lexicon.models import Lexicon

    settings.TIME_ZONE = SERVER_ZONE
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.BACKUP_SECONDS = 0
    ruleset = get_ruleset(spec.language)
    graph = open_lexicon(spec.words, ruleset.id)

    def solve(board: Any, rack: list[str]) -> list[Any]:  # the board's rule set: a 7-among-8 game's racks of 8
        return solver_for(board.ruleset, graph).solve(board, rack).moves

    monkeypatch.setattr(services.solving, "round_tools", lambda tournament: (solve, graph))
    lexicon = Lexicon.objects.create(name=f"sim-{spec.language}", ruleset=ruleset.id, status=Lexicon.Status.READY,
                                     version=1, content_hash="2" * 64, file_path=f"sim-{spec.language}.kwg")
    t = services.tournaments.create_tournament(arbiter, name=spec.name, slug=f"rehearsal-{spec.language}",
                                               ruleset=ruleset.id, lexicon=lexicon, language=spec.language,
                                               arbiters=[arbiter], venue=spec.venue, time_zone=spec.zone)
    assert t.coordinate_script == ("cyrillic" if spec.language in ("ru", "uk") else "latin")
    password = "репетиція-2026"
    arbiter.set_password(password)
    arbiter.save()
    regs, codes = [], []
    for name in spec.players:
        reg, code = services.players.register_player(arbiter, t, name=name, club=spec.club)
        regs.append(reg)
        codes.append(code)
    return World(spec, t, arbiter, password, regs, codes, solve)


def redrawn_seed(spec: HallSpec, solve: Any, variant: str = "classic") -> int:
    """A bag whose first rack the computer redraws (too few vowels or consonants) and whose valid rack has a move:
    the tablets show the redraw (RULES §4)."""
    for seed in range(1, 2000):
        game = DuplicateGame(spec.language, seed, variant=variant)
        outcome = game.draw()
        if game.redraws and outcome.rack is not None and solve(game.board, list(outcome.rack)):
            return seed
    raise AssertionError("no bag of 2,000 redraws its first rack")


def playable_seed(spec: HallSpec, solve: Any, variant: str) -> int:
    """A bag whose first rack has a move (a 7-among-8 or topping game of a few rounds)."""
    for seed in range(1, 500):
        game = DuplicateGame(spec.language, seed, variant=variant)
        outcome = game.draw()
        if outcome.rack is not None and solve(game.board, list(outcome.rack)):
            return seed
    raise AssertionError("no bag of 500 has a first rack with a move")


def rack_to_type(game: Game, solve: Any) -> str:
    """Tiles the arbiter 'draws from the bag' for the game's next round: with the leftover, a valid rack that has
    a move on the board (the tiles typed, without the leftover, in the bag's letters)."""
    game.refresh_from_db()
    engine = gamestate.load(game)
    leftover, bag = list(engine.leftover), engine.bag.tiles()
    need = engine.ruleset.rack_size - len(leftover)
    rng = random.Random(7)
    for _ in range(5000):
        drawn = rng.sample(bag, need)
        if "?" in drawn:
            continue
        rack = leftover + drawn
        if check_rack(engine.ruleset, rack, engine.round_no).valid and solve(engine.board, rack):
            return "".join(drawn)
    raise AssertionError("no rack with a move could be taken from the bag")


def current(game: Game) -> Round:
    return game.rounds.exclude(status=Round.Status.CANCELLED).order_by("-number", "-id").first()


def top_move(rnd: Round) -> tuple[str, str, int]:
    """The round's top as (stored coordinate, word, score)."""
    rnd.refresh_from_db()
    top = rnd.top_moves[0]
    coord, word = top["move"].split(" ", 1)
    return coord, word, int(top["score"])


def lesser_move(rnd: Round, solve: Any) -> tuple[str, str, int] | None:
    """A legal move of the round that scores less than its top (a topping attempt that is not the top)."""
    from scoring.game import move_text  # noqa: PLC0415 (only the topping rehearsal needs it)

    best = top_move(rnd)[2]
    for move in solve(services.solving.board_of(rnd), list(rnd.rack)):
        if move.score < best:
            coord, word = move_text(move).split(" ", 1)
            return coord, word, move.score
    return None
