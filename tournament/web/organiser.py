"""Who may prepare simultaneous games and read every hall's results: the organisers (staff users)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import get_object_or_404

from ..models import Simultaneous


def is_organiser(user: Any) -> bool:
    """Staff users (the federation's people); an arbiter of a hall needs no such right for his hall's page."""
    return isinstance(user, User) and user.is_active and (user.is_staff or user.is_superuser)


def organiser_view(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """Login required, organisers only (403 otherwise); the URL's ``game`` → ``simul``, the simultaneous game
    (404)."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not is_organiser(request.user):
            raise PermissionDenied
        if "game" in kwargs:
            kwargs["simul"] = get_object_or_404(Simultaneous.objects.select_related("lexicon"),
                                                game_id=kwargs.pop("game"))
        return view(request, *args, **kwargs)

    return wrapper


__all__ = ["is_organiser", "organiser_view"]
