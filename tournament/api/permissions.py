"""Authentication and permission classes of the three API audiences.

* Arbiter: a Django user (session or DRF token) acting only on tournaments whose
  ``arbiters`` include him.
* Player tablet: ``Authorization: Tablet <token>``, the token issued at login with
  the personal access code (:func:`tournament.services.issue_tablet_token`).
  ``request.user`` stays anonymous; ``request.auth`` is the :class:`Registration`.
* Public: no authentication, read-only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.models import AnonymousUser, User
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions, permissions
from rest_framework.request import Request
from rest_framework.views import APIView

from tournament.models import Registration, Tournament
from tournament.services import players

if TYPE_CHECKING:
    from drf_spectacular.openapi import AutoSchema

TABLET_KEYWORD = "Tablet"


class TabletTokenAuthentication(authentication.BaseAuthentication):
    """``Authorization: Tablet <token>`` → (anonymous user, registration)."""

    keyword = TABLET_KEYWORD

    def authenticate(self, request: Request) -> tuple[AnonymousUser, Registration] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("malformed Authorization header: use 'Tablet <token>'")
        try:
            token = header[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("the tablet token is not valid") from None
        registration = players.registration_for_token(token)
        if registration is None:
            raise exceptions.AuthenticationFailed("the tablet token is not valid: log in again with your access code")
        return AnonymousUser(), registration

    def authenticate_header(self, request: Request) -> str:
        return self.keyword


class TabletTokenScheme(OpenApiAuthenticationExtension):
    target_class = "tournament.api.permissions.TabletTokenAuthentication"
    name = "tabletToken"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, str]:
        return {"type": "apiKey", "in": "header", "name": "Authorization",
                "description": "`Tablet <token>`: the token returned by POST /api/tablet/login/"}


#: Arbiter endpoints: token first so that an anonymous request gets 401 with a WWW-Authenticate header.
ARBITER_AUTHENTICATION = [authentication.TokenAuthentication, authentication.SessionAuthentication]
TABLET_AUTHENTICATION = [TabletTokenAuthentication]


def tournament_of(obj: object) -> Tournament | None:
    """The tournament an API object belongs to (tournament, game, round, slip, verdict, registration)."""
    if isinstance(obj, Tournament):
        return obj
    for path in ("tournament", "game.tournament", "round.game.tournament"):
        target = obj
        for attr in path.split("."):
            target = getattr(target, attr, None)
            if target is None:
                break
        if isinstance(target, Tournament):
            return target
    return None


def is_arbiter_of(user: User | AnonymousUser, tournament: Tournament | None) -> bool:
    if tournament is None or not user.is_authenticated:
        return False
    return tournament.arbiters.filter(pk=user.pk).exists()


class IsArbiter(permissions.BasePermission):
    """An authenticated user; on objects, an arbiter of the object's tournament."""

    message = "you are not an arbiter of this tournament"

    def has_permission(self, request: Request, view: APIView) -> bool:
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Request, view: APIView, obj: object) -> bool:
        return is_arbiter_of(request.user, tournament_of(obj))


class IsTabletPlayer(permissions.BasePermission):
    """A tablet logged in with a player's access code; on objects, only his own."""

    message = "log in on the tablet with your access code"

    def has_permission(self, request: Request, view: APIView) -> bool:
        return isinstance(request.auth, Registration)

    def has_object_permission(self, request: Request, view: APIView, obj: object) -> bool:
        registration = getattr(obj, "registration", obj)
        return isinstance(registration, Registration) and registration.pk == request.auth.pk


class PublicReadOnly(permissions.BasePermission):
    message = "the public API is read-only"

    def has_permission(self, request: Request, view: APIView) -> bool:
        return request.method in permissions.SAFE_METHODS
