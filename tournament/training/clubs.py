"""A club session: a whole club trains on the same game at once.

The leader opens a session of a training game (:func:`open_club`) and keeps its leader key (his page's
address); the players join with the session's code and their names (:func:`join`), each on his own tablet.
The leader starts each round for every run at once (:func:`start_round`): the clocks start together; a run
still playing the previous round when the next starts has it judged without a slip. A player who joins late
has the rounds he missed counted as missing. The session's table (:func:`table`) ranks the runs.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import sheet

from ..models import TrainingClub, TrainingGame, TrainingRun
from . import services
from .services import TrainingError


def open_club(game: TrainingGame, name: str) -> TrainingClub:
    name = name.strip()
    if not name:
        raise TrainingError(_("Write the club's name."))
    return TrainingClub.objects.create(
        game=game, name=name[:100], code=services.new_code(TrainingClub), leader_key=secrets.token_urlsafe(18)
    )


def club_for_code(code: str) -> TrainingClub | None:
    code = code.strip().upper()[:16]
    return TrainingClub.objects.select_related("game").filter(code=code).first() if code else None


def club_for_leader(code: str, key: str) -> TrainingClub | None:
    club = club_for_code(code)
    if club is None or not hmac.compare_digest(club.leader_key.encode(), key.encode()):
        return None
    return club


def rounds_count(club: TrainingClub) -> int:
    return len(club.game.rounds)


def is_over(club: TrainingClub, now: datetime | None = None) -> bool:
    """The last round was started and every slip is in, or its time is over."""
    if club.round < rounds_count(club):
        return False
    return not round_open(club, now)


def deadline(club: TrainingClub) -> datetime | None:
    if club.started_at is None:
        return None
    return club.started_at + timedelta(seconds=club.game.seconds_per_move)


def is_running(club: TrainingClub, now: datetime | None = None) -> bool:
    """The current round's clock (and its grace) has not run out."""
    end = deadline(club)
    return end is not None and (now or timezone.now()) <= end + timedelta(seconds=services.GRACE_SECONDS)


def round_open(club: TrainingClub, now: datetime | None = None) -> bool:
    """A round is being played: its clock (and its grace) runs and a slip is still awaited. Once every slip is in,
    or the time is over, the round is done: the pages show no clock."""
    return is_running(club, now) and any(services.is_playing(r) for r in club.runs.all())


def _catch_up(run: TrainingRun, upto: int, now: datetime) -> TrainingRun:
    """``run`` with every round before ``upto`` judged (a round still played, or missed: without a slip)."""
    if services.is_playing(run):
        services.hand_in(run, None, now=now)
        run.refresh_from_db()
    missed = []
    for rnd in run.game.rounds[len(run.results) : upto - 1]:
        missed.append(services.judge(run.game, rnd, None))
    if missed:
        run.results = [*run.results, *missed]
        run.save(update_fields=["results"])
    return run


def join(club: TrainingClub, name: str, now: datetime | None = None) -> TrainingRun:
    """A player's run in the session; he plays the round being played from now on (its clock is the club's)."""
    now = now or timezone.now()
    run = services.start_run(club.game, name, club=club)
    if club.round:
        playing = is_running(club, now)
        run = _catch_up(run, club.round + (0 if playing else 1), now)
        if playing:
            run.round, run.started_at = club.round, club.started_at
            run.save(update_fields=["round", "started_at"])
    return run


def start_round(club: TrainingClub, now: datetime | None = None) -> TrainingClub:
    """Starts the next round for every run of the session at once."""
    now = now or timezone.now()
    with transaction.atomic():
        club = TrainingClub.objects.select_for_update().select_related("game").get(pk=club.pk)
        if club.round >= rounds_count(club):
            raise TrainingError(_("The game is over."))
        runs = list(club.runs.select_related("game"))
        if is_running(club, now) and any(services.is_playing(r) for r in runs):
            raise TrainingError(
                _("Round %(n)s is being played: wait until every slip is in or the time is over.")
                % {"n": club.round}
            )
        club.round += 1
        club.started_at = now
        club.save(update_fields=["round", "started_at"])
        for run in runs:
            run = _catch_up(run, club.round, now)
            run.round, run.started_at = club.round, now
            run.save(update_fields=["round", "started_at"])
    return club


@dataclass(frozen=True)
class Row:
    """A line of the session's table."""

    rank: int
    name: str
    code: str
    score: services.Score
    handed_in: bool  # the round being played is handed in (or there is none)


def table(club: TrainingClub) -> list[Row]:
    """The runs of the session, best total first (equal totals share a rank)."""
    runs = list(club.runs.all())
    scores = {r.pk: services.score(r) for r in runs}
    lines = [sheet.Line(r.pk, awarded=scores[r.pk].total, top_total=scores[r.pk].top_total) for r in runs]
    rank = {line.player: line.rank for line in sheet.ranked(lines)}
    rows = [Row(rank[r.pk], r.name, r.code, scores[r.pk], not services.is_playing(r)) for r in runs]
    return sorted(rows, key=lambda row: (row.rank, row.name))
