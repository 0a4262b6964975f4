"""What every API view shares: the three audiences' base views, request helpers and the standings payload."""

from __future__ import annotations

from typing import Any, TypedDict

from django.contrib.auth.models import User
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.serializers import Serializer
from rest_framework.views import APIView

from ..models import Game, Registration, Round, Tournament
from ..services import standings
from .errors import ApiError, ExceptionHandler, api_exception_handler
from .permissions import (
    ARBITER_AUTHENTICATION,
    TABLET_AUTHENTICATION,
    IsArbiter,
    IsTabletPlayer,
    PublicReadOnly,
)
from .serializers.common import ErrorSerializer

IDEMPOTENCY_HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 64


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    """The documented error answers of an endpoint."""
    return {c: OpenApiResponse(ErrorSerializer, description="error: detail + code") for c in codes}


def validated(serializer_class: type[Serializer], data: object) -> dict[str, Any]:
    """The request body checked by the serializer (400 with the field errors otherwise)."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class BaseView(APIView):
    def get_exception_handler(self) -> ExceptionHandler:
        return api_exception_handler


class ArbiterView(BaseView):
    authentication_classes = ARBITER_AUTHENTICATION
    permission_classes = [IsArbiter]

    def arbiter(self) -> User:
        """The signed-in user (IsArbiter lets only authenticated users in)."""
        user = self.request.user
        if not isinstance(user, User):
            raise exceptions.NotAuthenticated()
        return user

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
        auth = self.request.auth
        assert isinstance(auth, Registration)
        return auth


class PublicView(BaseView):
    authentication_classes: list[type] = []
    permission_classes = [PublicReadOnly]


def idempotency_key(request: Request, *, required: bool) -> str | None:
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


# -- standings ------------------------------------------------------------------------------------------------

GROUP_BY_PARAM = OpenApiParameter("group_by", str, enum=list(standings.GROUPS), required=False,
                                  description="one ranking per series, category or club")


def group_by_param(request: Request) -> str | None:
    value = request.query_params.get("group_by") or None
    if value is not None and value not in standings.GROUPS:
        raise ApiError(400, f"standings by {value!r}: use series, category or club", "bad_group")
    return value


class StandingsGroup(TypedDict):
    name: str
    rows: list[standings.StandingRow]


class StandingsPayload(TypedDict):
    """The ``Standings`` answer: one ranking (``rows``), or one per group (``groups``)."""

    tournament: str
    game: int | None
    group_by: str | None
    top_total: int
    rows: list[standings.StandingRow]
    groups: list[StandingsGroup]


def standings_payload(tournament: Tournament, game: Game | None, group_by: str | None) -> StandingsPayload:
    """The ``Standings`` answer: one ranking, or one per group."""
    number = game.number if game else None
    if group_by:
        grouped = standings.grouped_standings(tournament, group_by, game)
        top_total = next((rows[0].top_total for rows in grouped.values() if rows), 0)
        return {"tournament": tournament.slug, "game": number, "group_by": group_by, "top_total": top_total,
                "rows": [],
                "groups": [{"name": name, "rows": [r.as_dict() for r in rows]} for name, rows in grouped.items()]}
    rows = standings.game_standings(game) if game is not None else standings.tournament_standings(tournament)
    return {"tournament": tournament.slug, "game": number, "group_by": group_by,
            "top_total": standings.top_total(rows), "rows": [r.as_dict() for r in rows], "groups": []}


__all__ = ["GROUP_BY_PARAM", "IDEMPOTENCY_HEADER", "ArbiterView", "BaseView", "PublicView", "TabletView", "errors",
           "group_by_param", "idempotency_key", "standings_payload", "validated"]
