"""The database does not answer (restarting, cut off, locked too long): every page and every screen's poll
answers ``503 Service Unavailable`` with ``Retry-After`` and a short text in the page's language — JSON
``{"detail", "code": "unavailable"}`` for the API and the polls, a plain page for the arbiter — instead of a
500 and a traceback in the log for each of the hall's polls. Nothing was stored: the tablets keep their slips
and retry (the API's own answer to a slip says so, :mod:`tournament.api.errors`)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.html import escape
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)

#: Seconds a client is asked to wait before asking again.
RETRY_AFTER = 5


def unavailable(request: HttpRequest) -> HttpResponse:
    """The 503 answer, JSON or a page as the request wants."""
    detail = _("The database is not answering: try again in a moment.")
    response: HttpResponse
    if request.path.startswith("/api/") or "application/json" in request.headers.get("Accept", ""):
        response = JsonResponse({"detail": detail, "code": "unavailable"}, status=503)
    else:
        response = HttpResponse(f'<!doctype html><meta charset="utf-8"><title>503</title><p>{escape(detail)}</p>',
                                status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    return response


class DatabaseUnavailable:
    """Middleware: a view that cannot reach the database answers :func:`unavailable`."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None  # a bug (integrity, programming error) stays a 500
        log.warning("database unavailable: %s", str(exception).splitlines()[0] if str(exception) else exception)
        return unavailable(request)


__all__ = ["RETRY_AFTER", "DatabaseUnavailable", "unavailable"]
