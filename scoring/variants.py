"""Game variants as data (RULES §4 "Variants"): what a variant changes in the draw and after a top.

Nothing here imports Django. A game has one variant next to its rule set; ``classic`` changes
nothing (the game of RULES §4 as it is). ``joker`` is the Joker game (issue 17):

* **the rack** — every rack holds one blank while one is available: when the leftover has no blank,
  a blank is taken from the bag first (not drawn at random), then the rack is filled at random
  from the letters only (the other blank is never drawn while the first is in play), and the
  vowel/consonant rule of RULES §4 applies to the whole rack, the blank counting as whichever the
  rack needs; a redraw puts everything back and starts again with the blank;
* **after the top** — a blank the top played from the rack is replaced on the board by the real
  tile of its letter when the bag holds one: that tile leaves the bag, the blank goes back into
  it and comes out on the next rack; later moves score that square's tile at full value. When the
  bag holds none of that letter (all on the board or on the rack), the blank stays on the board as
  a blank, and the next rack takes the other blank, if one is left;
* **the end** — as RULES §4; once both blanks are on the board the racks are drawn as usual.

``7among8`` is the 7-among-8 game (issue 17; docs/en/rules/7among8.md): racks of **8** tiles (the
leftover + tiles drawn up to 8; the vowel/consonant minimums and the redraw of RULES §4 as they are),
a move places **at most 7** of them, and the bonus (50) is for a move that places 7. It is a rule set
with other numbers (:meth:`Variant.ruleset`: ``rack_size`` 8, ``play_max`` 7), so the draw, the
notation, the solver, the placement rules and the judge follow without knowing the variant.
Sources: Eliot ``game/game_params.h`` (``k7AMONG8``: rack size 8, letters to play 7, bonus 50),
``game/board.cpp`` (a move of more than ``getLettersToPlay()`` tiles refused) and its regression
games ``records/fr/eliot/*7among8_variant*.ref`` (replayed by ``tests/engine/test_seven_among_eight.py``).

Sources: Eliot (``game/game.cpp`` ``helperSetRackRandom``: the joker put on the rack first, the
other jokers kept out of the random part; ``game/cmd/game_move_cmd.cpp`` ``playRound``: the joker
replaced by its letter when the bag still holds it, the joker back into the bag) and its
regression games ``records/fr/eliot/*joker_variant*.ref`` (replayed by ``tests/engine/test_joker.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .board import Board, Tile
from .placement import Placement
from .rules import RuleSet, get_ruleset

BLANK = "?"


class VariantError(ValueError):
    """A variant name the engine does not know."""


@dataclass(frozen=True)
class Variant:
    """One variant: its id, its name and the rules it changes (flags read by the draw and the game)."""

    id: str
    name: str
    #: every rack holds a blank while one is available (taken before the random draw)
    blank_on_rack: bool = False
    #: a blank played by the top is replaced by its letter from the bag and goes back into the bag
    blank_replaced: bool = False
    #: topping (:mod:`scoring.topping`): players race to the top; results are times, not points
    timed: bool = False
    #: topping: seconds added to the limit for a round not topped within it
    timeout_penalty: int = 0
    #: a note for the GCG record (what the variant changes), empty for classic
    note: str = ""
    #: tiles on a full rack (0: the rule set's, 7)
    rack_size: int = 0
    #: the most tiles one move places, and the number the bonus is for (0: the whole rack)
    play_max: int = 0

    @property
    def classic(self) -> bool:
        return not (self.blank_on_rack or self.blank_replaced or self.timed or self.rack_size or self.play_max)

    def ruleset(self, ruleset: RuleSet) -> RuleSet:
        """``ruleset`` with this variant's rack size and most tiles per move (itself when they are the same)."""
        if not (self.rack_size or self.play_max) or ruleset.play_max:
            return ruleset
        if ruleset is get_ruleset(ruleset.id):
            return _sized(ruleset.id, self.rack_size, self.play_max)
        return replace(ruleset, rack_size=self.rack_size or ruleset.rack_size, play_max=self.play_max)


CLASSIC = Variant("classic", "Classic")
JOKER = Variant("joker", "Joker", blank_on_rack=True, blank_replaced=True,
                note="a blank played is replaced by its letter's tile from the bag, when one is left")
#: Topping (issue 17): racks and tops as in the classic game; each player's result per round is the time he
#: took to hand in the top, a round not topped within the limit costs the limit + 60 s (docs/en/rules/topping.md).
TOPPING = Variant("topping", "Topping", timed=True, timeout_penalty=60,
                  note="each player's time to find the top counts, a round not topped costs the limit + 60 s")
SEVEN_AMONG_EIGHT = Variant("7among8", "7-among-8", rack_size=8, play_max=7,
                            note="racks of 8 tiles, a move places at most 7, the bonus is for 7")
VARIANTS = {v.id: v for v in (CLASSIC, JOKER, TOPPING, SEVEN_AMONG_EIGHT)}

_SIZED: dict[tuple[str, int, int], RuleSet] = {}


def _sized(ruleset_id: str, rack_size: int, play_max: int) -> RuleSet:
    """The registered rule set with other rack numbers, one object per (set, sizes): the solver's
    tables and the rule set's caches are built once."""
    key = (ruleset_id, rack_size, play_max)
    found = _SIZED.get(key)
    if found is None:
        base = get_ruleset(ruleset_id)
        found = replace(base, rack_size=rack_size or base.rack_size, play_max=play_max)
        _SIZED[key] = found
    return found


def variant_ruleset(ruleset: RuleSet | str, variant: Variant | str | None) -> RuleSet:
    """The rule set a game of ``variant`` plays by (the 7-among-8 game: racks of 8, moves of at most 7)."""
    rs = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    return get_variant(variant).ruleset(rs)


def get_variant(variant: Variant | str | None) -> Variant:
    """The variant named ``variant`` (``None`` is ``classic``); VariantError when unknown."""
    if variant is None:
        return CLASSIC
    if isinstance(variant, Variant):
        return variant
    try:
        return VARIANTS[variant]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise VariantError(f"unknown variant {variant!r} (known: {known})") from None


def variant_ids() -> list[str]:
    return list(VARIANTS)


def replace_blanks(board: Board, bag_has: dict[str, int], placed: tuple[Placement, ...]) -> list[str]:
    """The Joker rule after a top: each blank of ``placed`` whose letter ``bag_has`` still holds
    becomes that letter's tile on ``board`` (changed in place).

    Returns the letters that replaced a blank, in board order; the caller takes them from the bag
    and puts as many blanks back. ``bag_has`` is the bag's contents (letter → count)."""
    left = dict(bag_has)
    replaced: list[str] = []
    for p in placed:
        if p.blank and left.get(p.letter, 0) > 0:
            left[p.letter] -= 1
            board[p.row, p.col] = Tile(p.letter, False)
            replaced.append(p.letter)
    return replaced


__all__ = [
    "CLASSIC",
    "JOKER",
    "SEVEN_AMONG_EIGHT",
    "TOPPING",
    "VARIANTS",
    "Variant",
    "VariantError",
    "get_variant",
    "replace_blanks",
    "variant_ids",
    "variant_ruleset",
]
