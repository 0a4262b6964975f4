"""One game, many halls: the organiser's side of a simultaneous game.

The organiser prepares the game (:func:`prepare`: the engine plays it to its end with the lexicon's solver, so
every rack and every top is fixed in advance, and the lexicon by its content hash), registers the halls
(:func:`add_hall`: each gets a key that signs its results) and gives each hall its package (:func:`package`, a
file or the API). Each hall plays the game on its own server (:mod:`tournament.services.simulhall`) and sends
back its signed results; :func:`import_results` checks the signature, the game, the lexicon hash and the racks
and tops, and keeps the hall's last file (the same file again changes nothing; a corrected one replaces it,
audited). :func:`national_standings` ranks every player of every hall together with :mod:`scoring.sheet`.
"""

from __future__ import annotations

import random
import secrets
import uuid
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from lexicon.models import Lexicon, LexiconError
from scoring import sheet
from scoring.game import PREPARED_REDRAW, DuplicateGame
from scoring.moves import SolveFn
from scoring.rules import get_ruleset
from scoring.solver import solver_for

from ..errors import Code, ServiceError
from ..models import SimulHall, SimulResult, Simultaneous
from . import audit, simulfiles
from .simulfiles import PlayerResult, RoundPlayed, prepared_rack

#: The filters of the national standings.
FILTERS = ("hall", "club", "series", "category")


def rack_tiles(text: str) -> str:
    """A rack's tiles in a fixed order (leftover and drawn tiles together): two writings of a rack compare."""
    text = text.strip()
    redrawn = text.startswith(PREPARED_REDRAW)
    return (PREPARED_REDRAW if redrawn else "") + "".join(sorted(text.removeprefix(PREPARED_REDRAW).replace("+", "")))


def lexicon_solver(lexicon: Lexicon) -> SolveFn:
    """The compiled solver over a lexicon (what the halls' servers use for their tops)."""
    try:
        graph = lexicon.graph()
    except LexiconError as exc:
        raise ServiceError(Code.LEXICON_NOT_READY, str(exc)) from None
    solver = solver_for(get_ruleset(lexicon.ruleset), graph)
    return lambda board, rack: solver.solve(board, rack).moves


def play_in_advance(ruleset: str, seed: int, variant: str, solve_fn: SolveFn) -> list[RoundPlayed]:
    """The whole game as the engine plays it (each rack drawn, each top chosen by RULES §3–4)."""
    engine = DuplicateGame(ruleset, seed, variant=variant).play_out(solve_fn)
    return [{"round": r.round, "rack": prepared_rack(r), "top": r.move, "score": r.score} for r in engine.rounds]


def prepare(actor: audit.Actor, *, name: str, lexicon: Lexicon, variant: str = "classic",
            seconds_per_move: int = 180, seed: int | None = None, language: str = "ru",
            tie_break: str = "none", solve_fn: SolveFn | None = None) -> Simultaneous:
    """A new simultaneous game: the engine draws every rack and plays every top now, with ``lexicon``."""
    if not name.strip():
        raise ServiceError(Code.WHY_MISSING, _("a simultaneous game needs a name"))
    if not lexicon.is_ready or not lexicon.content_hash:
        raise ServiceError(Code.LEXICON_NOT_READY, _("the lexicon %(lexicon)s is not ready")
                           % {"lexicon": lexicon.label})
    seed = seed if seed is not None else random.SystemRandom().randrange(2**62)
    rounds = play_in_advance(lexicon.ruleset, seed, variant, solve_fn or lexicon_solver(lexicon))
    with transaction.atomic():
        simul = Simultaneous.objects.create(
            game_id=uuid.uuid4(), name=name.strip(), ruleset=lexicon.ruleset, variant=variant, lexicon=lexicon,
            lexicon_hash=lexicon.content_hash, seconds_per_move=seconds_per_move, seed=seed, rounds=rounds,
            tie_break=tie_break, language=language, created_by=audit.user_or_none(actor))
        audit.record(actor, "simul.prepare", simul, after={"game": str(simul.game_id), "rounds": len(rounds),
                                                           "lexicon": lexicon.content_hash, "variant": variant})
    return simul


def add_hall(actor: audit.Actor, simul: Simultaneous, *, name: str, club: str = "", city: str = "",
             code: str = "") -> SimulHall:
    """Registers a hall (its code: given, or made from its name) with a new key for its results."""
    if not name.strip():
        raise ServiceError(Code.WHY_MISSING, _("a hall needs a name"))
    code = slugify(code or name)[:40] or f"hall-{simul.halls.count() + 1}"
    with transaction.atomic():
        if simul.halls.filter(code=code).exists():
            raise ServiceError(Code.SIMUL_HALL_TAKEN, _("the hall «%(code)s» takes part already") % {"code": code})
        hall = SimulHall.objects.create(simultaneous=simul, code=code, name=name.strip(), club=club.strip(),
                                        city=city.strip(), key=secrets.token_hex(32))
        audit.record(actor, "simul.hall", hall, after={"game": str(simul.game_id), "code": code, "name": hall.name})
    return hall


def package(hall: SimulHall, *, results_url: str = "") -> dict[str, Any]:
    """The game package of a hall: the game, its racks and tops, the rules, the lexicon hash, the time per move,
    the hall and its key (``results_url``: where the hall's server may send its results when online)."""
    simul = hall.simultaneous
    doc: dict[str, Any] = {
        "format": simulfiles.PACKAGE_FORMAT, "version": simulfiles.VERSION, "game": str(simul.game_id),
        "name": simul.name, "ruleset": simul.ruleset, "variant": simul.variant,
        "lexicon_hash": simul.lexicon_hash, "lexicon": simul.lexicon.label,
        "seconds_per_move": simul.seconds_per_move, "rounds": simul.rounds,
        "hall": {"code": hall.code, "name": hall.name, "club": hall.club, "city": hall.city, "key": hall.key},
    }
    if results_url:
        doc["results_url"] = results_url
    return doc


def hall_of(simul: Simultaneous, code: str) -> SimulHall:
    hall = simul.halls.filter(code=code).first()
    if hall is None:
        raise ServiceError(Code.SIMUL_UNKNOWN_HALL, _("no hall «%(code)s» in «%(game)s»")
                           % {"code": code, "game": simul.name})
    return hall


def check_rounds(simul: Simultaneous, played: list[RoundPlayed]) -> None:
    """The racks and tops of a hall's results are those of the game, round by round (the hall may have played
    fewer rounds, never more nor others)."""
    rounds: list[RoundPlayed] = simul.rounds
    if len(played) > len(rounds):
        raise ServiceError(Code.SIMUL_RACKS, ngettext("the file has %(n)s round, the game %(m)s",
                                                            "the file has %(n)s rounds, the game %(m)s", len(played))
                           % {"n": len(played), "m": len(rounds)})
    for mine, theirs in zip(rounds, played, strict=False):
        same = (rack_tiles(mine["rack"]) == rack_tiles(theirs["rack"]) and mine["top"] == theirs["top"]
                and mine["score"] == theirs["score"])
        if not same:
            raise ServiceError(Code.SIMUL_RACKS, _("round %(n)s: the file says %(rack)s, %(top)s %(score)s; "
                                                   "the game: %(our_rack)s, %(our_top)s %(our_score)s") % {
                "n": mine["round"], "rack": theirs["rack"], "top": theirs["top"], "score": theirs["score"],
                "our_rack": mine["rack"], "our_top": mine["top"], "our_score": mine["score"]})


def import_results(actor: audit.Actor, simul: Simultaneous, data: bytes | str | dict[str, Any], *,
                   source: str = SimulResult.Source.FILE) -> tuple[SimulResult, str]:
    """Takes a hall's results: ``(result, outcome)``, outcome ``"new"``, ``"same"`` (the file was here already:
    nothing changes) or ``"replaced"`` (a corrected file of the same hall: the earlier one is in the audit)."""
    results, signature = simulfiles.read_results(data)
    if results["game"] != str(simul.game_id):
        raise ServiceError(Code.SIMUL_OTHER_GAME, _("the file is of game %(theirs)s, not of «%(name)s» (%(ours)s)")
                           % {"theirs": results["game"], "name": simul.name, "ours": simul.game_id})
    hall = hall_of(simul, results["hall"])
    simulfiles.verify(results, signature, hall.key)
    simulfiles.check_totals(results)
    if results["lexicon_hash"] != simul.lexicon_hash:
        raise ServiceError(Code.SIMUL_LEXICON, _("the hall played with lexicon %(theirs)s…, the game is on "
                                                 "%(ours)s… (%(label)s)") % {
            "theirs": results["lexicon_hash"][:12], "ours": simul.lexicon_hash[:12], "label": simul.lexicon.label})
    check_rounds(simul, results["rounds"])
    digest = simulfiles.digest(results)
    with transaction.atomic():
        current = SimulResult.objects.select_for_update().filter(hall=hall).first()
        if current is not None and current.digest == digest:
            return current, "same"
        now = timezone.now()
        summary = {"hall": hall.code, "digest": digest, "players": len(results["players"]),
                   "rounds": len(results["rounds"]), "source": source}
        if current is None:
            current = SimulResult.objects.create(hall=hall, document=results, digest=digest, source=source,
                                                 received_at=now)
            audit.record(actor, "simul.results", current, after=summary)
            return current, "new"
        before = {"hall": hall.code, "digest": current.digest, "version": current.version,
                  "players": len(current.document["players"]), "received_at": current.received_at.isoformat()}
        current.document, current.digest, current.source, current.received_at = results, digest, source, now
        current.version += 1
        current.save()
        audit.record(actor, "simul.results.replace", current, before=before, after={**summary,
                                                                                     "version": current.version})
        return current, "replaced"


# -- the national standings ----------------------------------------------------------------------------------------


@dataclass
class NationalRow:
    """A player of a hall in the national standings: his line (``line.rank``: his rank among the rows shown)
    and his rank among every player of every hall (``national_rank``)."""

    hall: SimulHall
    player: PlayerResult
    line: sheet.Line[tuple[int, int]]
    national_rank: int = 0

    @property
    def rank(self) -> int:
        return self.line.rank

    @property
    def total(self) -> int:
        return self.line.total


def _hall_lines(hall: SimulHall, tops: list[int], players: list[PlayerResult]) -> list[sheet.Line[tuple[int, int]]]:
    keys = [(hall.pk, i) for i in range(len(players))]
    scores = [sheet.RoundScore(key, n + 1, s) for key, p in zip(keys, players, strict=True)
              for n, s in enumerate(p["scores"])]
    lines = sheet.game_lines(keys, tops, scores, solos={k: p["solos"] for k, p in zip(keys, players, strict=True)},
                             penalties={k: p["penalties"] for k, p in zip(keys, players, strict=True)})
    for line, p in zip(lines, players, strict=True):
        line.warnings = p["warnings"]
    return lines


def played_tops(simul: Simultaneous) -> list[int]:
    """The top scores of the rounds played: the game's first rounds, as many as the hall that played the most sent
    (a hall plays the game's rounds in order; none before any results came). Every player's deficit and
    percentage is against their total, the national standings' top total."""
    played = max((len(r) for r in SimulResult.objects.filter(hall__simultaneous=simul)
                  .values_list("document__rounds", flat=True)), default=0)
    return [r["score"] for r in simul.rounds[:played]]


def national_standings(simul: Simultaneous, **filters: str) -> list[NationalRow]:
    """Every player of every hall that sent results, best first, ranked by :func:`scoring.sheet.ranked` as a
    tournament's standings, each against the tops of the rounds played (:func:`played_tops`: a hall that stopped
    earlier has no points in the rounds it did not play); ``filters`` (hall code, club, series, category) keep
    some rows, ranked among themselves (each row keeps its national rank)."""
    rows: dict[tuple[int, int], NationalRow] = {}
    lines: list[sheet.Line[tuple[int, int]]] = []
    tops = played_tops(simul)
    for hall in simul.halls.filter(result__isnull=False).select_related("result"):
        doc = hall.result.document
        for line in _hall_lines(hall, tops, doc["players"]):
            rows[line.player] = NationalRow(hall, doc["players"][line.player[1]], line)
            lines.append(line)
    tie_break = simul.tie_break == "backwards"

    def order(line: sheet.Line[tuple[int, int]]) -> tuple[str, str]:
        return rows[line.player].hall.code, rows[line.player].player["name"]

    for line in sheet.ranked(lines, tie_break=tie_break, order=order):
        rows[line.player].national_rank = line.rank
    wanted = {k: v for k, v in filters.items() if v and k in FILTERS}
    kept = [r for r in rows.values() if all(_value(r, k) == v for k, v in wanted.items())]
    if wanted:
        ranked = sheet.ranked([sheet_copy(r.line) for r in kept], tie_break=tie_break, order=order)
        for line in ranked:
            rows[line.player].line = line
        return [rows[line.player] for line in ranked]
    return sorted(kept, key=lambda r: (r.national_rank, order(r.line)))


def sheet_copy(line: sheet.Line[tuple[int, int]]) -> sheet.Line[tuple[int, int]]:
    return sheet.Line(line.player, line.awarded, line.solos, line.penalties, line.warnings, line.top_total,
                      list(line.per_round), list(line.per_game), line.rank, line.tie_key)


def _value(row: NationalRow, name: str) -> str:
    return row.hall.code if name == "hall" else str(row.player[name])  # type: ignore[literal-required]


def filter_choices(simul: Simultaneous) -> dict[str, list[tuple[str, str]]]:
    """The values each filter offers: {filter: [(value, label)]}."""
    rows = national_standings(simul)
    out: dict[str, list[tuple[str, str]]] = {
        "hall": [(h.code, h.name) for h in simul.halls.all()]}
    for name in ("club", "series", "category"):
        values = sorted({str(r.player[name]) for r in rows} - {""})
        out[name] = [(v, v) for v in values]
    return out


@dataclass(frozen=True)
class HallSummary:
    """A hall as the organiser's page lists it: its results (or none yet)."""

    hall: SimulHall
    result: SimulResult | None
    players: int
    rounds: int


def hall_summaries(simul: Simultaneous) -> list[HallSummary]:
    out = []
    for hall in simul.halls.select_related("result"):
        result = getattr(hall, "result", None)
        doc = result.document if result else {"players": [], "rounds": []}
        out.append(HallSummary(hall, result, len(doc["players"]), len(doc["rounds"])))
    return out


__all__ = ["FILTERS", "HallSummary", "NationalRow", "add_hall", "check_rounds", "filter_choices", "hall_of",
           "hall_summaries", "import_results", "lexicon_solver", "national_standings", "package",
           "play_in_advance", "played_tops", "prepare", "rack_tiles"]
