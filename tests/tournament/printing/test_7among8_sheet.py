"""The papers of a 7-among-8 game: the game sheet names the variant, says its rule and prints racks of 8; the
arbitration sheet prints its rack of 8; the player sheet prints a slip of 7 of the 8 letters (0: no word, off the
centre; a slip of 8 tiles is refused at the door, ``tests/tournament/services/test_slip_tiles.py``); the blank slips
are those of any game."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.tournament.printing.test_pdf import build, flat, render
from tournament import services
from tournament.services import reading

pytestmark = [pytest.mark.django_db]


def _play(alice, game, sim_eager, rounds: int, reg=None) -> None:
    for _n in range(rounds):
        with sim_eager(execute=True):
            rnd = services.rounds.draw_round(alice, game)
        with sim_eager(execute=False):
            services.rounds.open_round(alice, rnd)
        if reg is not None:  # the player hands in 7 tiles of the 8 as a word: 0
            services.slips.submit_slip(rnd, reg, word=rnd.rack[:7], coordinates="H1", score=99)
        services.rounds.close_round(rnd, alice, force=True)
        services.judging.judge_round(rnd, alice)
        services.rounds.publish_round(alice, rnd)


def test_game_sheet_and_arbitration_print_racks_of_eight(alice, tournament, sim_eager, tmp_path):
    tournament.language = "en"
    tournament.save()
    reg, _code = services.players.register_player(alice, tournament, name="Anne Huit")
    game = services.games.create_game(alice, tournament, seed=1, variant="7among8")
    _play(alice, game, sim_eager, 3, reg)
    game.refresh_from_db()
    sheet = reading.game_sheet(game)
    assert sheet.variant == "7among8"
    assert all(len(r.kept) + len(r.drawn) == 8 for r in sheet.rounds)
    rows = flat(build(tournament, "game-sheet", tmp_path, game=1))
    assert "Game 1 · Variant: 7-among-8 · Rounds: 3" in rows
    assert "7-among-8 game: racks of 8 tiles; a move places at most 7 of them" in rows
    first = sheet.rounds[0]
    assert f"1 {first.drawn} " in rows and len(first.drawn) == 8  # round 1: the 8 tiles drawn
    shots = Path(os.environ.get("SHOTS_DIR") or tmp_path / "png")
    render(tmp_path / "game-sheet.pdf", shots / "eight-game-sheet", dpi=80)
    with sim_eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    arbitration = flat(build(tournament, "arbitration", tmp_path, game=1, round=rnd.number))
    kept = rnd.rack[: len(rnd.rack) - len(rnd.drawn)]
    assert len(rnd.rack) == 8 and f"Rack: {kept}+{rnd.drawn} " in arbitration, arbitration
    render(tmp_path / "arbitration.pdf", shots / "eight-arbitration", dpi=80)
    player = flat(build(tournament, "player-sheet", tmp_path, player=reg.player_id))
    assert f"1 H1 {sheet.rounds[0].drawn[:7]} 99" in player, player  # the slip of 7 letters, awarded 0
    render(tmp_path / "player-sheet.pdf", shots / "eight-player-sheet", dpi=80)
    build(tournament, "slips", tmp_path, game=1, round=rnd.number)
    render(tmp_path / "slips.pdf", shots / "eight-slips", dpi=60)
