"""The API of a simultaneous game (``/api/simultaneous/``), between a hall's server and the organiser's.

* ``GET …/<game>/halls/<code>/package/`` with ``X-Hall-Token`` (:func:`tournament.services.simulfiles.hall_token`,
  derived from the hall's key; the organiser's page shows it with the package's address): the hall's package.
* ``POST …/<game>/results/`` with a results file as the body: no account needed, the file is signed with the
  hall's key; 201 the first time, 200 for the same file again (nothing changes) or a corrected one (replaces it).
"""

from __future__ import annotations

import hmac

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from ..errors import Code, ServiceError
from ..models import SimulResult, Simultaneous
from ..services import simulfiles, simultaneous
from .base import BaseView, errors

TOKEN_HEADER = "X-Hall-Token"


class SimulView(BaseView):
    authentication_classes: list[type] = []
    permission_classes = [AllowAny]

    def simul(self, game: str) -> Simultaneous:
        return get_object_or_404(Simultaneous.objects.select_related("lexicon"), game_id=game)


ResultAnswer = inline_serializer("SimulResultAnswer", {
    "hall": serializers.CharField(), "outcome": serializers.ChoiceField(["new", "same", "replaced"]),
    "version": serializers.IntegerField(), "players": serializers.IntegerField()})


class HallPackage(SimulView):
    @extend_schema(tags=["simultaneous"], operation_id="simultaneous_get_hall_package", summary="A hall's game package (racks, tops, rules, lexicon hash, key)",
                   parameters=[OpenApiParameter(TOKEN_HEADER, str, OpenApiParameter.HEADER, required=True)],
                   responses={200: dict, **errors(403, 404)})
    def get(self, request: Request, game: str, code: str) -> Response:
        simul = self.simul(game)
        hall = simultaneous.hall_of(simul, code)
        given = request.headers.get(TOKEN_HEADER, "")
        if not hmac.compare_digest(given, simulfiles.hall_token(hall.key, str(simul.game_id), hall.code)):
            raise ServiceError(Code.SIMUL_HALL_TOKEN, _("the token does not open the package of hall «%(hall)s»")
                               % {"hall": hall.code})
        url = request.build_absolute_uri(f"/api/simultaneous/{simul.game_id}/results/")
        return Response(simultaneous.package(hall, results_url=url))


class HallResults(SimulView):
    @extend_schema(tags=["simultaneous"], operation_id="simultaneous_send_results", summary="A hall sends its signed results", request=dict,
                   responses={200: ResultAnswer, 201: ResultAnswer, **errors(400, 404, 409)})
    def post(self, request: Request, game: str) -> Response:
        simul = self.simul(game)
        # the bytes as sent (the signature is checked on the results they hold), read no further than the limit
        body = request.stream.read(simulfiles.MAX_BYTES + 1) if request.stream is not None else b""
        result, outcome = simultaneous.import_results(None, simul, body, source=SimulResult.Source.API)
        return Response({"hall": result.hall.code, "outcome": outcome, "version": result.version,
                         "players": len(result.document["players"])}, status=201 if outcome == "new" else 200)
