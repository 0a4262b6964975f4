"""The board of a game: the tiles on it, the rack waiting for its top, and the rounds played."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.http import require_GET

from scoring.board import Board
from scoring.rules import get_ruleset

from .. import gamestate, labels
from ..models import Tournament
from ..services import rounds
from ..web.access import arbiter_view
from .games import game_of
from .tournaments import context


def board_grid(tournament: Tournament, fen: str, language: str) -> dict[str, Any]:
    ruleset = get_ruleset(tournament.ruleset)
    board = Board.from_fen(ruleset, fen or None)
    style = labels.tournament_style(tournament, language)
    size = len(ruleset.layout.word_mult)
    rows = []
    for r, label in enumerate(style.rows()):
        cells = []
        for c in range(size):
            tile = board.tile(r, c)
            code = ruleset.layout.premium_code(r, c)
            cls = labels.PREMIUM_CLASS.get(code, "")
            cells.append({
                "cls": cls, "text": labels.PREMIUM_TEXT.get(cls, ""), "centre": (r, c) == (size // 2, size // 2),
                "letter": tile.letter if tile else "", "blank": bool(tile and tile.blank),
                "value": (0 if tile.blank else ruleset.value(tile.letter)) if tile else None,
                "name": f"{label}{style.columns()[c]}" if not style.english else f"{style.columns()[c]}{label}",
            })
        rows.append({"label": label, "cells": cells})
    return {"rows": rows, "columns": style.columns()}


@arbiter_view
@require_GET
def board(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    g = game_of(tournament, number)
    grid = board_grid(tournament, gamestate.board_fen(g), translation.get_language() or tournament.language)
    return render(request, "arbiter/board.html", context(
        tournament, "games", page="board", game=g, grid=grid, history=gamestate.history(g),
        round=rounds.current_round(g), rack=gamestate.rack_on_stand(g)))
