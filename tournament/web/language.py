"""The language of a page: the tournament's, unless the reader chose another (``?lang=`` or a cookie).

A page of no tournament yet (a login page) speaks the hall's language too when it can tell it: the tournament
the page leads to, else the one language every tournament of this server speaks (:func:`hall_language`); only
then the browser's."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.functional import Promise
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from ..models import Tournament


def language_for(request: HttpRequest, default: str, cookie: str | None = None) -> tuple[str, str | None]:
    """The screen's language: ``?lang=`` (``auto`` = the tournament's), then the cookie, then ``default``.

    Returns (language, value to store in the cookie: ``""`` = delete, None = leave it).
    """
    known = dict(settings.LANGUAGES)
    asked = request.GET.get("lang")
    if asked is not None:
        if asked in known:
            return asked, asked
        return (default if default in known else settings.LANGUAGE_CODE), ""
    if cookie and request.COOKIES.get(cookie) in known:
        return request.COOKIES[cookie], None
    return (default if default in known else settings.LANGUAGE_CODE), None


def hall_language() -> str | None:
    """The language of this server's halls when every tournament speaks the same one (None: several, or none)."""
    spoken = list(Tournament.objects.order_by().values_list("language", flat=True).distinct()[:2])
    return spoken[0] if len(spoken) == 1 and spoken[0] in dict(settings.LANGUAGES) else None


def render_in(request: HttpRequest, lang: str, template: str, context: dict[str, Any],
              strings: Callable[[], Mapping[str, object]] | None = None) -> HttpResponse:
    """Renders ``template`` in ``lang``; ``strings()`` (texts for the page's script) is called in that language."""
    with translation.override(lang):
        extra = {"strings": strings()} if strings is not None else {}
        response = render(request, template, {**context, **extra, "LANG": lang})
    response["Content-Language"] = lang
    return response


def languages() -> list[tuple[str, str | Promise]]:
    """(code, name) of the languages of the pages (names translated lazily)."""
    return [(code, name) for code, name in settings.LANGUAGES]


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The console's language switch: a cookie (``""`` goes back to the tournament's language)."""
    lang = request.POST.get("language", "")
    nxt = request.POST.get("next") or reverse("arbiter:tournaments")
    if not url_has_allowed_host_and_scheme(nxt, {request.get_host()}, require_https=request.is_secure()):
        nxt = reverse("arbiter:tournaments")
    response = HttpResponseRedirect(nxt)
    if lang in dict(settings.LANGUAGES):
        response.set_cookie(settings.LANGUAGE_COOKIE_NAME, lang, max_age=365 * 24 * 3600, samesite="Lax")
    else:
        response.delete_cookie(settings.LANGUAGE_COOKIE_NAME)
    return response


__all__ = ["hall_language", "language_for", "languages", "render_in", "set_language"]
