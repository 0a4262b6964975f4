"""The tablet's pages: the tablet itself (or the login page without a valid token), login, QR codes.

The token returned at login is kept in ``localStorage`` and in the ``tablet_token`` cookie, so the
server can render the right tournament (its language, rule set and board) on a reload.
``/tablet/login/?code=XXXX`` (the URL of the player's QR code) logs in directly. Slips are never
lost: the page keeps each slip until the server answered and re-sends it with the same
``Idempotency-Key``.
"""

from __future__ import annotations

import io

import qrcode
import qrcode.image.svg
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_GET

from .. import labels
from ..live.stream import stream_url
from ..models import Registration, Tournament
from ..services import players
from ..web import attempts
from ..web.language import hall_language, language_for, languages, render_in
from .strings import login_strings, tablet_strings

TOKEN_COOKIE = "tablet_token"
LANG_COOKIE = "tablet_lang"
COOKIE_AGE = 14 * 24 * 3600


def _registration(request: HttpRequest) -> Registration | None:
    token = request.COOKIES.get(TOKEN_COOKIE, "")
    return players.registration_for_token(token) if token else None


def _store_language(response: HttpResponse, store: str | None) -> HttpResponse:
    if store:
        response.set_cookie(LANG_COOKIE, store, max_age=365 * 24 * 3600, samesite="Lax")
    elif store == "":
        response.delete_cookie(LANG_COOKIE)
    return response


def _chosen(request: HttpRequest, store: str | None) -> str:
    """The language picked on this tablet ("" = auto), after this request's ``?lang=``."""
    return store if store is not None else request.COOKIES.get(LANG_COOKIE, "")


@require_GET
def app(request: HttpRequest) -> HttpResponse:
    """The tablet; without a valid token cookie, the login page."""
    reg = _registration(request)
    if reg is None:
        url = reverse("tablet:login")
        query = {k: request.GET[k] for k in ("lang",) if k in request.GET}
        if request.COOKIES.get(TOKEN_COOKIE):
            query["expired"] = "1"
        return redirect(f"{url}?{urlencode(query)}" if query else url)
    t = reg.tournament
    lang, store = language_for(request, t.language, LANG_COOKIE)
    config = {
        "slug": t.slug, "table": reg.table_number, "name": reg.player.name, "lang": lang,
        "assisted": t.assisted_mode,
        "urls": {"state": reverse("api:tablet-state"), "slip": reverse("api:tablet-slip"),
                 "version": reverse("tablet:version", args=[t.slug]), "assist": reverse("api:tablet-assist"),
                 "login": reverse("tablet:login"), "stream": stream_url(t.slug)},
        "board": labels.board_config(t),
    }
    context = {"tournament": t, "registration": reg, "config": config, "languages": languages(),
               "coords_example": labels.tournament_style(t).example(),
               "lang_cookie": _chosen(request, store)}
    response = render_in(request, lang, "tablet/app.html", context, tablet_strings)
    return _store_language(response, store)


def _login_language(request: HttpRequest, reg: Registration | None) -> str:
    """The login page's language unless the player picked one (the switch): the tournament of the card's code
    (``?code=``, the QR card; a replaced card's too), of ``?hall=`` (the tablet that just logged out), of this
    tablet's token; else the one language of this server's halls; else the browser's."""
    code = request.GET.get("code", "")[:64]
    t = None
    if code.strip() and not attempts.too_many(request):  # a QR card: counted as a login with that code is
        t = players.tournament_of_code(code)
        if t is None:
            attempts.count_failure(attempts.login_failures_key(request))
    slug = request.GET.get("hall", "")[:80]
    if t is None and slug:
        t = Tournament.objects.filter(slug=slug).first()
    if t is None and reg is not None:
        t = reg.tournament
    if t is not None:
        return t.language
    return hall_language() or getattr(request, "LANGUAGE_CODE", "") or settings.LANGUAGE_CODE


@require_GET
def login(request: HttpRequest) -> HttpResponse:
    """Access code form; ``?code=XXXX`` (the QR code) logs in directly."""
    reg = _registration(request)
    lang, store = language_for(request, _login_language(request, reg), LANG_COOKIE)
    config = {"urls": {"login": reverse("api:tablet-login"), "app": reverse("tablet:app")},
              "expired": request.GET.get("expired") == "1", "chosen": _chosen(request, store)}
    response = render_in(request, lang, "tablet/login.html", {
        "config": config, "code": request.GET.get("code", "")[:64], "languages": languages(),
        "lang_cookie": _chosen(request, store)}, login_strings)
    response["Referrer-Policy"] = "no-referrer"  # the code may be in the URL
    return _store_language(response, store)


@require_GET
def qr_code(request: HttpRequest) -> HttpResponse:
    """An SVG QR code of ``/tablet/login/?code=...`` for printing a player's access code."""
    code = request.GET.get("code", "").strip()
    if not code or len(code) > 64 or not code.isalnum():
        return HttpResponseBadRequest("code: the player's access code (letters and digits)")
    url = request.build_absolute_uri(reverse("tablet:login") + "?" + urlencode({"code": code}))
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    out = io.BytesIO()
    image.save(out)
    response = HttpResponse(out.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "private, no-store"
    return response
