"""What a tablet shows of the standings: the round's game, and in a tournament of several games the player's
tournament total and rank and each other finished game's result (every correction included).

Computed once per screen version with the shared tablet state (:mod:`tournament.live.tablet`): a verdict
corrected in a finished game moves the version, so the next state every tablet reads has the corrected
figures.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from ..models import Tournament
from ..services import standings

#: registration → (total, top total, rank)
Figures = dict[int, tuple[int, int, int]]


class HallResults(TypedDict):
    """The standings part of the shared tablet state (a published round, a finished game)."""

    standings: Figures  # the round's game
    players: int
    tournament: NotRequired[Figures]  # several games: over every game
    finished: NotRequired[dict[int, Figures]]  # several games: each finished game but the round's, by number


class GameResult(TypedDict):
    game: int
    total: int
    top_total: int
    rank: int


class TournamentResult(TypedDict):
    """A player's tournament so far: his total and rank over every game, and each finished game's result."""

    total: int
    top_total: int
    rank: int
    players: int
    games: list[GameResult]  # the finished games but the one the tablet shows, in order


def _figures(lines: list[standings.Line]) -> Figures:
    return {line.player: (line.total, line.top_total, line.rank) for line in lines}


def hall_results(tournament: Tournament, game: int) -> HallResults:
    """The standings of game number ``game``, and the tournament's when it has several games."""
    hall = standings.hall_standings(tournament)
    rows = hall.games.get(game, [])
    out: HallResults = {"standings": _figures(rows), "players": len(rows)}
    if len(hall.games) > 1:
        out["tournament"] = _figures(hall.tournament)
        out["finished"] = {n: _figures(lines) for n, lines in hall.games.items() if n in hall.finished and n != game}
    return out


def tournament_result(tournament: Figures | None, finished: dict[int, Figures], players: int, registration: int
                      ) -> TournamentResult | None:
    """The player's :class:`TournamentResult` (None in a tournament of one game, or for a player not in it)."""
    mine = (tournament or {}).get(registration)
    if mine is None:
        return None
    games: list[GameResult] = []
    for number in sorted(finished):
        line = finished[number].get(registration)
        if line is not None:
            games.append({"game": number, "total": line[0], "top_total": line[1], "rank": line[2]})
    return {"total": mine[0], "top_total": mine[1], "rank": mine[2], "players": players, "games": games}


__all__ = ["Figures", "GameResult", "HallResults", "TournamentResult", "hall_results", "tournament_result"]
