"""What the printed documents read: plain read models (the data fingerprint of a document, its cache key, is
:mod:`tournament.services.fingerprints`).

The documents of :mod:`tournament.printing` run no query of their own: they get these dataclasses and
the standings rows of :mod:`tournament.services.standings`, whose figures (totals, solos, penalties,
deficit, percentage, ranks) come from :mod:`scoring.sheet` — the same figures as the pages, the API and
the screens. What a round shows as the engine played it comes from :mod:`tournament.gamestate`.

* :func:`subjects` — the tournament, game, round and registration a print request names;
* :func:`standings_sheet`, :func:`game_sheet`, :func:`player_sheet`, :func:`arbitration_sheet`,
  :func:`seats` (slips and access cards), :func:`card_registrations`, :func:`print_menu`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.utils.functional import Promise

from scoring import sheet
from scoring.judge import Reason

from .. import gamestate, labels
from ..models import Game, Penalty, Registration, Round, Slip, Solo, Tournament, Verdict
from . import games as game_service
from . import standings

StrOrPromise = str | Promise
K = TypeVar("K", bound=Hashable)


# -- the tournament, and what a request names ------------------------------------------------------------


@dataclass(frozen=True)
class TournamentInfo:
    """What the papers say about their tournament: the header, the coordinates, the warnings allowance."""

    name: str
    ruleset: str
    convention: str
    language: str
    coordinate_script: str = "latin"
    time_zone: str = ""
    venue: str = ""
    starts_on: date | None = None
    ends_on: date | None = None
    free_warnings: int = sheet.FREE_WARNINGS


def tournament_language(tournament_id: int) -> str | None:
    """The language of a tournament's papers (None when it is gone: the site's)."""
    return Tournament.objects.filter(pk=tournament_id).values_list("language", flat=True).first()


def tournament_info(t: Tournament) -> TournamentInfo:
    return TournamentInfo(name=t.name, ruleset=t.ruleset, convention=t.convention, language=t.language,
                          coordinate_script=t.coordinate_script, time_zone=t.time_zone,
                          venue=t.venue, starts_on=t.starts_on, ends_on=t.ends_on, free_warnings=t.free_warnings)


@dataclass(frozen=True)
class Subjects:
    """The rows a print request names; None for one it names that does not exist (or that it does not name)."""

    tournament: Tournament
    game: Game | None = None
    round: Round | None = None
    registration: Registration | None = None


def subjects(tournament: Tournament | int, *, game: int | None = None, round: int | None = None,
             player: int | None = None) -> Subjects:
    """The tournament (a row, or its id: ``Tournament.DoesNotExist`` when there is none), its game number
    ``game``, that game's live (not cancelled) round number ``round``, and the registration of player id
    ``player``."""
    t = tournament if isinstance(tournament, Tournament) else \
        Tournament.objects.select_related("lexicon").get(pk=tournament)
    g = t.games.filter(number=game).order_by("pk").first() if game is not None else None
    rnd = (game_service.live_rounds(g).filter(number=round).select_related("game__tournament").order_by("pk").first()
           if g is not None and round is not None else None)
    reg = (t.registrations.filter(player_id=player).select_related("player", "tournament").order_by("pk").first()
           if player is not None else None)
    return Subjects(t, g, rnd, reg)


def requester(user_id: int | None) -> Any:
    """The user who asked for a print (the actor of the access codes it issues), or None."""
    return get_user_model().objects.filter(pk=user_id).first() if user_id else None


# -- standings -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingsSheet:
    """The standings of a game or of the tournament (:mod:`tournament.services.standings` rows, best first),
    in sections: one unnamed section, or one per series/category/club in print order (no group last)."""

    sections: list[tuple[str, list[standings.Standing]]]
    grouped: bool
    players: int
    rounds: int  # the published rounds counted
    games: list[int]  # the numbers of the games counted
    game: int | None = None  # the standings of this game
    finished: bool = False  # … which is over
    top_total: int = 0


def standings_sheet(tournament: Tournament, *, game: Game | None = None, group_by: str | None = None
                    ) -> StandingsSheet:
    """The standings of ``game`` or of the tournament; ``group_by``: series, category or club."""
    counted = [game] if game is not None else \
        list(tournament.games.exclude(status=Game.Status.CANCELLED).order_by("number"))
    rounds = Round.objects.filter(game__in=counted, status=Round.Status.PUBLISHED).count()
    if group_by:
        groups = standings.grouped_standings(tournament, group_by, game)
        sections = [(name, groups[name]) for name in sorted(groups, key=lambda n: (n == "", n.casefold()))]
    else:
        rows = standings.game_standings(game) if game is not None else standings.tournament_standings(tournament)
        sections = [("", rows)]
    first = next((rows[0] for _name, rows in sections if rows), None)
    return StandingsSheet(
        sections=sections, grouped=bool(group_by), players=sum(len(rows) for _name, rows in sections),
        rounds=rounds, games=[g.number for g in counted], game=game.number if game is not None else None,
        finished=game is not None and game.status == Game.Status.FINISHED,
        top_total=first.top_total if first is not None else 0)


# -- the game sheet --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SheetRound:
    """A round of the game sheet: the rack (tiles kept + drawn), the redraws, and once played its top."""

    number: int
    kept: str
    drawn: str
    redraws: int
    rejected: list[str]
    move: str = ""
    score: int | None = None
    cumulative: int | None = None
    bag_after: int | None = None
    status: str = ""
    replaced: str = ""  # the Joker variant: the letters whose tiles replaced on the board the blank the top played


@dataclass(frozen=True)
class GameSheet:
    number: int
    status: str
    status_label: StrOrPromise
    rounds: list[SheetRound]
    board: str  # FEN: the board as it is now
    variant: str = "classic"
    variant_label: StrOrPromise = ""
    end_reason: str = ""  # why a finished game ended (``labels.END_REASONS``)
    end_note: str = ""  # the arbiter's own words when he ended it

    @property
    def finished(self) -> bool:
        return self.status == Game.Status.FINISHED


def _redraws(rnd: Round) -> int:
    return sum(1 for e in rnd.draw_log or [] if not e.get("valid", True))


def _rejected_racks(rnd: Round | None) -> list[str]:
    if rnd is None:
        return []
    return [e.get("rack", "") for e in rnd.draw_log or [] if not e.get("valid", True) and e.get("rack")]


def _kept(rnd: Round) -> str:
    """The tiles kept from the previous rack (none after a redraw: the whole rack was drawn again)."""
    return "" if _redraws(rnd) else rnd.leftover


def game_sheet(game: Game) -> GameSheet:
    """The rounds played (:func:`tournament.gamestate.history`), then the live round not played yet."""
    live = {r.number: r for r in game_service.live_rounds(game).order_by("number", "id")}
    rounds = [SheetRound(number=rec.round, kept=rec.kept, drawn=rec.drawn, redraws=rec.redraws,
                         rejected=_rejected_racks(live.get(rec.round)), move=rec.move, score=rec.score,
                         cumulative=rec.cumulative, bag_after=rec.bag_after, replaced=rec.replaced)
              for rec in gamestate.history(game)]
    done = {r.number for r in rounds}
    rounds += [SheetRound(number=number, kept=_kept(rnd), drawn=rnd.drawn, redraws=_redraws(rnd),
                          rejected=_rejected_racks(rnd), status=rnd.status)
               for number, rnd in sorted(live.items())
               if number not in done and rnd.status != Round.Status.PUBLISHED]
    return GameSheet(game.number, game.status, Game.Status(game.status).label, rounds, gamestate.board_fen(game),
                     game.variant, game.get_variant_display(), game.end_reason, game.end_note)


# -- slips as the papers show them -----------------------------------------------------------------------


def _versions(slips: Iterable[Slip], key: Callable[[Slip], K]) -> dict[K, list[Slip]]:
    """Every version of the slips, by ``key(slip)`` (its registration; its registration and round), first to
    last."""
    out: dict[K, list[Slip]] = defaultdict(list)
    for slip in sorted(slips, key=lambda s: s.version):
        out[key(slip)].append(slip)
    return out


def _shown_slip(verdict: Verdict | None, versions: list[Slip]) -> Slip | None:
    """The slip a paper shows: the one judged, else the current version, else the last one."""
    if verdict is not None and verdict.slip_id:
        return verdict.slip
    return next((s for s in versions if s.is_current), None) or (versions[-1] if versions else None)


# -- the player sheet ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerRound:
    number: int
    slip: str
    late: bool
    reason: str  # the verdict's (no_slip when none)
    warning: bool
    overridden: bool
    awarded: int
    top_move: str
    top: int
    solo: int


@dataclass(frozen=True)
class PenaltyLine:
    label: StrOrPromise
    points: int
    reason: str


@dataclass(frozen=True)
class PlayerGame:
    """One game of a player sheet: the rounds, the penalties, and the player's line of the game standings."""

    number: int
    rounds: list[PlayerRound]
    penalties: list[PenaltyLine]
    line: sheet.Line
    #: the warnings of this game that cost nothing (more in a fast game)
    free_warnings: int = sheet.FREE_WARNINGS


@dataclass(frozen=True)
class PlayerSheet:
    table: int
    name: str
    club: str
    series: str
    category: str
    licence: str
    games: list[PlayerGame]
    overall: sheet.Line  # the player's line of the tournament standings


def _penalty_label(kind: str) -> StrOrPromise:
    return Penalty.Kind(kind).label if kind in Penalty.Kind.values else kind


#: What the player sheets of several players may be chosen by (a Player field).
PLAYER_GROUPS = ("club", "series", "category")


def sheet_registrations(tournament: Tournament, group_by: str | None = None, group: str | None = None
                        ) -> list[Registration]:
    """The registrations whose player sheets are printed together, in table order: every one, or those whose
    player's ``group_by`` (club, series or category) is ``group`` ("" for none)."""
    regs = tournament.registrations.select_related("player", "tournament").order_by("table_number")
    if group_by in PLAYER_GROUPS:
        regs = regs.filter(**{f"player__{group_by}": group or ""})
    return list(regs)


#: How many players' rows :func:`player_sheets` reads at a time.
SHEETS_AT_ONCE = 200


def player_sheets(tournament: Tournament, regs: list[Registration], *, at_once: int = SHEETS_AT_ONCE
                  ) -> Iterator[PlayerSheet]:
    """The sheets of ``regs`` (the tournament's registrations, with their players), in their order, as
    :func:`player_sheet` gives each: read ``at_once`` players at a time, a few queries a game for each part, and
    made one after the other (a hall's sheets are never all in memory at once)."""
    games = list(tournament.games.exclude(status=Game.Status.CANCELLED).order_by("number"))
    rounds = {g.pk: standings.published_rounds(g) for g in games}
    style = labels.tournament_style(tournament)
    for start in range(0, len(regs), max(1, at_once)):
        part = regs[start:start + max(1, at_once)]
        ids = [r.pk for r in part]
        played: dict[int, list[PlayerGame]] = {r.pk: [] for r in part}
        lines: dict[int, list[standings.PlayerGameLine]] = {r.pk: [] for r in part}
        for game in games:
            game_rounds = rounds[game.pk]
            by_reg = standings.players_game_lines(game, game_rounds, part)
            verdicts: dict[tuple[int, int], Verdict] = {
                (v.registration_id, v.round_id): v
                for v in Verdict.objects.filter(round__in=game_rounds, registration__in=ids).select_related("slip")}
            versions = _versions(Slip.objects.filter(round__in=game_rounds, registration__in=ids),
                                 lambda s: (s.registration_id, s.round_id))
            solos = {(s.registration_id, s.round_id): s.points
                     for s in Solo.objects.filter(round__in=game_rounds, registration__in=ids)}
            penalties: dict[int, list[PenaltyLine]] = defaultdict(list)
            for pen in Penalty.objects.filter(game=game, registration__in=ids).order_by("id"):
                penalties[pen.registration_id].append(PenaltyLine(_penalty_label(pen.kind), pen.points, pen.reason))
            for reg in part:
                line = by_reg[reg.pk]
                lines[reg.pk].append(line)
                played[reg.pk].append(_game_of(line, style, reg.pk, verdicts, versions, solos, penalties[reg.pk]))
        for reg in part:
            player = reg.player
            yield PlayerSheet(
                table=reg.table_number, name=player.name, club=player.club, series=player.series,
                category=player.category, licence=player.licence, games=played[reg.pk],
                overall=standings.player_tournament_line(lines[reg.pk]))


def _game_of(played: standings.PlayerGameLine, style: labels.CoordStyle, reg_id: int,
             verdicts: dict[tuple[int, int], Verdict], versions: dict[tuple[int, int], list[Slip]],
             solos: dict[tuple[int, int], int], penalties: list[PenaltyLine]) -> PlayerGame:
    """One game of a player sheet from the rows read for a part of the hall (keyed by registration, round)."""
    out = []
    for rnd, awarded in zip(played.rounds, played.line.per_round, strict=True):
        v = verdicts.get((reg_id, rnd.pk))
        slip = _shown_slip(v, versions.get((reg_id, rnd.pk), []))
        out.append(PlayerRound(
            number=rnd.number, slip=style.slip(slip.coordinates, slip.word, slip.announced_score) if slip else "",
            late=bool(slip and slip.late),
            reason=v.reason if v else Reason.NO_SLIP, warning=bool(v and v.warning),
            overridden=bool(v and not v.automatic), awarded=awarded, top_move=rnd.chosen_move,
            top=rnd.chosen_score or 0, solo=solos.get((reg_id, rnd.pk), 0)))
    return PlayerGame(played.game.number, out, penalties, played.line, played.game.free_warnings)


def player_sheet(registration: Registration) -> PlayerSheet:
    """One player's slips, verdicts and awarded scores against the tops, game by game, with the figures of
    the player's rows in the standings (:func:`tournament.services.standings.player_game_lines`)."""
    return next(player_sheets(registration.tournament, [registration]))


# -- the arbitration sheet -------------------------------------------------------------------------------


@dataclass(frozen=True)
class VerdictLine:
    reason: str
    message: str
    warning: bool
    automatic: bool
    override_reason: str
    true_score: int | None
    awarded: int
    explanation: dict[str, Any] | None = None  # the engine's explanation as data (labels.explain)


@dataclass(frozen=True)
class ArbitrationLine:
    table: int
    name: str
    slip: str
    versions: int
    source: StrOrPromise
    late: bool
    verdict: VerdictLine | None
    solo: int

    @property
    def flagged(self) -> bool:
        """To look at: no verdict yet, or one :func:`tournament.labels.flagged` flags."""
        v = self.verdict
        return v is None or labels.flagged(v.reason, v.warning, v.automatic)


@dataclass(frozen=True)
class ArbitrationSheet:
    game: int
    number: int
    status_label: StrOrPromise
    kept: str
    drawn: str
    top_move: str
    top_score: int | None
    lines: list[ArbitrationLine]


def _verdict_line(v: Verdict | None) -> VerdictLine | None:
    if v is None:
        return None
    return VerdictLine(v.reason, v.message, v.warning, v.automatic, v.override_reason, v.true_score, v.awarded,
                       v.explanation)


def arbitration_sheet(rnd: Round) -> ArbitrationSheet:
    """Every table's slip and verdict in a round, in table order."""
    regs = rnd.game.tournament.registrations.select_related("player").order_by("table_number")
    verdicts = {v.registration_id: v for v in Verdict.objects.filter(round=rnd).select_related("slip")}
    versions = _versions(Slip.objects.filter(round=rnd), lambda s: s.registration_id)
    solos = {s.registration_id: s.points for s in Solo.objects.filter(round=rnd)}
    sources = dict(Slip.Source.choices)
    style = labels.tournament_style(rnd.game.tournament)
    lines = []
    for reg in regs:
        v, mine = verdicts.get(reg.pk), versions.get(reg.pk, [])
        slip = _shown_slip(v, mine)
        lines.append(ArbitrationLine(
            table=reg.table_number, name=reg.player.name,
            slip=style.slip(slip.coordinates, slip.word, slip.announced_score) if slip else "", versions=len(mine),
            source=sources.get(slip.source, slip.source) if slip else "", late=bool(slip and slip.late),
            verdict=_verdict_line(v), solo=solos.get(reg.pk, 0)))
    return ArbitrationSheet(game=rnd.game.number, number=rnd.number, status_label=Round.Status(rnd.status).label,
                            kept=_kept(rnd), drawn=rnd.drawn, top_move=rnd.chosen_move, top_score=rnd.chosen_score,
                            lines=lines)


# -- players at their tables (slips, access cards) and the printing page ---------------------------------


@dataclass(frozen=True)
class Seat:
    table: int
    name: str
    player: int  # the Player id


def seat_of(reg: Registration) -> Seat:
    return Seat(reg.table_number, reg.player.name, reg.player_id)


def seats(tournament: Tournament) -> list[Seat]:
    """Every registered player, in table order."""
    return [seat_of(reg) for reg in tournament.registrations.select_related("player").order_by("table_number")]


def card_registrations(tournament: Tournament, player: int | None = None) -> list[Registration]:
    """The registrations whose access cards are printed (all, or player id ``player``'s), in table order:
    what :func:`tournament.services.players.new_access_codes` takes."""
    regs = tournament.registrations.select_related("player", "tournament").order_by("table_number")
    return list(regs if player is None else regs.filter(player_id=player))


@dataclass(frozen=True)
class PrintMenu:
    """What the printing page offers: the games, the last live round of the last game, the players, and the
    clubs, series and categories of the players ({field: sorted names}, "" for none left out)."""

    games: list[Game]
    last_round: int | None
    registrations: list[Registration]
    groups: dict[str, list[str]]


def print_menu(tournament: Tournament) -> PrintMenu:
    games = list(tournament.games.exclude(status=Game.Status.CANCELLED).order_by("number"))
    last_round = (game_service.live_rounds(games[-1]).order_by("-number").values_list("number", flat=True)
                  .first()) if games else None
    regs = list(tournament.registrations.select_related("player").order_by("table_number"))
    groups = {field: sorted({getattr(reg.player, field) for reg in regs} - {""}, key=str.casefold)
              for field in PLAYER_GROUPS}
    return PrintMenu(games, last_round, regs, groups)


__all__ = ["PLAYER_GROUPS", "SHEETS_AT_ONCE", "ArbitrationLine", "ArbitrationSheet", "GameSheet", "PenaltyLine", "PlayerGame",
           "PlayerRound", "PlayerSheet", "PrintMenu", "Seat", "SheetRound", "StandingsSheet", "Subjects",
           "TournamentInfo", "VerdictLine", "arbitration_sheet", "card_registrations", "game_sheet",
           "player_sheet", "player_sheets", "print_menu", "requester", "seat_of", "seats", "sheet_registrations", "standings_sheet", "subjects",
           "tournament_info"]
