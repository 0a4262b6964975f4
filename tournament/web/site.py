"""What the site answers outside the pages of an audience: logging in to and out of the console, the favicon."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.templatetags.static import static
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from ..models import Tournament
from . import passwords
from .language import hall_language


def speak_the_halls_language(request: HttpRequest) -> None:
    """The console's pages of no tournament (login, logout) in the hall's language, unless the arbiter chose
    one (the console's switch, its cookie: LocaleMiddleware reads it): the tournament of the page he was going
    to (``?next=/arbiter/t/<slug>/…``), else the one language of this server's halls; else the browser's."""
    if request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) in dict(settings.LANGUAGES):
        return
    lang = None
    try:
        slug = resolve(request.GET.get("next", "").split("?")[0] or "/").kwargs.get("slug")
    except Resolver404:
        slug = None
    if slug:
        lang = Tournament.objects.filter(slug=slug).values_list("language", flat=True).first()
    lang = lang or hall_language()
    if lang in dict(settings.LANGUAGES):
        translation.activate(lang)
        request.LANGUAGE_CODE = lang


class LoginView(auth_views.LoginView):
    """The console's login page, in the hall's language (:func:`speak_the_halls_language`); while the account
    or the address is locked by wrong passwords (``passwords.py``), a 429 that says when to try again."""

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        speak_the_halls_language(request)
        return super().dispatch(request, *args, **kwargs)

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        username = request.POST.get("username", "")
        wait = passwords.wait_seconds(username, request)
        if not wait:
            response = super().post(request, *args, **kwargs)
            wait = passwords.wait_seconds(username, request) if response.status_code == 200 else 0
            if not wait:
                return response
        form = self.form_class(request=request, initial={"username": username})
        locked = self.render_to_response(self.get_context_data(form=form, locked=passwords.retry_message(wait)))
        locked.status_code = 429
        locked["Retry-After"] = str(wait)
        return locked


class LogoutView(auth_views.LogoutView):
    """Log out, then our login page (translated) says so: never the admin's "quality time" page."""

    next_page = "login"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        speak_the_halls_language(request)
        messages.info(request, _("You are logged out."))
        return response


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico`` (asked by browsers whatever the page says): the SVG tile of the static files."""
    return HttpResponseRedirect(static("img/favicon.svg"))


__all__ = ["LoginView", "LogoutView", "favicon", "speak_the_halls_language"]
