"""The arbiter API (``/api/arbiter/``): tournaments, players, games, standings, the audit log.

The rounds' endpoints are in :mod:`tournament.api.rounds`. Every change goes through
:mod:`tournament.services`; a refusal answers with the catalogue's status (:mod:`tournament.errors`).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from ..errors import Code, ServiceError
from ..models import AuditLog, Tournament
from ..services import games, players, rounds, signs
from ..web import passwords
from .base import GROUP_BY_PARAM, ArbiterView, errors, group_by_param, standings_payload, validated
from .errors import ApiError, ExceptionHandler, api_exception_handler
from .parsers import LimitedJSONParser
from .serializers import arbiter as s
from .serializers.common import StandingsSerializer, TournamentSerializer

AUDIT_DEFAULT_LIMIT = 200
AUDIT_MAX_LIMIT = 1000


class TooManyPasswords(ApiError):
    """429 with ``Retry-After`` (DRF's handler writes it from ``wait``): wrong passwords (``web/passwords.py``)."""

    def __init__(self, detail: str, wait: int) -> None:
        super().__init__(status.HTTP_429_TOO_MANY_REQUESTS, detail, "too_many_attempts")
        self.wait = wait


class ArbiterTokenView(ObtainAuthToken):
    """POST username + password → a DRF token for the arbiter API."""

    authentication_classes: list[type] = []
    permission_classes: list[type] = []
    # ObtainAuthToken names DRF's own parsers (forms too): JSON only, within limits, as every API view
    parser_classes = (LimitedJSONParser,)

    def get_exception_handler(self) -> ExceptionHandler:
        return api_exception_handler

    @extend_schema(tags=["arbiter"], operation_id="arbiter_obtain_token", summary="Arbiter token (username + password)",
                   request=AuthTokenSerializer, responses={200: s.ArbiterTokenSerializer, **errors(400, 429)})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        username = str(request.data.get("username", "")) if hasattr(request.data, "get") else ""
        wait = passwords.wait_seconds(username, request)
        if not wait:
            try:
                return super().post(request, *args, **kwargs)
            except ValidationError:
                wait = passwords.wait_seconds(username, request)  # this wrong password reached the limit
                if not wait:
                    raise
        raise TooManyPasswords(passwords.retry_message(wait), wait)


class ArbiterTournamentList(ArbiterView):
    @extend_schema(tags=["arbiter"], operation_id="arbiter_list_tournaments", summary="Tournaments I arbitrate", responses={
        200: TournamentSerializer(many=True), **errors(401, 403)})
    def get(self, request: Request) -> Response:
        qs = Tournament.objects.filter(arbiters=self.arbiter()).select_related("lexicon")
        return Response(TournamentSerializer(qs, many=True).data)


class ArbiterTournamentDetail(ArbiterView):
    @extend_schema(tags=["arbiter"], operation_id="arbiter_get_tournament", summary="A tournament", responses={
        200: TournamentSerializer, **errors(401, 403, 404)})
    def get(self, request: Request, slug: str) -> Response:
        return Response(TournamentSerializer(self.tournament(slug)).data)


class ArbiterRegistrations(ArbiterView):
    @extend_schema(tags=["arbiter"], operation_id="arbiter_list_registrations", summary="Registered players", responses={
        200: s.RegistrationSerializer(many=True), **errors(401, 403, 404)})
    def get(self, request: Request, slug: str) -> Response:
        t = self.tournament(slug)
        return Response(s.RegistrationSerializer(t.registrations.select_related("player"), many=True).data)

    @extend_schema(tags=["arbiter"], operation_id="arbiter_register_player", summary="Register a player (the access code is shown only once)",
                   request=s.RegisterSerializer,
                   responses={201: s.RegisteredSerializer, **errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, slug: str) -> Response:
        t = self.tournament(slug)
        data = validated(s.RegisterSerializer, request.data)
        reg, code = players.register_player(request.user, t, **data)
        reg.access_code = code  # type: ignore[attr-defined]  # shown once, never stored
        return Response(s.RegisteredSerializer(reg).data, status=status.HTTP_201_CREATED)


class ArbiterGames(ArbiterView):
    @extend_schema(tags=["arbiter"], operation_id="arbiter_list_games", summary="Games of a tournament", responses={
        200: s.ArbiterGameSerializer(many=True), **errors(401, 403, 404)})
    def get(self, request: Request, slug: str) -> Response:
        t = self.tournament(slug)
        return Response(s.ArbiterGameSerializer(t.games.all(), many=True).data)

    @extend_schema(tags=["arbiter"], operation_id="arbiter_create_game", summary="Start a game (random seed, given seed, or prepared racks)",
                   request=s.GameCreateSerializer,
                   responses={201: s.ArbiterGameSerializer, **errors(400, 401, 403, 404)})
    def post(self, request: Request, slug: str) -> Response:
        t = self.tournament(slug)
        data = validated(s.GameCreateSerializer, request.data)
        game = games.create_game(request.user, t, seed=data.get("seed"), prepared_racks=data.get("prepared_racks"),
                                 variant=data["variant"], seconds_per_move=data.get("seconds_per_move"))
        return Response(s.ArbiterGameSerializer(game).data, status=status.HTTP_201_CREATED)


class ArbiterGameDetail(ArbiterView):
    @extend_schema(tags=["arbiter"], operation_id="arbiter_get_game", summary="A game", responses={200: s.ArbiterGameSerializer, **errors(401, 403, 404)})
    def get(self, request: Request, slug: str, number: int) -> Response:
        return Response(s.ArbiterGameSerializer(self.game(slug, number)).data)


class ArbiterGameRounds(ArbiterView):
    @extend_schema(tags=["arbiter"], operation_id="arbiter_list_game_rounds", summary="Rounds of a game (cancelled ones included)", responses={
        200: s.ArbiterRoundSerializer(many=True), **errors(401, 403, 404)})
    def get(self, request: Request, slug: str, number: int) -> Response:
        game = self.game(slug, number)
        qs = game.rounds.select_related("game__tournament").order_by("number", "id")
        return Response(s.ArbiterRoundSerializer(qs, many=True).data)


class ArbiterDraw(ArbiterView):
    @extend_schema(tags=["arbiter"], operation_id="arbiter_draw_round", summary="Draw the next round (automatically, or the rack typed from a bag)",
                   request=s.DrawSerializer,
                   responses={201: s.ArbiterRoundSerializer, **errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, slug: str, number: int) -> Response:
        game = self.game(slug, number)
        data = validated(s.DrawSerializer, request.data)
        rnd = rounds.draw_round(request.user, game, typed_rack=data.get("typed_rack"))
        if rnd is None:
            log = (AuditLog.objects.filter(action="round.rack_rejected", object_type="Game", object_id=str(game.pk))
                   .order_by("-at", "-id").first())
            raise ServiceError(Code.RACK_REJECTED, _("no round was drawn: the rack was not valid and its tiles "
                                                     "went back to the bag; draw again"),
                               log=(log.after or {}).get("log", []) if log else [])
        rnd.refresh_from_db()
        return Response(s.ArbiterRoundSerializer(rnd).data, status=status.HTTP_201_CREATED)


class ArbiterGameStandings(ArbiterView):
    @extend_schema(tags=["arbiter"], operation_id="arbiter_get_game_standings", summary="Standings of a game", parameters=[GROUP_BY_PARAM],
                   responses={200: StandingsSerializer, **errors(400, 401, 403, 404)})
    def get(self, request: Request, slug: str, number: int) -> Response:
        game = self.game(slug, number)
        return Response(standings_payload(game.tournament, game, group_by_param(request)))


class ArbiterTournamentStandings(ArbiterView):
    @extend_schema(tags=["arbiter"], operation_id="arbiter_get_tournament_standings", summary="Standings of the tournament", parameters=[GROUP_BY_PARAM],
                   responses={200: StandingsSerializer, **errors(400, 401, 403, 404)})
    def get(self, request: Request, slug: str) -> Response:
        t = self.tournament(slug)
        return Response(standings_payload(t, None, group_by_param(request)))


class ArbiterFinishGame(ArbiterView):
    @extend_schema(tags=["arbiter"], operation_id="arbiter_finish_game", summary="End the game (every round published or cancelled); warnings become "
                                             "penalties", request=s.WhySerializer,
                   responses={200: s.ArbiterGameSerializer, **errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, slug: str, number: int) -> Response:
        game = self.game(slug, number)
        data = validated(s.WhySerializer, request.data)
        return Response(s.ArbiterGameSerializer(games.finish_game(request.user, game, why=data["why"])).data)


class ArbiterRackTyping(ArbiterView):
    @extend_schema(tags=["arbiter"], operation_id="arbiter_sign_rack_typing", summary="The arbiter is typing the rack drawn from the bag: the tablets and the "
                                             "hall display say so until the draw (send it at the first key, then "
                                             f"at most every {signs.RACK_TYPING_RENEW} s while typing)",
                   request=None, responses={200: s.RackTypingSerializer, **errors(401, 403, 404)})
    def post(self, request: Request, slug: str, number: int) -> Response:
        return Response({"shown": signs.rack_typing(self.game(slug, number))})


class ArbiterPenalty(ArbiterView):
    @extend_schema(tags=["arbiter"], operation_id="arbiter_add_penalty", summary="An arbiter's penalty for a table in this game (audited)",
                   request=s.PenaltyInputSerializer,
                   responses={201: s.PenaltySerializer, **errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, slug: str, number: int) -> Response:
        game = self.game(slug, number)
        data = validated(s.PenaltyInputSerializer, request.data)
        reg = players.registration_at(game.tournament, data["table"])
        if reg is None:
            raise ServiceError(Code.NO_SUCH_TABLE, _("no player is registered at table %(n)s") % {"n": data["table"]})
        penalty = games.add_penalty(request.user, game, reg, points=data["points"], reason=data["reason"])
        return Response(s.PenaltySerializer(penalty).data, status=status.HTTP_201_CREATED)


class ArbiterAudit(ArbiterView):
    @extend_schema(tags=["arbiter"], operation_id="arbiter_list_audit_log", summary="Audit log of the tournament (newest first)", parameters=[
        OpenApiParameter("action", str, required=False, description="e.g. verdict.override"),
        OpenApiParameter("limit", int, required=False, description=f"at most {AUDIT_MAX_LIMIT}")],
        responses={200: s.AuditLogSerializer(many=True), **errors(400, 401, 403, 404)})
    def get(self, request: Request, slug: str) -> Response:
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
