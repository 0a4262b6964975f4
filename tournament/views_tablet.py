"""Player tablet: the pages (login, the tablet itself) and the assisted-mode scoring endpoint.

The tablet page is one screen driven by ``static/js/tablet.js`` over the tablet API
(``/api/tablet/login|state|slip/``). The token returned at login is kept in ``localStorage``
and in the ``tablet_token`` cookie, so the server can render the right tournament (its
language, rule set and board) on a reload. ``/tablet/login/?code=XXXX`` (the URL of the
player's QR code) logs in directly.

Slips are never lost: the page keeps each slip in ``localStorage`` until the server answered,
and re-sends it with the same ``Idempotency-Key`` (the API returns the same slip for a retry).
"""

from __future__ import annotations

import io

from django.conf import settings
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from scoring.board import Board, BoardError
from scoring.coords import Convention, CoordError
from scoring.notation import NotationError, format_move, parse_move
from scoring.placement import IllegalMove, Placement, evaluate, from_placements
from scoring.rules import get_ruleset

from . import services
from .api.views import ApiError, TabletView, current_round, errors
from .models import Round
from .views_display import board_config, language_for, points_forms, render_in

TOKEN_COOKIE = "tablet_token"
LANG_COOKIE = "tablet_lang"
COOKIE_AGE = 14 * 24 * 3600

#: Player-facing words for each verdict reason (scoring/judge.py REASONS).
REASON_TEXTS = {
    "ok": gettext_lazy("right: the move and its score"),
    "score_wrong": gettext_lazy("score wrong: you get the true score, with a warning"),
    "score_missing": gettext_lazy("score missing: you get the true score, with a warning"),
    "first_round": gettext_lazy("round 1: the word's best score"),
    "first_round_score_wrong": gettext_lazy("round 1: score wrong, with a warning"),
    "first_round_score_missing": gettext_lazy("round 1: score missing, with a warning"),
    "direction_reversed": gettext_lazy("direction reversed: your score, with a warning"),
    "coordinates_swapped": gettext_lazy("row and column swapped: your score, with a warning"),
    "place_wrong": gettext_lazy("place wrong: announced score − 5"),
    "place_missing": gettext_lazy("place missing: announced score − 5"),
    "place_and_score_wrong": gettext_lazy("place and score wrong: 0"),
    "no_slip": gettext_lazy("no slip: 0"),
    "late": gettext_lazy("late slip: 0"),
    "unreadable": gettext_lazy("the slip cannot be read: 0"),
    "invalid_word": gettext_lazy("a word is not in the lexicon: 0"),
    "illegal_placement": gettext_lazy("the move breaks a placement rule: 0"),
    "not_on_rack": gettext_lazy("a letter is not on the rack: 0"),
    "override": gettext_lazy("arbiter's decision"),
}

#: Placement errors of the assisted mode (scoring/placement.py codes).
PLACEMENT_TEXTS = {
    "not_in_line": gettext_lazy("The tiles must lie in one row or one column."),
    "gap": gettext_lazy("There is a gap between the tiles."),
    "occupied": gettext_lazy("This square already holds a tile."),
    "first_single_tile": gettext_lazy("The first move places at least 2 tiles."),
    "first_off_centre": gettext_lazy("The first move covers the centre square."),
    "not_touching": gettext_lazy("The word must touch a tile on the board."),
    "not_on_rack": gettext_lazy("These tiles are not all on your rack."),
    "off_board": gettext_lazy("The word goes off the board."),
    "no_new_tile": gettext_lazy("Place at least one tile."),
    "too_short": gettext_lazy("A word has at least 2 letters."),
    "word_continues": gettext_lazy("Write the whole word, letters already on the board included."),
    "board_mismatch": gettext_lazy("The word does not match the letters on the board."),
}


def js_strings() -> dict:
    """Every text the tablet script shows, in the active language."""
    return {
        "status_none": _("The game has not started yet."),
        "status_drawn": _("The arbiter is drawing the rack…"),
        "status_open": _("Hand in your slip before the time is over."),
        "status_closed": _("Time is over. The arbiter is judging the slips."),
        "status_published": _("Results of the round"),
        "game_round": _("Game %(game)s · round %(round)s"),
        "time_over": _("Time is over"),
        "time_over_long": _("Time is over: the slip can no longer be changed."),
        "online": _("online"),
        "offline": _("no network"),
        "hand_in": _("Hand in"),
        "replace": _("Replace the slip"),
        "received": _("Slip received at %(time)s"),
        "version": _("version %(n)s"),
        "can_replace": _("You can replace it until the time is over; the last slip counts."),
        "counts": _("This slip counts."),
        "pending": _("It is kept on this tablet and will be sent as soon as the network is back."),
        "pending_short": _("Slip not sent yet"),
        "sending": _("Sending…"),
        "retry_in": _("next try in %(s)s s"),
        "refused": _("Slip refused"),
        "late": _("The slip reached the server after the deadline: it was stored as late and counts as missing."),
        "round_over": _("The round is over: the slip was not taken."),
        "round_changed": _("The round changed: the slip was for an earlier round."),
        "invalid": _("The slip was refused: %(detail)s"),
        "login_again": _("Log in again with your access code: the slip is kept and will be sent."),
        "word_missing": _("Write the word."),
        "coords_bad": _("Coordinates look like H8 (horizontal) or 8H (vertical)."),
        "score_bad": _("The score is a whole number."),
        "your_move": _("Your move"),
        "no_slip": _("You handed in no slip."),
        "points": points_forms(),
        "warning": _("warning"),
        "top": _("Top"),
        "round_score": _("Round score"),
        "total": _("Total"),
        "rank": _("Rank"),
        "of_players": _("of %(n)s"),
        "top_total": _("top total %(n)s"),
        "solo": _("solo +%(n)s"),
        "horizontal": _("horizontal"),
        "vertical": _("vertical"),
        "start_square": _("Start square %(sq)s: which direction?"),
        "cancel": _("Cancel"),
        "log_in": _("Log in"),
        "logged_out": _("This tablet was logged out: log in with your access code."),
        "confirm_logout": _("A slip is not sent yet. Log out anyway? It stays on this tablet."),
        "assist_hint": _("Tap a tile of your rack, then a square of the board."),
        "assist_use": _("Use this move"),
        "assist_clear": _("Take the tiles back"),
        "assist_error": _("Cannot compute the score."),
        "blank_letter": _("Which letter does the blank stand for?"),
        "reasons": {k: str(v) for k, v in REASON_TEXTS.items()},
        "placement": {k: str(v) for k, v in PLACEMENT_TEXTS.items()},
    }


def login_strings() -> dict:
    return {
        "bad_code": _("This access code is wrong. Check it and try again."),
        "too_many": _("Too many wrong codes from this tablet: wait a few minutes and try again."),
        "network": _("No network: check the connection and try again."),
        "logging_in": _("Logging in…"),
        "expired": _("This tablet was logged out (the code was used on another tablet?): log in again."),
    }


def _registration(request):
    token = request.COOKIES.get(TOKEN_COOKIE, "")
    return services.registration_for_token(token) if token else None


def _store_language(response, store: str | None):
    if store:
        response.set_cookie(LANG_COOKIE, store, max_age=365 * 24 * 3600, samesite="Lax")
    elif store == "":
        response.delete_cookie(LANG_COOKIE)
    return response


def _chosen(request, store: str | None) -> str:
    """The language picked on this tablet ("" = auto), after this request's ``?lang=``."""
    return store if store is not None else request.COOKIES.get(LANG_COOKIE, "")


def _languages():
    return [(code, name) for code, name in settings.LANGUAGES]


@require_GET
def app(request):
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
                 "version": reverse("tablet:version", args=[t.slug]), "assist": reverse("tablet:assist"),
                 "login": reverse("tablet:login")},
        "board": board_config(t.ruleset, t.convention, lang),
    }
    context = {"tournament": t, "registration": reg, "config": config, "languages": _languages(),
               "lang_cookie": _chosen(request, store)}
    response = render_in(request, lang, "tablet/app.html", context, js_strings)
    return _store_language(response, store)


@require_GET
def login(request):
    """Access code form; ``?code=XXXX`` (the QR code) logs in directly."""
    reg = _registration(request)
    default = reg.tournament.language if reg else (request.LANGUAGE_CODE or settings.LANGUAGE_CODE)
    lang, store = language_for(request, default, LANG_COOKIE)
    config = {"urls": {"login": reverse("api:tablet-login"), "app": reverse("tablet:app")},
              "expired": request.GET.get("expired") == "1"}
    response = render_in(request, lang, "tablet/login.html", {
        "config": config, "code": request.GET.get("code", "")[:64], "languages": _languages(),
        "lang_cookie": _chosen(request, store)}, login_strings)
    response["Referrer-Policy"] = "no-referrer"  # the code may be in the URL
    return _store_language(response, store)


@require_GET
def qr_code(request):
    """An SVG QR code of ``/tablet/login/?code=...`` for printing a player's access code."""
    import qrcode
    import qrcode.image.svg

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


# -- assisted mode ----------------------------------------------------------------------------------------


class PlacementInput(serializers.Serializer):
    row = serializers.IntegerField(min_value=0, max_value=14)
    col = serializers.IntegerField(min_value=0, max_value=14)
    letter = serializers.CharField(max_length=2)
    blank = serializers.BooleanField(default=False)


class AssistInput(serializers.Serializer):
    placements = PlacementInput(many=True, required=False)
    move = serializers.CharField(max_length=60, required=False, help_text="or a written move: «H8 WORD»")
    cyrillic = serializers.BooleanField(default=False, help_text="Cyrillic row labels in the answer")

    def validate(self, attrs):
        if not attrs.get("placements") and not attrs.get("move"):
            raise serializers.ValidationError("send the placed tiles (placements) or a move")
        return attrs


class AssistOutput(serializers.Serializer):
    legal = serializers.BooleanField()
    code = serializers.CharField(allow_null=True)
    error = serializers.CharField(allow_null=True)
    move = serializers.CharField(allow_null=True)
    coordinates = serializers.CharField(allow_null=True)
    word = serializers.CharField(allow_null=True)
    score = serializers.IntegerField(allow_null=True)
    bingo = serializers.BooleanField()
    words = serializers.ListField(child=serializers.DictField())


class AssistScore(TabletView):
    """Assisted mode: place tiles (or write a move) on your own board with your own rack → the score.

    Placement rules and the rack are checked; words are not looked up (no word validity is revealed).
    403 unless the tournament is in assisted mode; 409 unless the round is open.
    """

    @extend_schema(tags=["tablet"], summary="Assisted mode: score of tiles placed on the player's board",
                   request=AssistInput, responses={200: AssistOutput, **errors(400, 401, 403, 409)})
    def post(self, request):
        reg = self.registration
        t = reg.tournament
        if not t.assisted_mode:
            raise ApiError(403, "the tournament is not in assisted mode", "not_assisted")
        rnd = current_round(t)
        if rnd is None or rnd.status != Round.Status.OPEN:
            raise ApiError(409, "no round is open", "no_open_round")
        data = AssistInput(data=request.data)
        data.is_valid(raise_exception=True)
        data = data.validated_data
        ruleset = get_ruleset(t.ruleset)
        try:
            board = Board.from_fen(ruleset, rnd.board_before or None)
        except BoardError as exc:  # pragma: no cover - the round's own board
            raise ApiError(409, f"the board cannot be read: {exc}", "bad_board") from None
        cyrillic = data["cyrillic"] and ruleset.cyrillic and t.convention != Convention.ENGLISH
        try:
            if data.get("placements"):
                placements = []
                for p in data["placements"]:
                    letter = ruleset.normalize_letter(p["letter"].strip())
                    if not ruleset.is_letter(letter):
                        raise IllegalMove("bad_letter", f"«{p['letter']}» is not a letter of the {t.ruleset} set")
                    placements.append(Placement(p["row"], p["col"], letter, p["blank"]))
                move = from_placements(board, placements)
            else:
                move = parse_move(data["move"], ruleset, convention=t.convention)
            play = evaluate(board, move, rack=list(rnd.rack))
        except (IllegalMove, NotationError, CoordError) as exc:
            return Response({"legal": False, "code": getattr(exc, "code", "illegal"), "error": str(exc),
                             "move": None, "coordinates": None, "word": None, "score": None, "bingo": False,
                             "words": []})
        text = format_move(play.coord, play.tiles, convention=t.convention, cyrillic=cyrillic)
        coords, _sep, word = text.partition(" ")
        return Response({"legal": True, "code": None, "error": None, "move": text, "coordinates": coords,
                         "word": word, "score": play.score, "bingo": play.bingo,
                         "words": [{"word": w.word, "score": w.score} for w in play.words]})
