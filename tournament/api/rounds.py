"""The arbiter API's rounds (``/api/arbiter/rounds/…``, ``/api/arbiter/verdicts/…``): the round actions
(through :mod:`tournament.services.actions`, as the console's buttons), slips, the live count, verdicts."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer

from ..errors import Code, ServiceError
from ..models import Game, Round, Slip, Verdict
from ..services import actions, judging, players, slips
from .base import IDEMPOTENCY_HEADER, ArbiterView, errors, idempotency_key, validated
from .serializers import arbiter as s


def _round_answer(rnd: Round) -> Response:
    rnd = Round.objects.select_related("game__tournament").get(pk=rnd.pk)
    return Response(s.ArbiterRoundSerializer(rnd).data)


class ArbiterRoundDetail(ArbiterView):
    @extend_schema(tags=["arbiter"], operation_id="arbiter_get_round", summary="A round (rack, solver's moves, status)", responses={
        200: s.ArbiterRoundSerializer, **errors(401, 403, 404)})
    def get(self, request: Request, pk: int) -> Response:
        return Response(s.ArbiterRoundSerializer(self.round(pk)).data)


def round_action(action: actions.Action, operation_id: str, summary: str,
                 body: type[Serializer] | None = None) -> type[ArbiterView]:
    """The endpoint of one round action: ``POST`` (with ``body`` when the action takes one) → the round."""

    class RoundActionView(ArbiterView):
        @extend_schema(tags=["arbiter"], operation_id=operation_id, summary=summary, request=body,
                       responses={200: s.ArbiterRoundSerializer, **errors(400, 401, 403, 404, 409)})
        def post(self, request: Request, pk: int) -> Response:
            rnd = self.round(pk)
            data: dict[str, Any] = validated(body, request.data) if body is not None else {}
            result = actions.act(request.user, action, rnd, **data)
            return _round_answer(result or rnd)

    RoundActionView.__name__ = RoundActionView.__qualname__ = f"Arbiter{action.value.title()}Round"
    return RoundActionView


ArbiterOpenRound = round_action(actions.Action.OPEN, "arbiter_open_round",
                                "Open the round (the deadline starts now, server time)")
ArbiterCloseRound = round_action(actions.Action.CLOSE, "arbiter_close_round", "Close the round now")
ArbiterJudgeRound = round_action(actions.Action.JUDGE, "arbiter_judge_round",
                                 "Judge every slip (again: overridden verdicts are kept)")
ArbiterReviewRound = round_action(actions.Action.REVIEW, "arbiter_review_round", "Mark the verdicts reviewed")
ArbiterChooseTop = round_action(actions.Action.TOP, "arbiter_choose_top", "Choose the top among the moves of top score",
                                s.ChooseTopSerializer)
ArbiterPublishRound = round_action(actions.Action.PUBLISH, "arbiter_publish_round",
                                   "Publish the round (the top goes on the board)")
ArbiterCancelRound = round_action(actions.Action.CANCEL, "arbiter_cancel_round", "Cancel the round and every later "
                                  "round of its game (with the reason)", s.WhySerializer)


class ArbiterNoMoveRedraw(ArbiterView):
    @extend_schema(tags=["arbiter"], operation_id="arbiter_no_move_redraw", summary="No legal move: the rack goes back to the bag and a new one is drawn",
                   request=None, responses={201: s.ArbiterRoundSerializer, 200: s.ArbiterGameSerializer,
                                            **errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, pk: int) -> Response:
        rnd = self.round(pk)
        new = actions.act(request.user, actions.Action.NO_MOVE, rnd)
        if new is None:  # no other rack can be drawn: the game ended
            return Response(s.ArbiterGameSerializer(Game.objects.get(pk=rnd.game_id)).data)
        new = Round.objects.select_related("game__tournament").get(pk=new.pk)
        return Response(s.ArbiterRoundSerializer(new).data, status=status.HTTP_201_CREATED)


class ArbiterSlips(ArbiterView):
    @extend_schema(tags=["arbiter"], operation_id="arbiter_list_slips", summary="Slips of the round (every version)", parameters=[
        OpenApiParameter("current", bool, required=False, description="only the slips that count")],
        responses={200: s.SlipSerializer(many=True), **errors(401, 403, 404)})
    def get(self, request: Request, pk: int) -> Response:
        rnd = self.round(pk)
        qs = rnd.slips.select_related("registration__player", "entered_by").order_by(
            "registration__table_number", "version")
        if request.query_params.get("current") in ("1", "true", "yes"):
            qs = qs.filter(is_current=True)
        return Response(s.SlipSerializer(qs, many=True).data)

    @extend_schema(tags=["arbiter"], operation_id="arbiter_enter_paper_slip", summary="Type a paper slip (source=paper)", request=s.PaperSlipSerializer,
                   parameters=[OpenApiParameter(IDEMPOTENCY_HEADER, str, OpenApiParameter.HEADER, required=False,
                                                description="a retry with the same key returns the same slip")],
                   responses={201: s.SlipSerializer, 200: s.SlipSerializer, **errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, pk: int) -> Response:
        rnd = self.round(pk)
        data = validated(s.PaperSlipSerializer, request.data)
        reg = players.registration_at(rnd.game.tournament, data["table"])
        if reg is None:
            raise ServiceError(Code.UNKNOWN_TABLE, _("no player is registered at table %(n)s") % {"n": data["table"]})
        key = idempotency_key(request, required=False)
        word, coordinates, score = data["word"], data["coordinates"], data["score"]
        received_at = data.get("received_at")
        if key is None:
            slip, created = slips.submit_slip(rnd, reg, word=word, coordinates=coordinates, score=score,
                                              source=Slip.Source.PAPER, actor=request.user,
                                              received_at=received_at), True
        else:
            slip, created = slips.submit_once(rnd, reg, f"arbiter:{rnd.game.tournament_id}:{key}", word=word,
                                              coordinates=coordinates, score=score, source=Slip.Source.PAPER,
                                              actor=request.user, received_at=received_at)
        return Response(s.SlipSerializer(slip).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class ArbiterSlipCount(ArbiterView):
    @extend_schema(tags=["arbiter"], operation_id="arbiter_count_slips", summary="Live count of slips received, with the missing tables", responses={
        200: s.SlipCountSerializer, **errors(401, 403, 404)})
    def get(self, request: Request, pk: int) -> Response:
        rnd = self.round(pk)
        counted = slips.count(rnd)
        now = timezone.now()
        return Response({
            "round": rnd.pk, "status": rnd.status, "registered": counted.registered, "received": counted.received,
            "late": counted.late, "missing": counted.missing, "server_time": now, "deadline": rnd.deadline,
            "seconds_left": rnd.seconds_left(now),
        })


class ArbiterVerdicts(ArbiterView):
    @extend_schema(tags=["arbiter"], operation_id="arbiter_list_verdicts", summary="Verdicts of the round", responses={
        200: s.VerdictSerializer(many=True), **errors(401, 403, 404)})
    def get(self, request: Request, pk: int) -> Response:
        rnd = self.round(pk)
        qs = rnd.verdicts.select_related("registration__player", "slip", "overridden_by").order_by(
            "registration__table_number")
        return Response(s.VerdictSerializer(qs, many=True).data)


class ArbiterOverrideVerdict(ArbiterView):
    @extend_schema(tags=["arbiter"], operation_id="arbiter_override_verdict", summary="Override a verdict (audited, with the reason)",
                   request=s.OverrideSerializer, responses={200: s.VerdictSerializer, **errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, pk: int) -> Response:
        verdict = get_object_or_404(Verdict.objects.select_related("round__game__tournament"), pk=pk)
        self.check_object_permissions(request, verdict)
        data = validated(s.OverrideSerializer, request.data)
        judging.override_verdict(request.user, verdict, awarded=data["awarded"], warning=data["warning"],
                                 why=data["why"], reason=data["reason"])
        verdict = Verdict.objects.select_related("registration__player", "slip", "overridden_by").get(pk=pk)
        return Response(s.VerdictSerializer(verdict).data)
