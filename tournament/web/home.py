"""The home page (one door per audience: arbiter, player tablet, hall display, API) and the error
pages: JSON ``{"detail", "code"}`` under ``/api/``, Django's own pages elsewhere."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views import defaults

from ..models import Tournament


def home(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.order_by("-starts_on", "name")[:20]
    return render(request, "home.html", {"tournaments": tournaments})


def _api_error(status: int, detail: str, code: str) -> JsonResponse:
    return JsonResponse({"detail": detail, "code": code}, status=status)


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return _api_error(400, str(exception) if exception else "bad request", "bad_request")
    return defaults.bad_request(request, exception)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """An API address that matches no endpoint (e.g. ``/api/arbiter/rounds/-1/``) answers JSON like the API."""
    if _is_api(request):
        return _api_error(404, "not found: no API endpoint at this address", "not_found")
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return _api_error(500, "server error", "server_error")
    return defaults.server_error(request)
