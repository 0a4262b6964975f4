"""The game sheet of a Joker game: the variant among the facts, each replaced blank under its round's top."""

from __future__ import annotations

import pytest
from django.utils import translation

from tests.tournament.printing.test_pdf import build, flat, render
from tournament import services
from tournament.models import Game
from tournament.printing import documents
from tournament.services import reading

pytestmark = [pytest.mark.django_db]


def test_game_sheet_notes_the_variant_and_the_replaced_blanks(alice, tournament, sim_eager, tmp_path):
    """Seed 1: round 1's top H4 VIsTA plays the blank as S, replaced on the board by an S from the bag."""
    tournament.language = "en"  # the papers speak the tournament's language
    tournament.save()
    game = services.games.create_game(alice, tournament, seed=1, variant="joker")
    for _n in range(2):
        with sim_eager(execute=True):
            rnd = services.rounds.draw_round(alice, game)
        with sim_eager(execute=False):
            services.rounds.open_round(alice, rnd)
        services.rounds.close_round(rnd, alice, force=True)
        services.judging.judge_round(rnd, alice)
        services.rounds.publish_round(alice, rnd)
    game.refresh_from_db()
    sheet = reading.game_sheet(game)
    assert (sheet.variant, [r.replaced for r in sheet.rounds]) == ("joker", ["S", "S"])
    rows = flat(build(tournament, "game-sheet", tmp_path, game=1))
    assert "Game 1 · Variant: Joker · Rounds: 2" in rows
    assert "1 ?VNIART ↻ redraw ×1: ?WNHLSR H4 VIsTA ? → S 22 22 93" in rows  # the rack: a blank, redrawn with it
    assert "2 NR+?DLEL 9F EDs ? → S 13 35 88" in rows and rows.count("? → S") == 3  # two rounds + the legend
    assert "Joker game: every rack holds a blank while one is left." in rows
    render(tmp_path / "game-sheet.pdf", tmp_path / "png", dpi=80)


def test_a_classic_game_sheet_says_no_variant(tournament):
    info = reading.tournament_info(tournament)
    rounds = [reading.SheetRound(1, "", "CATSROE", 0, [], "H4 CARTS", 20, 20, 93)]
    sheet = reading.GameSheet(1, Game.Status.PLAYING, Game.Status.PLAYING.label, rounds, "15/" * 14 + "15")
    with translation.override("en"):
        data = documents.GameSheetDocument(info, sheet).build()
    rows = flat(data)
    assert "Variant" not in rows and "→" not in rows and "H4 CARTS 20 20" in rows
