"""A judged round's rows as the tablets show them: each player's slip and verdict, read for a whole hall at once
(rows, not model instances: a hall of 10,000) and written as the API writes them (:mod:`tournament.live.tablet`
puts them into each player's state)."""

from __future__ import annotations

import json
from datetime import datetime, tzinfo
from typing import NamedTuple, TypedDict

from django.db.models import TextField
from django.db.models.functions import Cast
from django.utils import translation
from rest_framework.fields import DateTimeField

from .. import labels
from ..models import Slip, Tournament, Verdict


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


def read_slips(t: Tournament, round_id: int, opened_at: datetime | None) -> tuple[dict[int, OwnSlip], int]:
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


def read_verdicts(t: Tournament, round_id: int) -> dict[int, VerdictBlock]:
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


__all__ = ["OwnSlip", "SlipRow", "VerdictBlock", "VerdictRow", "read_slips", "read_verdicts", "slip_dict", "verdict_dict"]
