"""Who may open an arbiter page, and the messages a refused action leaves on the next page."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Concatenate, ParamSpec

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import get_object_or_404
from django.utils import translation
from django.utils.text import capfirst

from ..errors import ServiceError
from ..models import Tournament

P = ParamSpec("P")

#: The session key of the tournament last opened in the console (the lexicon pages' way back, their default list).
LAST_TOURNAMENT = "console.tournament"


def arbiter_tournaments(user: User | AnonymousUser) -> QuerySet[Tournament]:
    """The tournaments a user arbitrates (every one for a superuser, none for an anonymous user)."""
    qs = Tournament.objects.select_related("lexicon")
    if not isinstance(user, User):
        return qs.none()
    return qs if user.is_superuser else qs.filter(arbiters=user)


def arbiter_view(
    view: Callable[Concatenate[HttpRequest, Tournament, P], HttpResponseBase],
) -> Callable[Concatenate[HttpRequest, str, P], HttpResponseBase]:
    """Login required; ``slug`` → the tournament (404 unless the user arbitrates it); its language is
    active unless the user chose one (cookie)."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: P.args, **kwargs: P.kwargs) -> HttpResponseBase:
        tournament = get_object_or_404(arbiter_tournaments(request.user), slug=slug)
        if not request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME):
            translation.activate(tournament.language)
            request.LANGUAGE_CODE = tournament.language
        remember_tournament(request, tournament)
        return view(request, tournament, *args, **kwargs)

    return wrapper


def remember_tournament(request: HttpRequest, tournament: Tournament) -> None:
    """Notes the tournament last opened (written only when it changes: no session write per page)."""
    session = getattr(request, "session", None)
    if session is not None and session.get(LAST_TOURNAMENT) != tournament.slug:
        session[LAST_TOURNAMENT] = tournament.slug


def flash_error(request: HttpRequest, exc: ServiceError) -> None:
    """A refused action as a message on the next page: the catalogue's explanation, then the details; its first
    letter upper case (a service's details start lower case, to be read inside a sentence too)."""
    messages.error(request, capfirst(exc.explained()))


__all__ = ["LAST_TOURNAMENT", "arbiter_tournaments", "arbiter_view", "flash_error", "remember_tournament"]
