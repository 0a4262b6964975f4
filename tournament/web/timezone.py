"""Every time a page shows is in the hall's time zone: the tournament's (``Tournament.time_zone``).

A view that shows no time (the screens' polls, answered thousands of times a second) says so with an
attribute ``shows_no_time = True`` and costs no query here."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from ..labels import zone_of
from ..models import Tournament


def local(moment: datetime | None, zone_name: str | None) -> datetime | None:
    """``moment`` in the named zone (for papers and texts built outside a page)."""
    if moment is None:
        return None
    return timezone.localtime(moment, zone_of(zone_name)) if timezone.is_aware(moment) else moment


class TournamentTimeZone:
    """Activates the tournament's time zone for a view whose URL names the tournament (``slug``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    def process_view(self, request: HttpRequest, view: Callable[..., Any], args: tuple[Any, ...],
                     kwargs: dict[str, Any]) -> None:
        slug = kwargs.get("slug")
        if not slug or getattr(view, "shows_no_time", False):  # the screens' polls: no query spent on a zone
            return
        try:
            zone = Tournament.objects.filter(slug=slug).values_list("time_zone", flat=True).first()
        except DatabaseError:  # the database does not answer: the view will say so (web.unavailable)
            return
        if zone:
            timezone.activate(zone_of(zone))


__all__ = ["TournamentTimeZone", "local", "zone_of"]
