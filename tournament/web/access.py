"""Who may open an arbiter page, and the messages a refused action leaves on the next page."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import get_object_or_404
from django.utils import translation

from ..errors import ServiceError
from ..models import Tournament

View = Callable[..., HttpResponseBase]


def arbiter_tournaments(user: Any) -> Any:
    """The tournaments a user arbitrates (every one for a superuser)."""
    qs = Tournament.objects.select_related("lexicon")
    return qs if user.is_superuser else qs.filter(arbiters=user)


def arbiter_view(view: View) -> View:
    """Login required; ``slug`` → the tournament (404 unless the user arbitrates it); its language is
    active unless the user chose one (cookie)."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponseBase:
        tournament = get_object_or_404(arbiter_tournaments(request.user), slug=slug)
        if not request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME):
            translation.activate(tournament.language)
            request.LANGUAGE_CODE = tournament.language
        return view(request, tournament, *args, **kwargs)

    return wrapper


def flash_error(request: HttpRequest, exc: ServiceError) -> None:
    """A refused action as a message on the next page: the catalogue's explanation, then the details."""
    messages.error(request, exc.explained())


__all__ = ["arbiter_tournaments", "arbiter_view", "flash_error"]
