"""The data fingerprint of a printed document (its cache key): a hash of the rows, ids, counts, sums and latest
changes of what the document shows (registrations, games, rounds, slips, verdicts, solos, penalties) — any
change of what is shown gives another fingerprint, so the document is built again."""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import Any

from django.db.models import Count, Max, Q, QuerySet, Sum

from .. import gamestate
from ..models import Game, Penalty, Registration, Round, Slip, Solo, Tournament, Verdict

#: Bumped when the layout of the documents changes, so that cached files are built again.
LAYOUT_VERSION = 3


def _agg(qs: QuerySet[Any], points: str | None = None, changed: str | None = None) -> list[str]:
    """Count, last id, sum of ``points`` and latest ``changed`` of a queryset: what tells that it changed."""
    fields = {"n": Count("id"), "last": Max("id")}
    if points:
        fields["sum"] = Sum(points)
    if changed:
        fields["changed"] = Max(changed)
    if points == "awarded":
        fields["warnings"] = Count("id", filter=Q(warning=True))
    row = qs.aggregate(**fields)
    return [str(row[k]) for k in sorted(row)]


def _tournament_part(t: Tournament) -> list[Any]:
    return [t.pk, t.name, t.slug, str(t.starts_on), str(t.ends_on), t.venue, t.ruleset, t.convention, t.tie_break,
            t.language, t.solo_mode, t.solo_bonus, t.free_warnings, t.free_warnings_fast,
            t.warning_penalty]


def _registrations_part(t: Tournament) -> list[Any]:
    return list(t.registrations.order_by("pk").values_list(
        "pk", "table_number", "player_id", "player__name", "player__club", "player__category", "player__series",
        "player__licence"))


def _rounds_part(qs: QuerySet[Round]) -> list[Any]:
    return [[*row[:-1], len(row[-1] or [])] for row in qs.order_by("pk").values_list(
        "pk", "game_id", "number", "status", "rack", "leftover", "drawn", "chosen_move", "chosen_score",
        "published_at", "draw_log")]


def fingerprint(kind: str, params: str, tournament: Tournament, *, game: Game | None = None,
                round: Round | None = None, registration: Registration | None = None) -> str:
    """A hash of the data a printed document of ``kind`` shows (``params``: its parameters as text)."""
    t = tournament
    parts: list[Any] = [LAYOUT_VERSION, kind, params, _tournament_part(t)]
    games = t.games.exclude(status=Game.Status.CANCELLED)
    if kind == "standings":
        if game is not None:
            games = games.filter(pk=game.pk)
        published = Round.objects.filter(game__in=games, status=Round.Status.PUBLISHED)
        parts += [
            _registrations_part(t), list(games.order_by("pk").values_list("pk", "number", "status")),
            _rounds_part(published),
            _agg(Verdict.objects.filter(round__in=published), "awarded", "updated_at"),
            _agg(Solo.objects.filter(round__in=published), "points"),
            _agg(Penalty.objects.filter(game__in=games), "points"),
            _agg(Slip.objects.filter(round__game__in=games, topped=True)),  # topping: the times
        ]
    elif kind == "game-sheet":
        g = game
        assert g is not None
        state = gamestate.fingerprint(g)
        parts += [g.pk, g.number, g.status, g.end_reason, g.end_note, state.board, state.rounds, _rounds_part(g.rounds.all())]
    elif kind == "player-sheet" and registration is None:  # several players: what any of them shows
        published = Round.objects.filter(game__in=games, status=Round.Status.PUBLISHED)
        parts += [
            _registrations_part(t), list(games.order_by("pk").values_list("pk", "number", "status")),
            _rounds_part(published),
            _agg(Verdict.objects.filter(round__in=published), "awarded", "updated_at"),
            _agg(Slip.objects.filter(round__in=published)),
            _agg(Solo.objects.filter(round__in=published), "points"),
            list(Penalty.objects.filter(game__in=games).order_by("pk").values_list("pk", "kind", "points", "reason")),
        ]
    elif kind == "player-sheet":
        reg = registration
        assert reg is not None
        published = Round.objects.filter(game__in=games, status=Round.Status.PUBLISHED)
        parts += [
            [reg.pk, reg.table_number, reg.player.name, reg.player.club, reg.player.category, reg.player.series,
             reg.player.licence],
            list(games.order_by("pk").values_list("pk", "number", "status")), _rounds_part(published),
            _agg(Verdict.objects.filter(round__in=published, registration=reg), "awarded", "updated_at"),
            list(Verdict.objects.filter(round__in=published, registration=reg).order_by("pk").values_list(
                "pk", "reason", "automatic", "slip_id")),
            _agg(Slip.objects.filter(round__in=published, registration=reg)),
            _agg(Solo.objects.filter(round__in=published, registration=reg), "points"),
            list(Penalty.objects.filter(game__in=games, registration=reg).order_by("pk").values_list(
                "pk", "kind", "points", "reason")),
        ]
    elif kind == "arbitration":
        rnd = round
        assert rnd is not None
        parts += [
            _registrations_part(t), _rounds_part(Round.objects.filter(pk=rnd.pk)),
            _agg(Slip.objects.filter(round=rnd)), _agg(Slip.objects.filter(round=rnd, is_current=True)),
            _agg(Verdict.objects.filter(round=rnd), "awarded", "updated_at"),
            list(Verdict.objects.filter(round=rnd).order_by("pk").values_list(
                "pk", "reason", "automatic", "slip_id", "true_score", "override_reason", "message")),
            _agg(Solo.objects.filter(round=rnd), "points"),
        ]
    elif kind == "slips":
        parts += [list(t.registrations.order_by("pk").values_list("pk", "table_number", "player__name"))]
    else:  # cards: issued anew every time
        parts.append(secrets.token_hex(16))
    text = json.dumps(parts, default=str, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


__all__ = ["LAYOUT_VERSION", "fingerprint"]
