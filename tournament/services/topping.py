"""The topping variant (docs/en/rules/topping.md): attempts judged at once, times, results.

Each attempt a tablet sends is a slip version (:mod:`.slips`: stored under its idempotency key with the
server's time, every version kept, a late one kept as late); it is judged when it comes against the
round's top (known before the round opens: :func:`check_open`) and the slip row says so (``topped``,
``points``). A player's time for a round is that of his first attempt that was the top, from the
round's opening; once topped his further attempts are refused. The arbiter can record a time by hand
(a paper slip, a tablet that failed): a ``time`` slip, audited, that overrides the tablets' time.
The results are :mod:`scoring.topping`'s over these rows.
"""

from __future__ import annotations

import uuid
from collections.abc import Container
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TypedDict

from django.db import connection, transaction
from django.utils.translation import gettext as _

from scoring import topping
from scoring.board import Board
from scoring.judge import SlipParts, judge_slip
from scoring.moves import Move
from scoring.variants import get_variant

from ..errors import Code, ServiceError
from ..models import Game, Registration, Round, Slip, Tournament
from . import audit, games, judging, rows, slips, solving

#: Verdict reasons of a legal move whose words are valid (its points are the move's own).
LEGAL_REASONS = frozenset({"ok", "score_wrong", "score_missing", "first_round", "first_round_score_wrong",
                           "first_round_score_missing"})
#: Round statuses whose times are final (the round's limit is over).
FINAL_STATUSES = (Round.Status.CLOSED, Round.Status.JUDGED, Round.Status.REVIEWED, Round.Status.PUBLISHED)


def is_topping(game: Game) -> bool:
    return get_variant(game.variant).timed


def check_open(rnd: Round) -> None:
    """A topping round opens only once its top is known: attempts are judged against it when they come."""
    if not is_topping(rnd.game):
        return
    rnd.refresh_from_db(fields=["solver_status", "solver_key", "top_moves"])
    if rnd.solver_status == Round.SolverStatus.DONE and rnd.top_moves and solving.is_solved(rnd):
        return
    raise ServiceError(Code.TOP_UNKNOWN, _("round %(n)s: the solver has not found the top yet (solver: "
                                           "%(status)s); a topping round opens once its top is known — open "
                                           "it in a moment") % {"n": rnd.number,
                                                                 "status": rnd.get_solver_status_display()})


def limit_seconds(rnd: Round) -> int:
    """The round's time limit: from its opening to its deadline (the time per move when it opened)."""
    if rnd.opened_at is None or rnd.deadline is None:
        return rnd.game.tournament.seconds_per_move
    return int((rnd.deadline - rnd.opened_at).total_seconds())


def seconds_of(rnd: Round, received_at: datetime) -> int:
    """Whole seconds from the round's opening to ``received_at`` (server clock)."""
    assert rnd.opened_at is not None
    return topping.elapsed_seconds(_ms(rnd.opened_at), _ms(received_at))


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


@dataclass(frozen=True)
class Answer:
    """What a tablet is told about an attempt: the top or not, the move's points, the player's time."""

    slip: Slip
    topped: bool
    points: int | None
    seconds: int | None  # the player's time when topped
    attempts: int


def top_score(rnd: Round) -> int:
    return int(rnd.top_moves[0]["score"])


#: (round id, rack, board) → (the round's board, its moves, the lexicon, the convention): a hall's attempts
#: judged against one solution per process (the rack and the board are what a solution is computed from).
_judging: dict[tuple[int, str, str], tuple[Board, list[Move], Container[str] | None, str]] = {}


def _round_judging(rnd: Round) -> tuple[Board, list[Move], Container[str] | None, str]:
    key = (rnd.pk, rnd.rack, rnd.board_before)
    found = _judging.get(key)
    if found is None:
        t = rnd.game.tournament
        tools = solving.round_tools(t)
        if len(_judging) >= 8:
            _judging.clear()
        found = _judging[key] = (solving.board_of(rnd), solving.round_moves(rnd, tools), tools[1], t.convention)
    return found


def judge_attempt(rnd: Round, word: str, coordinates: str) -> tuple[bool, int | None]:
    """(the top?, the move's points or None when it is not a legal move of valid words)."""
    board, moves, lexicon, convention = _round_judging(rnd)
    verdict = judge_slip(board, list(rnd.rack), SlipParts(word, coordinates or None, None),
                         round_number=rnd.number, lexicon=lexicon, solve_fn=lambda _b, _r: moves,
                         convention=convention)
    if verdict.reason not in LEGAL_REASONS or verdict.true_score is None:
        return False, None
    return verdict.true_score == top_score(rnd), verdict.true_score


def player_counts(round_id: int, registration_id: int) -> tuple[int, bool]:
    """(the player's attempts in the round, whether one of them was the top) — asked with every attempt:
    one statement written once (the arbiter's time slips are not attempts)."""
    with connection.cursor() as cur:
        cur.execute(f'SELECT COUNT(*), SUM(CASE WHEN "topped" AND NOT "late" THEN 1 ELSE 0 END) '
                    f'FROM "{Slip._meta.db_table}" WHERE "round_id" = %s AND "registration_id" = %s '
                    'AND "source" <> %s', [round_id, registration_id, Slip.Source.TIME.value])
        row = cur.fetchone()
    return (int(row[0]), bool(row[1])) if row else (0, False)


def attempt(rnd: Round, registration: Registration, key: str, *, word: str, coordinates: str,
            score: int | None = None, actor: audit.Actor = None) -> tuple[Answer, bool]:
    """A tablet's attempt: stored (:func:`.slips.submit_once`), judged at once. (answer, created).

    A retry with the same key answers as the first time. A player who topped already is refused
    (``already_topped``: nothing stored). A late attempt is stored as late (``slip.late``), not judged.
    ``score``: what the tablet announced, kept as sent; the attempt is judged by its move alone."""
    existing = slips.retried_slip(key, registration, word=word, coordinates=coordinates, score=score)
    if existing is not None:
        if existing.topped is None and not existing.late:  # stored, but its judging did not finish: judge it now
            _judge_stored(rnd, existing)
        return _answer(rnd, existing), False
    if rnd.status == Round.Status.OPEN and player_counts(rnd.pk, registration.pk)[1]:
        raise ServiceError(Code.ALREADY_TOPPED, _("you found the top of round %(n)s: no more attempts are "
                                                  "taken") % {"n": rnd.number})
    slip, created = slips.submit_once(rnd, registration, key, word=word, coordinates=coordinates, score=score,
                                      looked_up=True, actor=actor)
    if not slip.late:
        _judge_stored(rnd, slip)
    return _answer(rnd, slip), created


def _judge_stored(rnd: Round, slip: Slip) -> None:
    found, points = judge_attempt(rnd, slip.word, slip.coordinates)
    Slip.objects.filter(pk=slip.pk).update(topped=found, points=points)
    slip.topped, slip.points = found, points


def _answer(rnd: Round, slip: Slip) -> Answer:
    count = player_counts(slip.round_id, slip.registration_id)[0]
    seconds = seconds_of(rnd, slip.received_at) if slip.topped and not slip.late else None
    return Answer(slip=slip, topped=bool(slip.topped) and not slip.late, points=slip.points, seconds=seconds,
                  attempts=count)


def parse_time(text: str) -> int:
    """``0:42`` / ``1:05`` / ``42`` → seconds; ServiceError ``bad_time`` otherwise."""
    raw = (text or "").strip()
    minutes, sep, secs = raw.partition(":")
    value: int | None = None
    if sep and minutes.isdigit() and secs.isdigit() and len(secs) == 2 and int(secs) < 60:
        value = int(minutes) * 60 + int(secs)
    elif not sep and raw.isdigit():
        value = int(raw)
    if value is None:
        raise ServiceError(Code.BAD_TIME, _("«%(text)s» is not a time: write minutes and seconds, e.g. 0:42")
                           % {"text": raw})
    return value


def move_parts(text: str) -> tuple[str, str]:
    """A move as the arbiter types it from a paper slip — ``H8 WORD``, ``WORD H8``, ``WORD`` (round 1), a score
    after it ignored (a topping slip's points are the server's) — as (coordinates, word)."""
    tokens = text.split()
    if len(tokens) > 1 and tokens[-1].isdigit():
        tokens = tokens[:-1]
    if len(tokens) == 2:
        digits = [any(ch.isdigit() for ch in t) for t in tokens]
        if digits == [True, False]:
            return tokens[0], tokens[1]
        if digits == [False, True]:
            return tokens[1], tokens[0]
    return "", " ".join(tokens)


def record_time(actor: audit.Actor, rnd: Round, registration: Registration, seconds: int | None, *,
                word: str = "") -> Slip:
    """The arbiter records a player's time by hand (``None``: not topped); it overrides the tablets' time.

    Kept as a ``time`` slip (its time = the opening + ``seconds``), audited. ``word``: the move of the paper slip
    (``H8 WORD``), judged as a tablet's attempt: it is then the player's slip that counts (his points, the
    round's verdict — a round already judged is judged again) and one attempt; a word with a letter outside the
    tile set is refused and nothing is recorded."""
    if not is_topping(rnd.game):
        raise ServiceError(Code.WRONG_PHASE, _("game %(n)s is not a topping game") % {"n": rnd.game.number})
    if rnd.status in (Round.Status.DRAWN, Round.Status.CANCELLED) or rnd.opened_at is None:
        raise ServiceError(Code.ROUND_NOT_OPEN, _("round %(n)s is %(status)s: no time can be recorded")
                           % {"n": rnd.number, "status": rnd.get_status_display()})
    limit = limit_seconds(rnd)
    if seconds is not None and not 0 <= seconds <= limit:
        raise ServiceError(Code.BAD_TIME, _("the time must be within the round's limit (%(limit)s)")
                           % {"limit": topping.format_seconds(limit)})
    coordinates, written = move_parts(word)
    points = None
    if written:
        slips.check_word(registration.tournament, rnd, written, coordinates)
        points = judge_attempt(rnd, written, coordinates)[1]
    before = results_for(rnd).get(registration.pk)
    with transaction.atomic():
        version = slips.last_version(registration.pk, rnd.pk) + 1
        if written:  # the paper slip's move is the one that counts for his points
            Slip.objects.filter(round=rnd, registration=registration, is_current=True).update(is_current=False)
        at = rnd.opened_at + timedelta(seconds=seconds or 0)
        slip = rows.insert(Slip(
            registration=registration, round_id=rnd.pk, word=written[:40], coordinates=coordinates[:10],
            announced_score=None, received_at=at, source=Slip.Source.TIME,
            idempotency_key=f"topping-arbiter-{uuid.uuid4()}", version=version, is_current=bool(written), late=False,
            entered_by=audit.user_or_none(actor), topped=seconds is not None, points=points))
        audit.record(actor, "slip.topping_time", slip, before={"seconds": before.topped_seconds if before else None},
                     after={"seconds": seconds, "move": slip.text if written else "", "points": points,
                            "table": registration.table_number, "round": rnd.number, "game": rnd.game.number},
                     tournament=registration.tournament)
    if written and rnd.status in (Round.Status.JUDGED, Round.Status.REVIEWED):
        judging.judge_round(rnd, actor)  # his verdict follows the paper slip (overridden verdicts are kept)
    return slip


def results_for(rnd: Round) -> dict[int, topping.Attempt[int]]:
    """Registration → its attempt count and the seconds it topped in (None: not topped) in this round.

    The arbiter's latest entry wins; else the earliest tablet attempt that was the top. The attempts are the
    tablet's, and the paper slip when the arbiter typed its move (a paper player: 1; the arbiter's corrections
    are not attempts)."""
    found: dict[int, topping.Attempt[int]] = {}
    counts: dict[int, int] = {}
    arbiter: dict[int, Slip] = {}
    first: dict[int, Slip] = {}
    paper: set[int] = set()  # players whose paper slip's move the arbiter typed
    for slip in Slip.objects.filter(round=rnd).order_by("registration_id", "received_at", "version"):
        reg = slip.registration_id
        if slip.source == Slip.Source.TIME:
            if reg not in arbiter or slip.version > arbiter[reg].version:
                arbiter[reg] = slip
            if slip.word:
                paper.add(reg)
            continue
        counts[reg] = counts.get(reg, 0) + 1
        if slip.topped and not slip.late and reg not in first:
            first[reg] = slip
    for reg in set(counts) | set(arbiter):
        chosen = arbiter.get(reg) or first.get(reg)
        seconds = seconds_of(rnd, chosen.received_at) if chosen is not None and chosen.topped else None
        found[reg] = topping.Attempt(reg, rnd.pk, seconds, counts.get(reg, 0) + (reg in paper))
    return found


def game_lines(game: Game) -> list[topping.TimeLine[int]]:
    """Every registration's line over the game's rounds whose time is over (closed or later), ranked."""
    rounds_ = list(games.live_rounds(game).filter(status__in=FINAL_STATUSES).order_by("number"))
    regs = list(game.tournament.registrations.order_by("table_number").values_list("pk", flat=True))
    attempts = [a for r in rounds_ for a in results_for(r).values()]
    penalty = get_variant(game.variant).timeout_penalty
    return topping.time_lines(regs, [r.pk for r in rounds_], attempts, {r.pk: limit_seconds(r) for r in rounds_},
                              penalty)


def tournament_lines(tournament_games: list[Game]) -> list[topping.TimeLine[int]]:
    """The tournament's topping games added (each player's total time over them), ranked."""
    return topping.add_lines([game_lines(g) for g in tournament_games if is_topping(g)])


def topped_count(rnd: Round) -> int:
    """How many players have topped this round so far (the display's count)."""
    return sum(1 for a in results_for(rnd).values() if a.topped_seconds is not None)


class RoundRow(TypedDict):
    """One player in one topping round (the console's panel, the API)."""

    table: int
    name: str
    topped: bool
    seconds: int | None  # the time he topped in
    counted: int  # the seconds the round counts for him (limit + penalty when not topped)
    attempts: int


class GameRow(TypedDict):
    """One player's line of a topping game or tournament: total time, rank, per round the seconds counted."""

    table: int
    name: str
    rank: int
    total: int
    topped: int
    attempts: int
    rounds: list[int]  # the seconds counted per round, in round order


def standings_times(tournament: Tournament, game: Game | None) -> list[GameRow]:
    """The lines by total time of a topping game, or of the tournament's topping games (``game`` None);
    empty when the game (or every game of the tournament) is not a topping game (the papers read this)."""
    timed = [game] if game is not None else list(tournament.games.exclude(status=Game.Status.CANCELLED))
    return game_rows(tournament, game) if any(is_topping(g) for g in timed) else []


def times_by_game(tournament: Tournament) -> dict[int, dict[int, GameRow]]:
    """Topping games: game number → table → the player's line by total time (the player sheets read this)."""
    return {g.number: {r["table"]: r for r in game_rows(tournament, g)}
            for g in tournament.games.exclude(status=Game.Status.CANCELLED).order_by("number") if is_topping(g)}


def round_rows(rnd: Round) -> list[RoundRow]:
    """Every registered player in this round, by table: topped or not, his time, his attempts."""
    found = results_for(rnd)
    limit, penalty = limit_seconds(rnd), get_variant(rnd.game.variant).timeout_penalty
    out: list[RoundRow] = []
    for pk, table, name in rnd.game.tournament.registrations.order_by("table_number").values_list(
            "pk", "table_number", "player__name"):
        a = found.get(pk)
        seconds = a.topped_seconds if a is not None else None
        out.append({"table": table, "name": name, "topped": seconds is not None, "seconds": seconds,
                    "counted": topping.round_seconds(seconds, limit, penalty),
                    "attempts": a.attempts if a is not None else 0})
    return out


def game_rows(tournament: Tournament, game: Game | None) -> list[GameRow]:
    """The ranked lines of a topping game (``game``), or of the tournament's topping games (None)."""
    if game is not None:
        lines = game_lines(game)
    else:
        lines = tournament_lines(list(tournament.games.exclude(status=Game.Status.CANCELLED).order_by("number")))
    who = {pk: (table, name) for pk, table, name in tournament.registrations.values_list(
        "pk", "table_number", "player__name")}
    return [{"table": who[x.player][0], "name": who[x.player][1], "rank": x.rank, "total": x.total,
             "topped": x.topped, "attempts": x.attempts, "rounds": list(x.rounds.values())}
            for x in lines if x.player in who]


__all__ = ["GameRow", "RoundRow", "game_rows", "move_parts", "player_counts", "round_rows", "standings_times", "times_by_game",
           "Answer", "attempt", "check_open", "game_lines", "is_topping", "judge_attempt", "limit_seconds",
           "parse_time", "record_time", "results_for", "seconds_of", "topped_count",
           "tournament_lines"]
