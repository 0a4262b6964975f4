"""The results of duplicate games as pure functions over plain rows (RULES §4 "Results").

Nothing here reads a database: the tournament side reads verdicts, solos and penalties into plain
values and asks here for totals, solos, penalties and ranks, so the web pages, the API, the screens
and the PDFs show the same figures because they call the same functions.

* A player's **game total** = the points awarded in the game's published rounds + solos − penalties;
  the **top total** is the sum of the tops; the **deficit** ("négatif") = total − top total; the
  **percentage** = total / top total.
* **Solo** (an option, by default on from :data:`SOLO_FROM_PLAYERS` players): the one player whose
  score in a round is strictly higher than every other player's gets the bonus (+10), even below
  the top; nobody gets it for a round where the best score is 0 or is shared.
* **Warnings**: the first ``free`` warnings of a game cost nothing (3; 5 in fast games, so the
  penalty starts at the 4th, or the 6th); each one after costs the penalty (5 points) at the end of
  the game.
* **Ranking**: by total; equal totals share a rank (1, 2, 2, 4) unless the tie-break is set: then
  the last game decides, then the last move, going backwards.
* A **tournament** adds the game totals (and the top totals: the percentage is against the sum of
  the tops). Standings exist per series, category and club: the same ranking inside each group.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

#: Solos are on from this many players when the tournament leaves it to the system.
SOLO_FROM_PLAYERS = 16
SOLO_BONUS = 10
FREE_WARNINGS = 3
FREE_WARNINGS_FAST = 5
WARNING_PENALTY = 5
#: A game is fast (RULES §4: the warnings' penalty starts at the 6th) when a move has at most this long: 2:00, 1:00.
FAST_SECONDS = 120

#: Whatever names a player here (the tournament side: a registration id).
Player = TypeVar("Player", bound=Hashable)


@dataclass(frozen=True)
class RoundScore(Generic[Player]):
    """What one player got in one published round (the verdict's points and warning)."""

    player: Player
    round: int
    awarded: int
    warning: bool = False


@dataclass
class Line(Generic[Player]):
    """One player's line of a game or of a tournament."""

    player: Player
    awarded: int = 0
    solos: int = 0
    penalties: int = 0
    warnings: int = 0
    top_total: int = 0
    #: a game: the points of each published round, in order; a tournament: the last game's
    per_round: list[int] = field(default_factory=list)
    #: a tournament: the total of each game, in order
    per_game: list[int] = field(default_factory=list)
    rank: int = 0
    tie_key: tuple[int, ...] = ()

    @property
    def total(self) -> int:
        return self.awarded + self.solos - self.penalties

    @property
    def deficit(self) -> int:
        return self.total - self.top_total

    @property
    def percentage(self) -> float:
        return percentage(self.total, self.top_total)


def percentage(total: int, top_total: int) -> float:
    """``total / top total`` in per cent, two decimals (0 before any top)."""
    return round(100.0 * total / top_total, 2) if top_total else 0.0


# -- solos and warnings ---------------------------------------------------------------------------------


def solos_active(mode: str, players: int, *, threshold: int = SOLO_FROM_PLAYERS) -> bool:
    """Whether solos count: ``"on"``, ``"off"``, or ``"auto"`` (from ``threshold`` players)."""
    if mode == "auto":
        return players >= threshold
    return mode == "on"


def round_solos(scores: Mapping[Player, int], *, bonus: int = SOLO_BONUS) -> dict[Player, int]:
    """The solo of one round: {player: bonus} for the one player strictly above every other, else {}.

    Scores of a round with fewer than two players give no solo, nor does a best score of 0.
    """
    if len(scores) < 2:
        return {}
    best = max(scores.values())
    winners = [p for p, s in scores.items() if s == best]
    if best > 0 and len(winners) == 1:
        return {winners[0]: bonus}
    return {}


def free_warnings(fast: bool) -> int:
    """Warnings of a game that cost nothing: 3, or 5 in fast games (less time per move)."""
    return FREE_WARNINGS_FAST if fast else FREE_WARNINGS


def is_fast(seconds_per_move: int) -> bool:
    """A fast game: at most :data:`FAST_SECONDS` a move (2:00 or 1:00; 2:30 and 3:00 are not)."""
    return seconds_per_move <= FAST_SECONDS


def warning_penalty(warnings: int, *, free: int = FREE_WARNINGS, points: int = WARNING_PENALTY) -> int:
    """The end-of-game penalty for a number of warnings: each one after the ``free`` ones costs ``points``."""
    return max(0, warnings - free) * points


# -- a game and a tournament ---------------------------------------------------------------------------------


def game_lines(
    players: Iterable[Player],
    tops: Sequence[int],
    scores: Iterable[RoundScore[Player]],
    *,
    solos: Mapping[Player, int] | None = None,
    penalties: Mapping[Player, int] | None = None,
) -> list[Line[Player]]:
    """Every player's line of one game: ``tops`` are the published rounds' top scores in round order
    (round ``i + 1`` is ``tops[i]``), ``scores`` the verdicts of those rounds (a player without one got 0),
    ``solos`` and ``penalties`` the points of each player in the game."""
    top_total = sum(tops)
    lines = {p: Line(p, top_total=top_total, per_round=[0] * len(tops)) for p in players}
    for s in scores:
        line = lines.get(s.player)
        if line is None or not 1 <= s.round <= len(tops):
            continue
        line.awarded += s.awarded
        line.warnings += int(s.warning)
        line.per_round[s.round - 1] += s.awarded
    for source, attr in ((solos or {}, "solos"), (penalties or {}, "penalties")):
        for p, points in source.items():
            if p in lines:
                setattr(lines[p], attr, getattr(lines[p], attr) + points)
    for line in lines.values():
        line.tie_key = tuple(reversed(line.per_round))  # the last move first, backwards
    return list(lines.values())


def tournament_lines(games: Sequence[Sequence[Line[Player]]]) -> list[Line[Player]]:
    """The tournament's lines: the games added up, in game order (the tie-break reads the last game
    first, then the last game's moves backwards)."""
    out: dict[Player, Line[Player]] = {}
    for game in games:
        for g in game:
            acc = out.setdefault(g.player, Line(g.player))
            acc.awarded += g.awarded
            acc.solos += g.solos
            acc.penalties += g.penalties
            acc.warnings += g.warnings
            acc.top_total += g.top_total
            acc.per_game.append(g.total)
            acc.per_round = list(g.per_round)
    for line in out.values():
        line.tie_key = (*reversed(line.per_game), *reversed(line.per_round))
    return list(out.values())


def ranked(lines: Iterable[Line[Player]], *, tie_break: bool = False,
           order: Callable[[Line[Player]], SupportsRichComparison] | None = None) -> list[Line[Player]]:
    """The lines best first, each with its rank. Equal totals share a rank (1, 2, 2, 4) unless
    ``tie_break``: then the lines' tie keys (last game, last move, backwards) decide, and only lines
    equal in all of them share a rank. ``order`` sorts lines of equal rank (e.g. by table)."""
    # each line's key once, negated so that one ascending sort puts the best first (the index: no two equal)
    keyed = [((-line.total, *(-k for k in line.tie_key)) if tie_break else (-line.total,),
              order(line) if order else 0, i, line) for i, line in enumerate(lines)]
    keyed.sort(key=itemgetter(0, 1, 2))
    out: list[Line[Player]] = []
    previous: tuple[int, ...] | None = None
    for i, (key, _order, _i, line) in enumerate(keyed):
        line.rank = out[-1].rank if out and key == previous else i + 1
        previous = key
        out.append(line)
    return out


def grouped(lines: Iterable[Line[Player]], group_of: Callable[[Player], str], *, tie_break: bool = False,
            order: Callable[[Line[Player]], SupportsRichComparison] | None = None) -> dict[str, list[Line[Player]]]:
    """Standings per group (series, category or club): the ranking inside each group, groups sorted by
    name. The lines are copies: the overall ranks stay as they are."""
    groups: dict[str, list[Line[Player]]] = defaultdict(list)
    for line in lines:
        groups[group_of(line.player)].append(_copy(line))
    return {name: ranked(rows, tie_break=tie_break, order=order) for name, rows in sorted(groups.items())}


def _copy(line: Line[Player]) -> Line[Player]:
    return Line(line.player, line.awarded, line.solos, line.penalties, line.warnings, line.top_total,
                list(line.per_round), list(line.per_game), line.rank, line.tie_key)


__all__ = [
    "FREE_WARNINGS",
    "FAST_SECONDS",
    "FREE_WARNINGS_FAST",
    "SOLO_BONUS",
    "SOLO_FROM_PLAYERS",
    "WARNING_PENALTY",
    "Line",
    "RoundScore",
    "free_warnings",
    "is_fast",
    "game_lines",
    "grouped",
    "percentage",
    "ranked",
    "round_solos",
    "solos_active",
    "tournament_lines",
    "warning_penalty",
]
