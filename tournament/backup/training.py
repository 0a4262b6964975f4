"""The training sessions of an archive against those already in this database.

An archive holds the training games of its tournaments' games (the whole hall's: every training game, the
imported records' too), with their runs and club sessions. A restore puts them back, matching what this
database already holds so that nothing a player did is lost or doubled:

* a training game is the same as one here when both have the same title, rule set and creation time (kept
  by every restore): it is not inserted again, and the one here takes the restored game as its source again
  when it had lost it (its tournament deleted or replaced);
* a run or a club session is the same as one here when it has the same code (its address): the one here is
  kept as it is (it may hold rounds played after the archive was written).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Field

from ..models import TrainingClub, TrainingGame, TrainingRun


@dataclass
class TrainingMatch:
    """The archive's training rows already in this database: archive key → local row or key."""

    games: dict[Any, TrainingGame] = field(default_factory=dict)
    clubs: dict[Any, int] = field(default_factory=dict)
    runs: dict[Any, int] = field(default_factory=dict)


def _value(model: type[Any], name: str, value: Any) -> Any:
    f: Field[Any, Any] = model._meta.get_field(name)
    return f.to_python(value)


def match(games: list[dict[str, Any]], clubs: list[dict[str, Any]], runs: list[dict[str, Any]]) -> TrainingMatch:
    """Which of the archive's training games, club sessions and runs this database already holds."""
    found = TrainingMatch()
    for row in games:
        here = TrainingGame.objects.filter(title=row["title"], ruleset=row["ruleset"],
                                           created_at=_value(TrainingGame, "created_at", row["created_at"])
                                           ).order_by("pk").first()
        if here is not None:
            found.games[row["id"]] = here
    codes = {row["code"]: row["id"] for row in clubs}
    for pk, code in TrainingClub.objects.filter(code__in=list(codes)).values_list("pk", "code"):
        found.clubs[codes[code]] = pk
    codes = {row["code"]: row["id"] for row in runs}
    for pk, code in TrainingRun.objects.filter(code__in=list(codes)).values_list("pk", "code"):
        found.runs[codes[code]] = pk
    return found


def relink(found: TrainingMatch, games: list[dict[str, Any]], game_keys: dict[Any, Any]) -> None:
    """A training game already here that lost its source game takes the restored one (``game_keys``: the
    archive's game keys → the restored games')."""
    sources = {row["id"]: row["source_game_id"] for row in games}
    for old, here in found.games.items():
        source = game_keys.get(sources.get(old))
        if here.source_game_id is None and source is not None \
                and not TrainingGame.objects.filter(source_game_id=source).exists():
            TrainingGame.objects.filter(pk=here.pk).update(source_game_id=source)
