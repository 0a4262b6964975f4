"""The topping variant in the API: each player's time per round and the standings by total time
(``/api/arbiter/rounds/<pk>/times/`` — read, and the arbiter's time typed by hand —,
``/api/arbiter/tournaments/<slug>/games/<n>/times/``, ``/api/arbiter/tournaments/<slug>/times/``,
``/api/public/tournaments/<slug>/games/<n>/times/``)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.variants import get_variant

from ..errors import Code, ServiceError
from ..models import Game, Round, Tournament
from ..services import players, topping
from .base import ArbiterView, PublicView, errors, validated
from .public import public_game


class RoundTimeSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    name = serializers.CharField()
    topped = serializers.BooleanField()
    seconds = serializers.IntegerField(allow_null=True, help_text="the time he topped in (server clock)")
    counted = serializers.IntegerField(help_text="the seconds the round counts (limit + penalty when not topped)")
    attempts = serializers.IntegerField()


class RoundTimesSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    status = serializers.CharField()
    limit = serializers.IntegerField(help_text="the round's time limit in seconds")
    penalty = serializers.IntegerField(help_text="seconds added to the limit for a round not topped")
    topped = serializers.IntegerField(help_text="how many players have topped")
    rows = RoundTimeSerializer(many=True)


class TimeInputSerializer(serializers.Serializer):
    table = serializers.IntegerField(min_value=1)
    time = serializers.CharField(allow_blank=True, max_length=12, help_text="minutes and seconds (0:42); empty: "
                                 "not topped")
    word = serializers.CharField(required=False, allow_blank=True, max_length=40, default="",
                                 help_text="the paper slip's move (coordinates and word, e.g. H8 WORD; round 1: the "
                                 "word): judged for his points, and one attempt")


class GameTimeSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    name = serializers.CharField()
    rank = serializers.IntegerField()
    total = serializers.IntegerField(help_text="total time in seconds (lowest ranks first)")
    topped = serializers.IntegerField(help_text="rounds topped")
    attempts = serializers.IntegerField()
    rounds = serializers.ListField(child=serializers.IntegerField(), help_text="seconds counted per round")


class GameTimesSerializer(serializers.Serializer):
    penalty = serializers.IntegerField()
    rows = GameTimeSerializer(many=True)


def round_payload(rnd: Round) -> dict[str, object]:
    rows = topping.round_rows(rnd)
    return {"round": rnd.pk, "status": rnd.status, "limit": topping.limit_seconds(rnd),
            "penalty": get_variant(rnd.game.variant).timeout_penalty, "topped": sum(1 for r in rows if r["topped"]),
            "rows": rows}


def game_payload(tournament: Tournament, game: Game | None) -> dict[str, object]:
    return {"penalty": get_variant("topping").timeout_penalty, "rows": topping.game_rows(tournament, game)}


def _topping_game(game: Game) -> Game:
    if not topping.is_topping(game):
        raise ServiceError(Code.WRONG_PHASE, _("game %(n)s is not a topping game") % {"n": game.number})
    return game


class ArbiterRoundTimes(ArbiterView):
    @extend_schema(tags=["arbiter"], operation_id="arbiter_get_round_times", summary="Topping: each player's time in the round (topped, time, attempts)",
                   responses={200: RoundTimesSerializer, **errors(401, 403, 404, 409)})
    def get(self, request: Request, pk: int) -> Response:
        rnd = self.round(pk)
        _topping_game(rnd.game)
        return Response(round_payload(rnd))

    @extend_schema(tags=["arbiter"], operation_id="arbiter_record_time", summary="Topping: record a player's time by hand (a paper slip; audited)",
                   request=TimeInputSerializer, responses={200: RoundTimesSerializer, **errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, pk: int) -> Response:
        rnd = self.round(pk)
        _topping_game(rnd.game)
        data = validated(TimeInputSerializer, request.data)
        reg = players.registration_at(rnd.game.tournament, data["table"])
        if reg is None:
            raise ServiceError(Code.UNKNOWN_TABLE, _("no player is registered at table %(n)s") % {"n": data["table"]})
        seconds = topping.parse_time(data["time"]) if data["time"].strip() else None
        topping.record_time(self.arbiter(), rnd, reg, seconds, word=data.get("word") or "")
        return Response(round_payload(rnd))


class ArbiterGameTimes(ArbiterView):
    @extend_schema(tags=["arbiter"], operation_id="arbiter_get_game_times", summary="Topping: standings of a game by total time",
                   responses={200: GameTimesSerializer, **errors(401, 403, 404, 409)})
    def get(self, request: Request, slug: str, number: int) -> Response:
        game = _topping_game(self.game(slug, number))
        return Response(game_payload(game.tournament, game))


class ArbiterTournamentTimes(ArbiterView):
    @extend_schema(tags=["arbiter"], operation_id="arbiter_get_tournament_times", summary="Topping: standings of the tournament's topping games by total time",
                   responses={200: GameTimesSerializer, **errors(401, 403, 404)})
    def get(self, request: Request, slug: str) -> Response:
        return Response(game_payload(self.tournament(slug), None))


class PublicGameTimes(PublicView):
    @extend_schema(tags=["public"], operation_id="public_get_game_times", summary="Topping: standings of a game by total time",
                   responses={200: GameTimesSerializer, **errors(404, 409)})
    def get(self, request: Request, slug: str, number: int) -> Response:
        game = _topping_game(public_game(slug, number))
        return Response(game_payload(game.tournament, game))


__all__ = ["ArbiterGameTimes", "ArbiterRoundTimes", "ArbiterTournamentTimes", "PublicGameTimes"]
