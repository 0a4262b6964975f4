"""What to print: a :class:`Spec` (the kind of document and its parameters), checked against the tournament.

Kinds: ``standings``, ``game-sheet``, ``player-sheet``, ``arbitration``, ``slips``, ``cards``. The rows a
spec names are read by :func:`tournament.services.reading.subjects`.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from django.conf import settings

from ..models import Tournament
from ..services import reading
from ..services.reading import Subjects

KINDS = ("standings", "game-sheet", "player-sheet", "arbitration", "slips", "cards")
GROUPS = ("series", "category", "club")
MAX_COPIES = 30


class SpecError(ValueError):
    """A document request that cannot be served; the message says why (shown to the user)."""


@dataclass(frozen=True)
class Spec:
    """What to print. ``game``/``round`` are numbers, ``player`` a Player id; ``language`` '' = the tournament's."""

    kind: str
    tournament_id: int
    game: int | None = None
    round: int | None = None
    player: int | None = None
    group_by: str | None = None
    copies: int = 1
    language: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Spec:
        return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})

    def params_key(self) -> str:
        """The parameters that change the document, as stable text."""
        return json.dumps({k: v for k, v in self.to_json().items() if k not in ("kind",)}, sort_keys=True)


def _int(value: Any, what: str) -> int | None:
    if value in (None, ""):
        return None
    try:
        n = int(str(value).strip())
    except (TypeError, ValueError):
        raise SpecError(f"{what} must be a whole number, not {value!r}") from None
    if n < 1:
        raise SpecError(f"{what} must be 1 or more, not {n}")
    return n


def make_spec(tournament: Tournament, kind: str, *, game: Any = None, round: Any = None, player: Any = None,
              group_by: str | None = None, copies: Any = None, language: str | None = None) -> Spec:
    """Checks a request against the tournament and returns its :class:`Spec` (or :class:`SpecError`)."""
    if kind not in KINDS:
        raise SpecError(f"unknown document {kind!r}: one of {', '.join(KINDS)}")
    game_n, round_n, player_id = _int(game, "the game"), _int(round, "the round"), _int(player, "the player")
    copies_n = _int(copies, "the number of copies") or 1
    group = (group_by or "").strip() or None
    lang = (language or "").strip()
    if lang and lang not in dict(settings.LANGUAGES):
        raise SpecError(f"unknown language {lang!r}: one of {', '.join(dict(settings.LANGUAGES))}")
    if group and group not in GROUPS:
        raise SpecError(f"group by {group!r}: one of {', '.join(GROUPS)}")
    if group and kind != "standings":
        raise SpecError("group-by applies to the standings only")
    if copies_n > MAX_COPIES:
        raise SpecError(f"at most {MAX_COPIES} copies per table")
    if copies_n > 1 and kind != "slips":
        raise SpecError("copies apply to the slips only")
    needs_game = kind in ("game-sheet", "arbitration")
    if needs_game and game_n is None:
        raise SpecError(f"the {kind} needs a game number (--game N)")
    if kind == "arbitration" and round_n is None:
        raise SpecError("the arbitration sheet needs a round number (--round N)")
    if kind == "player-sheet" and player_id is None:
        raise SpecError("the player sheet needs a player (--player ID)")
    if kind not in ("game-sheet", "arbitration", "standings", "slips") and game_n is not None:
        raise SpecError(f"the {kind} does not take a game")
    if kind not in ("arbitration", "slips") and round_n is not None:
        raise SpecError(f"the {kind} does not take a round")
    if kind not in ("player-sheet", "cards") and player_id is not None:
        raise SpecError(f"the {kind} does not take a player")
    spec = Spec(kind, tournament.pk, game_n, round_n, player_id, group, copies_n, lang)
    _named(spec, tournament)
    return spec


# -- the rows of a spec -----------------------------------------------------------------------------------


def _named(spec: Spec, tournament: Tournament | int) -> Subjects:
    """The rows ``spec`` names (:class:`SpecError` when one is missing). Slips may be printed before their
    game starts: their game and round numbers are only printed on them."""
    found = reading.subjects(tournament, game=spec.game if spec.kind != "slips" else None,
                             round=spec.round if spec.kind == "arbitration" else None, player=spec.player)
    slug = found.tournament.slug
    if spec.game is not None and spec.kind != "slips" and found.game is None:
        raise SpecError(f"{slug} has no game {spec.game}")
    if spec.round is not None and spec.kind == "arbitration" and found.round is None:
        raise SpecError(f"game {spec.game} has no round {spec.round}")
    if spec.player is not None and found.registration is None:
        raise SpecError(f"player {spec.player} is not registered in {slug}")
    return found


def resolve(spec: Spec) -> Subjects:
    """The tournament, game, round and registration a spec names, as they are now (:class:`SpecError` when
    one of them is gone since the spec was made)."""
    return _named(spec, spec.tournament_id)
