"""What to print: a :class:`Spec` (the kind of document and its parameters), checked against the tournament.

Kinds: ``standings``, ``game-sheet``, ``player-sheet``, ``arbitration``, ``slips``, ``cards``.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from django.conf import settings

from ..models import Game, Registration, Round, Tournament

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

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> Spec:
        return cls(**{k: data.get(k) for k in cls.__dataclass_fields__ if k in data})

    def params_key(self) -> str:
        """The parameters that change the document, as stable text."""
        return json.dumps({k: v for k, v in self.to_json().items() if k not in ("kind",)}, sort_keys=True)


def _int(value, what: str) -> int | None:
    if value in (None, ""):
        return None
    try:
        n = int(str(value).strip())
    except (TypeError, ValueError):
        raise SpecError(f"{what} must be a whole number, not {value!r}") from None
    if n < 1:
        raise SpecError(f"{what} must be 1 or more, not {n}")
    return n


def make_spec(tournament, kind: str, *, game=None, round=None, player=None, group_by=None, copies=None,
              language=None) -> Spec:
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
    if game_n is not None and kind != "slips":  # slips may be printed before their game starts
        g = Game.objects.filter(tournament=tournament, number=game_n).first()
        if g is None:
            raise SpecError(f"{tournament.slug} has no game {game_n}")
        if kind == "arbitration" and not g.rounds.exclude(status=Round.Status.CANCELLED).filter(
                number=round_n).exists():
            raise SpecError(f"game {game_n} has no round {round_n}")
    if player_id is not None and not tournament.registrations.filter(player_id=player_id).exists():
        raise SpecError(f"player {player_id} is not registered in {tournament.slug}")
    return Spec(kind, tournament.pk, game_n, round_n, player_id, group, copies_n, lang)


# -- objects of a spec ------------------------------------------------------------------------------------


@dataclass
class Resolved:
    """The objects a spec names."""

    tournament: Tournament
    game: Game | None = None
    round: Round | None = None
    registration: Registration | None = None


def resolve(spec: Spec) -> Resolved:
    t = Tournament.objects.select_related("lexicon").get(pk=spec.tournament_id)
    out = Resolved(t)
    if spec.game is not None and spec.kind != "slips":
        out.game = t.games.get(number=spec.game)
        if spec.round is not None and spec.kind == "arbitration":
            out.round = (out.game.rounds.exclude(status=Round.Status.CANCELLED).select_related("game__tournament")
                         .get(number=spec.round))
    if spec.player is not None:
        out.registration = t.registrations.select_related("player", "tournament").get(player_id=spec.player)
    return out
