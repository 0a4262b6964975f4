"""The hall display's state: everything the projector shows, in one JSON fetched when the version moves."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from django.utils import timezone

from scoring.board import Board, BoardError
from scoring.rules import get_ruleset

from .. import gamestate
from ..models import Game, Round, Tournament, seconds_left
from ..services import rounds, signs, standings

#: Standing rows sent to the display at the end of a game.
STANDINGS_ROWS = 2000


def new_squares(ruleset_id: str, before: str, after: str) -> list[list[int]]:
    """Squares filled between two boards (the last top, highlighted)."""
    try:
        ruleset = get_ruleset(ruleset_id)
        old, new = Board.from_fen(ruleset, before or None), Board.from_fen(ruleset, after or None)
    except BoardError:
        return []
    return [[r, c] for r, c, _tile in new.tiles() if old.tile(r, c) is None]


class DisplayTournament(TypedDict):
    slug: str
    name: str
    ruleset: str
    games: int


class DisplayGame(TypedDict):
    number: int
    status: str
    end_reason: str
    end_note: str  # the arbiter's own words when he ended the game


class DisplayRound(TypedDict):
    id: int
    number: int
    status: str
    rack: str | None  # None until the round is open
    deadline: str | None  # ISO 8601
    seconds_left: int | None
    rack_source: str  # how the rack came: "random", "typed", "prepared"
    redraws: list[gamestate.Redraw]  # racks that went back into the bag, and why (RULES §4: shown)
    variant: str  # the game's variant (topping: the display polls how many have topped)


class PreviousRound(TypedDict):
    number: int
    rack: str
    move: str
    score: int | None
    replaced: NotRequired[str]  # the Joker variant: the letters whose tiles replaced the blank the top played


class FinalRow(TypedDict):
    rank: int
    table: int
    name: str
    club: str
    total: int
    deficit: int
    percentage: float
    tournament_total: int | None  # with more than one game


class FinalStandings(TypedDict):
    game: int
    top_total: int
    rows: list[FinalRow]


class DisplayState(TypedDict):
    """Everything the projector shows."""

    server_time: str  # ISO 8601
    tournament: DisplayTournament
    game: DisplayGame | None
    round: DisplayRound | None
    board: str  # FEN
    last_move: list[list[int]]  # squares of the last top, [row, col]
    previous: PreviousRound | None
    standings: FinalStandings | None  # at the end of a game
    rack_typing_until: str | None  # ISO 8601: between rounds, the arbiter is typing the next rack until then


def display_state(t: Tournament) -> DisplayState:
    """Everything the projector shows (only fetched again when the version moves)."""
    now = timezone.now()
    rnd = rounds.tournament_round(t)
    game = rnd.game if rnd is not None else (
        t.games.exclude(status=Game.Status.CANCELLED).order_by("-number").first())
    state: DisplayState = {
        "server_time": now.isoformat(),
        "tournament": {"slug": t.slug, "name": t.name, "ruleset": t.ruleset, "games": t.games.count()},
        "game": None, "round": None, "board": "", "last_move": [], "previous": None, "standings": None,
        "rack_typing_until": None,
    }
    if game is None:
        return state
    state["game"] = {"number": game.number, "status": game.status, "end_reason": game.end_reason,
                     "end_note": game.end_note}
    last = gamestate.last_published(game)
    if last is not None:
        after = gamestate.board_after(last)
        state["board"] = after
        state["last_move"] = new_squares(t.ruleset, last.board_before, after)
        previous: PreviousRound = {"number": last.number, "rack": last.rack, "move": last.chosen_move,
                                   "score": last.chosen_score}
        replaced = gamestate.replaced_blanks(game).get(last.number, "")
        if replaced:
            previous["replaced"] = replaced
        state["previous"] = previous
    else:
        state["board"] = gamestate.board_fen(game) if rnd is None else rnd.board_before
    if rnd is not None:
        shown = rnd.status != Round.Status.DRAWN
        state["round"] = {"id": rnd.pk, "number": rnd.number, "status": rnd.status,
                          "rack": rnd.rack if shown else None,
                          "deadline": rnd.deadline.isoformat() if rnd.deadline else None,
                          "seconds_left": seconds_left(rnd.deadline, now),
                          "rack_source": gamestate.rack_source(rnd), "redraws": gamestate.redraws(rnd),
                          "variant": game.variant}
    if game.status == Game.Status.FINISHED:
        state["standings"] = final_standings(t, game)
    elif rnd is None or rnd.status == Round.Status.PUBLISHED:
        until = signs.rack_typing_until(t.rack_typing_at, rnd.published_at if rnd is not None else None)
        state["rack_typing_until"] = until.isoformat() if until is not None else None
    return state


def final_standings(t: Tournament, game: Game) -> FinalStandings:
    rows = standings.game_standings(game)
    totals: dict[int, int] = {}
    if t.games.count() > 1:
        totals = {r.registration.pk: r.total for r in standings.tournament_standings(t)}
    return {
        "game": game.number, "top_total": standings.top_total(rows),
        "rows": [{"rank": r.rank, "table": r.table, "name": r.player.name, "club": r.player.club,
                  "total": r.total, "deficit": r.deficit, "percentage": r.percentage,
                  "tournament_total": totals.get(r.registration.pk)} for r in rows[:STANDINGS_ROWS]],
    }


__all__ = ["STANDINGS_ROWS", "DisplayState", "display_state", "final_standings", "new_squares"]
