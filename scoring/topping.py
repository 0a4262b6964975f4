"""The topping variant's results as pure functions over plain values (docs/en/rules/topping.md).

Nothing here reads a database. In a topping game each player races to hand in the top of each round:

* a player's **time** for a round is the time from the round's opening to his attempt that was the top
  (server clock, whole seconds — Eliot counts elapsed seconds too);
* a round **not topped** within the limit (the time per move) costs the limit + the variant's penalty
  (:attr:`scoring.variants.Variant.timeout_penalty`);
* a player's **total** is the sum of his times over the game's rounds (or a tournament's games);
* **ranking**: by total, lowest first; equal totals: more rounds topped first; still equal: the same rank
  (1, 2, 2, 4), listed by the player key (the tournament side gives the table number).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

Player = TypeVar("Player", bound=Hashable)


def elapsed_seconds(opened_ms: int, received_ms: int) -> int:
    """Whole seconds from the opening to an attempt (both in milliseconds of one clock); never negative."""
    return max(0, (received_ms - opened_ms) // 1000)


def round_seconds(topped_seconds: int | None, limit: int, penalty: int) -> int:
    """A player's time for one round: the time he topped in, else ``limit + penalty`` (not topped).

    A time beyond the limit cannot be a top (attempts after the limit are refused): it counts as not topped."""
    if limit < 0 or penalty < 0:
        raise ValueError("the limit and the penalty are seconds, not negative")
    if topped_seconds is None or topped_seconds > limit:
        return limit + penalty
    return max(0, topped_seconds)


@dataclass(frozen=True)
class Attempt(Generic[Player]):
    """What the tournament side knows of one player in one round: the seconds he topped in (None: not
    topped) and how many attempts he handed in."""

    player: Player
    round: int
    topped_seconds: int | None
    attempts: int = 0


@dataclass
class TimeLine(Generic[Player]):
    """One player's line: per round (round key → seconds counted), the total, tops, attempts, rank."""

    player: Player
    rounds: dict[int, int] = field(default_factory=dict)
    topped: int = 0
    attempts: int = 0
    rank: int = 0

    @property
    def total(self) -> int:
        return sum(self.rounds.values())


def time_lines(players: Iterable[Player], rounds: Sequence[int], attempts: Iterable[Attempt[Player]],
               limits: Mapping[int, int], penalty: int) -> list[TimeLine[Player]]:
    """Every player's line over ``rounds`` (each round's limit in ``limits``), ranked (:func:`rank_lines`).

    A player without an :class:`Attempt` for a round did not top it (limit + penalty)."""
    by_key = {(a.player, a.round): a for a in attempts}
    lines = []
    for p in players:
        line: TimeLine[Player] = TimeLine(p)
        for r in rounds:
            a = by_key.get((p, r))
            topped = a.topped_seconds if a is not None else None
            line.rounds[r] = round_seconds(topped, limits[r], penalty)
            if topped is not None and topped <= limits[r]:
                line.topped += 1
            line.attempts += a.attempts if a is not None else 0
        lines.append(line)
    return rank_lines(lines)


def add_lines(parts: Iterable[Sequence[TimeLine[Player]]]) -> list[TimeLine[Player]]:
    """A tournament's lines: each player's games added (round keys must differ between games), ranked."""
    merged: dict[Player, TimeLine[Player]] = {}
    for lines in parts:
        for line in lines:
            m = merged.setdefault(line.player, TimeLine(line.player))
            m.rounds.update(line.rounds)
            m.topped += line.topped
            m.attempts += line.attempts
    return rank_lines(list(merged.values()))


def rank_lines(lines: list[TimeLine[Player]]) -> list[TimeLine[Player]]:
    """Sorted by total (lowest first), then more tops; equal on both: one shared rank (1, 2, 2, 4),
    listed by the player key."""
    lines.sort(key=lambda x: (x.total, -x.topped, str(x.player) if not isinstance(x.player, int) else x.player))
    previous: tuple[int, int] | None = None
    for i, line in enumerate(lines, 1):
        key = (line.total, line.topped)
        line.rank = lines[i - 2].rank if key == previous else i
        previous = key
    return lines


def format_seconds(seconds: int) -> str:
    """``0:42``, ``12:05``, ``1:02:03`` (hours only when needed)."""
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


__all__ = ["Attempt", "TimeLine", "add_lines", "elapsed_seconds", "format_seconds", "rank_lines",
           "round_seconds", "time_lines"]
