"""Standings: the rows of a game or tournament read from the database, computed by :mod:`scoring.sheet`.

This is the bridge: it reads the published rounds' tops, the verdicts, solos and penalties into plain
values, and :mod:`scoring.sheet` does the arithmetic (totals, deficit, percentage, ranks, tie-break,
groups). The console, the API, the tablets, the hall display and the PDFs all call these functions.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol, TypedDict

from django.utils.translation import gettext as _

from scoring import sheet

from ..errors import Code, ServiceError
from ..models import Game, Penalty, Player, Registration, Round, Solo, Tournament, Verdict

GROUPS = ("series", "category", "club")

#: A line of the standings, keyed by registration id.
Line = sheet.Line[int]


class StandingRow(TypedDict):
    """A line of the standings as the API gives it."""

    table: int
    name: str
    total: int
    awarded: int
    solos: int
    penalties: int
    top_total: int
    deficit: int
    percentage: float
    rank: int
    club: str
    category: str
    series: str
    warnings: int


@dataclass
class Standing:
    """A player's line in the standings: the registration and its :class:`scoring.sheet.Line`."""

    registration: Registration
    line: Line

    @property
    def player(self) -> Player:
        return self.registration.player

    @property
    def table(self) -> int:
        return self.registration.table_number

    @property
    def rank(self) -> int:
        return self.line.rank

    @property
    def awarded(self) -> int:
        return self.line.awarded

    @property
    def solos(self) -> int:
        return self.line.solos

    @property
    def penalties(self) -> int:
        return self.line.penalties

    @property
    def warnings(self) -> int:
        return self.line.warnings

    @property
    def top_total(self) -> int:
        return self.line.top_total

    @property
    def total(self) -> int:
        return self.line.total

    @property
    def deficit(self) -> int:
        return self.line.deficit

    @property
    def percentage(self) -> float:
        return self.line.percentage

    @property
    def per_round(self) -> list[int]:
        return self.line.per_round

    @property
    def per_game(self) -> list[int]:
        return self.line.per_game

    def as_dict(self) -> StandingRow:
        player = self.player
        return {"table": self.table, "name": player.name, "total": self.total, "awarded": self.awarded,
                "solos": self.solos, "penalties": self.penalties, "top_total": self.top_total,
                "deficit": self.deficit, "percentage": self.percentage, "rank": self.rank, "club": player.club,
                "category": player.category, "series": player.series, "warnings": self.warnings}


def published_rounds(game: Game) -> list[Round]:
    return list(game.rounds.filter(status=Round.Status.PUBLISHED).order_by("number"))


class Seated(Protocol):
    """A registration as the lines need it: its id and table (a :class:`Registration`, or a :class:`Seat`)."""

    @property
    def pk(self) -> Any: ...

    @property
    def table_number(self) -> int: ...


class Seat(NamedTuple):
    """A registration's id and table, read as a row (a hall of 10,000 players: no model instances)."""

    pk: int
    table_number: int


def game_lines(game: Game, regs: Sequence[Seated]) -> list[Line]:
    """Every registration's (unranked) line of one game, keyed by registration id."""
    return _lines(game, published_rounds(game), regs)


def _lines(game: Game, rounds: list[Round], regs: Sequence[Seated], *, only_these: bool = False) -> list[Line]:
    """The lines of ``regs`` over the game's published ``rounds``; ``only_these``: read the rows of ``regs`` only
    (a player, a part of the hall), not the whole hall's."""
    mine: dict[str, object] = {"registration__in": [r.pk for r in regs]} if only_these else {}
    index = {r.pk: i + 1 for i, r in enumerate(rounds)}
    scores = [sheet.RoundScore(reg_id, index[round_id], awarded, warning)
              for reg_id, round_id, awarded, warning in Verdict.objects.filter(round__in=rounds, **mine).order_by(
                  ).values_list("registration_id", "round_id", "awarded", "warning")]
    solos: dict[int, int] = defaultdict(int)
    for reg_id, points in Solo.objects.filter(round__in=rounds, **mine).values_list("registration_id", "points"):
        solos[reg_id] += points
    penalties: dict[int, int] = defaultdict(int)
    for reg_id, points in Penalty.objects.filter(game=game, **mine).values_list("registration_id", "points"):
        penalties[reg_id] += points
    return sheet.game_lines([r.pk for r in regs], [r.chosen_score or 0 for r in rounds], scores,
                            solos=solos, penalties=penalties)


def _registrations(tournament: Tournament) -> list[Registration]:
    return list(tournament.registrations.select_related("player"))


def _rows(lines: list[Line], regs: dict[int, Registration]) -> list[Standing]:
    return [Standing(regs[line.player], line) for line in lines]


def _by_table(regs: Mapping[int, Seated]) -> Callable[[Line], int]:
    return lambda line: regs[line.player].table_number


def game_standings(game: Game) -> list[Standing]:
    """The game's standings (published rounds), best first."""
    t = game.tournament
    regs = {r.pk: r for r in _registrations(t)}
    lines = sheet.ranked(game_lines(game, list(regs.values())), tie_break=t.tie_break == "backwards",
                         order=_by_table(regs))
    return _rows(lines, regs)


def tournament_lines(tournament: Tournament, regs: list[Registration]) -> list[Line]:
    games = tournament.games.exclude(status=Game.Status.CANCELLED).order_by("number")
    return sheet.tournament_lines([game_lines(g, regs) for g in games]) or [sheet.Line(r.pk) for r in regs]


def tournament_standings(tournament: Tournament) -> list[Standing]:
    """The tournament's standings over every game, best first."""
    regs = {r.pk: r for r in _registrations(tournament)}
    lines = sheet.ranked(tournament_lines(tournament, list(regs.values())),
                         tie_break=tournament.tie_break == "backwards", order=_by_table(regs))
    return _rows(lines, regs)


@dataclass(frozen=True)
class HallStandings:
    """Every game's standings and the tournament's, read together (each game's rows once)."""

    games: dict[int, list[Line]]  # game number → its lines ranked, best first (cancelled games aside)
    finished: frozenset[int]  # the numbers of the finished games
    tournament: list[Line]  # the tournament's lines over every game, ranked (one game: that game's lines)


def hall_standings(tournament: Tournament) -> HallStandings:
    """The standings of every game and of the tournament, as :func:`game_standings` and
    :func:`tournament_standings` rank them (a correction of a finished game's verdict included)."""
    regs = {pk: Seat(pk, table) for pk, table in tournament.registrations.order_by().values_list("pk", "table_number")}
    games = list(tournament.games.exclude(status=Game.Status.CANCELLED).order_by("number"))
    lines = {g.number: game_lines(g, list(regs.values())) for g in games}
    tie_break, order = tournament.tie_break == "backwards", _by_table(regs)
    ranked = {n: sheet.ranked(rows, tie_break=tie_break, order=order) for n, rows in lines.items()}
    if len(ranked) == 1:  # one game: the tournament's standings are the game's (same totals, same order)
        every = next(iter(ranked.values()))
    else:
        every = sheet.ranked(sheet.tournament_lines(list(lines.values())) or [sheet.Line(pk) for pk in regs],
                             tie_break=tie_break, order=order)
    return HallStandings(games=ranked, finished=frozenset(g.number for g in games if g.status == Game.Status.FINISHED),
                         tournament=every)


def grouped_standings(tournament: Tournament, group_by: str, game: Game | None = None) -> dict[str, list[Standing]]:
    """Standings per series, category or club (of the tournament, or of one game): {group: rows}."""
    if group_by not in GROUPS:
        raise ServiceError(Code.BAD_GROUP, _("standings by «%(group)s»: by series, category or club only")
                           % {"group": group_by})
    regs = {r.pk: r for r in _registrations(tournament)}
    lines = game_lines(game, list(regs.values())) if game is not None else \
        tournament_lines(tournament, list(regs.values()))
    groups = sheet.grouped(lines, lambda pk: getattr(regs[pk].player, group_by) or "",
                           tie_break=tournament.tie_break == "backwards", order=_by_table(regs))
    return {name: _rows(rows, regs) for name, rows in groups.items()}


def top_total(rows: list[Standing]) -> int:
    return rows[0].top_total if rows else 0


@dataclass(frozen=True)
class PlayerGameLine:
    """One player's line of one game, with the game's published rounds (in order: ``line.per_round[i]`` is
    what the player got in ``rounds[i]``)."""

    game: Game
    rounds: list[Round]
    line: Line


def player_game_lines(registration: Registration) -> list[PlayerGameLine]:
    """A player's line of every game of the tournament (cancelled games aside), in game order: the figures
    of the player's row in each game's standings (:func:`game_standings`), read for this player only."""
    games = registration.tournament.games.exclude(status=Game.Status.CANCELLED).order_by("number")
    out: list[PlayerGameLine] = []
    for game in games:
        rounds = published_rounds(game)
        line, = _lines(game, rounds, [registration], only_these=True)
        out.append(PlayerGameLine(game, rounds, line))
    return out


def players_game_lines(game: Game, rounds: list[Round], regs: list[Registration]) -> dict[int, PlayerGameLine]:
    """The lines of several players (a part of the hall) in one game whose published ``rounds`` the caller read,
    by registration id: what :func:`player_game_lines` gives each, read for all of them at once."""
    lines = _lines(game, rounds, regs, only_these=True)
    return {line.player: PlayerGameLine(game, rounds, line) for line in lines}


def player_tournament_line(games: list[PlayerGameLine]) -> Line | sheet.Line[None]:
    """The player's tournament line over these games: the figures of the player's tournament standings row
    (before any game: a line of nobody, all zeros)."""
    lines = sheet.tournament_lines([[g.line] for g in games])
    return lines[0] if lines else sheet.Line(None)


__all__ = ["GROUPS", "HallStandings", "Line", "PlayerGameLine", "Standing", "StandingRow", "game_lines", "game_standings",
           "grouped_standings", "hall_standings",
           "player_game_lines", "player_tournament_line", "players_game_lines", "published_rounds", "top_total", "tournament_standings"]
