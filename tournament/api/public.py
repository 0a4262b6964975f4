"""The public API (``/api/public/``): tournaments, published rounds and standings only."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from .. import gamestate
from ..models import Game, Round, Tournament
from .base import GROUP_BY_PARAM, PublicView, errors, group_by_param, standings_payload
from .serializers.common import StandingsSerializer, TournamentSerializer
from .serializers.public import PublicRoundSerializer, PublicTournamentSerializer


def public_tournaments() -> QuerySet[Tournament]:
    return Tournament.objects.select_related("lexicon").prefetch_related(
        Prefetch("games", queryset=Game.objects.exclude(status=Game.Status.CANCELLED)))


def public_game(slug: str, number: int) -> Game:
    return get_object_or_404(Game.objects.select_related("tournament").exclude(status=Game.Status.CANCELLED),
                             tournament__slug=slug, number=number)


class PublicTournamentList(PublicView):
    @extend_schema(tags=["public"], operation_id="public_list_tournaments", summary="Tournaments", responses={200: TournamentSerializer(many=True)})
    def get(self, request: Request) -> Response:
        return Response(TournamentSerializer(Tournament.objects.select_related("lexicon"), many=True).data)


class PublicTournamentDetail(PublicView):
    @extend_schema(tags=["public"], operation_id="public_get_tournament", summary="A tournament and its games", responses={
        200: PublicTournamentSerializer, **errors(404)})
    def get(self, request: Request, slug: str) -> Response:
        return Response(PublicTournamentSerializer(get_object_or_404(public_tournaments(), slug=slug)).data)


class PublicRounds(PublicView):
    @extend_schema(tags=["public"], operation_id="public_list_rounds", summary="Published rounds of a game: rack, top, board", responses={
        200: PublicRoundSerializer(many=True), **errors(404)})
    def get(self, request: Request, slug: str, number: int) -> Response:
        game = public_game(slug, number)
        return Response([
            {"game": game.number, "number": rnd.number, "rack": rnd.rack,
             "top": {"move": rnd.chosen_move, "score": rnd.chosen_score}, "board_before": rnd.board_before,
             "board_after": gamestate.board_after(rnd), "published_at": rnd.published_at}
            for rnd in game.rounds.filter(status=Round.Status.PUBLISHED).order_by("number")])


class PublicGameStandings(PublicView):
    @extend_schema(tags=["public"], operation_id="public_get_game_standings", summary="Standings of a game (published rounds)", parameters=[GROUP_BY_PARAM],
                   responses={200: StandingsSerializer, **errors(400, 404)})
    def get(self, request: Request, slug: str, number: int) -> Response:
        game = public_game(slug, number)
        return Response(standings_payload(game.tournament, game, group_by_param(request)))


class PublicTournamentStandings(PublicView):
    @extend_schema(tags=["public"], operation_id="public_get_tournament_standings", summary="Standings of the tournament (published rounds)",
                   parameters=[GROUP_BY_PARAM], responses={200: StandingsSerializer, **errors(400, 404)})
    def get(self, request: Request, slug: str) -> Response:
        t = get_object_or_404(Tournament, slug=slug)
        return Response(standings_payload(t, None, group_by_param(request)))
