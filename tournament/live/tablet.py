"""The tablet's state: the one builder, used by the Django view and by the WSGI layer.

What every tablet of a tournament shares (the round, the board, the standings of a published round) is
computed once per screen version and kept in the cache (:func:`shared_state`). For a judged round,
every player's slip and verdict are read once per version and process (:class:`JudgedHall`): after a
publication 1,500 tablets asking for their result cost four queries, not 3,000. :func:`tablet_state`
puts a player's state together from those parts; :func:`state_for` is the Django view's path and
:func:`fast_state` the WSGI layer's (a judged round whose hall this process has read).
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import NamedTuple, NotRequired, TypedDict

from django.db.models import TextField
from django.db.models.functions import Cast
from django.utils import timezone, translation
from rest_framework.fields import DateTimeField
from rest_framework.renderers import JSONRenderer

from .. import gamestate, labels
from ..gamestate import Redraw
from ..models import Game, Registration, Round, Slip, Tournament, Verdict, seconds_left, secret_hashes
from ..services import rounds, signs, topping
from . import version as versions
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


class OwnSlip(TypedDict):
    """A player's own slip (the API's ``OwnSlip``)."""

    id: int
    round: int
    word: str
    coordinates: str
    announced_score: int | None
    received_at: str  # ISO 8601, as the API writes times
    version: int
    is_current: bool
    late: bool
    source: str  # "tablet", or "paper" / "arbiter": typed at the console (a late one was handed in late)
    topped: bool | None  # a topping game's attempt: the top or not (None outside topping)
    points: int | None  # a topping attempt: its move's points (None: not a legal move)
    seconds: int | None  # a topping attempt that was the top: the player's time (seconds from the opening)


class VerdictBlock(TypedDict):
    awarded: int
    warning: bool
    reason: str
    message: str
    true_score: int | None
    move: str


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


class SlipRow(NamedTuple):
    """A slip's fields a tablet shows, read as a row (a hall of 10,000 slips: no model instances)."""

    pk: int
    registration_id: int
    round_id: int
    word: str
    coordinates: str
    announced_score: int | None
    received_at: datetime
    version: int
    is_current: bool
    late: bool
    source: str
    topped: bool | None
    points: int | None


_time_fields: dict[tzinfo, DateTimeField] = {}


def _time_field(zone: tzinfo) -> DateTimeField:
    """The API's time field writing in ``zone`` (one per zone: a hall writes 10,000 slips' times)."""
    found = _time_fields.get(zone)
    if found is None:
        if len(_time_fields) >= 64:
            _time_fields.clear()
        found = _time_fields[zone] = DateTimeField(default_timezone=zone)
    return found


class VerdictRow(NamedTuple):
    """A verdict's fields a tablet shows, read as a row."""

    registration_id: int
    awarded: int
    warning: bool
    reason: str
    message: str
    explanation_text: str | None  # the stored JSON, read as text: decoded once per distinct verdict
    true_score: int | None
    move: str
    automatic: bool
    override_reason: str

    @property
    def explanation(self) -> dict[str, object] | None:
        return json.loads(self.explanation_text) if self.explanation_text else None


def slip_dict(slip: Slip | SlipRow, zone: tzinfo, opened_at: datetime | None = None) -> OwnSlip:
    """A player's own slip, as the tablet shows it (the API's ``OwnSlip``); ``zone``: the hall's time zone
    (``labels.zone_of(tournament.time_zone)``), in which ``received_at`` is written — the tablet shows its time
    of day as written, whatever the server's or the tablet's zone; ``opened_at``: the round's opening, for a
    topping attempt's time."""
    seconds = None
    if slip.topped and not slip.late and opened_at is not None:
        seconds = max(0, int((slip.received_at - opened_at).total_seconds()))
    return {"id": slip.pk, "round": slip.round_id, "word": slip.word, "coordinates": slip.coordinates,
            "announced_score": slip.announced_score, "received_at": _time_field(zone)
            .to_representation(slip.received_at), "version": slip.version, "is_current": slip.is_current,
            "late": slip.late, "source": slip.source, "topped": slip.topped, "points": slip.points,
            "seconds": seconds}


def verdict_dict(v: Verdict | VerdictRow, t: Tournament, message: str | None = None) -> VerdictBlock:
    """A verdict as its player's tablet shows it: the explanation (``message`` when the caller has written it)
    in the active language (the callers activate the tournament's, once for a whole hall) and the tournament's
    coordinates."""
    if message is None:
        message = labels.verdict_explanation(v, t)
    return {"awarded": v.awarded, "warning": v.warning, "reason": v.reason, "message": message,
            "true_score": v.true_score, "move": v.move}


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
        # one node reads it, the others take it from the cache (each node's streams need it at the same moment)
        hall = shared_once(f"tablet-hall:{cache_name(t)}:{version}:{round_id}", read_hall, SHARED_TTL)
        if judged["status"] in FROZEN_SLIPS:  # the WSGI layer answers only while every slip is final
            if len(_fast_halls) >= 8:
                _fast_halls.clear()
            _fast_halls[version] = (t.pk, hall)
        if len(_last_halls) >= 8:
            _last_halls.clear()
        _last_halls[round_id] = (version, hall)
        return hall

    def read_hall() -> JudgedHall:
        read_at = time.time()
        before = _before_publication(round_id, version, judged["status"])
        if before is not None and not Slip.objects.filter(round_id=round_id, pk__gt=before.last_slip).exists():
            slips, verdicts, last_slip = before.slips, before.verdicts, before.last_slip
        else:
            slips, last_slip = _read_slips(t, round_id, judged.get("opened_at"))
            verdicts = _read_verdicts(t, round_id)
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
    try:
        moved = int(version.split(".", 1)[0]) - int(found[0].split(".", 1)[0])
    except ValueError:
        return None
    return found[1] if moved == 1 else None


def _read_slips(t: Tournament, round_id: int, opened_at: datetime | None) -> tuple[dict[int, OwnSlip], int]:
    """Each player's slip of the round as the tablet shows it, and the newest slip row's id."""
    slips: dict[int, OwnSlip] = {}
    zone, last = labels.zone_of(t.time_zone), 0
    for row in Slip.objects.filter(round_id=round_id).exclude(source=Slip.Source.TIME).order_by(
            "registration_id", "-is_current", "-version").values_list(*SlipRow._fields):
        slip = SlipRow(*row)
        last = max(last, slip.pk)
        if slip.registration_id not in slips:
            slips[slip.registration_id] = slip_dict(slip, zone, opened_at)
    return slips, last


def _read_verdicts(t: Tournament, round_id: int) -> dict[int, VerdictBlock]:
    """Each player's verdict of the round, each distinct explanation written once (most of a hall plays the
    same few moves)."""
    explained: dict[tuple[bool, str, str, str | None], str] = {}
    verdicts: dict[int, VerdictBlock] = {}
    with translation.override(t.language):
        for row in Verdict.objects.filter(round_id=round_id).order_by().annotate(
                explanation_text=Cast("explanation", TextField())).values_list(*VerdictRow._fields):
            v = VerdictRow(*row)
            key = (v.automatic, v.override_reason, v.message, v.explanation_text)
            if key not in explained:
                explained[key] = labels.verdict_explanation(v, t)
            verdicts[v.registration_id] = verdict_dict(v, t, explained[key])
    return verdicts


# -- a player's state ------------------------------------------------------------------------------------------


def tablet_state(*, player: Player, tournament: TournamentBlock, version: str, shared: Shared, now: datetime,
                 slip: OwnSlip | None, verdict: VerdictBlock | None) -> TabletState:
    """The tablet's state (the API's ``TabletState``) from its parts."""
    pk, name, table = player
    state: TabletState = {
        "server_time": now, "version": version, "tournament": tournament, "player": {"name": name, "table": table},
        "round": None, "board": shared["board"], "slip": None, "verdict": None, "top": None, "result": None,
        "game_over": None, "tournament_result": None, "rack_typing_until": shared.get("rack_typing_until"),
    }
    r = shared["round"]
    if r is None:
        return state
    deadline = r["deadline"]
    state["round"] = {
        "id": r["id"], "game": r["game"], "number": r["number"], "status": r["status"],
        "rack": r["rack"] if r["status"] != Round.Status.DRAWN else None, "rack_size": len(r["rack"] or ""),
        "deadline": deadline,
        "seconds_left": seconds_left(deadline, now), "seconds_per_move": r.get("seconds_per_move", 0),
        "accepting_slips": r["status"] == Round.Status.OPEN and deadline is not None and now <= deadline,
        "rack_source": r.get("source", "random"), "redraws": r.get("redraws", []),
        "variant": r.get("variant", "classic"),
    }
    state["slip"], state["verdict"] = slip, verdict
    if r["status"] == Round.Status.PUBLISHED:
        top: TabletTop = {"move": r["chosen_move"], "score": r["chosen_score"]}
        if r.get("replaced"):
            top["replaced"] = r["replaced"]
        state["top"] = top
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
            state["result"] = result
    end = shared.get("game_over")
    if end is not None:
        final = shared.get("standings", {}).get(pk)
        over: TabletGameOver = {**end, "total": final[0] if final else None, "top_total": final[1] if final else None,
                                "rank": final[2] if final else None, "players": shared.get("players", 0)}
        times = shared.get("times", {}).get(pk)
        if times is not None:
            over["time_total"], over["time_rank"] = times[0], times[1]
        state["game_over"] = over
    if state["result"] is not None or state["game_over"] is not None:
        state["tournament_result"] = tournament_result(shared.get("tournament"), shared.get("finished", {}),
                                                       shared.get("players", 0), pk)
    return state


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
    """Each player's tablet state (:func:`stream_state`) for the streams of one process, written in one pass
    when the change is read — not by each stream as it wakes — with one clock and one renderer."""
    shown = _shows_verdict(hall.round["status"], hall.tournament["assisted_mode"])
    now = timezone.now()
    render = JSONRenderer().render
    return {pk: bytes(render(tablet_state(player=player, tournament=hall.tournament, version=version,
                                          shared=hall.shared, now=now, slip=hall.slips.get(pk),
                                          verdict=hall.verdicts.get(pk) if shown else None)))
            for pk, player in players.items()}


__all__ = ["FROZEN_SLIPS", "JudgedHall", "OwnSlip", "Shared", "TabletState", "VerdictBlock", "VersionMoved",
           "compute_shared",
           "fast_state", "judged_hall", "reset", "stream_events", "stream_hall", "stream_state",
           "shared_state", "slip_dict", "state_for", "tablet_state", "tournament_block", "verdict_dict"]
