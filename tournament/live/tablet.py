"""The tablet's state: the one builder, used by the Django view and by the WSGI layer.

What every tablet of a tournament shares (the round, the board, the standings of a published round) is
computed once per screen version and kept in the cache (:func:`shared_state`). For a judged round,
every player's slip and verdict are read once per version and process (:class:`JudgedHall`): after a
publication 1,500 tablets asking for their result cost four queries, not 3,000. :func:`tablet_state`
puts a player's state together from those parts; :func:`state_for` is the Django view's path and
:func:`fast_state` the WSGI layer's (a judged round whose hall this process has read).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime
from typing import NotRequired, TypedDict

from django.utils import timezone, translation
from rest_framework.renderers import JSONRenderer

from .. import gamestate, labels
from ..gamestate import Redraw
from ..models import Game, Registration, Round, Slip, Tournament, Verdict, seconds_left, secret_hashes
from ..services import rounds, signs, topping
from . import version as versions
from .hallrows import (
    OwnSlip,
    VerdictBlock,
    read_slips,
    read_verdicts,
    slip_dict,
    verdict_dict,
)
from .memo import OnceMemo, shared_once
from .results import Figures, TournamentResult, hall_results, tournament_result

log = logging.getLogger(__name__)

#: Round statuses in which a round's slips and verdicts are fixed for a screen version: a slip that still comes
#: (a tablet's late one, a paper slip typed before the publication) and a verdict changed by the arbiter or
#: judged again are audited, and the audit row moves the version.
FROZEN_SLIPS = (Round.Status.JUDGED, Round.Status.REVIEWED, Round.Status.PUBLISHED)
SHARED_TTL = 120

Player = tuple[int, str, int]  # registration id, name, table


class TournamentBlock(TypedDict):
    slug: str
    name: str
    ruleset: str
    convention: str
    assisted_mode: bool
    seconds_per_move: int


class SharedRound(TypedDict):
    id: int
    game: int
    number: int
    status: str
    rack: str
    deadline: datetime | None
    grace_seconds: int
    seconds_per_move: int
    chosen_move: str
    chosen_score: int | None
    source: str  # how the rack came: "random", "typed", "prepared" (gamestate.RACK_SOURCES)
    redraws: list[Redraw]  # racks of the round that went back into the bag, and why
    replaced: NotRequired[str]  # the Joker variant, published: the letters whose tiles replaced the top's blank
    variant: NotRequired[str]  # the game's variant (absent in states cached before it was added: classic)
    opened_at: NotRequired[datetime | None]


class GameEnd(TypedDict):
    """Why the game ended: a code of ``labels.END_REASONS`` and the arbiter's own words."""

    game: int
    reason: str
    note: str


class Shared(TypedDict):
    """What every tablet of a tournament shows alike (one per screen version)."""

    round: SharedRound | None
    board: str  # FEN of the published board
    standings: NotRequired[Figures]  # the round's game: registration → total, top total, rank
    players: NotRequired[int]
    tournament: NotRequired[Figures]  # a tournament of several games: over every game
    finished: NotRequired[dict[int, Figures]]  # ... and each finished game but the round's, by number
    solos: NotRequired[dict[int, int]]  # registration → points
    game_over: NotRequired[GameEnd]  # the round's game is finished
    times: NotRequired[dict[int, tuple[int, int, int]]]  # a topping game: registration → total time, rank, tops
    rack_typing_until: NotRequired[datetime | None]  # waiting for a draw: the arbiter types the rack (services.signs)


class TabletRound(TypedDict):
    id: int
    game: int
    number: int
    status: str
    rack: str | None  # None until the round is open
    rack_size: int  # its tiles (8 in a 7-among-8 game), shown as empty tiles until it opens
    deadline: datetime | None
    seconds_left: int | None
    seconds_per_move: int  # the game's time per move (a fast game's own)
    accepting_slips: bool
    rack_source: str  # how the rack came: "random", "typed", "prepared"
    redraws: list[Redraw]
    variant: str  # the game's variant: "classic", "joker", "topping"


class TabletPlayer(TypedDict):
    name: str
    table: int


class TabletTop(TypedDict):
    move: str
    score: int | None
    replaced: NotRequired[str]  # the Joker variant: the blank the top played is now this letter's tile


class TabletResult(TypedDict):
    round_score: int
    solo: int
    total: int
    top_total: int
    rank: int
    players: int
    time_total: NotRequired[int]  # a topping game: the player's total time (seconds), which ranks
    time_rank: NotRequired[int]  # a topping game: his rank by total time
    topped: NotRequired[int]  # a topping game: the rounds he topped


class TabletGameOver(TypedDict):
    """The end of the game: why, and the player's final total and rank (``services.standings``)."""

    game: int
    reason: str
    note: str
    total: int | None
    top_total: int | None
    rank: int | None
    players: int
    time_total: NotRequired[int]  # a topping game: the final total time (seconds) and the rank by it
    time_rank: NotRequired[int]


class TabletState(TypedDict):
    """A tablet's state (the API's ``TabletState``)."""

    server_time: datetime
    version: str
    tournament: TournamentBlock
    player: TabletPlayer
    round: TabletRound | None
    board: str
    slip: OwnSlip | None
    verdict: VerdictBlock | None
    top: TabletTop | None
    result: TabletResult | None
    game_over: TabletGameOver | None
    tournament_result: TournamentResult | None  # with a result or the game over, in a tournament of several games
    rack_typing_until: datetime | None  # waiting for a draw: the arbiter is typing the rack until then (or the draw)


#: Shared tablet states this process built or fetched, by cache key (one key per version: never stale).
_shared: OnceMemo[Shared] = OnceMemo(keep=16)
_halls: OnceMemo[JudgedHall] = OnceMemo(keep=8)
#: version → (tournament id, hall) of judged rounds this process has read: what the WSGI layer serves from.
_fast_halls: dict[str, tuple[int, JudgedHall]] = {}
#: round id → (version, hall) of the latest hall this process read for that round (see _before_publication).
_last_halls: dict[int, tuple[str, JudgedHall]] = {}


def reset() -> None:
    _shared.clear()
    _halls.clear()
    _fast_halls.clear()
    _last_halls.clear()


# -- the parts --------------------------------------------------------------------------------------------


def tournament_block(t: Tournament) -> TournamentBlock:
    return {"slug": t.slug, "name": t.name, "ruleset": t.ruleset, "convention": t.convention,
            "assisted_mode": t.assisted_mode, "seconds_per_move": t.seconds_per_move}


def compute_shared(t: Tournament) -> Shared:
    """What every tablet of the tournament shows alike: the round, the board, a published round's results."""
    rnd = rounds.tournament_round(t)
    if rnd is None:
        game = t.games.order_by("-number").first()
        return {"round": None, "board": gamestate.published_board(game) if game else "",
                "rack_typing_until": signs.rack_typing_until(_typing_at(t), None)}
    data: Shared = {
        "round": {"id": rnd.pk, "game": rnd.game.number, "number": rnd.number, "status": rnd.status,
                  "rack": rnd.rack, "deadline": rnd.deadline, "grace_seconds": rnd.grace_seconds,
                  "seconds_per_move": rnd.game.time_per_move,
                  "chosen_move": rnd.chosen_move, "chosen_score": rnd.chosen_score,
                  "source": gamestate.rack_source(rnd), "redraws": gamestate.redraws(rnd),
                  "variant": rnd.game.variant, "opened_at": rnd.opened_at},
        "board": gamestate.published_board(rnd.game),
    }
    if rnd.game.status == Game.Status.FINISHED:
        data["game_over"] = {"game": rnd.game.number, "reason": rnd.game.end_reason, "note": rnd.game.end_note}
    if rnd.status == Round.Status.PUBLISHED:
        replaced = gamestate.replaced_blanks(rnd.game).get(rnd.number, "")
        if replaced and data["round"] is not None:
            data["round"]["replaced"] = replaced
        results = hall_results(t, rnd.game.number)
        data["standings"], data["players"] = results["standings"], results["players"]
        if "tournament" in results:  # several games: the tournament's and the other finished games' results
            data["tournament"], data["finished"] = results["tournament"], results.get("finished", {})
        data["solos"] = dict(rnd.solos.values_list("registration_id", "points"))
        data["rack_typing_until"] = signs.rack_typing_until(_typing_at(t), rnd.published_at)
        if topping.is_topping(rnd.game):  # the times rank a topping game
            data["times"] = {line.player: (line.total, line.rank, line.topped) for line in topping.game_lines(rnd.game)}
    return data


def _typing_at(t: Tournament) -> datetime | None:
    """The arbiter's last sign that he types a rack, read now (after the version: the tournament row the caller
    holds may be older than the version it computes)."""
    return Tournament.objects.filter(pk=t.pk).values_list("rack_typing_at", flat=True).first()


def cache_name(tournament: Tournament) -> str:
    """The tournament in the shared cache's keys: its id and its creation time, so that a tournament restored
    or made anew under an id another one had never reads that one's states."""
    return f"{tournament.pk}.{int(tournament.created_at.timestamp() * 1_000_000)}"


def shared_state(tournament: Tournament, seen_version: str | None = None) -> tuple[str, Shared]:
    """(version, shared state), computed once per version and kept in the cache.

    ``seen_version``: the version the tablet's poll just reported. When this process's memo says the
    same, no query is needed to know the version (the state of that version, or newer, is served).
    """
    version = None
    if seen_version and versions.known_version(tournament.pk) == seen_version:
        version = seen_version
    if version is None:
        version = versions.version_of(tournament.pk, fresh=True)
    key = f"tablet-shared:{cache_name(tournament)}:{version}"
    return version, _shared.get(key, lambda: _cached_shared(key, tournament))


def _cached_shared(key: str, tournament: Tournament) -> Shared:
    """The shared state from the cache (Redis), else computed and put there (one process computes it, the
    other nodes wait for it)."""
    return shared_once(key, lambda: compute_shared(tournament), SHARED_TTL)


@dataclass(frozen=True)
class JudgedHall:
    """Everything the tablets of a judged round show, for one version."""

    tournament: TournamentBlock
    shared: Shared
    slips: dict[int, OwnSlip]  # registration → own slip
    verdicts: dict[int, VerdictBlock]  # registration → verdict
    roster: dict[str, Player]  # token hash → player
    round: SharedRound  # the judged round (shared["round"])
    read_at: float = 0.0  # epoch seconds: the roster holds every token logged in before it
    last_slip: int = 0  # the newest slip row read (a slip stored since has a greater id)


def judged_hall(t: Tournament, version: str, shared: Shared, judged: SharedRound) -> JudgedHall:
    """The :class:`JudgedHall` of a judged round (``judged``: ``shared["round"]``), read once per version
    and process."""
    round_id = judged["id"]

    def read() -> JudgedHall:
        before = _before_publication(round_id, version, judged["status"])
        if before is not None:  # every node holds the judged hall: the publication's is made here, nothing shipped
            hall = read_hall(before)
        else:  # one node reads it, the others take it from the cache (each node's streams need it at that moment)
            hall = shared_once(f"tablet-hall:{cache_name(t)}:{version}:{round_id}", read_hall, SHARED_TTL)
        if judged["status"] in FROZEN_SLIPS:  # the WSGI layer answers only while every slip is final
            if len(_fast_halls) >= 8:
                _fast_halls.clear()
            _fast_halls[version] = (t.pk, hall)
        if len(_last_halls) >= 8:
            _last_halls.clear()
        _last_halls[round_id] = (version, hall)
        return hall

    def read_hall(before: JudgedHall | None = None) -> JudgedHall:
        read_at = time.time()
        if before is not None and not Slip.objects.filter(round_id=round_id, pk__gt=before.last_slip).exists():
            slips, verdicts, last_slip = before.slips, before.verdicts, before.last_slip
        else:
            slips, last_slip = read_slips(t, round_id, judged.get("opened_at"))
            verdicts = read_verdicts(t, round_id)
        roster = {h: (pk, name, table) for h, pk, name, table in Registration.objects.filter(
            tournament=t, token_hash__isnull=False).order_by().values_list(
            "token_hash", "pk", "player__name", "table_number") if h is not None}
        return JudgedHall(tournament_block(t), shared, slips, verdicts, roster, judged, read_at, last_slip)

    return _halls.get((t.pk, version, round_id), read)


def _before_publication(round_id: int, version: str, status: str) -> JudgedHall | None:
    """The hall this process read for the version just before ``version``, when the one change between them is
    the round's publication (the counter moved by one, the round went from judged to published): the
    publication changes no slip and no verdict, so theirs are taken as they are (a slip stored since, quiet, is
    looked for by the caller). None otherwise."""
    found = _last_halls.get(round_id)
    if found is None or status != Round.Status.PUBLISHED or found[1].round["status"] not in (
            Round.Status.JUDGED, Round.Status.REVIEWED):
        return None
    return found[1] if versions.changes_between(found[0], version) == 1 else None


# -- a player's state ------------------------------------------------------------------------------------------


class CommonPart(TypedDict):
    """The keys of a tablet's state every player of a version shares (:func:`stream_events` writes them once)."""

    server_time: datetime
    version: str
    tournament: TournamentBlock
    round: TabletRound | None
    board: str
    top: TabletTop | None
    rack_typing_until: datetime | None


class OwnPart(TypedDict):
    """The keys of a tablet's state that are the player's own."""

    player: TabletPlayer
    slip: OwnSlip | None
    verdict: VerdictBlock | None
    result: TabletResult | None
    game_over: TabletGameOver | None
    tournament_result: TournamentResult | None


def tablet_state(*, player: Player, tournament: TournamentBlock, version: str, shared: Shared, now: datetime,
                 slip: OwnSlip | None, verdict: VerdictBlock | None) -> TabletState:
    """The tablet's state (the API's ``TabletState``) from its parts."""
    common = common_part(tournament=tournament, version=version, shared=shared, now=now)
    own = own_part(player=player, shared=shared, slip=slip, verdict=verdict)
    return {"server_time": common["server_time"], "version": version, "tournament": tournament,
            "player": own["player"], "round": common["round"], "board": common["board"], "slip": own["slip"],
            "verdict": own["verdict"], "top": common["top"], "result": own["result"], "game_over": own["game_over"],
            "tournament_result": own["tournament_result"], "rack_typing_until": common["rack_typing_until"]}


def common_part(*, tournament: TournamentBlock, version: str, shared: Shared, now: datetime) -> CommonPart:
    """What every player's state of ``version`` shows alike."""
    common: CommonPart = {"server_time": now, "version": version, "tournament": tournament, "round": None,
                          "board": shared["board"], "top": None,
                          "rack_typing_until": shared.get("rack_typing_until")}
    r = shared["round"]
    if r is None:
        return common
    deadline = r["deadline"]
    common["round"] = {
        "id": r["id"], "game": r["game"], "number": r["number"], "status": r["status"],
        "rack": r["rack"] if r["status"] != Round.Status.DRAWN else None, "rack_size": len(r["rack"] or ""),
        "deadline": deadline,
        "seconds_left": seconds_left(deadline, now), "seconds_per_move": r.get("seconds_per_move", 0),
        "accepting_slips": r["status"] == Round.Status.OPEN and deadline is not None and now <= deadline,
        "rack_source": r.get("source", "random"), "redraws": r.get("redraws", []),
        "variant": r.get("variant", "classic"),
    }
    if r["status"] == Round.Status.PUBLISHED:
        top: TabletTop = {"move": r["chosen_move"], "score": r["chosen_score"]}
        if r.get("replaced"):
            top["replaced"] = r["replaced"]
        common["top"] = top
    return common


def own_part(*, player: Player, shared: Shared, slip: OwnSlip | None, verdict: VerdictBlock | None) -> OwnPart:
    """What is the player's own in his state: his slip, his verdict and his results."""
    pk, name, table = player
    own: OwnPart = {"player": {"name": name, "table": table}, "slip": None, "verdict": None, "result": None,
                    "game_over": None, "tournament_result": None}
    r = shared["round"]
    if r is None:
        return own
    own["slip"], own["verdict"] = slip, verdict
    if r["status"] == Round.Status.PUBLISHED:
        mine = shared.get("standings", {}).get(pk)
        if mine is not None:
            total, top_total, rank = mine
            result: TabletResult = {"round_score": verdict["awarded"] if verdict else 0,
                                    "solo": shared.get("solos", {}).get(pk, 0),
                                    "total": total, "top_total": top_total, "rank": rank,
                                    "players": shared.get("players", 0)}
            times = shared.get("times", {}).get(pk)
            if times is not None:
                result["time_total"], result["time_rank"], result["topped"] = times
            own["result"] = result
    end = shared.get("game_over")
    if end is not None:
        final = shared.get("standings", {}).get(pk)
        over: TabletGameOver = {**end, "total": final[0] if final else None, "top_total": final[1] if final else None,
                                "rank": final[2] if final else None, "players": shared.get("players", 0)}
        times = shared.get("times", {}).get(pk)
        if times is not None:
            over["time_total"], over["time_rank"] = times[0], times[1]
        own["game_over"] = over
    if own["result"] is not None or own["game_over"] is not None:
        own["tournament_result"] = tournament_result(shared.get("tournament"), shared.get("finished", {}),
                                                     shared.get("players", 0), pk)
    return own


def _shows_verdict(status: str, assisted: bool) -> bool:
    return status == Round.Status.PUBLISHED or assisted


def state_for(reg: Registration, seen_version: str | None = None) -> TabletState:
    """A registration's tablet state (the Django view's path)."""
    t = reg.tournament
    version, shared = shared_state(t, seen_version)
    r = shared["round"]
    slip: OwnSlip | None = None
    verdict: VerdictBlock | None = None
    if r is not None and r["status"] in FROZEN_SLIPS:  # every player's slip and verdict, read once
        hall = judged_hall(t, version, shared, r)
        slip = hall.slips.get(reg.pk)
        if _shows_verdict(r["status"], t.assisted_mode):
            verdict = hall.verdicts.get(reg.pk)
    elif r is not None:
        row = Slip.objects.filter(round_id=r["id"], registration=reg).exclude(source=Slip.Source.TIME).order_by(
            "-is_current", "-version").first()
        slip = slip_dict(row, labels.zone_of(t.time_zone), r.get("opened_at")) if row else None
        if t.assisted_mode:
            found = Verdict.objects.filter(round_id=r["id"], registration=reg).order_by("pk").first()
            with translation.override(t.language):
                verdict = verdict_dict(found, t) if found else None
    return tablet_state(player=(reg.pk, reg.player.name, reg.table_number), tournament=tournament_block(t),
                        version=version, shared=shared, now=timezone.now(), slip=slip, verdict=verdict)


def fast_state(token: str, version: str) -> bytes | None:
    """The tablet state as JSON without Django, for the WSGI layer: only for a judged round whose hall this
    process has read for ``version``, while ``version`` is still the current one; None otherwise.

    The token is looked up in the hall's roster (hashes read with the hall): a token replaced by a new
    login during this version still reads its own state until the version changes (slips always go
    through the database check).
    """
    entry = _fast_halls.get(version)
    if entry is None:
        return None
    tid, hall = entry
    if versions.known_version(tid) != version:
        return None
    player = next((p for h in secret_hashes(token) if (p := hall.roster.get(h)) is not None), None)
    if player is None:
        return None
    shown = _shows_verdict(hall.round["status"], hall.tournament["assisted_mode"])
    state = tablet_state(player=player, tournament=hall.tournament, version=version, shared=hall.shared,
                         now=timezone.now(), slip=hall.slips.get(player[0]),
                         verdict=hall.verdicts.get(player[0]) if shown else None)
    return bytes(JSONRenderer().render(state))


class VersionMoved(Exception):
    """The tournament changed again while a stream read the change's hall: the newer version is to be read."""


def stream_hall(tournament_id: int, version: str) -> JudgedHall | None:
    """Every player's slip and verdict of ``version``'s round, read once, for the streams: each tablet's own
    state goes with the change (a draw, a close, the verdicts, a publication) instead of 10,000 tablets
    fetching it at once. None for an open round (the tablet takes the open from the public event, and slips
    come in meanwhile) or without a round; :class:`VersionMoved` when the version moved on meanwhile."""
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        return None
    current, shared = shared_state(t, version)
    if current != version:
        raise VersionMoved(current)
    r = shared["round"]
    if r is None or r["status"] == Round.Status.OPEN:
        return None
    return judged_hall(t, version, shared, r)


def stream_state(hall: JudgedHall, version: str, player: Player) -> bytes:
    """A player's tablet state from the judged hall, as JSON (the same as ``GET /api/tablet/state/``)."""
    return stream_events(hall, version, {player[0]: player})[player[0]]


def stream_events(hall: JudgedHall, version: str, players: dict[int, Player]) -> dict[int, bytes]:
    """Each of ``players``' tablet state (:func:`stream_state`), written in one pass when the change is read —
    not by each stream as it wakes — with one clock: what every player shares is written once, and each
    player's own keys before it (the same JSON object as ``GET /api/tablet/state/``, keys in another order)."""
    shown = _shows_verdict(hall.round["status"], hall.tournament["assisted_mode"])
    render = JSONRenderer().render
    common = bytes(render(common_part(tournament=hall.tournament, version=version, shared=hall.shared,
                                      now=timezone.now())))
    shared_keys = b"," + common[1:]  # ',"server_time":…}'
    shared, slips, verdicts = hall.shared, hall.slips, hall.verdicts if shown else {}
    return {pk: bytes(render(own_part(player=player, shared=shared, slip=slips.get(pk), verdict=verdicts.get(pk)
                                      )))[:-1] + shared_keys for pk, player in players.items()}


__all__ = ["FROZEN_SLIPS", "JudgedHall", "OwnSlip", "Shared", "TabletState", "VerdictBlock", "VersionMoved",
           "common_part", "compute_shared", "own_part",
           "fast_state", "judged_hall", "reset", "stream_events", "stream_hall", "stream_state",
           "shared_state", "slip_dict", "state_for", "tablet_state", "tournament_block", "verdict_dict"]
