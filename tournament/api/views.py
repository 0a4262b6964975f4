"""REST API views: arbiter console (``/api/arbiter/``), player tablets (``/api/tablet/``), public display
(``/api/public/``).

Every state change goes through :mod:`tournament.services`; a :class:`~tournament.services.ServiceError`
becomes a 400 (bad input) or 409 (the state doesn't allow it) with ``{"detail", "code"}``. Every other
error is a 4xx JSON body of the same shape.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
from dataclasses import dataclass

from django.core.cache import cache
from django.db import DatabaseError
from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView, set_rollback
from rest_framework.views import exception_handler as drf_exception_handler

from tournament import services
from tournament.memo import OnceMemo
from tournament.models import AuditLog, Game, Registration, Round, Slip, Tournament, Verdict, secret_hash

from . import serializers as s
from .permissions import (
    ARBITER_AUTHENTICATION,
    TABLET_AUTHENTICATION,
    IsArbiter,
    IsTabletPlayer,
    PublicReadOnly,
)

log = logging.getLogger(__name__)

#: ServiceError codes meaning "the current state doesn't allow it" (409); every other code is a 400.
CONFLICT_CODES = frozenset({
    "conflict", "round_pending", "round_not_open", "round_not_closed", "not_judged", "game_over", "key_reused",
    "not_due", "slug_taken", "table_taken", "round_cancelled", "wrong_tournament", "no_move", "wrong_phase",
    "rack_rejected", "time_over", "idempotency_conflict", "round_changed", "no_open_round",
})

LOGIN_MAX_FAILURES = 10
LOGIN_WINDOW_SECONDS = 300
IDEMPOTENCY_HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 64
AUDIT_DEFAULT_LIMIT = 200
AUDIT_MAX_LIMIT = 1000


class ApiError(exceptions.APIException):
    """A 4xx with a chosen status, message and code."""

    def __init__(self, status_code: int, detail: str, code: str, **extra):
        self.status_code = status_code
        self.extra = extra
        super().__init__(detail=detail, code=code)


def api_exception_handler(exc, context):
    """``{"detail": ..., "code": ...}`` for every handled error; field errors under ``errors``."""
    if isinstance(exc, DatabaseError):
        # Nothing was stored (the request's transaction rolls back): the tablet keeps the slip and
        # retries with the same Idempotency-Key, so the slip is stored exactly once.
        set_rollback()
        response = Response({"detail": "the server could not store this now: try again with the same "
                                       "Idempotency-Key", "code": "unavailable"},
                            status=status.HTTP_503_SERVICE_UNAVAILABLE)
        response["Retry-After"] = "2"
        return response
    if isinstance(exc, services.ServiceError):
        code = exc.code or "error"
        st = status.HTTP_409_CONFLICT if code in CONFLICT_CODES else status.HTTP_400_BAD_REQUEST
        return Response({"detail": exc.message, "code": code}, status=st)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) if str(exc) else "not found")
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        errors = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        first = next(iter(errors.items()), ("request", ["invalid"]))
        message = first[1][0] if isinstance(first[1], list) and first[1] else first[1]
        response.data = {"detail": f"{first[0]}: {message}", "code": "invalid", "errors": errors}
        return response
    if isinstance(exc, exceptions.APIException):
        detail = exc.detail
        if isinstance(detail, dict | list):
            detail = str(detail)
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        response.data = {"detail": str(detail), "code": code, **getattr(exc, "extra", {})}
    return response


def errors(*codes: int) -> dict:
    return {c: OpenApiResponse(s.ErrorSerializer, description="error: detail + code") for c in codes}


def validated(serializer_class, data):
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class BaseView(APIView):
    def get_exception_handler(self):
        return api_exception_handler


class ArbiterView(BaseView):
    authentication_classes = ARBITER_AUTHENTICATION
    permission_classes = [IsArbiter]

    def tournament(self, slug: str) -> Tournament:
        t = get_object_or_404(Tournament.objects.select_related("lexicon"), slug=slug)
        self.check_object_permissions(self.request, t)
        return t

    def game(self, slug: str, number: int) -> Game:
        t = self.tournament(slug)
        return get_object_or_404(Game.objects.select_related("tournament"), tournament=t, number=number)

    def round(self, pk: int) -> Round:
        rnd = get_object_or_404(Round.objects.select_related("game__tournament"), pk=pk)
        self.check_object_permissions(self.request, rnd)
        return rnd


class TabletView(BaseView):
    authentication_classes = TABLET_AUTHENTICATION
    permission_classes = [IsTabletPlayer]

    @property
    def registration(self) -> Registration:
        return self.request.auth


class PublicView(BaseView):
    authentication_classes: list = []
    permission_classes = [PublicReadOnly]


# -- shared helpers ----------------------------------------------------------------------------------------


def seconds_left(rnd: Round, now) -> int | None:
    if rnd.deadline is None:
        return None
    return max(0, int((rnd.deadline - now).total_seconds()))


def current_round(tournament: Tournament) -> Round | None:
    """The tournament's latest live round (games are played one after another)."""
    return (Round.objects.filter(game__tournament=tournament).exclude(status=Round.Status.CANCELLED)
            .select_related("game").order_by("-game__number", "-number", "-id").first())


def board_after(rnd: Round) -> str:
    """Board FEN after a published round's top: the next live round's board, else the game's board."""
    nxt = (rnd.game.rounds.exclude(status=Round.Status.CANCELLED).filter(number__gt=rnd.number)
           .order_by("number").first())
    if nxt is not None:
        return nxt.board_before
    return (rnd.game.state or {}).get("board", "")


def last_published_board(game: Game) -> str:
    last = game.rounds.filter(status=Round.Status.PUBLISHED).order_by("-number").first()
    return board_after(last) if last else (game.state or {}).get("board", "")


def standing_row(row) -> dict:
    player = row.player
    return {**row.as_dict(), "club": player.club, "category": player.category, "series": player.series,
            "warnings": row.warnings}


def standings_payload(tournament: Tournament, game: Game | None, group_by: str | None) -> dict:
    if game is not None:
        rows = services.game_standings(game)
        top_total = rows[0].top_total if rows else 0
        return {"tournament": tournament.slug, "game": game.number, "group_by": None, "top_total": top_total,
                "rows": [standing_row(r) for r in rows], "groups": []}
    result = services.tournament_standings(tournament, group_by=group_by or None)
    if isinstance(result, dict):
        groups = [{"name": name, "rows": [standing_row(r) for r in rows]} for name, rows in result.items()]
        top_total = next((rows[0].top_total for rows in result.values() if rows), 0)
        return {"tournament": tournament.slug, "game": None, "group_by": group_by, "top_total": top_total,
                "rows": [], "groups": groups}
    top_total = result[0].top_total if result else 0
    return {"tournament": tournament.slug, "game": None, "group_by": None, "top_total": top_total,
            "rows": [standing_row(r) for r in result], "groups": []}


GROUP_BY_PARAM = OpenApiParameter("group_by", str, enum=["series", "category", "club"], required=False,
                                  description="one ranking per series, category or club")


def group_by_param(request) -> str | None:
    value = request.query_params.get("group_by") or None
    if value is not None and value not in ("series", "category", "club"):
        raise ApiError(400, f"standings by {value!r}: use series, category or club", "bad_group")
    return value


def idempotency_key(request, *, required: bool) -> str | None:
    key = (request.headers.get(IDEMPOTENCY_HEADER) or "").strip()
    if not key:
        if required:
            raise ApiError(400, f"the {IDEMPOTENCY_HEADER} header is required (a unique value per slip, "
                                "the same value when retrying)", "idempotency_key_missing")
        return None
    if len(key) > MAX_KEY_LENGTH or not key.isprintable():
        raise ApiError(400, f"the {IDEMPOTENCY_HEADER} header must be at most {MAX_KEY_LENGTH} printable "
                            "characters", "idempotency_key_invalid")
    return key


def same_body(slip: Slip, data: dict) -> bool:
    return (slip.word == data["word"].strip() and slip.coordinates == (data.get("coordinates") or "").strip()
            and slip.announced_score == data.get("score"))


def retried_slip(key: str, registration: Registration, data: dict) -> Slip | None:
    """The slip already stored under this idempotency key (a retry), None for a new key.

    Same key + another body or another player → 409.
    """
    existing = Slip.objects.filter(idempotency_key=key).order_by("pk").first()
    if existing is not None and (existing.registration_id != registration.pk or not same_body(existing, data)):
        raise ApiError(409, f"this {IDEMPOTENCY_HEADER} was already used for another slip: send a new key "
                            "for a new slip", "idempotency_conflict")
    return existing


def submit_idempotent(rnd: Round, registration: Registration, data: dict, key: str, *,
                      looked_up: bool = False, **kwargs) -> tuple[Slip, bool]:
    """``services.submit_slip`` with a retry check: (slip, created). Same key + another body → 409.

    ``looked_up``: :func:`retried_slip` was called for this key just before and found nothing.
    """
    if not looked_up:
        existing = retried_slip(key, registration, data)
        if existing is not None:
            return existing, False
    slip = services.submit_slip(rnd, registration, word=data["word"], coordinates=data.get("coordinates") or "",
                                score=data.get("score"), idempotency_key=key, checked=True, **kwargs)
    return slip, True


# -- arbiter: tournaments, players, games ---------------------------------------------------------------------


class ArbiterTokenView(ObtainAuthToken):
    """POST username + password → a DRF token for the arbiter API."""

    authentication_classes: list = []
    permission_classes: list = []

    def get_exception_handler(self):
        return api_exception_handler

    @extend_schema(tags=["arbiter"], summary="Arbiter token (username + password)", responses={
        200: OpenApiResponse(response={"type": "object", "properties": {"token": {"type": "string"}}}),
        **errors(400)})
    def post(self, request, *args, **kwargs):
        return super().post(request, *args, **kwargs)


class ArbiterTournamentList(ArbiterView):
    @extend_schema(tags=["arbiter"], summary="Tournaments I arbitrate", responses={
        200: s.TournamentSerializer(many=True), **errors(401, 403)})
    def get(self, request):
        qs = Tournament.objects.filter(arbiters=request.user).select_related("lexicon")
        return Response(s.TournamentSerializer(qs, many=True).data)


class ArbiterTournamentDetail(ArbiterView):
    @extend_schema(tags=["arbiter"], summary="A tournament", responses={
        200: s.TournamentSerializer, **errors(401, 403, 404)})
    def get(self, request, slug):
        return Response(s.TournamentSerializer(self.tournament(slug)).data)


class ArbiterRegistrations(ArbiterView):
    @extend_schema(tags=["arbiter"], summary="Registered players", responses={
        200: s.RegistrationSerializer(many=True), **errors(401, 403, 404)})
    def get(self, request, slug):
        t = self.tournament(slug)
        return Response(s.RegistrationSerializer(t.registrations.select_related("player"), many=True).data)

    @extend_schema(tags=["arbiter"], summary="Register a player (the access code is shown only once)",
                   request=s.RegisterSerializer, responses={201: s.RegisteredSerializer, **errors(400, 401, 403, 404, 409)})
    def post(self, request, slug):
        t = self.tournament(slug)
        data = validated(s.RegisterSerializer, request.data)
        reg, code = services.register_player(request.user, t, **data)
        reg.access_code = code
        return Response(s.RegisteredSerializer(reg).data, status=status.HTTP_201_CREATED)


class ArbiterGames(ArbiterView):
    @extend_schema(tags=["arbiter"], summary="Games of a tournament", responses={
        200: s.ArbiterGameSerializer(many=True), **errors(401, 403, 404)})
    def get(self, request, slug):
        t = self.tournament(slug)
        return Response(s.ArbiterGameSerializer(t.games.all(), many=True).data)

    @extend_schema(tags=["arbiter"], summary="Start a game (random seed, given seed, or prepared racks)",
                   request=s.GameCreateSerializer, responses={201: s.ArbiterGameSerializer, **errors(400, 401, 403, 404)})
    def post(self, request, slug):
        t = self.tournament(slug)
        data = validated(s.GameCreateSerializer, request.data)
        game = services.create_game(request.user, t, seed=data.get("seed"), prepared_racks=data.get("prepared_racks"))
        return Response(s.ArbiterGameSerializer(game).data, status=status.HTTP_201_CREATED)


class ArbiterGameDetail(ArbiterView):
    @extend_schema(tags=["arbiter"], summary="A game", responses={200: s.ArbiterGameSerializer, **errors(401, 403, 404)})
    def get(self, request, slug, number):
        return Response(s.ArbiterGameSerializer(self.game(slug, number)).data)


class ArbiterGameRounds(ArbiterView):
    @extend_schema(tags=["arbiter"], summary="Rounds of a game (cancelled ones included)", responses={
        200: s.ArbiterRoundSerializer(many=True), **errors(401, 403, 404)})
    def get(self, request, slug, number):
        game = self.game(slug, number)
        rounds = game.rounds.select_related("game__tournament").order_by("number", "id")
        return Response(s.ArbiterRoundSerializer(rounds, many=True).data)


class ArbiterDraw(ArbiterView):
    @extend_schema(tags=["arbiter"], summary="Draw the next round (automatically, or the rack typed from a bag)",
                   request=s.DrawSerializer, responses={201: s.ArbiterRoundSerializer, **errors(400, 401, 403, 404, 409)})
    def post(self, request, slug, number):
        game = self.game(slug, number)
        data = validated(s.DrawSerializer, request.data)
        rnd = services.draw_round(request.user, game, typed_rack=data.get("typed_rack"))
        if rnd is None:
            log = (AuditLog.objects.filter(action="round.rack_rejected", object_type="Game", object_id=str(game.pk))
                   .order_by("-at", "-id").first())
            raise ApiError(409, "no round was drawn: the rack was not valid and its tiles went back to the bag; "
                                "draw again", "rack_rejected", log=(log.after or {}).get("log", []) if log else [])
        rnd.refresh_from_db()
        return Response(s.ArbiterRoundSerializer(rnd).data, status=status.HTTP_201_CREATED)


class ArbiterGameStandings(ArbiterView):
    @extend_schema(tags=["arbiter"], summary="Standings of a game", responses={
        200: s.StandingsSerializer, **errors(401, 403, 404)})
    def get(self, request, slug, number):
        game = self.game(slug, number)
        return Response(standings_payload(game.tournament, game, None))


class ArbiterTournamentStandings(ArbiterView):
    @extend_schema(tags=["arbiter"], summary="Standings of the tournament", parameters=[GROUP_BY_PARAM],
                   responses={200: s.StandingsSerializer, **errors(400, 401, 403, 404)})
    def get(self, request, slug):
        t = self.tournament(slug)
        return Response(standings_payload(t, None, group_by_param(request)))


class ArbiterAudit(ArbiterView):
    @extend_schema(tags=["arbiter"], summary="Audit log of the tournament (newest first)", parameters=[
        OpenApiParameter("action", str, required=False, description="e.g. verdict.override"),
        OpenApiParameter("limit", int, required=False, description=f"at most {AUDIT_MAX_LIMIT}")],
        responses={200: s.AuditLogSerializer(many=True), **errors(400, 401, 403, 404)})
    def get(self, request, slug):
        t = self.tournament(slug)
        try:
            limit = int(request.query_params.get("limit", AUDIT_DEFAULT_LIMIT))
        except ValueError:
            raise ApiError(400, "limit must be a whole number", "invalid") from None
        limit = max(1, min(limit, AUDIT_MAX_LIMIT))
        qs = AuditLog.objects.filter(tournament=t).select_related("actor")
        if request.query_params.get("action"):
            qs = qs.filter(action=request.query_params["action"])
        return Response(s.AuditLogSerializer(qs[:limit], many=True).data)


# -- arbiter: rounds ------------------------------------------------------------------------------------------


class ArbiterRoundDetail(ArbiterView):
    @extend_schema(tags=["arbiter"], summary="A round (rack, solver's moves, status)", responses={
        200: s.ArbiterRoundSerializer, **errors(401, 403, 404)})
    def get(self, request, pk):
        return Response(s.ArbiterRoundSerializer(self.round(pk)).data)


class RoundAction(ArbiterView):
    """POST without a body: one service call on the round."""

    summary = ""

    def act(self, request, rnd: Round) -> Round:
        raise NotImplementedError

    def post(self, request, pk):
        rnd = self.act(request, self.round(pk))
        rnd = Round.objects.select_related("game__tournament").get(pk=rnd.pk)
        return Response(s.ArbiterRoundSerializer(rnd).data)


def round_action(summary: str, request_serializer=None):
    return extend_schema(tags=["arbiter"], summary=summary, request=request_serializer,
                         responses={200: s.ArbiterRoundSerializer, **errors(400, 401, 403, 404, 409)})


class ArbiterOpenRound(RoundAction):
    @round_action("Open the round (the deadline starts now, server time)")
    def post(self, request, pk):
        return super().post(request, pk)

    def act(self, request, rnd):
        return services.open_round(request.user, rnd)


class ArbiterCloseRound(RoundAction):
    @round_action("Close the round now")
    def post(self, request, pk):
        return super().post(request, pk)

    def act(self, request, rnd):
        return services.close_round(rnd, request.user, force=True)


class ArbiterJudgeRound(RoundAction):
    @round_action("Judge every slip (again: overridden verdicts are kept)")
    def post(self, request, pk):
        return super().post(request, pk)

    def act(self, request, rnd):
        return services.judge_round(rnd, request.user)


class ArbiterReviewRound(RoundAction):
    @round_action("Mark the verdicts reviewed")
    def post(self, request, pk):
        return super().post(request, pk)

    def act(self, request, rnd):
        return services.review_round(request.user, rnd)


class ArbiterChooseTop(RoundAction):
    @round_action("Choose the top among the moves of top score", s.ChooseTopSerializer)
    def post(self, request, pk):
        return super().post(request, pk)

    def act(self, request, rnd):
        data = validated(s.ChooseTopSerializer, request.data)
        return services.choose_top(request.user, rnd, data["move"])


class ArbiterPublishRound(RoundAction):
    @round_action("Publish the round (the top goes on the board)")
    def post(self, request, pk):
        return super().post(request, pk)

    def act(self, request, rnd):
        return services.publish_round(request.user, rnd)


class ArbiterCancelRound(RoundAction):
    @round_action("Cancel the round and every later round of its game (with the reason)", s.WhySerializer)
    def post(self, request, pk):
        return super().post(request, pk)

    def act(self, request, rnd):
        data = validated(s.WhySerializer, request.data)
        return services.cancel_round(request.user, rnd, why=data["why"])


class ArbiterNoMoveRedraw(ArbiterView):
    @extend_schema(tags=["arbiter"], summary="No legal move: the rack goes back to the bag and a new one is drawn",
                   request=None, responses={201: s.ArbiterRoundSerializer, 200: s.ArbiterGameSerializer,
                                            **errors(400, 401, 403, 404, 409)})
    def post(self, request, pk):
        rnd = self.round(pk)
        new = services.redraw_no_move(request.user, rnd)
        if new is None:  # no other rack can be drawn: the game ended
            return Response(s.ArbiterGameSerializer(Game.objects.get(pk=rnd.game_id)).data)
        new = Round.objects.select_related("game__tournament").get(pk=new.pk)
        return Response(s.ArbiterRoundSerializer(new).data, status=status.HTTP_201_CREATED)


class ArbiterFinishGame(ArbiterView):
    @extend_schema(tags=["arbiter"], summary="End the game (every round published or cancelled); warnings become "
                                             "penalties", request=s.WhySerializer,
                   responses={200: s.ArbiterGameSerializer, **errors(400, 401, 403, 404, 409)})
    def post(self, request, slug, number):
        game = self.game(slug, number)
        data = validated(s.WhySerializer, request.data)
        return Response(s.ArbiterGameSerializer(services.finish_game(request.user, game, why=data["why"])).data)


class ArbiterPenalty(ArbiterView):
    @extend_schema(tags=["arbiter"], summary="An arbiter's penalty for a table in this game (audited)",
                   request=s.PenaltyInputSerializer,
                   responses={201: s.PenaltySerializer, **errors(400, 401, 403, 404, 409)})
    def post(self, request, slug, number):
        game = self.game(slug, number)
        data = validated(s.PenaltyInputSerializer, request.data)
        reg = game.tournament.registrations.filter(table_number=data["table"]).first()
        if reg is None:
            raise ApiError(404, f"no player at table {data['table']}", "no_such_table")
        penalty = services.add_penalty(request.user, game, reg, points=data["points"], reason=data["reason"])
        return Response(s.PenaltySerializer(penalty).data, status=status.HTTP_201_CREATED)


class ArbiterSlips(ArbiterView):
    @extend_schema(tags=["arbiter"], summary="Slips of the round (every version)", parameters=[
        OpenApiParameter("current", bool, required=False, description="only the slips that count")],
        responses={200: s.SlipSerializer(many=True), **errors(401, 403, 404)})
    def get(self, request, pk):
        rnd = self.round(pk)
        qs = rnd.slips.select_related("registration__player", "entered_by").order_by(
            "registration__table_number", "version")
        if request.query_params.get("current") in ("1", "true", "yes"):
            qs = qs.filter(is_current=True)
        return Response(s.SlipSerializer(qs, many=True).data)

    @extend_schema(tags=["arbiter"], summary="Type a paper slip (source=paper)", request=s.PaperSlipSerializer,
                   parameters=[OpenApiParameter(IDEMPOTENCY_HEADER, str, OpenApiParameter.HEADER, required=False,
                                                description="a retry with the same key returns the same slip")],
                   responses={201: s.SlipSerializer, 200: s.SlipSerializer, **errors(400, 401, 403, 404, 409)})
    def post(self, request, pk):
        rnd = self.round(pk)
        data = validated(s.PaperSlipSerializer, request.data)
        reg = rnd.game.tournament.registrations.filter(table_number=data["table"]).first()
        if reg is None:
            raise ApiError(400, f"no player is registered at table {data['table']}", "unknown_table")
        key = idempotency_key(request, required=False)
        key = f"arbiter:{rnd.game.tournament_id}:{key}" if key else None
        if key is None:
            slip = services.submit_slip(rnd, reg, word=data["word"], coordinates=data["coordinates"],
                                        score=data["score"], source=Slip.Source.PAPER, actor=request.user,
                                        received_at=data.get("received_at"))
            created = True
        else:
            slip, created = submit_idempotent(rnd, reg, data, key, source=Slip.Source.PAPER, actor=request.user,
                                              received_at=data.get("received_at"))
        return Response(s.SlipSerializer(slip).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class ArbiterSlipCount(ArbiterView):
    @extend_schema(tags=["arbiter"], summary="Live count of slips received, with the missing tables", responses={
        200: s.SlipCountSerializer, **errors(401, 403, 404)})
    def get(self, request, pk):
        rnd = self.round(pk)
        tables = dict(rnd.game.tournament.registrations.values_list("pk", "table_number"))
        on_time = set(rnd.slips.filter(is_current=True).values_list("registration_id", flat=True))
        late = set(rnd.slips.filter(late=True).values_list("registration_id", flat=True)) - on_time
        now = timezone.now()
        return Response({
            "round": rnd.pk, "status": rnd.status, "registered": len(tables), "received": len(on_time & set(tables)),
            "late": sorted(tables[r] for r in late if r in tables),
            "missing": sorted(t for r, t in tables.items() if r not in on_time),
            "server_time": now, "deadline": rnd.deadline, "seconds_left": seconds_left(rnd, now),
        })


class ArbiterVerdicts(ArbiterView):
    @extend_schema(tags=["arbiter"], summary="Verdicts of the round", responses={
        200: s.VerdictSerializer(many=True), **errors(401, 403, 404)})
    def get(self, request, pk):
        rnd = self.round(pk)
        qs = rnd.verdicts.select_related("registration__player", "slip", "overridden_by").order_by(
            "registration__table_number")
        return Response(s.VerdictSerializer(qs, many=True).data)


class ArbiterOverrideVerdict(ArbiterView):
    @extend_schema(tags=["arbiter"], summary="Override a verdict (audited, with the reason)",
                   request=s.OverrideSerializer, responses={200: s.VerdictSerializer, **errors(400, 401, 403, 404, 409)})
    def post(self, request, pk):
        verdict = get_object_or_404(Verdict.objects.select_related("round__game__tournament"), pk=pk)
        self.check_object_permissions(request, verdict)
        data = validated(s.OverrideSerializer, request.data)
        services.override_verdict(request.user, verdict, awarded=data["awarded"], warning=data["warning"],
                                  why=data["why"], reason=data["reason"])
        verdict = Verdict.objects.select_related("registration__player", "slip", "overridden_by").get(pk=pk)
        return Response(s.VerdictSerializer(verdict).data)


# -- tablet ---------------------------------------------------------------------------------------------------


def client_ip(request) -> str:
    return request.META.get("REMOTE_ADDR") or "unknown"


def login_failures_key(request) -> str:
    return "api:tablet-login-failures:" + hashlib.sha256(client_ip(request).encode()).hexdigest()[:32]


class TabletLogin(BaseView):
    authentication_classes: list = []
    permission_classes: list = []

    @extend_schema(tags=["tablet"], summary="Log in with the personal access code", request=s.TabletLoginSerializer,
                   responses={200: s.TabletTokenSerializer, **errors(400, 429)})
    def post(self, request):
        key = login_failures_key(request)
        try:
            failures = cache.get(key, 0)
        except Exception:  # the cache (Redis) is down: the 40+-bit codes still guard, players can log in
            log.warning("cache unavailable: login attempts not counted", exc_info=True)
            failures = 0
        if failures >= LOGIN_MAX_FAILURES:
            raise ApiError(429, f"too many wrong access codes from this address: wait "
                                f"{LOGIN_WINDOW_SECONDS // 60} minutes and try again", "too_many_attempts")
        data = validated(s.TabletLoginSerializer, request.data)
        code = data["code"].strip()
        reg = (Registration.objects.select_related("tournament", "player")
               .filter(access_code_hash=secret_hash(code)).order_by("pk").first()) if code else None
        try:
            if reg is None:
                hmac.compare_digest(secret_hash(code), "0" * 64)  # same work as a real comparison
                raise services.ServiceError("bad_code", "the access code is wrong")
            token = services.issue_tablet_token(reg, code)
        except services.ServiceError:
            try:
                cache.add(key, 0, LOGIN_WINDOW_SECONDS)
                cache.incr(key)
            except ValueError:  # expired in between
                cache.set(key, 1, LOGIN_WINDOW_SECONDS)
            except Exception:
                log.warning("cache unavailable: a wrong access code not counted", exc_info=True)
            raise
        return Response({"token": token, "tournament": reg.tournament.slug, "table": reg.table_number,
                         "name": reg.player.name})


#: Shared tablet states this process built or fetched, by cache key (one key per state version: never stale).
_shared_states = OnceMemo(keep=16)


def shared_tablet_state(tournament: Tournament, seen_version: str | None = None) -> tuple[str, dict]:
    """What every tablet of a tournament shares (round, board, standings of a published round), computed
    once per state version and kept in the cache: a publication read by 1,500 tablets computes the
    standings once, not 1,500 times. Returns (version, shared state).

    ``seen_version``: the version the tablet's poll just reported. When this process's memo says the
    same, no query is needed to know the version (the state of that version, or newer, is served).
    """
    from tournament.views_display import known_version_of, tournament_version

    version = None
    if seen_version:
        known = known_version_of(tournament.pk)
        if known == seen_version:
            version = known
    if version is None:
        version = tournament_version(tournament.pk, fresh=True)
    key = f"tablet-shared:{tournament.pk}:{version}"
    return version, _shared_states.get(key, lambda: _cached_shared_state(key, tournament))


def _cached_shared_state(key: str, tournament: Tournament) -> dict:
    """The shared state from the cache (Redis), else computed and put there (one process computes it)."""
    try:
        data = cache.get(key)
    except Exception:  # the cache (Redis) is down: tablets carry on without it
        log.warning("cache unavailable: tablet state computed without it", exc_info=True)
        return _compute_shared_state(tournament)
    if data is None:
        data = _compute_shared_state(tournament)
        try:
            cache.set(key, data, 120)
        except Exception:
            log.warning("cache unavailable: tablet state not kept", exc_info=True)
    return data


def _compute_shared_state(t: Tournament) -> dict:
    rnd = current_round(t)
    if rnd is None:
        game = t.games.order_by("-number").first()
        return {"round": None, "board": last_published_board(game) if game else ""}
    data = {
        "round": {"id": rnd.pk, "game": rnd.game.number, "number": rnd.number, "status": rnd.status,
                  "rack": rnd.rack, "deadline": rnd.deadline, "grace_seconds": rnd.grace_seconds,
                  "chosen_move": rnd.chosen_move, "chosen_score": rnd.chosen_score},
        "board": last_published_board(rnd.game),
    }
    if rnd.status == Round.Status.PUBLISHED:
        rows = services.game_standings(rnd.game)
        data["standings"] = {r.registration.pk: (r.total, r.top_total, r.rank) for r in rows}
        data["players"] = len(rows)
        data["solos"] = dict(rnd.solos.values_list("registration_id", "points"))
    return data


#: Round statuses in which no slip can come any more (slips are taken while open or closed): a round's
#: slips and verdicts are then fixed for a state version (a verdict changed by the arbiter bumps it).
FROZEN_SLIPS = (Round.Status.JUDGED, Round.Status.REVIEWED, Round.Status.PUBLISHED)
_judged_halls = OnceMemo(keep=8)
#: version → (tournament id, hall) of judged rounds this process has read: what the WSGI layer serves from.
_fast_halls: dict[str, tuple[int, JudgedHall]] = {}


@dataclass(frozen=True)
class JudgedHall:
    """Everything the tablets of a judged round show, for one state version."""

    tournament: dict  # the tablet's "tournament" block
    shared: dict  # shared_tablet_state
    slips: dict[int, dict]  # registration → own slip
    verdicts: dict[int, dict]  # registration → verdict
    roster: dict[str, tuple[int, str, int]]  # token hash → (registration, name, table)


def verdict_dict(v: Verdict) -> dict:
    return {"awarded": v.awarded, "warning": v.warning, "reason": v.reason, "message": v.message,
            "true_score": v.true_score, "move": v.move}


def tournament_block(t: Tournament) -> dict:
    return {"slug": t.slug, "name": t.name, "ruleset": t.ruleset, "convention": t.convention,
            "assisted_mode": t.assisted_mode, "seconds_per_move": t.seconds_per_move}


def judged_hall(t: Tournament, version: str, shared: dict) -> JudgedHall:
    """The :class:`JudgedHall` of a judged round: four queries per state version and process instead of
    several per tablet; 1,500 tablets reading their result after a publication cost this once."""
    round_id = shared["round"]["id"]

    def read() -> JudgedHall:
        slips: dict[int, dict] = {}
        for slip in Slip.objects.filter(round_id=round_id).order_by("registration_id", "-is_current", "-version"):
            slips.setdefault(slip.registration_id, s.OwnSlipSerializer(slip).data)
        verdicts = {v.registration_id: verdict_dict(v) for v in Verdict.objects.filter(round_id=round_id).order_by()}
        roster = {h: (pk, name, table) for h, pk, name, table in Registration.objects.filter(
            tournament=t, token_hash__isnull=False).order_by().values_list(
            "token_hash", "pk", "player__name", "table_number")}
        hall = JudgedHall(tournament_block(t), shared, slips, verdicts, roster)
        if len(_fast_halls) >= 8:
            _fast_halls.clear()
        _fast_halls[version] = (t.pk, hall)
        return hall

    return _judged_halls.get((t.pk, version, round_id), read)


def tablet_state(*, player: tuple[int, str, int], tournament: dict, version: str, shared: dict, now,
                 slip: dict | None, verdict: dict | None) -> dict:
    """The tablet's state (:class:`TabletState`) from its parts; ``player`` = (registration, name, table)."""
    pk, name, table = player
    state = {
        "server_time": now, "version": version, "tournament": tournament, "player": {"name": name, "table": table},
        "round": None, "board": shared["board"], "slip": None, "verdict": None, "top": None, "result": None,
    }
    r = shared["round"]
    if r is None:
        return state
    shown = r["status"] != Round.Status.DRAWN
    deadline = r["deadline"]
    state["round"] = {
        "id": r["id"], "game": r["game"], "number": r["number"], "status": r["status"],
        "rack": r["rack"] if shown else None, "deadline": deadline,
        "seconds_left": max(0, int((deadline - now).total_seconds())) if deadline else None,
        "accepting_slips": r["status"] == Round.Status.OPEN and deadline is not None and now <= deadline,
    }
    state["slip"], state["verdict"] = slip, verdict
    if r["status"] == Round.Status.PUBLISHED:
        state["top"] = {"move": r["chosen_move"], "score": r["chosen_score"]}
        mine = shared.get("standings", {}).get(pk)
        if mine is not None:
            total, top_total, rank = mine
            state["result"] = {"round_score": verdict["awarded"] if verdict else 0,
                               "solo": shared.get("solos", {}).get(pk, 0),
                               "total": total, "top_total": top_total, "rank": rank,
                               "players": shared.get("players", 0)}
    return state


def fast_tablet_state(token: str, version: str) -> bytes | None:
    """The tablet state as JSON without Django, for the WSGI layer: only for a judged round whose hall this
    process has read for ``version``, while ``version`` is still the current one; None otherwise.

    The token is looked up in the hall's roster (hashes read with the hall): a token replaced by a new
    login during this version still reads its own state until the version changes (slips always go
    through the database check).
    """
    from tournament.views_display import known_version_of

    entry = _fast_halls.get(version)
    if entry is None:
        return None
    tid, hall = entry
    if known_version_of(tid) != version:
        return None
    player = hall.roster.get(secret_hash(token))
    if player is None:
        return None
    show_verdict = hall.shared["round"]["status"] == Round.Status.PUBLISHED or hall.tournament["assisted_mode"]
    state = tablet_state(player=player, tournament=hall.tournament, version=version, shared=hall.shared,
                         now=timezone.now(), slip=hall.slips.get(player[0]),
                         verdict=hall.verdicts.get(player[0]) if show_verdict else None)
    return JSONRenderer().render(state)


class TabletState(TabletView):
    @extend_schema(tags=["tablet"], summary="The tablet's state: round, rack, time left, board, own slip, result",
                   parameters=[OpenApiParameter("v", str, required=False, description=(
                       "the state version (ETag) the tablet's last poll reported: lets the server skip "
                       "looking the version up again"))],
                   responses={200: s.TabletStateSerializer, **errors(401, 403)})
    def get(self, request):
        reg = self.registration
        t = reg.tournament
        seen = (request.query_params.get("v") or "").strip().removeprefix("W/").strip('"')[:80]
        version, shared = shared_tablet_state(t, seen or None)
        r = shared["round"]
        slip = verdict = None
        if r is not None and r["status"] in FROZEN_SLIPS:  # every player's slip and verdict, read once
            hall = judged_hall(t, version, shared)
            slip = hall.slips.get(reg.pk)
            if r["status"] == Round.Status.PUBLISHED or t.assisted_mode:
                verdict = hall.verdicts.get(reg.pk)
        elif r is not None:
            row = (Slip.objects.filter(round_id=r["id"], registration=reg)
                   .order_by("-is_current", "-version").first())
            slip = s.OwnSlipSerializer(row).data if row else None
            if t.assisted_mode:
                found = Verdict.objects.filter(round_id=r["id"], registration=reg).order_by("pk").first()
                verdict = verdict_dict(found) if found else None
        return Response(tablet_state(player=(reg.pk, reg.player.name, reg.table_number),
                                     tournament=tournament_block(t), version=version, shared=shared,
                                     now=timezone.now(), slip=slip, verdict=verdict))


class TabletSlip(TabletView):
    @extend_schema(tags=["tablet"], summary="Hand in (or replace) the slip of the open round",
                   request=s.TabletSlipSerializer,
                   parameters=[OpenApiParameter(IDEMPOTENCY_HEADER, str, OpenApiParameter.HEADER, required=True,
                                                description="unique per slip; a retry with the same key and body "
                                                            "returns the same slip (200)")],
                   responses={201: s.OwnSlipSerializer, 200: s.OwnSlipSerializer,
                              **errors(400, 401, 403, 409)})
    def post(self, request):
        reg = self.registration
        raw_key = idempotency_key(request, required=True)
        data = validated(s.TabletSlipSerializer, request.data)
        key = f"tablet:{reg.pk}:{raw_key}"
        slip, created = retried_slip(key, reg, data), False
        if slip is None:
            rnd = current_round(reg.tournament)
            if rnd is None or rnd.status not in (Round.Status.OPEN, Round.Status.CLOSED):
                raise ApiError(409, "no round is open: slips are not taken now", "no_open_round")
            if data.get("round") is not None and data["round"] != rnd.pk:
                raise ApiError(409, f"round {data['round']} is not the current round: slips are not taken for it",
                               "round_changed")
            slip, created = submit_idempotent(rnd, reg, data, key, looked_up=True)
        if slip.late:
            raise ApiError(409, "time is over: the slip was stored as late and counts as missing", "time_over",
                           slip=s.OwnSlipSerializer(slip).data)
        return Response(s.OwnSlipSerializer(slip).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


# -- public ---------------------------------------------------------------------------------------------------


def public_tournaments():
    return Tournament.objects.select_related("lexicon").prefetch_related(
        Prefetch("games", queryset=Game.objects.exclude(status=Game.Status.CANCELLED)))


class PublicTournamentList(PublicView):
    @extend_schema(tags=["public"], summary="Tournaments", responses={200: s.TournamentSerializer(many=True)})
    def get(self, request):
        return Response(s.TournamentSerializer(Tournament.objects.select_related("lexicon"), many=True).data)


class PublicTournamentDetail(PublicView):
    @extend_schema(tags=["public"], summary="A tournament and its games", responses={
        200: s.PublicTournamentSerializer, **errors(404)})
    def get(self, request, slug):
        return Response(s.PublicTournamentSerializer(get_object_or_404(public_tournaments(), slug=slug)).data)


class PublicRounds(PublicView):
    @extend_schema(tags=["public"], summary="Published rounds of a game: rack, top, board", responses={
        200: s.PublicRoundSerializer(many=True), **errors(404)})
    def get(self, request, slug, number):
        game = get_object_or_404(Game.objects.exclude(status=Game.Status.CANCELLED), tournament__slug=slug,
                                 number=number)
        out = []
        for rnd in game.rounds.filter(status=Round.Status.PUBLISHED).order_by("number"):
            out.append({"game": game.number, "number": rnd.number, "rack": rnd.rack,
                        "top": {"move": rnd.chosen_move, "score": rnd.chosen_score},
                        "board_before": rnd.board_before, "board_after": board_after(rnd),
                        "published_at": rnd.published_at})
        return Response(out)


class PublicGameStandings(PublicView):
    @extend_schema(tags=["public"], summary="Standings of a game (published rounds)", responses={
        200: s.StandingsSerializer, **errors(404)})
    def get(self, request, slug, number):
        game = get_object_or_404(Game.objects.select_related("tournament").exclude(status=Game.Status.CANCELLED),
                                 tournament__slug=slug, number=number)
        return Response(standings_payload(game.tournament, game, None))


class PublicTournamentStandings(PublicView):
    @extend_schema(tags=["public"], summary="Standings of the tournament (published rounds)",
                   parameters=[GROUP_BY_PARAM], responses={200: s.StandingsSerializer, **errors(400, 404)})
    def get(self, request, slug):
        t = get_object_or_404(Tournament, slug=slug)
        return Response(standings_payload(t, None, group_by_param(request)))

