"""What the site answers outside the pages of an audience: logging out of the console, the favicon."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET


class LogoutView(auth_views.LogoutView):
    """Log out, then our login page (translated) says so: never the admin's "quality time" page."""

    next_page = "login"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        messages.info(request, _("You are logged out."))
        return response


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico`` (asked by browsers whatever the page says): the SVG tile of the static files."""
    return HttpResponseRedirect(static("img/favicon.svg"))


__all__ = ["LogoutView", "favicon"]
