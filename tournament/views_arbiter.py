"""Arbiter console: thin views over :mod:`tournament.services` (domain errors shown as messages).

An arbiter sees only the tournaments he arbitrates (others: 404). The interface speaks the
tournament's language on its pages unless the user chose a language (cookie).
"""

from __future__ import annotations

import uuid
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import Count, Q
from django.http import Http404, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring.board import Board
from scoring.coords import row_label
from scoring.rules import get_ruleset

from . import forms, services
from .models import AuditLog, Game, Registration, Round, Slip, Tournament, Verdict
from .services import ServiceError

ERROR_TEXTS = {
    # code → a translated explanation shown before the service's own message
    "round_pending": gettext_lazy("Publish or cancel the current round first."),
    "conflict": gettext_lazy("Someone else changed this round meanwhile; the page shows its state now."),
    "not_due": gettext_lazy("The time for this round is not over yet."),
    "why_missing": gettext_lazy("Give a reason."),
    "not_top": gettext_lazy("This move does not have the top score."),
    "not_legal": gettext_lazy("This move is not legal with this rack."),
    "no_move": gettext_lazy("The rack has no legal move."),
    "game_over": gettext_lazy("The game is over."),
    "table_taken": gettext_lazy("This table is taken."),
    "slug_taken": gettext_lazy("This short name is taken."),
    "round_not_open": gettext_lazy("The round does not take slips now."),
    "not_judged": gettext_lazy("Judge the round before publishing it."),
    "round_not_closed": gettext_lazy("Close the round before judging it."),
    "lexicon_ruleset": gettext_lazy("The lexicon does not match the rule set."),
    "lexicon_not_ready": gettext_lazy("The lexicon is not ready."),
}
FLAGGED_OK = {"ok", "first_round"}
REASON_LABELS = {
    "ok": gettext_lazy("right"),
    "score_wrong": gettext_lazy("score wrong"),
    "score_missing": gettext_lazy("score missing"),
    "first_round": gettext_lazy("round 1: best place"),
    "first_round_score_wrong": gettext_lazy("round 1: score wrong"),
    "first_round_score_missing": gettext_lazy("round 1: score missing"),
    "direction_reversed": gettext_lazy("direction reversed"),
    "coordinates_swapped": gettext_lazy("row and column swapped"),
    "place_wrong": gettext_lazy("place wrong: announced − 5"),
    "place_missing": gettext_lazy("place missing: announced − 5"),
    "place_and_score_wrong": gettext_lazy("place and score wrong"),
    "no_slip": gettext_lazy("no slip"),
    "late": gettext_lazy("late slip"),
    "unreadable": gettext_lazy("slip unreadable"),
    "invalid_word": gettext_lazy("word not in the lexicon"),
    "illegal_placement": gettext_lazy("illegal placement"),
    "not_on_rack": gettext_lazy("letter not on the rack"),
    "override": gettext_lazy("arbiter's decision"),
}
LIVE_SLIPS = 200


def _error(request, exc: ServiceError) -> None:
    lead = ERROR_TEXTS.get(exc.code)
    text = f"{lead} ({exc.message})" if lead else exc.message
    messages.error(request, text)


def arbiter_view(view):
    """Login required; ``slug`` → the tournament (404 unless the user arbitrates it); its language is active."""

    @login_required
    @wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        qs = Tournament.objects.select_related("lexicon")
        if not request.user.is_superuser:
            qs = qs.filter(arbiters=request.user)
        tournament = get_object_or_404(qs, slug=slug)
        if not request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME):
            translation.activate(tournament.language)
            request.LANGUAGE_CODE = tournament.language
        return view(request, tournament, *args, **kwargs)

    return wrapper


def _game(tournament: Tournament, number: int) -> Game:
    return get_object_or_404(Game, tournament=tournament, number=number)


def current_round(game: Game) -> Round | None:
    return game.rounds.exclude(status=Round.Status.CANCELLED).order_by("-number", "-id").first()


def _ctx(tournament: Tournament, active: str, **extra) -> dict:
    return {"tournament": tournament, "active": active, **extra}


# -- language -----------------------------------------------------------------------------------


@require_POST
def set_language(request):
    lang = request.POST.get("language", "")
    nxt = request.POST.get("next") or reverse("arbiter:tournaments")
    if not url_has_allowed_host_and_scheme(nxt, {request.get_host()}, require_https=request.is_secure()):
        nxt = reverse("arbiter:tournaments")
    response = HttpResponseRedirect(nxt)
    if lang in dict(settings.LANGUAGES):
        response.set_cookie(settings.LANGUAGE_COOKIE_NAME, lang, max_age=365 * 24 * 3600, samesite="Lax")
    else:  # "": back to the tournament's language
        response.delete_cookie(settings.LANGUAGE_COOKIE_NAME)
    return response


# -- tournaments ------------------------------------------------------------------------------------


@login_required
@require_GET
def tournament_list(request):
    qs = Tournament.objects.select_related("lexicon").annotate(
        players=Count("registrations", distinct=True), game_count=Count("games", distinct=True))
    if not request.user.is_superuser:
        qs = qs.filter(arbiters=request.user)
    return render(request, "arbiter/tournament_list.html", {"tournaments": qs, "active": "tournaments"})


@login_required
@require_http_methods(["GET", "POST"])
def tournament_create(request):
    form = forms.TournamentForm(request.POST or None, initial={"language": translation.get_language()[:2]})
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        try:
            t = services.create_tournament(request.user, name=data.pop("name"), slug=data.pop("slug"),
                                           ruleset=data.pop("ruleset"), lexicon=data.pop("lexicon"),
                                           arbiters=[request.user], **data)
        except ServiceError as exc:
            _error(request, exc)
        else:
            messages.success(request, _("Tournament created. Import the players next."))
            return redirect("arbiter:players", slug=t.slug)
    return render(request, "arbiter/tournament_form.html", {"form": form, "active": "tournaments"})


@arbiter_view
@require_http_methods(["GET", "POST"])
def tournament_settings(request, tournament):
    form = forms.TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        changed = {f: str(form.cleaned_data[f]) for f in form.changed_data}
        with transaction.atomic():
            form.save()
            services.audit(request.user, "tournament.update", tournament, after=changed, tournament=tournament)
        messages.success(request, _("Settings saved."))
        return redirect("arbiter:tournament", slug=tournament.slug)
    return render(request, "arbiter/tournament_form.html", _ctx(tournament, "settings", form=form))


@arbiter_view
@require_GET
def tournament_detail(request, tournament):
    games = tournament.games.annotate(
        published=Count("rounds", filter=Q(rounds__status=Round.Status.PUBLISHED))).order_by("number")
    return render(request, "arbiter/tournament_detail.html", _ctx(
        tournament, "overview", games=games, game_form=forms.GameForm(),
        players=tournament.registrations.count()))


# -- players ------------------------------------------------------------------------------------------


@arbiter_view
@require_http_methods(["GET", "POST"])
def players(request, tournament):
    regs = tournament.registrations.select_related("player").order_by("table_number")
    player_form = forms.PlayerForm(request.POST if request.POST.get("form") == "player" else None)
    tables_form = forms.TablesForm(request.POST if request.POST.get("form") == "tables" else None,
                                   registrations=regs)
    new_codes = []
    if request.method == "POST" and request.POST.get("form") == "player" and player_form.is_valid():
        try:
            reg, code = services.register_player(request.user, tournament, **player_form.cleaned_data)
        except ServiceError as exc:
            _error(request, exc)
        else:
            messages.success(request, _("Player registered at table %(n)d.") % {"n": reg.table_number})
            new_codes = [(reg, code)]
            player_form = forms.PlayerForm()
    elif request.method == "POST" and request.POST.get("form") == "tables" and tables_form.is_valid():
        moved = assign_tables(request.user, tournament, {
            reg: tables_form.cleaned_data[f"table_{reg.pk}"] for reg in tables_form.registrations})
        messages.success(request, _("Tables saved (%(n)d changed).") % {"n": moved})
        return redirect("arbiter:players", slug=tournament.slug)
    return render(request, "arbiter/players.html", _ctx(
        tournament, "players", player_form=player_form, tables_form=tables_form, new_codes=new_codes,
        registrations=regs))


def assign_tables(actor, tournament: Tournament, wanted: dict[Registration, int]) -> int:
    """Renumbers tables in one transaction (through free numbers, so swaps work); audited."""
    changes = {reg: n for reg, n in wanted.items() if n != reg.table_number}
    if not changes:
        return 0
    with transaction.atomic():
        top = (tournament.registrations.order_by("-table_number").values_list("table_number", flat=True).first()
               or 0) + 1000
        for i, reg in enumerate(changes):
            Registration.objects.filter(pk=reg.pk).update(table_number=top + i)
        for reg, n in changes.items():
            Registration.objects.filter(pk=reg.pk).update(table_number=n)
        services.audit(actor, "tables.assign", tournament, tournament=tournament,
                       before={reg.player.name: reg.table_number for reg in changes},
                       after={reg.player.name: n for reg, n in changes.items()})
    return len(changes)


@arbiter_view
@require_http_methods(["GET", "POST"])
def import_players(request, tournament):
    form = forms.ImportForm(request.POST or None, request.FILES or None)
    problems, imported = [], []
    if request.method == "POST" and form.is_valid():
        known = set(tournament.registrations.values_list("player__name", flat=True))
        rows, problems = forms.parse_players_csv(form.cleaned_data["content"], known)
        if not problems and not rows:
            messages.error(request, _("No player line found."))
        elif problems:
            messages.error(request, _("Nothing was imported: %(n)d line(s) to correct.") % {"n": len(problems)})
        else:
            try:
                with transaction.atomic():
                    for row in rows:
                        try:
                            reg, code = services.register_player(
                                request.user, tournament, name=row.name, club=row.club, category=row.category,
                                series=row.series, licence=row.licence)
                        except ServiceError as exc:
                            problems.append(forms.CsvProblem(row.line, row.name, exc.message))
                            raise
                        imported.append((reg, code))
            except ServiceError:
                imported = []
                messages.error(request, _("Nothing was imported: %(n)d line(s) to correct.") % {"n": len(problems)})
            else:
                messages.success(request, _("%(n)d players imported.") % {"n": len(imported)})
    return render(request, "arbiter/import.html", _ctx(
        tournament, "players", form=form, problems=problems, imported=imported))


# -- games and rounds ------------------------------------------------------------------------------------


@arbiter_view
@require_POST
def game_create(request, tournament):
    form = forms.GameForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Check the game form."))
        return redirect("arbiter:tournament", slug=tournament.slug)
    try:
        game = services.create_game(request.user, tournament, seed=form.cleaned_data["seed"],
                                    prepared_racks=form.cleaned_data["prepared"])
    except ServiceError as exc:
        _error(request, exc)
        return redirect("arbiter:tournament", slug=tournament.slug)
    except ValueError as exc:  # a prepared game the engine can't read
        messages.error(request, str(exc))
        return redirect("arbiter:tournament", slug=tournament.slug)
    return redirect("arbiter:game", slug=tournament.slug, number=game.number)


def _slips(rnd: Round):
    return (Slip.objects.filter(round=rnd).filter(Q(is_current=True) | Q(late=True))
            .select_related("registration__player").order_by("registration__table_number", "-version"))


def live_state(tournament: Tournament, rnd: Round | None) -> dict:
    """What the live panel shows: the round, slips received and the tables still missing."""
    if rnd is None:
        return {"round": None, "received": [], "missing": [], "players": tournament.registrations.count()}
    received, have = [], set()
    for slip in _slips(rnd)[:LIVE_SLIPS]:
        reg = slip.registration
        if slip.is_current:
            have.add(reg.pk)
        received.append({"table": reg.table_number, "name": reg.player.name, "text": slip.text,
                         "at": timezone.localtime(slip.received_at).strftime("%H:%M:%S"), "late": slip.late,
                         "source": slip.get_source_display(), "version": slip.version})
    regs = tournament.registrations.order_by("table_number").values_list("pk", "table_number")
    missing = [n for pk, n in regs if pk not in have]
    left = None
    if rnd.status == Round.Status.OPEN and rnd.deadline:
        left = max(0, int((rnd.deadline - timezone.now()).total_seconds()))
    return {"round": rnd.number, "status": rnd.status, "status_label": rnd.get_status_display(),
            "seconds_left": left, "received": received, "missing": missing,
            "count": len(have), "players": len(regs), "solver": rnd.get_solver_status_display()}


@arbiter_view
@require_GET
def game(request, tournament, number):
    g = _game(tournament, number)
    rnd = current_round(g)
    live = live_state(tournament, rnd)
    rounds = g.rounds.order_by("number", "id")
    return render(request, "arbiter/game.html", _ctx(
        tournament, "games", page="game", game=g, round=rnd, live=live, rounds=rounds, draw_form=forms.DrawForm(),
        cancel_form=forms.ReasonForm(), penalty_form=forms.PenaltyForm(), top=(rnd.top_moves[0] if rnd and rnd.top_moves else None)))


@arbiter_view
@require_GET
def live(request, tournament, number):
    g = _game(tournament, number)
    return JsonResponse(live_state(tournament, current_round(g)))


@arbiter_view
@require_POST
def round_action(request, tournament, number):
    g = _game(tournament, number)
    action = request.POST.get("action", "")
    rnd = current_round(g)
    if action not in ("draw", "finish", "penalty") and (rnd is None or str(rnd.pk) != request.POST.get("round")):
        messages.error(request, _("The round changed meanwhile; look again."))
        return redirect("arbiter:game", slug=tournament.slug, number=g.number)
    user = request.user
    try:
        if action == "draw":
            form = forms.DrawForm(request.POST)
            typed = (form.cleaned_data["typed_rack"] or None) if form.is_valid() else None
            new = services.draw_round(user, g, typed_rack=typed)
            if new is None:
                messages.warning(request, _("The rack typed is not valid: all its tiles went back into the bag. "
                                            "Draw again (redraw)."))
            else:
                messages.success(request, _("Round %(n)d drawn: %(rack)s.") % {"n": new.number, "rack": new.rack})
        elif action == "open":
            services.open_round(user, rnd)
            messages.success(request, _("Round %(n)d is open.") % {"n": rnd.number})
        elif action == "close":
            services.close_round(rnd, user, force=True)
            messages.success(request, _("Round %(n)d is closed.") % {"n": rnd.number})
        elif action == "judge":
            services.judge_round(rnd, user)
            messages.success(request, _("Round %(n)d is judged: review the verdicts.") % {"n": rnd.number})
            return redirect("arbiter:review", slug=tournament.slug, number=g.number)
        elif action == "review":
            services.review_round(user, rnd)
            messages.success(request, _("Round %(n)d is reviewed.") % {"n": rnd.number})
        elif action == "publish":
            rnd = services.publish_round(user, rnd)
            messages.success(request, _("Round %(n)d is published: %(move)s, %(score)s.")
                             % {"n": rnd.number, "move": rnd.chosen_move, "score": rnd.chosen_score})
        elif action == "cancel":
            form = forms.ReasonForm(request.POST)
            if not form.is_valid():
                messages.error(request, _("A cancellation needs a reason."))
            else:
                services.cancel_round(user, rnd, why=form.cleaned_data["why"])
                messages.success(request, _("Round %(n)d is cancelled.") % {"n": rnd.number})
        elif action == "no_move":
            new = services.redraw_no_move(user, rnd)
            if new is None:
                messages.warning(request, _("No legal move and no other rack can be drawn: the game is over."))
            else:
                messages.success(request, _("The rack went back into the bag; round %(n)d redrawn: %(rack)s.")
                                 % {"n": new.number, "rack": new.rack})
        elif action == "finish":
            form = forms.ReasonForm(request.POST)
            if not form.is_valid():
                messages.error(request, _("Ending a game needs a reason."))
            else:
                services.finish_game(user, g, why=form.cleaned_data["why"])
                messages.success(request, _("Game %(n)d is over; warnings became penalties.") % {"n": g.number})
        elif action == "penalty":
            form = forms.PenaltyForm(request.POST)
            if not form.is_valid():
                messages.error(request, _("A penalty needs a table, whole points and a reason."))
            else:
                reg = tournament.registrations.filter(table_number=form.cleaned_data["table"]).first()
                if reg is None:
                    messages.error(request, _("No player at table %(t)d.") % {"t": form.cleaned_data["table"]})
                else:
                    services.add_penalty(user, g, reg, points=form.cleaned_data["points"],
                                         reason=form.cleaned_data["reason"])
                    messages.success(request, _("Penalty of %(p)d points for table %(t)d.")
                                     % {"p": form.cleaned_data["points"], "t": reg.table_number})
        else:
            messages.error(request, _("Unknown action."))
    except ServiceError as exc:
        _error(request, exc)
    return redirect("arbiter:game", slug=tournament.slug, number=g.number)


# -- paper slips -------------------------------------------------------------------------------------


@arbiter_view
@require_http_methods(["GET", "POST"])
def slip_entry(request, tournament, number):
    g = _game(tournament, number)
    rnd = current_round(g)
    tables = dict(tournament.registrations.values_list("table_number", "pk"))
    taking = rnd is not None and rnd.status in (Round.Status.OPEN, Round.Status.CLOSED)
    form = forms.SlipForm(request.POST or None, tables=tables, initial={"key": uuid.uuid4().hex})
    if request.method == "POST" and taking and form.is_valid():
        data = form.cleaned_data
        reg = Registration.objects.get(pk=tables[data["table"]])
        now = timezone.now()
        handed = now if data["late"] or rnd.deadline is None or now <= rnd.deadline else rnd.deadline
        try:
            slip = services.submit_slip(rnd, reg, word=data["word"], coordinates=data["coordinates"],
                                        score=data["score"], idempotency_key=f"paper-{data['key']}",
                                        source=Slip.Source.PAPER, actor=request.user, received_at=handed)
        except ServiceError as exc:
            _error(request, exc)
        else:
            messages.success(request, _("Table %(n)d: %(text)s saved.") % {"n": data["table"], "text": slip.text})
            return redirect("arbiter:slips", slug=tournament.slug, number=g.number)
    recent = []
    if rnd is not None:
        recent = (Slip.objects.filter(round=rnd, source__in=[Slip.Source.PAPER, Slip.Source.ARBITER])
                  .select_related("registration__player").order_by("-id")[:12])
    return render(request, "arbiter/slips.html", _ctx(
        tournament, "games", page="slips", game=g, round=rnd, form=form, taking=taking, recent=recent,
        live=live_state(tournament, rnd)))


# -- review ---------------------------------------------------------------------------------------------


def _flagged(v: Verdict) -> bool:
    return v.warning or v.reason not in FLAGGED_OK or not v.automatic


@arbiter_view
@require_GET
def review(request, tournament, number):
    g = _game(tournament, number)
    rnd = current_round(g)
    verdicts = []
    tops = []
    if rnd is not None:
        verdicts = sorted(rnd.verdicts.select_related("registration__player", "slip", "overridden_by"),
                          key=lambda v: (not _flagged(v), v.registration.table_number))
        if rnd.top_moves:
            best = rnd.top_moves[0]["score"]
            tops = [m for m in rnd.top_moves if m["score"] == best]
    solos = {s.registration_id for s in rnd.solos.all()} if rnd else set()
    rows = [{"v": v, "flagged": _flagged(v), "solo": v.registration_id in solos,
             "reason": REASON_LABELS.get(v.reason, v.reason),
             "form": forms.OverrideForm(initial={"awarded": v.awarded, "warning": v.warning}, prefix=f"v{v.pk}")}
            for v in verdicts]
    return render(request, "arbiter/review.html", _ctx(
        tournament, "games", page="review", game=g, round=rnd, rows=rows, tops=tops,
        flagged=sum(1 for r in rows if r["flagged"]), chosen=rnd.chosen_move if rnd else ""))


@arbiter_view
@require_POST
def override(request, tournament, pk):
    verdict = get_object_or_404(Verdict.objects.select_related("round__game"), pk=pk,
                                round__game__tournament=tournament)
    form = forms.OverrideForm(request.POST, prefix=f"v{verdict.pk}")
    if form.is_valid():
        try:
            services.override_verdict(request.user, verdict, awarded=form.cleaned_data["awarded"],
                                      warning=form.cleaned_data["warning"], why=form.cleaned_data["why"])
        except ServiceError as exc:
            _error(request, exc)
        else:
            messages.success(request, _("Verdict of table %(n)d changed.") % {"n": verdict.registration.table_number})
    else:
        messages.error(request, _("An override needs the points and a reason."))
    return redirect(reverse("arbiter:review", args=[tournament.slug, verdict.round.game.number])
                    + f"#v{verdict.pk}")


@arbiter_view
@require_POST
def choose_top(request, tournament, number):
    g = _game(tournament, number)
    rnd = current_round(g)
    form = forms.TopForm(request.POST)
    if rnd is None or not form.is_valid():
        raise Http404
    try:
        services.choose_top(request.user, rnd, form.cleaned_data["move"])
    except ServiceError as exc:
        _error(request, exc)
    else:
        messages.success(request, _("Top chosen: %(move)s.") % {"move": form.cleaned_data["move"]})
    return redirect("arbiter:review", slug=tournament.slug, number=g.number)


# -- board, standings, audit ---------------------------------------------------------------------------

PREMIUM_CLASS = {"TW": "tw", "DW": "dw", "TL": "tl", "DL": "dl", "Y": "ly", "G": "lg", "B": "lb", "R": "lr"}


def board_grid(ruleset_id: str, fen: str, *, cyrillic_labels: bool, new_squares=frozenset()) -> dict:
    ruleset = get_ruleset(ruleset_id)
    board = Board.from_fen(ruleset, fen or None)
    size = len(ruleset.layout.word_mult)
    rows = []
    for r in range(size):
        cells = []
        for c in range(size):
            tile = board.tile(r, c)
            code = ruleset.layout.premium_code(r, c)
            cells.append({
                "cls": PREMIUM_CLASS.get(code, ""), "code": code, "centre": (r, c) == (size // 2, size // 2),
                "letter": tile.letter if tile else "", "blank": bool(tile and tile.blank),
                "value": (0 if tile.blank else ruleset.value(tile.letter)) if tile else None,
                "new": (r, c) in new_squares,
            })
        rows.append({"label": row_label(r, cyrillic_labels), "cells": cells})
    return {"rows": rows, "columns": list(range(1, size + 1))}


@arbiter_view
@require_GET
def board(request, tournament, number):
    g = _game(tournament, number)
    ruleset = get_ruleset(tournament.ruleset)
    cyrillic = ruleset.cyrillic and translation.get_language()[:2] in ("ru", "uk")
    history = g.state.get("rounds", []) if isinstance(g.state, dict) else []
    grid = board_grid(tournament.ruleset, g.state.get("board", ""), cyrillic_labels=cyrillic)
    rnd = current_round(g)
    return render(request, "arbiter/board.html", _ctx(
        tournament, "games", page="board", game=g, grid=grid, history=history, round=rnd,
        rack=(g.state.get("rack") or "") if isinstance(g.state, dict) else ""))


GROUPS = ("series", "category", "club")


@arbiter_view
@require_GET
def standings(request, tournament):
    group = request.GET.get("by", "")
    games = list(tournament.games.exclude(status=Game.Status.CANCELLED).order_by("number"))
    number = request.GET.get("game", "")
    game_obj = None
    if number.isdigit():
        game_obj = _game(tournament, int(number))
        tables = {"": services.game_standings(game_obj)}
        group = ""
    elif group in GROUPS:
        tables = services.tournament_standings(tournament, group_by=group)
    else:
        group = ""
        tables = {"": services.tournament_standings(tournament)}
    return render(request, "arbiter/standings.html", _ctx(
        tournament, "standings", tables=tables, group=group, games=games, game=game_obj,
        groups=[("series", _("Series")), ("category", _("Categories")), ("club", _("Clubs"))]))


@arbiter_view
@require_GET
def audit_log(request, tournament):
    qs = AuditLog.objects.filter(tournament=tournament).select_related("actor")
    action = request.GET.get("action", "")
    if action:
        qs = qs.filter(action__startswith=action)
    page = Paginator(qs, 50).get_page(request.GET.get("page"))
    actions = sorted({a.split(".")[0] for a in AuditLog.objects.filter(tournament=tournament)
                      .values_list("action", flat=True).distinct()})
    return render(request, "arbiter/audit.html", _ctx(tournament, "audit", page=page, action=action,
                                                       actions=actions))

