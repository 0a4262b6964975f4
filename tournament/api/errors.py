"""Every API error is ``{"detail", "code"}`` (field errors under ``errors``), with the status of the one
catalogue (:mod:`tournament.errors`) for a refused service action."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import DatabaseError
from django.http import Http404
from django.utils.translation import gettext_lazy
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from ..errors import UNAVAILABLE, ServiceError


class ApiError(exceptions.APIException):
    """A 4xx with a chosen status, message and code (and extra fields in the body)."""

    def __init__(self, status_code: int, detail: str, code: str, **extra: object):
        self.status_code = status_code
        self.extra = extra
        super().__init__(detail=detail, code=code)


#: The fields a person types (a tablet's slip, a paper slip, a penalty), named in his language in an error's
#: ``detail`` (the tablet shows it); other fields keep their API name.
FIELD_LABELS = {"word": gettext_lazy("word"), "coordinates": gettext_lazy("coordinates"), "score": gettext_lazy("score"),
                "table": gettext_lazy("table"), "round": gettext_lazy("round"), "points": gettext_lazy("points"),
                "reason": gettext_lazy("reason"), "name": gettext_lazy("name")}

#: What a view's ``get_exception_handler`` returns: (exception, context) → the answer, or None (not handled).
ExceptionHandler = Callable[[Exception, dict[str, Any]], Response | None]


def from_service(exc: ServiceError) -> ApiError:
    return ApiError(exc.status, exc.message, exc.code or "error", **exc.extra)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """``{"detail": ..., "code": ...}`` for every handled error; field errors under ``errors``."""
    if isinstance(exc, DatabaseError):
        # Nothing was stored (the request's transaction rolls back): the tablet keeps the slip and
        # retries with the same Idempotency-Key, so the slip is stored exactly once.
        set_rollback()
        unavailable = Response({"detail": str(UNAVAILABLE), "code": "unavailable"},
                               status=status.HTTP_503_SERVICE_UNAVAILABLE)
        unavailable["Retry-After"] = "2"
        return unavailable
    if isinstance(exc, ServiceError):
        exc = from_service(exc)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) if str(exc) else None)  # DRF's own "Not found.", translated
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        errors = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        first = next(iter(errors.items()), ("request", ["invalid"]))
        message = first[1][0] if isinstance(first[1], list) and first[1] else first[1]
        field = str(first[0])
        label = FIELD_LABELS.get(field)
        detail = f"{label}: {message}" if label else str(message) if field == "non_field_errors" else f"{field}: {message}"
        response.data = {"detail": detail, "code": "invalid", "errors": errors}
        return response
    if isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        response.data = {"detail": str(exc.detail), "code": code, **getattr(exc, "extra", {})}
    return response


__all__ = ["ApiError", "ExceptionHandler", "api_exception_handler", "from_service"]
