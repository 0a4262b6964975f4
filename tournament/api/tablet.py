"""The tablet API (``/api/tablet/``): login with the access code, the tablet's state, the slip, and the
assisted mode's score of tiles placed on the player's own board."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, TypedDict

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.board import BoardError
from scoring.check import play_placed, play_written
from scoring.coords import CoordError
from scoring.notation import NotationError
from scoring.placement import IllegalMove

from .. import labels, proxies
from ..errors import Code, ServiceError
from ..live import tablet as live_tablet
from ..models import Registration, Round
from ..services import players, rounds, slips, solving, topping
from ..web.attempts import (
    LOGIN_MAX_FAILURES,
    LOGIN_WINDOW_SECONDS,
    count_failure,
    failures,
    login_failures_key,
)
from .base import IDEMPOTENCY_HEADER, BaseView, TabletView, errors, idempotency_key, validated
from .serializers import tablet as s


class TabletLogin(BaseView):
    authentication_classes: list[type] = []
    permission_classes: list[type] = []

    @extend_schema(tags=["tablet"], operation_id="tablet_login", summary="Log in with the personal access code", request=s.TabletLoginSerializer,
                   responses={200: s.TabletTokenSerializer, **errors(400, 429)})
    def post(self, request: Request) -> Response:
        key = login_failures_key(request)
        if failures(key) >= LOGIN_MAX_FAILURES:
            minutes = LOGIN_WINDOW_SECONDS // 60
            raise ServiceError(Code.TOO_MANY_ATTEMPTS, ngettext(
                "too many wrong access codes from this address: wait %(n)s minute and try again",
                "too many wrong access codes from this address: wait %(n)s minutes and try again", minutes)
                % {"n": minutes})
        data = validated(s.TabletLoginSerializer, request.data)
        try:
            reg, token = players.login(data["code"], data.get("language"))
        except ServiceError:
            count_failure(key)
            raise
        return Response({"token": token, "tournament": reg.tournament.slug, "table": reg.table_number,
                         "name": reg.player.name})


class TabletState(TabletView):
    @extend_schema(tags=["tablet"], operation_id="tablet_get_state", summary="The tablet's state: round, rack, time left, board, own slip, result",
                   parameters=[OpenApiParameter("v", str, required=False, description=(
                       "the state version (ETag) the tablet's last poll reported: lets the server skip "
                       "looking the version up again"))],
                   responses={200: s.TabletStateSerializer, **errors(401, 403)})
    def get(self, request: Request) -> Response:
        seen = (request.query_params.get("v") or "").strip().removeprefix("W/").strip('"')[:80]
        return Response(live_tablet.state_for(self.registration, seen or None))


class TabletSlip(TabletView):
    @extend_schema(tags=["tablet"], operation_id="tablet_hand_in_slip", summary="Hand in (or replace) the slip of the open round",
                   request=s.TabletSlipSerializer,
                   parameters=[OpenApiParameter(IDEMPOTENCY_HEADER, str, OpenApiParameter.HEADER, required=True,
                                                description="unique per slip; a retry with the same key and body "
                                                            "returns the same slip (200)")],
                   responses={201: s.OwnSlipSerializer, 200: s.OwnSlipSerializer,
                              **errors(400, 401, 403, 409)})
    def post(self, request: Request) -> Response:
        reg = self.registration
        raw_key = idempotency_key(request, required=True)
        data = validated(s.TabletSlipSerializer, request.data)
        key = f"tablet:{reg.pk}:{raw_key}"
        body = {"word": data["word"], "coordinates": data.get("coordinates") or "", "score": data.get("score")}
        slip, created = slips.retried_slip(key, reg, **body), False
        if slip is None:
            rnd = rounds.tournament_round(reg.tournament)
            if rnd is None or rnd.status not in slips.TABLET_STATUSES:
                raise ServiceError(Code.NO_OPEN_ROUND, _("no round is open: slips are not taken now"))
            if data.get("round") is not None and data["round"] != rnd.pk:
                raise ServiceError(Code.ROUND_CHANGED, _("the slip is for another round: slips are taken for "
                                                         "round %(n)s only") % {"n": rnd.number})
            if topping.is_topping(rnd.game):
                return _topping_attempt(rnd, reg, key, body)
            door = datetime.fromtimestamp(proxies.door_time(request.META, settings.TRUSTED_PROXIES), tz=UTC)
            slip, created = slips.submit_once(rnd, reg, key, **body, looked_up=True, door=door)
        elif topping.is_topping(slip.round.game):  # a retry: answered as the first time
            return _topping_attempt(slip.round, reg, key, body)
        answer = live_tablet.slip_dict(slip, labels.zone_of(reg.tournament.time_zone))
        if slip.late:
            raise ServiceError(Code.TIME_OVER, slips.late_text(),
                               slip=answer)
        return Response(answer, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


def _topping_attempt(rnd: Round, reg: Registration, key: str, body: dict[str, Any]) -> Response:
    """A topping game's attempt: judged at once; the answer says the top (and the time) or not."""
    found, created = topping.attempt(rnd, reg, key, word=body["word"], coordinates=body["coordinates"],
                                     score=body["score"])
    answer = {**live_tablet.slip_dict(found.slip, labels.zone_of(reg.tournament.time_zone), rnd.opened_at),
              "topping": {"topped": found.topped, "points": found.points, "seconds": found.seconds,
                          "attempts": found.attempts}}
    if found.slip.late:
        raise ServiceError(Code.TIME_OVER, _("time is over: the attempt was stored as late and does not count"),
                           slip=answer)
    return Response(answer, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class AssistWord(TypedDict):
    word: str
    score: int


class AssistAnswer(TypedDict):
    """The assisted mode's answer (``AssistOutput``): the move's score, or why it is refused."""

    legal: bool
    code: str | None
    error: str | None
    move: str | None
    coordinates: str | None
    word: str | None
    score: int | None
    bingo: bool
    words: list[AssistWord]


def _refused(exc: IllegalMove | NotationError | CoordError, style: labels.CoordStyle) -> AssistAnswer:
    return {"legal": False, "code": getattr(exc, "code", "illegal"), "error": labels.engine_error(exc, style),
            "move": None,
            "coordinates": None, "word": None, "score": None, "bingo": False, "words": []}


class AssistScore(TabletView):
    """Assisted mode: place tiles (or write a move) on your own board with your own rack → the score.

    Placement rules and the rack are checked; words are not looked up (no word validity is revealed).
    403 unless the tournament is in assisted mode; 409 unless the round is open.
    """

    @extend_schema(tags=["tablet"], operation_id="tablet_assist_score", summary="Assisted mode: score of tiles placed on the player's board",
                   request=s.AssistInput, responses={200: s.AssistOutput, **errors(400, 401, 403, 409)})
    def post(self, request: Request) -> Response:
        t = self.registration.tournament
        if not t.assisted_mode:
            raise ServiceError(Code.NOT_ASSISTED, _("the tournament is not in assisted mode"))
        rnd = rounds.tournament_round(t)
        if rnd is None or rnd.status != Round.Status.OPEN:
            raise ServiceError(Code.NO_OPEN_ROUND, _("no round is open"))
        data = validated(s.AssistInput, request.data)
        try:
            board = solving.board_of(rnd)
        except BoardError:  # pragma: no cover - the round's own board
            raise ServiceError(Code.BAD_STATE, _("the board of this round cannot be read")) from None
        style = labels.reader_style(t.ruleset, t.convention, cyrillic_reader=data["cyrillic"])
        try:
            if data.get("placements"):
                placed = [(p["row"], p["col"], p["letter"], p["blank"]) for p in data["placements"]]
                play = play_placed(board, placed, rack=list(rnd.rack))
            else:
                play = play_written(board, data["move"], rack=list(rnd.rack), convention=t.convention)
        except (IllegalMove, NotationError, CoordError) as exc:
            return Response(_refused(exc, style))
        text = style.move(play.notation())
        coords, _sep, word = text.partition(" ")
        answer: AssistAnswer = {"legal": True, "code": None, "error": None, "move": text, "coordinates": coords,
                                "word": word, "score": play.score, "bingo": play.bingo,
                                "words": [{"word": w.word, "score": w.score} for w in play.words]}
        return Response(answer)
