"""The board of a game: the tiles on it, the rack waiting for its top, and the rounds played.

The page draws the board with ``static/js/board.js`` from the same data as the tablet and the hall display:
the board config of :func:`tournament.labels.board_config` (labels, premiums, tile values) and the FEN.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from .. import gamestate, labels
from ..live.display import new_squares
from ..models import Tournament
from ..services import rounds
from ..web.access import arbiter_view
from .games import game_of
from .tournaments import context


@arbiter_view
@require_GET
def board(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    g = game_of(tournament, number)
    config = labels.board_config(tournament)
    fen, last = gamestate.board_fen(g), gamestate.last_published(g)
    fresh = new_squares(tournament.ruleset, last.board_before, fen) if last is not None else []
    return render(request, "arbiter/board.html", context(
        tournament, "games", page="board", game=g, board=config, fen=fen, fresh=fresh,
        history=gamestate.history(g), round=rounds.current_round(g), rack=gamestate.rack_on_stand(g)))
