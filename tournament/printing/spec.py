"""What to print: a :class:`Spec` (the kind of document and its parameters), checked against the tournament.

Kinds: ``standings``, ``game-sheet``, ``player-sheet``, ``arbitration``, ``slips``, ``cards``. The rows a
spec names are read by :func:`tournament.services.reading.subjects`.

The player sheet is of one player (``player``), of every player (``player="all"``) or of the players of one
club, series or category (``group_by`` and ``group``, its name): several players in one PDF, a page each.
The arbitration sheet may list only the verdicts to look at again (``flagged_only``).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from django.conf import settings
from django.utils.translation import ngettext

from ..models import Tournament
from ..services import reading
from ..services.reading import Subjects
from .layout import tr as _

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
    all_players: bool = False  # player-sheet: every player (or, with group_by, those of ``group``)
    group: str | None = None  # player-sheet: the club, series or category named by group_by
    flagged_only: bool = False  # arbitration: only the verdicts to look at again

    @property
    def several_players(self) -> bool:
        return self.kind == "player-sheet" and self.player is None

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
        raise SpecError(_("%(what)s must be a whole number, not «%(value)s»") % {"what": what, "value": value}) from None
    if n < 1:
        raise SpecError(_("%(what)s must be 1 or more, not %(n)s") % {"what": what, "n": n})
    return n


def _flag(value: Any) -> bool:
    return value is True or str(value or "").strip().lower() in ("1", "true", "on", "yes")


def _players(kind: str, player: Any, group_by: str | None, group: str | None) -> tuple[int | None, bool, str | None]:
    """(player id, every player, group name) of a request: ``player`` is an id or "all"; ``group`` (a club,
    series or category name, of the kind ``group_by``) chooses the player sheets of that group's players."""
    everyone = kind == "player-sheet" and (str(player or "").strip().lower() == "all" or group is not None)
    if group is not None and (kind != "player-sheet" or not group_by):
        raise SpecError(_("a group (club, series or category) applies to the player sheets, with a grouping"))
    if kind == "player-sheet" and group_by and group is None:
        raise SpecError(_("the player sheets by group need the group's name"))
    player_id = None if everyone else _int(player, _("the player"))
    if kind == "player-sheet" and player_id is None and not everyone:
        raise SpecError(_("the player sheet needs a player (or all players)"))
    return player_id, everyone, " ".join(group.split()) if group is not None else None


def make_spec(tournament: Tournament, kind: str, *, game: Any = None, round: Any = None, player: Any = None,
              group_by: str | None = None, copies: Any = None, language: str | None = None,
              group: str | None = None, flagged_only: Any = False) -> Spec:
    """Checks a request against the tournament and returns its :class:`Spec` (or :class:`SpecError`).

    ``player``: a Player id, or ``"all"`` for the player sheets of every player (of the club, series or
    category ``group`` when ``group_by`` names its kind). ``flagged_only``: the arbitration sheet lists only
    the verdicts to look at again."""
    if kind not in KINDS:
        raise SpecError(_("unknown document «%(kind)s»: one of %(kinds)s") % {"kind": kind, "kinds": ", ".join(KINDS)})
    by = (group_by or "").strip() or None
    game_n, round_n = _int(game, _("the game")), _int(round, _("the round"))
    player_id, everyone, group_name = _players(kind, player, by, group)
    flagged = _flag(flagged_only)
    copies_n = _int(copies, _("the number of copies")) or 1
    lang = (language or "").strip()
    if lang and lang not in dict(settings.LANGUAGES):
        raise SpecError(_("unknown language «%(lang)s»: one of %(langs)s") % {"lang": lang,
                                                                             "langs": ", ".join(dict(settings.LANGUAGES))})
    if by and by not in GROUPS:
        raise SpecError(_("group by «%(by)s»: one of %(groups)s") % {"by": by, "groups": ", ".join(GROUPS)})
    if by and kind not in ("standings", "player-sheet"):
        raise SpecError(_("a grouping applies to the standings and the player sheets only"))
    if flagged and kind != "arbitration":
        raise SpecError(_("“flagged only” applies to the arbitration sheet only"))
    if copies_n > MAX_COPIES:
        raise SpecError(ngettext("At most %(n)s slip per table.", "At most %(n)s slips per table.", MAX_COPIES)
                        % {"n": MAX_COPIES})
    if copies_n > 1 and kind != "slips":
        raise SpecError(_("copies apply to the slips only"))
    if kind in ("game-sheet", "arbitration") and game_n is None:
        raise SpecError(_("this document needs a game number"))
    if kind == "arbitration" and round_n is None:
        raise SpecError(_("the arbitration sheet needs a round number"))
    if kind not in ("game-sheet", "arbitration", "standings", "slips") and game_n is not None:
        raise SpecError(_("this document does not take a game"))
    if kind not in ("arbitration", "slips") and round_n is not None:
        raise SpecError(_("this document does not take a round"))
    if kind not in ("player-sheet", "cards") and player_id is not None:
        raise SpecError(_("this document does not take a player"))
    spec = Spec(kind, tournament.pk, game_n, round_n, player_id, by, copies_n, lang, all_players=everyone,
                group=group_name, flagged_only=flagged)
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
        raise SpecError(_("%(tournament)s has no game %(game)s.") % {"tournament": slug, "game": spec.game})
    if spec.round is not None and spec.kind == "arbitration" and found.round is None:
        raise SpecError(_("Game %(game)s has no round %(round)s.") % {"game": spec.game, "round": spec.round})
    if spec.player is not None and found.registration is None:
        raise SpecError(_("Player %(player)s is not registered in %(tournament)s.") % {
            "player": spec.player, "tournament": slug})
    if spec.several_players and spec.group is not None and not reading.sheet_registrations(
            found.tournament, spec.group_by, spec.group):
        kind = {"club": _("Club"), "series": _("Series"), "category": _("Category")}.get(spec.group_by or "", "")
        raise SpecError(_("%(kind)s “%(name)s”: no player.") % {"kind": kind, "name": spec.group})
    return found


def resolve(spec: Spec) -> Subjects:
    """The tournament, game, round and registration a spec names, as they are now (:class:`SpecError` when
    one of them is gone since the spec was made)."""
    return _named(spec, spec.tournament_id)
