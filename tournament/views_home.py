"""The landing page: one door per audience (arbiter, player tablet, hall display, API)."""

from django.shortcuts import render

from .models import Tournament


def home(request):
    tournaments = Tournament.objects.order_by("-starts_on", "name")[:20]
    return render(request, "home.html", {"tournaments": tournaments})


# -- error pages: JSON ``{"detail", "code"}`` on the API, Django's own pages elsewhere ----------------------


def _api_error(request, status: int, detail: str, code: str):
    from django.http import JsonResponse

    return JsonResponse({"detail": detail, "code": code}, status=status)


def _is_api(request) -> bool:
    return request.path.startswith("/api/")


def bad_request(request, exception=None):
    from django.views import defaults

    if _is_api(request):
        return _api_error(request, 400, str(exception) if exception else "bad request", "bad_request")
    return defaults.bad_request(request, exception)


def page_not_found(request, exception=None):
    """An API address that matches no endpoint (e.g. ``/api/arbiter/rounds/-1/``) answers JSON like the API."""
    from django.views import defaults

    if _is_api(request):
        return _api_error(request, 404, "not found: no API endpoint at this address", "not_found")
    return defaults.page_not_found(request, exception)


def server_error(request):
    from django.views import defaults

    if _is_api(request):
        return _api_error(request, 500, "server error", "server_error")
    return defaults.server_error(request)
