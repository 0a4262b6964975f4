"""The only reader and writer of a game's engine state (``Game.state``, ``Round.state_before``).

A game's truth is the engine's :class:`~scoring.game.DuplicateGame`, saved as JSON in ``Game.state``
(board, bag, rack, the rounds played, the draw log). Nothing else in the tournament side opens that
JSON: pages, the API, the PDFs and the services ask here for the board, the rack, the history of the
rounds played, and the services change the game through :func:`load` / :func:`save`.

``Round.state_before`` is the game as it was before the round's rack was drawn: what a cancellation
goes back to (:func:`rewind`). It is written once, when the round is drawn (:func:`snapshot`).

What the tournament keeps per round in its own columns (rack, leftover, drawn, the board before, the
chosen top) is the round as the hall played it; slips and verdicts hang on those rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypedDict

from scoring.board import Board
from scoring.draw import Makeup, minimums, rack_size_for
from scoring.game import DuplicateGame, GameError, GameState, RoundRecord
from scoring.rules import RuleSet, get_ruleset
from scoring.variants import variant_ruleset

from .models import Game, Round

#: ``Game.state`` as read from the database: JSON saved from a :class:`~scoring.game.GameState`.
State = dict[str, Any]


def new_state(ruleset: str, seed: int, prepared: list[str] | None, variant: str = "classic") -> GameState:
    """The saved state of a new game of ``variant`` (:mod:`scoring.variants`; GameError / DrawError when the
    seed or racks are unusable)."""
    return DuplicateGame(ruleset, seed, prepared=prepared, variant=variant).to_json()


def load(game: Game) -> DuplicateGame:
    """The engine's game (GameError ``bad_state`` when the saved state cannot be read)."""
    return DuplicateGame.from_json(game.state)


def save(game: Game, engine: DuplicateGame, *, fields: tuple[str, ...] = ()) -> None:
    """Writes the engine's state into the game row (with ``fields``, other columns changed by the caller)."""
    game.state = engine.to_json()
    game.save(update_fields=["state", *fields])


def snapshot(game: Game) -> State:
    """The state to keep with a round being drawn (what :func:`rewind` goes back to)."""
    return dict(game.state)


def rewind(game: Game, rnd: Round) -> None:
    """Puts the game back as it was before ``rnd`` was drawn (the caller saves the row)."""
    game.state = dict(rnd.state_before)


def reseed(game: Game, seed: int) -> None:
    """Gives the bag a new seed (the caller saves the row): the next draws differ from those of the old seed.
    A cancelled round drawn again must not give the same rack (RULES §4: a redraw after a leaked rack)."""
    engine = load(game)
    engine.bag.seed = seed
    game.state = engine.to_json()


def bag_seed(game: Game) -> int:
    """The seed the bag draws with now (the game's seed, or a new one after a cancellation)."""
    bag = _raw(game).get("bag") or {}
    return int(bag.get("seed", game.seed))


def leftover(game: Game) -> str:
    """The tiles kept for the next rack (between rounds); "" after a redraw or before the first round."""
    return str(_raw(game).get("leftover") or "")


def next_draw(game: Game) -> tuple[str, int]:
    """(leftover, how many new tiles the bag gives) for the game's next rack (("", 0) when none can be drawn)."""
    if not isinstance(game.state, dict) or game.state.get("phase") != "draw":
        return "", 0
    engine = load(game)
    size = rack_size_for(engine.ruleset, engine.leftover, engine.bag)
    return "".join(engine.leftover), max(0, size - len(engine.leftover))


class Redraw(TypedDict):
    """A rack that went back into the bag before the round's rack was kept, and why (a code)."""

    rack: str
    reason: str  # "vowels", "consonants", "vowels_consonants" (too few), "no_move" (no legal move)


#: How a round's rack came: the computer drew it, the arbiter typed it from a physical bag, a prepared game.
RACK_SOURCES = ("random", "typed", "prepared")


def redraws(rnd: Round) -> list[Redraw]:
    """The racks of the round that went back into the bag (its draw log), first to last."""
    ruleset = get_ruleset(rnd.game.tournament.ruleset)
    out: list[Redraw] = []
    for event in rnd.draw_log or []:
        if event.get("valid", True):
            continue
        rack = str(event.get("rack", ""))
        if event.get("kind") == "no_move":
            out.append({"rack": rack, "reason": "no_move"})
            continue
        out.append({"rack": rack, "reason": rack_reason(ruleset, rack, int(event.get("round", rnd.number)))})
    return out


def rack_reason(ruleset: RuleSet, rack: str, round_no: int) -> str:
    """Why a rack of round ``round_no`` is not valid (a key of ``labels.REDRAW_REASONS``): too few vowels,
    consonants, or both."""
    mk = Makeup.of(ruleset, list(rack))
    need_v, need_c = minimums(round_no)
    few_v, few_c = mk.vowels < need_v, mk.consonants < need_c
    return "vowels_consonants" if few_v and few_c else "consonants" if few_c else "vowels"


def redraw_reason(ruleset_id: str, event: dict[str, Any]) -> str:
    """Why a rack of a draw log went back into the bag (a key of ``labels.REDRAW_REASONS``), from the event itself:
    the engine's reason in the log is English text for the record."""
    if event.get("kind") == "no_move":
        return "no_move"
    return rack_reason(get_ruleset(ruleset_id), str(event.get("rack", "")), int(event.get("round", 1) or 1))


def rack_source(rnd: Round) -> str:
    """How the round's rack came (one of :data:`RACK_SOURCES`), from the last event of its draw log."""
    kinds = [e.get("kind") for e in rnd.draw_log or [] if e.get("valid", True)]
    last = kinds[-1] if kinds else "draw"
    return last if last in ("typed", "prepared") else "random"


def _raw(game: Game) -> State:
    return game.state if isinstance(game.state, dict) else {}


def board_fen(game: Game) -> str:
    """The board as it is now (after the last published round), as FEN."""
    return str(_raw(game).get("board") or "")


def board(game: Game) -> Board:
    return Board.from_fen(ruleset_of(game), board_fen(game) or None)


def ruleset_of(game: Game) -> RuleSet:
    """The rule set the game plays by: the tournament's, with its variant's rack numbers (7-among-8: racks of 8)."""
    return variant_ruleset(game.tournament.ruleset, game.variant)


def board_after(rnd: Round) -> str:
    """The board (FEN) after a published round's top: the next live round's board, else the game's."""
    nxt = (rnd.game.rounds.exclude(status=Round.Status.CANCELLED).filter(number__gt=rnd.number)
           .order_by("number").first())
    if nxt is not None:
        return nxt.board_before
    return board_fen(rnd.game)


def last_published(game: Game) -> Round | None:
    return game.rounds.filter(status=Round.Status.PUBLISHED).order_by("-number").first()


def published_board(game: Game) -> str:
    """The board (FEN) after the game's last published round: what the hall has on its boards."""
    last = last_published(game)
    return board_after(last) if last else board_fen(game)


def rack_on_stand(game: Game) -> str:
    """The rack waiting for its top ("" between rounds)."""
    return str(_raw(game).get("rack") or "")


def history(game: Game) -> list[RoundRecord]:
    """The rounds played (published), first to last, as the engine recorded them."""
    out = []
    for data in _raw(game).get("rounds", []):
        try:
            out.append(RoundRecord.from_json(data))
        except TypeError as exc:  # a state written by another version
            raise GameError("bad_state", f"a round of the saved game cannot be read: {exc}") from None
    return out


def replaced_blanks(game: Game) -> dict[int, str]:
    """The Joker variant: round number → the letters whose tiles replaced on the board the blanks its top played
    (only rounds that had one; the blank went back into the bag)."""
    return {rec.round: rec.replaced for rec in history(game) if rec.replaced}


@dataclass(frozen=True)
class Fingerprint:
    """What of the engine's state a printed document shows (for its cache key)."""

    board: str
    rounds: list[dict[str, Any]]


def fingerprint(game: Game) -> Fingerprint:
    raw = _raw(game)
    return Fingerprint(str(raw.get("board") or ""), list(raw.get("rounds") or []))


__all__ = ["RACK_SOURCES", "Redraw", "bag_seed", "board", "board_after", "board_fen", "last_published", "leftover",
           "published_board", "fingerprint", "history", "load", "new_state", "next_draw", "rack_on_stand", "rack_source", "redraws",
           "replaced_blanks", "reseed", "rewind", "ruleset_of", "save", "snapshot"]
