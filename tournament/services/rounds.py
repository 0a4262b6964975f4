"""Rounds: draw → open → close → (judge, :mod:`.judging`) → review → top → publish; cancel; no-move redraw.

Status changes are claims (:func:`.audit.claim`): two arbiters, or an arbiter and the close task,
cannot both move a round forward; the loser gets ``conflict`` (or, for the idempotent close, the
round as it is). Tasks (solve at the draw, close at deadline + grace) are sent after commit.
"""

from __future__ import annotations

import random
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.draw import DrawError, rack_size_for
from scoring.game import DuplicateGame, GameError
from scoring.notation import NotationError, parse_rack

from .. import gamestate, labels
from ..errors import Code, ServiceError, from_engine
from ..models import Game, Round, Solo, Tournament
from . import audit, games, jobs, rows, solving, topping


def current_round(game: Game) -> Round | None:
    """The game's latest live round (the one the console works on)."""
    return games.live_rounds(game).order_by("-number", "-id").first()


_LATEST = rows.Select(Round, "game")
#: The archive of a publication is written this many seconds after it: the seconds in which the web nodes
#: send every tablet its result are theirs (the round is in the database already; the backup is the copy).
BACKUP_AFTER_PUBLICATION_SECONDS = 5


def tournament_round(tournament: Tournament) -> Round | None:
    """The tournament's latest live round (games are played one after another), its game read with it
    (asked with every slip: the SQL is written once)."""
    return _LATEST.one('WHERE a1."tournament_id" = %s AND a0."status" <> %s '
                       'ORDER BY a1."number" DESC, a0."number" DESC, a0."id" DESC LIMIT 1',
                       [tournament.pk, Round.Status.CANCELLED.value])


@transaction.atomic
def draw_round(actor: audit.Actor, game: Game, *, typed_rack: str | None = None) -> Round | None:
    """Draws the next round's rack (seeded bag, prepared game, or the rack typed by the arbiter).

    Returns None when a typed rack was invalid (the redraw is logged, the tiles went back):
    the arbiter draws again. The solver task starts after commit.
    """
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.status != Game.Status.PLAYING:
        raise ServiceError(Code.GAME_OVER, _("game %(n)s is %(status)s") % {"n": game.number, "status": game.get_status_display()})
    pending = games.pending_round(game)
    if pending is not None:
        raise ServiceError(Code.ROUND_PENDING, _("round %(n)s is %(status)s: publish or cancel it first")
                           % {"n": pending.number, "status": pending.get_status_display()})
    before = gamestate.snapshot(game)
    engine = gamestate.load(game)
    style = labels.tournament_style(game.tournament)
    try:
        outcome = engine.type_rack(typed_rack_text(engine, typed_rack)) if typed_rack is not None else engine.draw()
    except DrawError as exc:
        raise (rack_error(exc, typed_rack, engine) if typed_rack is not None else from_engine(exc, style=style)) from None
    except GameError as exc:
        raise from_engine(exc, style=style) from None
    gamestate.save(game, engine)
    # every draw of this round number: racks sent back (no legal move, an invalid typed rack), redraws, the rack
    # kept; with the bag's seed, so that the round can be drawn again from its log
    events = [{**e.to_json(), "seed": engine.bag.seed} for e in engine.log if e.round == engine.round_no]
    t = game.tournament
    if not outcome.valid or engine.rack is None:
        audit.record(actor, "round.rack_rejected", game, after={"typed": typed_rack, "log": events}, tournament=t)
        return None
    rnd = Round.objects.create(
        game=game, number=engine.round_no, rack="".join(engine.rack), leftover="".join(engine.round_leftover),
        drawn="".join(engine.drawn), draw_log=events, board_before=engine.board.to_fen(), state_before=before,
        grace_seconds=t.grace_seconds,
    )
    audit.record(actor, "round.draw", rnd, after={"rack": rnd.rack, "typed": typed_rack is not None, "log": events},
                 tournament=t)
    jobs.send(jobs.SOLVE_ROUND, rnd.pk)
    return rnd


def typed_rack_text(engine: DuplicateGame, typed: str) -> str:
    """The rack the arbiter typed, by the one rule of the draw form: the tiles drawn from the bag only
    (the leftover is added), or the whole rack (leftover included). Told apart by their number."""
    leftover = list(engine.leftover)
    size = rack_size_for(engine.ruleset, leftover, engine.bag)
    try:
        tiles = parse_rack(typed, engine.ruleset)
    except NotationError as exc:
        if exc.message.code == "rack_too_long":  # more tiles than a rack holds: say how many it takes
            count = int(str(dict(exc.message.params).get("count", 0)))
            raise ServiceError("wrong_size", wrong_size_text(typed, count, "".join(leftover), size)) from None
        return typed  # the engine refuses it (bad_rack)
    if leftover and len(tiles) == size - len(leftover):
        return "".join(leftover + tiles)
    if len(tiles) not in (size, size - len(leftover)):
        raise ServiceError("wrong_size", wrong_size_text(typed, len(tiles), "".join(leftover), size))
    return typed


def wrong_size_text(typed: str, count: int, leftover: str, size: int) -> str:
    head = ngettext("«%(typed)s» has %(n)d tile", "«%(typed)s» has %(n)d tiles", count) % {
        "typed": typed.strip(), "n": count}
    if leftover:
        tail = _("type the tiles drawn from the bag (%(new)d; the leftover %(leftover)s is added) or the whole "
                 "rack (%(size)d).") % {"new": size - len(leftover), "leftover": leftover, "size": size}
    else:
        tail = _("type the tiles drawn from the bag (%(size)d).") % {"size": size}
    return f"{head}: {tail}"


def rack_error(exc: DrawError, typed: str, engine: DuplicateGame) -> ServiceError:
    """A typed rack refused by the engine, told in the page's language."""
    leftover = "".join(engine.leftover)
    missing = str(exc.params.get("missing", ""))
    if exc.code == "leftover_missing":
        text = _("The rack «%(typed)s» must keep the leftover %(leftover)s of the previous round (%(missing)s "
                 "missing): type the new tiles only, or the whole rack.") % {
            "typed": typed.strip(), "leftover": leftover, "missing": missing}
    elif exc.code == "not_in_bag":
        text = _("«%(typed)s» cannot come from the bag: it does not hold %(missing)s.") % {
            "typed": typed.strip(), "missing": missing}
    elif exc.code == "wrong_size":
        size = rack_size_for(engine.ruleset, list(engine.leftover), engine.bag)
        text = wrong_size_text(typed, int(str(exc.params.get("size", 0))), leftover, size)
    elif exc.code == "bad_rack":
        text = _("«%(typed)s» is not a rack: type letters of the tile set, ? for a blank.") % {"typed": typed.strip()}
    else:
        return from_engine(exc)
    return ServiceError(exc.code, text)


def open_round(actor: audit.Actor, rnd: Round) -> Round:
    """Opens a drawn round: the deadline starts now (server time); the close task is scheduled.

    A topping round opens only once its top is known (:func:`.topping.check_open`)."""
    topping.check_open(rnd)
    with transaction.atomic():
        now = timezone.now()
        seconds = rnd.game.time_per_move
        deadline = now + timedelta(seconds=seconds)
        if not audit.claim(Round, rnd.pk, Round.Status.DRAWN, Round.Status.OPEN, opened_at=now, deadline=deadline):
            rnd.refresh_from_db()
            raise ServiceError(Code.CONFLICT, _("round %(n)s is %(status)s, not drawn") % {"n": rnd.number, "status": rnd.get_status_display()})
        rnd.refresh_from_db()
        audit.record(actor, "round.open", rnd, after={"deadline": deadline.isoformat()},
                     tournament=rnd.game.tournament)
        jobs.send(jobs.CLOSE_ROUND, rnd.pk, eta=deadline + timedelta(seconds=rnd.grace_seconds))
    return rnd


def close_round(rnd: Round, actor: audit.Actor = None, *, force: bool = False) -> Round:
    """Closes an open round at deadline + grace (``force``: the arbiter closes now). Idempotent."""
    rnd.refresh_from_db()
    if rnd.status != Round.Status.OPEN:
        if rnd.status in (Round.Status.DRAWN, Round.Status.CANCELLED):
            raise ServiceError(Code.ROUND_NOT_OPEN, _("round %(n)s is %(status)s") % {"n": rnd.number, "status": rnd.get_status_display()})
        return rnd
    now = timezone.now()
    assert rnd.deadline is not None  # an open round has one
    due = rnd.deadline + timedelta(seconds=rnd.grace_seconds)
    if now < due and not force:
        raise ServiceError(Code.NOT_DUE, _("round %(n)s closes at %(time)s (deadline + grace)") % {
            "n": rnd.number, "time": timezone.localtime(due).strftime("%H:%M:%S")})
    with transaction.atomic():
        if audit.claim(Round, rnd.pk, Round.Status.OPEN, Round.Status.CLOSED, closed_at=now):
            audit.record(actor, "round.close", rnd, after={"forced": force}, tournament=rnd.game.tournament)
    rnd.refresh_from_db()
    return rnd


def review_round(actor: audit.Actor, rnd: Round) -> Round:
    """The arbiter has looked at the verdicts."""
    with transaction.atomic():
        if not audit.claim(Round, rnd.pk, Round.Status.JUDGED, Round.Status.REVIEWED):
            rnd.refresh_from_db()
            raise ServiceError(Code.CONFLICT, _("round %(n)s is %(status)s, not judged") % {"n": rnd.number, "status": rnd.get_status_display()})
        audit.record(actor, "round.review", rnd, tournament=rnd.game.tournament)
    rnd.refresh_from_db()
    return rnd


def choose_top(actor: audit.Actor, rnd: Round, move: str) -> Round:
    """The arbiter picks any move of top score (checked: legal, in the lexicon, the top score)."""
    t = rnd.game.tournament
    wanted = " ".join(move.split())
    play = solving.checked_top(rnd, wanted)
    with transaction.atomic():
        before = {"move": rnd.chosen_move, "score": rnd.chosen_score}
        updated = Round.objects.filter(pk=rnd.pk).exclude(
            status__in=[Round.Status.PUBLISHED, Round.Status.CANCELLED]).update(
            chosen_move=play.notation(), chosen_score=play.score)
        if not updated:
            raise ServiceError(Code.CONFLICT, _("round %(n)s is already %(status)s") % {"n": rnd.number, "status": rnd.get_status_display()})
        audit.record(actor, "round.choose_top", rnd, before=before,
                     after={"move": play.notation(), "score": play.score}, tournament=t)
    rnd.refresh_from_db()
    return rnd


def publish_round(actor: audit.Actor, rnd: Round) -> Round:
    """Puts the top on the board: the arbiter's choice, else the proposed top the solver stored."""
    t = rnd.game.tournament
    rnd.refresh_from_db()
    if rnd.status not in (Round.Status.JUDGED, Round.Status.REVIEWED):
        raise ServiceError(Code.NOT_JUDGED, _("round %(n)s is %(status)s: judge it before publishing") % {"n": rnd.number, "status": rnd.get_status_display()})
    rnd = solving.ensure_solved(rnd)
    if not rnd.top_moves:
        raise ServiceError(Code.NO_MOVE, _("the rack has no legal move"))
    play = solving.checked_top(rnd, rnd.chosen_move or rnd.top_moves[0]["move"])
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=rnd.game_id)
        engine = gamestate.load(game)
        try:
            record = engine.play(play)
        except GameError as exc:
            raise from_engine(exc, style=labels.tournament_style(t)) from None
        if not audit.claim(Round, rnd.pk, (Round.Status.JUDGED, Round.Status.REVIEWED), Round.Status.PUBLISHED,
                           published_at=timezone.now(), chosen_move=record.move, chosen_score=record.score):
            raise ServiceError(Code.CONFLICT, _("round %(n)s changed meanwhile") % {"n": rnd.number})
        gamestate.save(game, engine)
        audit.record(actor, "round.publish", rnd, after={"move": record.move, "score": record.score,
                                                         "over": engine.over}, tournament=t)
        if engine.over:
            games.end_game(game, engine.end_reason or "")
        if settings.BACKUP_SECONDS > 0:  # a backup after every publication (tournament.backup)
            jobs.send(jobs.BACKUP_TOURNAMENT, t.pk, "publication",
                      eta=timezone.now() + timedelta(seconds=BACKUP_AFTER_PUBLICATION_SECONDS))
    rnd.refresh_from_db()
    return rnd


def redraw_no_move(actor: audit.Actor, rnd: Round) -> Round | None:
    """The solver found no legal move for the round's rack (RULES §4): the rack goes back into the bag
    (logged), the round is cancelled, and a new rack is drawn. When no other rack can be drawn the game
    ends instead. Returns the new round, or None when the game ended."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=rnd.game_id)
        rnd.refresh_from_db()
        if rnd.solver_status != Round.SolverStatus.NO_MOVE:
            raise ServiceError(Code.HAS_MOVES, _("round %(n)s: the solver has not reported «no legal move» "
                                                 "(solver: %(status)s)") % {
                "n": rnd.number, "status": rnd.get_solver_status_display()})
        if rnd.status not in (Round.Status.DRAWN, Round.Status.OPEN, Round.Status.CLOSED, Round.Status.JUDGED):
            raise ServiceError(Code.CONFLICT, _("round %(n)s is %(status)s") % {"n": rnd.number, "status": rnd.get_status_display()})
        engine = gamestate.load(game)
        try:
            ended = engine.no_move()
        except GameError as exc:
            raise from_engine(exc, style=labels.tournament_style(game.tournament)) from None
        Round.objects.filter(pk=rnd.pk).update(status=Round.Status.CANCELLED)
        gamestate.save(game, engine)
        audit.record(actor, "round.no_move", rnd, before={"rack": rnd.rack, "status": rnd.status},
                     after={"returned_to_bag": not ended, "game_over": engine.over,
                            "log": [e.to_json() for e in engine.log[-1:]]},
                     tournament=game.tournament)
        if engine.over:
            games.end_game(game, engine.end_reason or "no_move")
            return None
    return draw_round(actor, game)


def cancel_round(actor: audit.Actor, rnd: Round, *, why: str) -> Round:
    """Cancels a round (arbiter error) and every later round of its game; the game goes back to before
    the round's draw, solos and end-of-game penalties are recomputed; slips and verdicts are kept."""
    if not why or not why.strip():
        raise ServiceError(Code.WHY_MISSING, _("a cancellation needs a reason"))
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=rnd.game_id)
        rnd.refresh_from_db()
        if rnd.status == Round.Status.CANCELLED:
            return rnd
        later = list(games.live_rounds(game).filter(number__gte=rnd.number).order_by("number"))
        before = {"rounds": [(r.number, r.status) for r in later], "game_status": game.status}
        for r in later:
            Round.objects.filter(pk=r.pk).update(status=Round.Status.CANCELLED)
            Solo.objects.filter(round=r).delete()
        gamestate.rewind(game, rnd)
        # a new seed: drawing the round again must not give the same rack (a leaked rack); the seed goes
        # into the audit and into the next round's draw log, so the game can still be replayed
        seed = random.SystemRandom().randrange(2**62)
        gamestate.reseed(game, seed)
        game.status, game.end_reason, game.end_note = Game.Status.PLAYING, "", ""
        game.save(update_fields=["state", "status", "end_reason", "end_note"])
        game.penalties.filter(kind="warnings").delete()
        audit.record(actor, "round.cancel", rnd, before=before,
                     after={"why": why.strip(), "cancelled": [r.number for r in later], "new_seed": seed},
                     tournament=game.tournament)
    rnd.refresh_from_db()
    return rnd


__all__ = ["cancel_round", "choose_top", "close_round", "current_round", "draw_round", "open_round",
           "publish_round", "redraw_no_move", "review_round", "tournament_round"]
