"""Drawing racks by the rules of duplicate play (RULES §4 "Racks").

Nothing here imports Django.

The bag
-------
:class:`Bag` holds the tiles not yet drawn (``?`` is a blank) and a seed. The
draws are reproducible from the seed alone, whatever happened before, by this
algorithm (it is part of the record format: do not change it):

* the *k*-th random drawing event of a game (k = 0, 1, 2 …; every fill of a
  rack counts, redraws included) uses its own generator
  ``random.Random(f"{seed}:{k}")`` (string seeds are hashed with SHA-512 by
  CPython, stable across versions);
* the bag is listed in the canonical order: the letters of the rule set in
  their order (``RuleSet.letters``), each as many times as it is in the bag,
  then the blanks;
* each tile of the event is ``tiles.pop(rng.randrange(len(tiles)))`` from that
  list, so the tiles come out in drawing order.

So the state of a bag is its contents, the seed and the number of events so far
(``Bag.to_json``), and the same seed gives the same game.

Racks
-----
A rack is the leftover of the previous rack plus tiles drawn up to the rack
size (fewer when the bag is short). It is *valid* in rounds 1–15 with at least
2 vowels and 2 consonants, from round 16 with at least 1 and 1; blanks count
as whichever the rack needs; the Ukrainian apostrophe is neither
(:func:`check_rack`).

Relaxation ("where the tiles left cannot meet the minimum, the minimum is what
they still allow"): the *shortfall* of a rack is the number of tiles it misses
to meet the minimum, blanks filling the gaps::

    shortfall = max(0, max(0, need_v - vowels) + max(0, need_c - consonants) - blanks)

The *best shortfall* is the smallest shortfall of any rack that could be drawn
from the tiles left (leftover + bag, as many tiles as a rack takes), computed
exactly by enumerating the vowel/consonant/blank/other make-up of such a rack.
A rack is valid when its shortfall is at most the best shortfall; normally
that is 0, i.e. the plain rule. When vowels (or consonants) run out, a rack is
valid when it is as close to the rule as the tiles left allow, e.g. with one
vowel left in rounds 1–15 a rack needs that vowel and 2 consonants.

Redraw: when a drawn rack is invalid **all** its tiles, the leftover included,
go back into the bag and a full rack is drawn again, until valid. Every draw
and redraw is logged (:class:`DrawEvent`).

The arbiter may type the rack drawn from a physical bag (:func:`typed_rack`)
or play a prepared game (a list of racks); both are checked against the bag.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import TypedDict

from .notation import NotationError, parse_rack
from .rules import RuleSet
from .variants import CLASSIC, Variant

BLANK = "?"
#: Rounds 1..EARLY_ROUNDS need 2 vowels and 2 consonants, later rounds 1 and 1.
EARLY_ROUNDS = 15
#: A safety net: a rack that stays invalid after this many redraws is an error
#: (with the relaxation above a valid rack always exists, so this is never
#: reached in practice).
MAX_REDRAWS = 10_000


class DrawError(ValueError):
    """A rack that cannot be drawn or accepted; ``code`` names the problem."""

    def __init__(self, code: str, message: str, **params: object):
        super().__init__(message)
        self.code = code
        self.params = params


# -- tiles ---------------------------------------------------------------------


def tile_order(ruleset: RuleSet) -> dict[str, int]:
    """Canonical order of the tiles: the letters in rule-set order, then the blank."""
    order = {letter: i for i, letter in enumerate(ruleset.letters)}
    order[BLANK] = len(order)
    return order


def sort_tiles(ruleset: RuleSet, tiles: Iterable[str]) -> list[str]:
    order = tile_order(ruleset)
    return sorted(tiles, key=lambda t: order.get(t, len(order) + 1))


def tiles_text(tiles: Iterable[str]) -> str:
    return "".join(tiles)


def _describe(counter: Counter[str]) -> str:
    return ", ".join(f"{n} × {_tile_name(t)}" if n > 1 else _tile_name(t) for t, n in counter.items())


def _tile_name(tile: str) -> str:
    return "a blank (?)" if tile == BLANK else tile


def check_tiles(ruleset: RuleSet, tiles: Iterable[str]) -> list[str]:
    """Raise DrawError for anything that is not a tile of the set."""
    out = list(tiles)
    for t in out:
        if t != BLANK and not ruleset.is_letter(t):
            raise DrawError("bad_tile", f"«{t}» is not a tile of the {ruleset.id} set", tile=t)
    return out


# -- the bag -------------------------------------------------------------------


class BagState(TypedDict):
    """A bag as saved in a game's state."""

    seed: int
    events: int
    tiles: str


class Bag:
    """The tiles not yet drawn, drawn at random reproducibly from a seed (see the module doc)."""

    __slots__ = ("ruleset", "seed", "events", "_tiles")

    def __init__(self, ruleset: RuleSet, seed: int, tiles: Iterable[str] | None = None, events: int = 0):
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise DrawError("bad_seed", f"the seed must be a whole number, not {seed!r}")
        self.ruleset = ruleset
        self.seed = seed
        self.events = events
        self._tiles: Counter[str] = Counter(check_tiles(ruleset, ruleset.full_bag() if tiles is None else tiles))

    # -- contents ---------------------------------------------------------------
    def __len__(self) -> int:
        return self._tiles.total()

    def counts(self) -> Counter[str]:
        """A copy of the contents."""
        return Counter(self._tiles)

    def tiles(self) -> list[str]:
        """The contents in canonical order."""
        order = tile_order(self.ruleset)
        return [t for t in sorted(self._tiles, key=order.__getitem__) for _ in range(self._tiles[t])]

    def count(self, tile: str) -> int:
        return self._tiles[tile]

    def __contains__(self, tile: str) -> bool:
        return self._tiles[tile] > 0

    # -- moving tiles -----------------------------------------------------------
    def draw(self, n: int) -> list[str]:
        """Draw ``n`` tiles at random (all that are left if fewer), one drawing event."""
        rng = random.Random(f"{self.seed}:{self.events}")
        self.events += 1
        listed = self.tiles()
        drawn = [listed.pop(rng.randrange(len(listed))) for _ in range(min(n, len(listed)))]
        self._tiles.subtract(drawn)
        self._tiles = +self._tiles
        return drawn

    def missing(self, tiles: Iterable[str]) -> Counter[str]:
        """The tiles of ``tiles`` the bag cannot supply (empty when it can)."""
        need = Counter(tiles)
        return Counter({t: n - self._tiles[t] for t, n in need.items() if n > self._tiles[t]})

    def take(self, tiles: Iterable[str]) -> list[str]:
        """Remove these exact tiles (a rack typed by the arbiter); DrawError if one is not there."""
        wanted = list(tiles)
        short = self.missing(wanted)
        if short:
            raise DrawError("not_in_bag", self.missing_message(wanted, short), missing=tiles_text(short.elements()),
                            typed=tiles_text(wanted))
        self._tiles.subtract(wanted)
        self._tiles = +self._tiles
        return wanted

    def missing_message(self, wanted: Iterable[str], short: Counter[str]) -> str:
        need = Counter(wanted)
        parts = []
        for t in sort_tiles(self.ruleset, short):
            have = self._tiles[t]
            name = "blank (?)" if t == BLANK else t
            if have == 0:
                parts.append(f"the bag holds no {name}")
            else:
                parts.append(f"the bag holds {have} × {name} but the rack draws {need[t]}")
        return "; ".join(parts)

    def put_back(self, tiles: Iterable[str]) -> None:
        tiles = check_tiles(self.ruleset, tiles)
        self._tiles.update(tiles)

    # -- persistence --------------------------------------------------------------
    def to_json(self) -> BagState:
        return {"seed": self.seed, "events": self.events, "tiles": tiles_text(self.tiles())}

    @classmethod
    def from_json(cls, ruleset: RuleSet, data: BagState) -> Bag:
        return cls(ruleset, data["seed"], list(data["tiles"]), data.get("events", 0))

    def __repr__(self) -> str:
        return f"Bag({self.ruleset.id!r}, seed={self.seed}, {len(self)} tiles, events={self.events})"


# -- rack validity -------------------------------------------------------------


def minimums(round_no: int) -> tuple[int, int]:
    """(vowels, consonants) a rack of this round needs before any relaxation."""
    return (2, 2) if round_no <= EARLY_ROUNDS else (1, 1)


@dataclass(frozen=True)
class Makeup:
    """How many vowels, consonants, blanks and other tiles (the apostrophe) a set of tiles holds."""

    vowels: int
    consonants: int
    blanks: int
    others: int

    @classmethod
    def of(cls, ruleset: RuleSet, tiles: Iterable[str]) -> Makeup:
        v = c = b = o = 0
        for t in tiles:
            if t == BLANK:
                b += 1
            elif ruleset.is_vowel(t):
                v += 1
            elif ruleset.is_consonant(t):
                c += 1
            else:
                o += 1
        return cls(v, c, b, o)

    @property
    def total(self) -> int:
        return self.vowels + self.consonants + self.blanks + self.others


def shortfall(makeup: Makeup, need_v: int, need_c: int) -> int:
    """Tiles missing to meet (need_v, need_c), blanks counting as whichever is short."""
    gap = max(0, need_v - makeup.vowels) + max(0, need_c - makeup.consonants)
    return max(0, gap - makeup.blanks)


@cache
def best_shortfall(pool: Makeup, size: int, need_v: int, need_c: int) -> int:
    """The smallest shortfall of any rack of ``size`` tiles drawn from ``pool``."""
    best = need_v + need_c
    for v in range(min(pool.vowels, size) + 1):
        for c in range(min(pool.consonants, size - v) + 1):
            for b in range(min(pool.blanks, size - v - c) + 1):
                if size - v - c - b > pool.others:
                    continue
                best = min(best, shortfall(Makeup(v, c, b, 0), need_v, need_c))
                if best == 0:
                    return 0
    return best


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


@dataclass(frozen=True)
class RackCheck:
    """The verdict on a rack: valid or not, why, and whether the rule was relaxed."""

    valid: bool
    reason: str
    need_vowels: int
    need_consonants: int
    makeup: Makeup
    shortfall: int
    allowed_shortfall: int

    @property
    def relaxed(self) -> bool:
        return self.allowed_shortfall > 0


def check_rack(ruleset: RuleSet, rack: Iterable[str], round_no: int, pool: Iterable[str] | None = None) -> RackCheck:
    """Is ``rack`` valid in round ``round_no``?

    ``pool`` is every tile left (the rack's tiles + the bag) and decides the
    relaxation; without it the plain rule applies (no relaxation).
    """
    rack = list(rack)
    need_v, need_c = minimums(round_no)
    mk = Makeup.of(ruleset, rack)
    pool_mk = Makeup.of(ruleset, rack if pool is None else pool)
    size = min(ruleset.rack_size, pool_mk.total)
    allowed = 0 if pool is None else best_shortfall(pool_mk, size, need_v, need_c)
    short = shortfall(mk, need_v, need_c)
    rule = f"{_plural(need_v, 'vowel')} and {_plural(need_c, 'consonant')}"
    when = f"rounds 1–{EARLY_ROUNDS}" if round_no <= EARLY_ROUNDS else f"from round {EARLY_ROUNDS + 1}"
    has = (
        f"{_plural(mk.vowels, 'vowel')}, {_plural(mk.consonants, 'consonant')} "
        f"and {'no blank' if not mk.blanks else _plural(mk.blanks, 'blank')}"
    )
    relax = ""
    if allowed:
        relax = (
            f"the {pool_mk.total} tiles left hold {_plural(pool_mk.vowels, 'vowel')}, "
            f"{_plural(pool_mk.consonants, 'consonant')} and {_plural(pool_mk.blanks, 'blank')}, "
            f"so a rack can at best be {allowed} short of {rule}"
        )
    rack_text = tiles_text(rack)
    if short <= allowed:
        reason = f"relaxed minimum: {relax}" if allowed else ""
        return RackCheck(True, reason, need_v, need_c, mk, short, allowed)
    reason = f"{when} a rack needs {rule} (a blank counts as either); {rack_text} has {has}"
    if allowed:
        reason += f"; even relaxed ({relax}) it is {short} short"
    return RackCheck(False, reason, need_v, need_c, mk, short, allowed)


# -- draw log ------------------------------------------------------------------


class DrawEventState(TypedDict):
    """A :class:`DrawEvent` as saved in a game's state (its draw log)."""

    round: int
    kind: str
    leftover: str
    drawn: str
    rack: str
    valid: bool
    reason: str


@dataclass
class DrawEvent:
    """One draw shown to the players: a (re)draw, a typed or prepared rack, or a rack sent back."""

    round: int
    kind: str  # "draw", "redraw", "typed", "prepared", "no_move" (the rack went back: no legal move)
    leftover: str
    drawn: str
    rack: str
    valid: bool
    reason: str = ""

    def to_json(self) -> DrawEventState:
        return {
            "round": self.round,
            "kind": self.kind,
            "leftover": self.leftover,
            "drawn": self.drawn,
            "rack": self.rack,
            "valid": self.valid,
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, data: DrawEventState) -> DrawEvent:
        return cls(**data)


@dataclass
class DrawOutcome:
    """The result of filling a rack.

    ``rack`` is None when a typed rack was invalid: its tiles went back to the
    bag (logged) and the arbiter must draw and type a new full rack.
    ``leftover`` is the part of the rack kept from the previous round
    (empty after a redraw), ``drawn`` the tiles of the last draw.
    """

    rack: list[str] | None
    leftover: list[str]
    drawn: list[str]
    redraws: int
    events: list[DrawEvent] = field(default_factory=list)
    check: RackCheck | None = None

    @property
    def valid(self) -> bool:
        return self.rack is not None


def rack_size_for(ruleset: RuleSet, leftover: list[str], bag: Bag) -> int:
    return min(ruleset.rack_size, len(leftover) + len(bag))


def _draw_joker(ruleset: RuleSet, bag: Bag, keep: list[str]) -> tuple[list[str], list[str]]:
    """The Joker variant's fill (:mod:`scoring.variants`): (the pool that decides the relaxation, the tiles drawn).

    Without a blank among the kept tiles a blank is taken from the bag first (no drawing event);
    the random part is drawn from the letters only, the other blanks set aside meanwhile."""
    blank = [] if BLANK in keep or BLANK not in bag else bag.take([BLANK])
    aside = bag.take([BLANK] * bag.count(BLANK))
    pool = keep + blank + bag.tiles()
    drawn = blank + bag.draw(ruleset.rack_size - len(keep) - len(blank))
    bag.put_back(aside)
    return pool, drawn


def draw_rack(
    ruleset: RuleSet,
    bag: Bag,
    leftover: Iterable[str],
    round_no: int,
    *,
    first_kind: str = "draw",
    variant: Variant = CLASSIC,
) -> DrawOutcome:
    """Fill the rack at random: leftover + tiles from the bag, redrawing everything until valid.

    ``variant``: in the Joker game the rack holds a blank while one is available (:func:`_draw_joker`)."""
    leftover = list(leftover)
    keep = list(leftover)
    events: list[DrawEvent] = []
    redraws = 0
    kind = first_kind
    while True:
        if variant.blank_on_rack:
            pool, drawn = _draw_joker(ruleset, bag, keep)
        else:
            pool = keep + bag.tiles()
            drawn = bag.draw(ruleset.rack_size - len(keep))
        rack = keep + drawn
        verdict = check_rack(ruleset, rack, round_no, pool)
        events.append(
            DrawEvent(round_no, kind, tiles_text(keep), tiles_text(drawn), tiles_text(rack), verdict.valid, verdict.reason)
        )
        if verdict.valid:
            return DrawOutcome(rack, keep, drawn, redraws, events, verdict)
        # All tiles, the leftover included, go back into the bag.
        bag.put_back(rack)
        keep = []
        redraws += 1
        kind = "redraw"
        if redraws > MAX_REDRAWS:
            raise DrawError("no_valid_rack", f"round {round_no}: no valid rack after {MAX_REDRAWS} redraws", round=round_no)


def accept_rack(
    ruleset: RuleSet,
    bag: Bag,
    leftover: Iterable[str],
    round_no: int,
    text: str | Iterable[str],
    *,
    kind: str = "typed",
    invalid: str = "redraw",
    variant: Variant = CLASSIC,
) -> DrawOutcome:
    """Check a rack typed by the arbiter (or taken from a prepared game) and take its new tiles.

    Errors (DrawError, the bag is left untouched): the text is not a rack, the
    leftover is not part of it, a tile is not in the bag, the rack has the
    wrong number of tiles. A rack that is well formed but invalid by the
    vowel/consonant rule is, with ``invalid="redraw"``, not an error: it is
    logged and all its tiles go back into the bag, as a physical redraw
    (``outcome.rack`` is None, the leftover is then empty); with
    ``invalid="raise"`` it is a DrawError ``invalid_rack`` (a prepared game).
    In the Joker variant a rack without a blank while one is left, or with two, is a DrawError
    (``joker_no_blank``, ``joker_two_blanks``).
    """
    leftover = list(leftover)
    if isinstance(text, str):
        try:
            rack = parse_rack(text, ruleset)
        except NotationError as exc:
            raise DrawError("bad_rack", str(exc), typed=text.strip()) from None
    else:
        rack = check_tiles(ruleset, text)
    shown = tiles_text(rack)
    lost = Counter(leftover) - Counter(rack)
    if lost:
        missing = Counter({t: lost[t] for t in sort_tiles(ruleset, lost)})
        raise DrawError(
            "leftover_missing",
            f"the rack {shown} must keep the leftover {tiles_text(leftover)} of the previous round: "
            f"{_describe(missing)} {'is' if missing.total() == 1 else 'are'} missing",
            missing=tiles_text(missing.elements()), typed=shown, leftover=tiles_text(leftover),
        )
    # the new tiles, in the order they were typed
    new: list[str] = []
    kept = Counter(leftover)
    for t in rack:
        if kept[t] > 0:
            kept[t] -= 1
        else:
            new.append(t)
    short = bag.missing(new)
    if short:
        raise DrawError(
            "not_in_bag",
            f"the rack {shown} cannot come from the bag: {bag.missing_message(new, short)}",
            missing=tiles_text(short.elements()), typed=shown,
        )
    size = rack_size_for(ruleset, leftover, bag)
    if len(rack) != size:
        if size == ruleset.rack_size:
            expected = f"it must have {size} (the leftover {len(leftover)} + {size - len(leftover)} from the bag)"
        else:
            expected = f"the bag holds only {len(bag)}, so the rack must hold all {size} tiles left"
        raise DrawError(
            "wrong_size", f"the rack {shown} has {len(rack)} tiles: {expected}", size=len(rack), expected=size,
            typed=shown,
        )
    if variant.blank_on_rack:
        _check_joker_rack(rack, leftover, bag)
    verdict = check_rack(ruleset, rack, round_no, leftover + bag.tiles())
    if not verdict.valid and invalid == "raise":
        raise DrawError("invalid_rack", f"the rack {shown} is not valid: {verdict.reason}", reason=verdict.reason,
                        typed=shown, round=round_no, vowels=verdict.makeup.vowels, consonants=verdict.makeup.consonants,
                        need_vowels=verdict.need_vowels, need_consonants=verdict.need_consonants)
    bag.take(new)
    event = DrawEvent(round_no, kind, tiles_text(leftover), tiles_text(new), shown, verdict.valid, verdict.reason)
    if verdict.valid:
        return DrawOutcome(rack, leftover, new, 0, [event], verdict)
    bag.put_back(rack)
    return DrawOutcome(None, [], new, 1, [event], verdict)


def _check_joker_rack(rack: list[str], leftover: list[str], bag: Bag) -> None:
    """The Joker variant's rack: one blank while one is left (DrawError otherwise)."""
    shown = tiles_text(rack)
    blanks = rack.count(BLANK)
    if blanks == 0 and (BLANK in leftover or BLANK in bag):
        raise DrawError("joker_no_blank", f"the rack {shown} has no blank: in the Joker game every rack holds one "
                        "while one is left", typed=shown)
    if blanks > 1:
        raise DrawError("joker_two_blanks", f"the rack {shown} has {blanks} blanks: in the Joker game a rack "
                        "holds one", typed=shown)


def _multisets(counts: Iterable[int], k_max: int) -> list[int]:
    """``out[k]``: how many different multisets of k tiles the kinds with these counts give."""
    out = [1] + [0] * k_max
    for c in counts:
        nxt = [0] * (k_max + 1)
        for k in range(k_max + 1):
            if out[k]:
                for j in range(min(c, k_max - k) + 1):
                    nxt[k + j] += out[k]
        out = nxt
    return out


def distinct_racks(ruleset: RuleSet, pool: Iterable[str], size: int, round_no: int) -> int:
    """How many different valid racks of ``size`` tiles can be drawn from ``pool`` (exact)."""
    pool = list(pool)
    counts = Counter(pool)
    vowels = [n for t, n in counts.items() if t != BLANK and ruleset.is_vowel(t)]
    consonants = [n for t, n in counts.items() if t != BLANK and ruleset.is_consonant(t)]
    others = [n for t, n in counts.items() if t != BLANK and not ruleset.is_vowel(t) and not ruleset.is_consonant(t)]
    pv, pc, po = (_multisets(x, size) for x in (vowels, consonants, others))
    need_v, need_c = minimums(round_no)
    allowed = best_shortfall(Makeup.of(ruleset, pool), min(ruleset.rack_size, len(pool)), need_v, need_c)
    total = 0
    for v in range(size + 1):
        for c in range(size - v + 1):
            for b in range(min(counts[BLANK], size - v - c) + 1):
                o = size - v - c - b
                ways = pv[v] * pc[c] * po[o]
                if ways and shortfall(Makeup(v, c, b, o), need_v, need_c) <= allowed:
                    total += ways
    return total
