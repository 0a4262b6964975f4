"""Games: start (random seed, given seed or prepared racks), end, penalties."""

from __future__ import annotations

import random
from collections import Counter

from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from scoring import sheet
from scoring.draw import DrawError
from scoring.game import GameError

from .. import gamestate, labels
from ..errors import Code, ServiceError, from_engine
from ..models import Game, Penalty, Registration, Round, Tournament, Verdict
from . import audit


def live_rounds(game: Game) -> QuerySet[Round]:
    """The game's rounds that were not cancelled."""
    return game.rounds.exclude(status=Round.Status.CANCELLED)


def pending_round(game: Game) -> Round | None:
    """The live round not published yet (at most one), or None."""
    return live_rounds(game).exclude(status=Round.Status.PUBLISHED).first()


@transaction.atomic
def create_game(actor: audit.Actor, tournament: Tournament, *, seed: int | None = None,
                prepared_racks: list[str] | None = None, variant: str = "classic",
                seconds_per_move: int | None = None) -> Game:
    """The tournament's next game: a random bag (or the given seed), or prepared racks checked round by round;
    played by ``variant`` (:data:`tournament.models.VARIANT_CHOICES`, e.g. "joker"; the API and the console's
    form offer only those, the engine refuses another with a VariantError); ``seconds_per_move``: the game's own
    time per move (a fast game, 2:00 or 1:00: more free warnings), None or the tournament's: the tournament's."""
    if seconds_per_move == tournament.seconds_per_move:
        seconds_per_move = None
    if seconds_per_move is not None and seconds_per_move not in dict(Tournament.SECONDS_CHOICES):
        raise ServiceError(Code.BAD_TIME_PER_MOVE, _("%(seconds)s s is not a time per move: 3:00, 2:30, 2:00 or 1:00.")
                           % {"seconds": seconds_per_move})
    number = (tournament.games.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    seed = seed if seed is not None else random.SystemRandom().randrange(2**62)
    try:
        state = gamestate.new_state(tournament.ruleset, seed, prepared_racks, variant)
    except (DrawError, GameError) as exc:
        raise from_engine(exc, Code.BAD_RACK, labels.tournament_style(tournament)) from None
    game = Game.objects.create(tournament=tournament, number=number, seed=seed, prepared_racks=prepared_racks,
                               variant=variant, seconds_per_move=seconds_per_move, state=state)
    audit.record(actor, "game.create", game, after={"number": number, "seed": seed, "prepared": bool(prepared_racks),
                                                    "variant": variant, "seconds_per_move": game.time_per_move},
                 tournament=tournament)
    return game


def end_game(game: Game, reason: str, note: str = "") -> list[Penalty]:
    """Marks the game finished (inside the caller's transaction) and turns warnings into penalties.
    ``reason``: a code of :data:`tournament.labels.END_REASONS`; ``note``: the arbiter's own words."""
    game.status, game.end_reason, game.end_note = Game.Status.FINISHED, reason, note[:500]
    game.save(update_fields=["status", "end_reason", "end_note"])
    return apply_warning_penalties(game)


def finish_game(actor: audit.Actor, game: Game, *, why: str) -> Game:
    """The arbiter ends a game (e.g. the prepared racks are used up or time is called): no round may be
    pending; warnings become penalties as at a natural end."""
    if not why or not why.strip():
        raise ServiceError(Code.WHY_MISSING, _("ending a game needs a reason"))
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.PLAYING:
            raise ServiceError(Code.GAME_OVER, _("game %(n)s is already %(status)s")
                               % {"n": game.number, "status": game.get_status_display()})
        pending = pending_round(game)
        if pending is not None:
            raise ServiceError(Code.ROUND_PENDING, _("round %(n)s is %(status)s: publish or cancel it first")
                               % {"n": pending.number, "status": pending.get_status_display()})
        penalties = end_game(game, "arbiter", why.strip())
        audit.record(actor, "game.finish", game, after={"why": why.strip(), "warning_penalties": len(penalties)},
                     tournament=game.tournament)
    return game


def add_penalty(actor: audit.Actor, game: Game, registration: Registration, *, points: int, reason: str) -> Penalty:
    """An arbiter's penalty (conduct, illegible slip…), audited; it counts in the game's standings."""
    if registration.tournament_id != game.tournament_id:
        raise ServiceError(Code.WRONG_TOURNAMENT, _("this player is not registered in the game's tournament"))
    if not isinstance(points, int) or isinstance(points, bool) or not 1 <= points <= 1000:
        raise ServiceError(Code.BAD_POINTS, _("a penalty is a whole number of points from 1 to 1000"))
    if not reason or not reason.strip():
        raise ServiceError(Code.WHY_MISSING, _("a penalty needs a reason"))
    with transaction.atomic():
        penalty = Penalty.objects.create(game=game, registration=registration, kind=Penalty.Kind.OTHER,
                                         points=points, reason=reason.strip(), created_by=audit.user_or_none(actor))
        audit.record(actor, "penalty.add", penalty, after={"table": registration.table_number, "points": points,
                                                           "reason": reason.strip()}, tournament=game.tournament)
    return penalty


def apply_warning_penalties(game: Game) -> list[Penalty]:
    """End of game: the warnings over the free allowance become penalties (:func:`scoring.sheet.warning_penalty`).
    Recomputed from scratch."""
    t = game.tournament
    Penalty.objects.filter(game=game, kind=Penalty.Kind.WARNINGS).delete()
    counts = Counter(
        Verdict.objects.filter(round__game=game, round__status=Round.Status.PUBLISHED, warning=True)
        .values_list("registration_id", flat=True)
    )
    out = []
    for reg_id, n in counts.items():
        free = game.free_warnings
        points = sheet.warning_penalty(n, free=free, points=t.warning_penalty)
        if points:
            extra = n - free
            out.append(Penalty.objects.create(
                game=game, registration_id=reg_id, kind=Penalty.Kind.WARNINGS, points=points,
                reason=f"{n} warnings, {free} free: {extra} × {t.warning_penalty}",
            ))
    return out


__all__ = ["add_penalty", "apply_warning_penalties", "create_game", "end_game", "finish_game", "live_rounds",
           "pending_round"]
