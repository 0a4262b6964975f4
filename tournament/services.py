"""Tournament services: every state change of the domain, in a transaction, audited.

Each function raises :class:`ServiceError` (``code`` + a clear English message)
when the action is refused. Status changes are *claims*: a conditional
``UPDATE … WHERE status = old`` so that two arbiters (or an arbiter and the
automatic close task) can't both move a round forward; the loser gets a
``ServiceError("conflict")`` or, for idempotent actions, the current state.
Celery tasks are sent with ``transaction.on_commit``.
"""

from __future__ import annotations

import base64
import hashlib
import random
import secrets
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from scoring.board import Board
from scoring.draw import DrawError
from scoring.game import DuplicateGame, GameError, offered_moves, rank_tops
from scoring.judge import SlipParts, judge_slip
from scoring.notation import NotationError, parse_word
from scoring.rules import get_ruleset

from .models import (
    AuditLog,
    Game,
    Penalty,
    Player,
    Registration,
    Round,
    Slip,
    Solo,
    Tournament,
    Verdict,
    secret_hash,
)

TOP_MOVES_KEPT = 50


class ServiceError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


# -- helpers ------------------------------------------------------------------------------


def audit(actor, action: str, obj, *, before=None, after=None, tournament=None) -> AuditLog:
    user = actor if getattr(actor, "is_authenticated", False) else None
    return AuditLog.objects.create(
        actor=user, tournament=tournament, action=action, object_type=type(obj).__name__,
        object_id=str(getattr(obj, "pk", "")), before=before, after=after,
    )


def _claim(model, pk, old: str | tuple[str, ...], new: str, **fields) -> bool:
    """``UPDATE … SET status=new WHERE pk AND status IN old``; True when this caller won."""
    olds = (old,) if isinstance(old, str) else old
    return model.objects.filter(pk=pk, status__in=olds).update(status=new, **fields) == 1


def round_tools(tournament: Tournament):
    """``(solve_fn(board, rack) -> moves, lexicon)`` of a tournament (tests replace this)."""
    from scoring.solver import solver_for

    graph = tournament.lexicon.graph()
    solver = solver_for(get_ruleset(tournament.ruleset), graph)
    return (lambda board, rack: solver.solve(board, rack).moves), graph


def _move_dict(move) -> dict:
    return {"move": move.notation(), "score": move.score, "blanks": sum(1 for p in move.placed if p.blank),
            "tiles_placed": len(move.placed)}


def access_code() -> str:
    """10 base32 characters = 50 random bits (no 0/1/8/9 confusion: RFC 4648 alphabet)."""
    return base64.b32encode(secrets.token_bytes(10)).decode()[:10]


# -- tournaments, players, games --------------------------------------------------------------


@transaction.atomic
def create_tournament(actor, *, name: str, slug: str, ruleset: str, lexicon, **options) -> Tournament:
    if lexicon.ruleset != ruleset:
        raise ServiceError("lexicon_ruleset", f"the lexicon {lexicon.label} is for the {lexicon.ruleset} rule set, not {ruleset}")
    if not lexicon.is_ready:
        raise ServiceError("lexicon_not_ready", f"the lexicon {lexicon.label} is not ready ({lexicon.status})")
    if Tournament.objects.filter(slug=slug).exists():
        raise ServiceError("slug_taken", f"a tournament with the slug {slug!r} exists")
    arbiters = options.pop("arbiters", [])
    t = Tournament.objects.create(name=name, slug=slug, ruleset=ruleset, lexicon=lexicon, **options)
    if arbiters:
        t.arbiters.set(arbiters)
    audit(actor, "tournament.create", t, after={"name": name, "ruleset": ruleset, "lexicon": lexicon.label}, tournament=t)
    return t


def register_player(actor, tournament: Tournament, *, name: str, club: str = "", category: str = "", series: str = "",
                    licence: str = "", table_number: int | None = None) -> tuple[Registration, str]:
    """Registers a player; returns the registration and the personal access code (shown once, stored hashed)."""
    with transaction.atomic():
        player = Player.objects.create(name=name, club=club, category=category, series=series, licence=licence)
        if table_number is None:
            last = tournament.registrations.order_by("-table_number").first()
            table_number = (last.table_number + 1) if last else 1
        if tournament.registrations.filter(table_number=table_number).exists():
            raise ServiceError("table_taken", f"table {table_number} is already taken in {tournament}")
        code = access_code()
        reg = Registration.objects.create(
            tournament=tournament, player=player, table_number=table_number,
            access_code_hash=secret_hash(code), access_code_hint=code[:2] + "…",
        )
        audit(actor, "player.register", reg, after={"name": name, "table": table_number}, tournament=tournament)
    return reg, code


def issue_tablet_token(registration: Registration, code: str) -> str:
    """A tablet proves the access code once and gets a token (stored hashed)."""
    if not registration.check_access_code(code):
        raise ServiceError("bad_code", "the access code is wrong")
    token = secrets.token_urlsafe(32)
    Registration.objects.filter(pk=registration.pk).update(token_hash=secret_hash(token))
    return token


def registration_for_token(token: str) -> Registration | None:
    # order by pk: the model's default ordering would join the tournament table once more and sort
    return (Registration.objects.filter(token_hash=secret_hash(token)).select_related("tournament", "player")
            .order_by("pk").first())


@transaction.atomic
def create_game(actor, tournament: Tournament, *, seed: int | None = None, prepared_racks: list[str] | None = None) -> Game:
    number = (tournament.games.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    seed = seed if seed is not None else random.SystemRandom().randrange(2**62)
    state = DuplicateGame(tournament.ruleset, seed, prepared=prepared_racks).to_json()
    game = Game.objects.create(tournament=tournament, number=number, seed=seed, prepared_racks=prepared_racks, state=state)
    audit(actor, "game.create", game, after={"number": number, "seed": seed, "prepared": bool(prepared_racks)},
          tournament=tournament)
    return game


# -- rounds -----------------------------------------------------------------------------------------


def _live_rounds(game: Game):
    return game.rounds.exclude(status=Round.Status.CANCELLED)


@transaction.atomic
def draw_round(actor, game: Game, *, typed_rack: str | None = None) -> Round | None:
    """Draws the next round's rack (seeded bag, prepared game, or the rack typed by the arbiter).

    Returns None when a typed rack was invalid (the redraw is logged, the tiles went back):
    the arbiter draws again. The solver task starts after commit.
    """
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.status != Game.Status.PLAYING:
        raise ServiceError("game_over", f"{game} is {game.status}")
    pending = _live_rounds(game).exclude(status=Round.Status.PUBLISHED).first()
    if pending is not None:
        raise ServiceError("round_pending", f"round {pending.number} is {pending.status}: publish or cancel it first")
    before = game.state
    g = DuplicateGame.from_json(before)
    log_from = len(g.log)
    try:
        outcome = g.type_rack(typed_rack) if typed_rack is not None else g.draw()
    except (DrawError, GameError) as exc:
        raise ServiceError(getattr(exc, "code", "draw_error"), str(exc)) from None
    game.state = g.to_json()
    game.save(update_fields=["state"])
    events = [e.to_json() for e in g.log[log_from:]]
    if not outcome.valid or g.rack is None:
        audit(actor, "round.rack_rejected", game, after={"typed": typed_rack, "log": events}, tournament=game.tournament)
        return None
    t = game.tournament
    rnd = Round.objects.create(
        game=game, number=g.round_no, rack="".join(g.rack), leftover="".join(g.round_leftover),
        drawn="".join(g.drawn), draw_log=events, board_before=g.board.to_fen(), state_before=before,
        grace_seconds=t.grace_seconds,
    )
    audit(actor, "round.draw", rnd, after={"rack": rnd.rack, "typed": typed_rack is not None, "log": events},
          tournament=t)
    from .solver_tasks import solve_round

    transaction.on_commit(lambda: solve_round.delay(rnd.pk))
    return rnd


def open_round(actor, rnd: Round) -> Round:
    with transaction.atomic():
        now = timezone.now()
        seconds = rnd.game.tournament.seconds_per_move
        deadline = now + timedelta(seconds=seconds)
        if not _claim(Round, rnd.pk, Round.Status.DRAWN, Round.Status.OPEN, opened_at=now, deadline=deadline):
            rnd.refresh_from_db()
            raise ServiceError("conflict", f"round {rnd.number} is {rnd.status}, not drawn")
        rnd.refresh_from_db()
        audit(actor, "round.open", rnd, after={"deadline": deadline.isoformat()}, tournament=rnd.game.tournament)
        from .solver_tasks import close_round as close_task

        due = deadline + timedelta(seconds=rnd.grace_seconds)
        transaction.on_commit(lambda: close_task.apply_async((rnd.pk,), eta=due))
    return rnd


def submit_slip(rnd: Round, registration: Registration, *, word: str, coordinates: str = "", score: int | None = None,
                idempotency_key: str | None = None, source: str = Slip.Source.TABLET, actor=None,
                received_at=None, checked: bool = False) -> Slip:
    """Stores a slip version. A retry with the same idempotency key returns the same slip.

    Until the deadline a new slip replaces the previous one (every version is kept).
    A slip after the deadline is kept, marked late, and does not replace an on-time one.
    Paper slips may be typed by the arbiter after closing, with the time they were handed in.
    ``checked``: the caller has just looked the idempotency key up and found no slip.

    The round row is share-locked (PostgreSQL ``FOR SHARE``) and the player's row locked: slips of
    many players are stored side by side, one player's versions one after another, while the close (an ``UPDATE`` of that row) waits for the slips in flight and a slip
    that comes after it sees the round closed.
    """
    key = idempotency_key or f"auto-{uuid.uuid4()}"
    if not checked:
        existing = Slip.objects.filter(idempotency_key=key).order_by("pk").first()
        if existing is not None:
            return _same_slip(existing, rnd, registration)
    tournament = registration.tournament
    if tournament.pk != rnd.game.tournament_id:
        raise ServiceError("wrong_tournament", "this player is not registered in this round's tournament")
    try:  # a word with a letter outside the tile set is refused at once (a typo to fix), never stored
        parse_word(word, get_ruleset(tournament.ruleset))
    except NotationError as exc:
        raise ServiceError("bad_letter", f"word: {exc}") from None
    try:
        with transaction.atomic():
            status, deadline = _share_lock_round(rnd.pk)
            paper = source in (Slip.Source.PAPER, Slip.Source.ARBITER)
            # after closing, tablet slips are still kept (as late); paper slips carry their hand-in time
            if status not in (Round.Status.OPEN, Round.Status.CLOSED):
                raise ServiceError("round_not_open", f"round {rnd.number} is {status}: slips are not taken")
            now = received_at if (paper and received_at) else timezone.now()
            # a tablet slip that comes after the close (even a close forced before the deadline) is late
            late = (deadline is not None and now > deadline) or (status == Round.Status.CLOSED and not paper)
            # one player's slips one at a time (versions), other players' side by side
            # (no ordering: Registration's default one joins the tournament, whose row would be locked too)
            list(Registration.objects.select_for_update(no_key=True).filter(pk=registration.pk).order_by()
                 .values_list("pk", flat=True))
            last = (Slip.objects.filter(registration=registration, round_id=rnd.pk)
                    .order_by("-version").values_list("version", flat=True).first())
            version = (last + 1) if last else 1
            current = not late
            if current and version > 1:
                Slip.objects.filter(registration=registration, round_id=rnd.pk, is_current=True).update(
                    is_current=False)
            slip = Slip.objects.create(
                registration=registration, round_id=rnd.pk, word=word.strip(), coordinates=(coordinates or "").strip(),
                announced_score=score, received_at=now, source=source, idempotency_key=key, version=version,
                is_current=current, late=late, entered_by=actor if getattr(actor, "is_authenticated", False) else None,
            )
            audit(actor, "slip.submit", slip, after={"text": slip.text, "version": version, "late": late,
                                                      "source": source}, tournament=tournament)
    except IntegrityError:
        existing = Slip.objects.filter(idempotency_key=key).order_by("pk").first()
        if existing is None:
            raise
        return _same_slip(existing, rnd, registration)
    return slip


def _share_lock_round(pk: int) -> tuple[str, object]:
    """(status, deadline) of a round, share-locked until the transaction ends."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute(f"SELECT status, deadline FROM {Round._meta.db_table} WHERE id = %s FOR SHARE", [pk])
            row = cur.fetchone()
        if row is None:
            raise Round.DoesNotExist(pk)
        return row[0], row[1]
    # SQLite has one writer at a time; other databases: an exclusive row lock
    return Round.objects.select_for_update().values_list("status", "deadline").get(pk=pk)


def _same_slip(existing: Slip, rnd: Round, registration: Registration) -> Slip:
    if existing.round_id != rnd.pk or existing.registration_id != registration.pk:
        raise ServiceError("key_reused", "this idempotency key belongs to another slip")
    return existing


def close_round(rnd: Round, actor=None, *, force: bool = False) -> Round:
    """Closes an open round at deadline + grace (``force``: the arbiter closes now). Idempotent."""
    rnd.refresh_from_db()
    if rnd.status != Round.Status.OPEN:
        if rnd.status in (Round.Status.DRAWN, Round.Status.CANCELLED):
            raise ServiceError("round_not_open", f"round {rnd.number} is {rnd.status}")
        return rnd
    now = timezone.now()
    due = rnd.deadline + timedelta(seconds=rnd.grace_seconds)
    if now < due and not force:
        raise ServiceError("not_due", f"round {rnd.number} closes at {due.isoformat()} (deadline + grace)")
    with transaction.atomic():
        if _claim(Round, rnd.pk, Round.Status.OPEN, Round.Status.CLOSED, closed_at=now):
            audit(actor, "round.close", rnd, after={"forced": force}, tournament=rnd.game.tournament)
    rnd.refresh_from_db()
    return rnd


def _solve_cached(rnd: Round, tools) -> list:
    solve_fn, _lexicon = tools
    board = Board.from_fen(get_ruleset(rnd.game.tournament.ruleset), rnd.board_before)
    return list(solve_fn(board, list(rnd.rack)))


def judge_round(rnd: Round, actor=None) -> Round:
    """Automatic verdicts for every registered table (missing slips → 0). Overridden verdicts are kept.

    Allowed on a closed round (→ judged) and again on a judged/reviewed one (re-judging).
    """
    rnd.refresh_from_db()
    if rnd.status not in (Round.Status.CLOSED, Round.Status.JUDGED, Round.Status.REVIEWED):
        raise ServiceError("round_not_closed", f"round {rnd.number} is {rnd.status}: close it before judging")
    t = rnd.game.tournament
    tools = round_tools(t)
    moves = _solve_cached(rnd, tools)
    board = Board.from_fen(get_ruleset(t.ruleset), rnd.board_before)
    lexicon = tools[1]

    def solve_fn(_board, _rack):
        return moves

    regs = list(t.registrations.all())
    # One query for the slips and one for the verdicts, whatever the number of tables.
    current: dict[int, Slip] = {}
    latest_late: dict[int, Slip] = {}
    for slip in Slip.objects.filter(round=rnd).order_by("registration_id", "-version"):
        if slip.is_current:
            current.setdefault(slip.registration_id, slip)
        elif slip.late:
            latest_late.setdefault(slip.registration_id, slip)
    existing = {v.registration_id: v for v in Verdict.objects.filter(round=rnd)}
    memo: dict[tuple, Any] = {}  # many players hand in the same move: judge it once
    fields = ["slip", "awarded", "warning", "reason", "message", "true_score", "move"]
    new, changed = [], []
    for reg in regs:
        slip = current.get(reg.pk)
        late = False
        if slip is None:
            slip = latest_late.get(reg.pk)
            late = slip is not None
        key = None if slip is None else (slip.word, slip.coordinates or None, slip.announced_score, late)
        if key not in memo:
            parts = None if slip is None else SlipParts(slip.word, slip.coordinates or None, slip.announced_score)
            memo[key] = judge_slip(board, list(rnd.rack), parts, round_number=rnd.number, lexicon=lexicon,
                                   solve_fn=solve_fn, convention=t.convention, late=late)
        v = memo[key]
        values = dict(slip=slip, awarded=v.awarded, warning=v.warning, reason=v.reason, message=v.message,
                      true_score=v.true_score, move=v.move or "")
        verdict = existing.get(reg.pk)
        if verdict is None:
            new.append(Verdict(registration=reg, round=rnd, history=[], **values))
        elif verdict.automatic:
            for k, val in values.items():
                setattr(verdict, k, val)
            changed.append(verdict)
    with transaction.atomic():
        Verdict.objects.bulk_create(new, batch_size=500)
        Verdict.objects.bulk_update(changed, fields, batch_size=500)
        _compute_solos(rnd)
        Round.objects.filter(pk=rnd.pk, status=Round.Status.CLOSED).update(
            status=Round.Status.JUDGED, judged_at=timezone.now())
        audit(actor, "round.judge", rnd, after={"verdicts": len(regs)}, tournament=t)
    rnd.refresh_from_db()
    return rnd


def _compute_solos(rnd: Round) -> None:
    t = rnd.game.tournament
    Solo.objects.filter(round=rnd).delete()
    if not t.solos_on(t.registrations.count()):
        return
    scores = list(rnd.verdicts.values_list("registration_id", "awarded"))
    if len(scores) < 2:
        return
    best = max(s for _, s in scores)
    winners = [r for r, s in scores if s == best]
    if best > 0 and len(winners) == 1:
        Solo.objects.create(round=rnd, registration_id=winners[0], points=t.solo_bonus)


def override_verdict(actor, verdict: Verdict, *, awarded: int, warning: bool, why: str, reason: str = "override") -> Verdict:
    if not why or not why.strip():
        raise ServiceError("why_missing", "an override needs a reason")
    with transaction.atomic():
        verdict = Verdict.objects.select_for_update().get(pk=verdict.pk)
        if verdict.round.status in (Round.Status.CANCELLED,):
            raise ServiceError("round_cancelled", "the round was cancelled")
        before = verdict.snapshot()
        now = timezone.now()
        verdict.history = [*verdict.history, {**before, "at": now.isoformat()}]
        verdict.awarded, verdict.warning, verdict.reason = awarded, warning, reason
        verdict.automatic = False
        verdict.overridden_by = actor if getattr(actor, "is_authenticated", False) else None
        verdict.override_reason = why.strip()
        verdict.overridden_at = now
        verdict.save()
        _compute_solos(verdict.round)
        audit(actor, "verdict.override", verdict, before=before, after={**verdict.snapshot(), "why": why.strip()},
              tournament=verdict.round.game.tournament)
    return verdict


def review_round(actor, rnd: Round) -> Round:
    with transaction.atomic():
        if not _claim(Round, rnd.pk, Round.Status.JUDGED, Round.Status.REVIEWED):
            rnd.refresh_from_db()
            raise ServiceError("conflict", f"round {rnd.number} is {rnd.status}, not judged")
        audit(actor, "round.review", rnd, tournament=rnd.game.tournament)
    rnd.refresh_from_db()
    return rnd


def choose_top(actor, rnd: Round, move: str) -> Round:
    """The arbiter picks any move of top score (checked against the legal moves)."""
    t = rnd.game.tournament
    moves = offered_moves(Board.from_fen(get_ruleset(t.ruleset), rnd.board_before), _solve_cached(rnd, round_tools(t)))
    if not moves:
        raise ServiceError("no_move", "the rack has no legal move")
    best = max(m.score for m in moves)
    wanted = " ".join(move.split())
    match = next((m for m in moves if m.notation() == wanted), None)
    if match is None:
        raise ServiceError("not_legal", f"{wanted} is not a legal move of the rack {rnd.rack}")
    if match.score != best:
        raise ServiceError("not_top", f"{wanted} scores {match.score}, the top of this round scores {best}")
    with transaction.atomic():
        before = {"move": rnd.chosen_move, "score": rnd.chosen_score}
        updated = Round.objects.filter(pk=rnd.pk).exclude(
            status__in=[Round.Status.PUBLISHED, Round.Status.CANCELLED]).update(chosen_move=wanted, chosen_score=best)
        if not updated:
            raise ServiceError("conflict", f"round {rnd.number} is already {rnd.status}")
        audit(actor, "round.choose_top", rnd, before=before, after={"move": wanted, "score": best}, tournament=t)
    rnd.refresh_from_db()
    return rnd


def publish_round(actor, rnd: Round) -> Round:
    """Applies the top to the board (the proposed one unless the arbiter chose another); the next draw is allowed."""
    t = rnd.game.tournament
    rnd.refresh_from_db()
    if rnd.status not in (Round.Status.JUDGED, Round.Status.REVIEWED):
        raise ServiceError("not_judged", f"round {rnd.number} is {rnd.status}: judge it before publishing")
    moves = _solve_cached(rnd, round_tools(t))
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=rnd.game_id)
        g = DuplicateGame.from_json(game.state)
        move = rnd.chosen_move or None
        if move is None:
            tops = rank_tops(g.ruleset, g.board, g.rack, g.bag.tiles(), moves)
            if not tops:
                raise ServiceError("no_move", "the rack has no legal move")
            move = tops[0]
        try:
            record = g.play(move, candidates=moves)
        except GameError as exc:
            raise ServiceError(exc.code, str(exc)) from None
        if not _claim(Round, rnd.pk, (Round.Status.JUDGED, Round.Status.REVIEWED), Round.Status.PUBLISHED,
                      published_at=timezone.now(), chosen_move=record.move, chosen_score=record.score):
            raise ServiceError("conflict", f"round {rnd.number} changed meanwhile")
        game.state = g.to_json()
        fields = ["state"]
        if g.over:
            game.status, game.end_reason = Game.Status.FINISHED, g.end_reason or ""
            fields += ["status", "end_reason"]
        game.save(update_fields=fields)
        audit(actor, "round.publish", rnd, after={"move": record.move, "score": record.score, "over": g.over},
              tournament=t)
        if g.over:
            apply_warning_penalties(game)
    rnd.refresh_from_db()
    return rnd


def redraw_no_move(actor, rnd: Round) -> Round | None:
    """The solver found no legal move for the round's rack (RULES §4): the rack goes back into the bag
    (logged), the round is cancelled, and a new rack is drawn. When no other rack can be drawn the game
    ends instead. Returns the new round, or None when the game ended."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=rnd.game_id)
        rnd.refresh_from_db()
        if rnd.solver_status != Round.SolverStatus.NO_MOVE:
            raise ServiceError("has_moves", f"round {rnd.number}: the solver has not reported «no legal move» "
                                            f"(solver: {rnd.solver_status})")
        if rnd.status not in (Round.Status.DRAWN, Round.Status.OPEN, Round.Status.CLOSED, Round.Status.JUDGED):
            raise ServiceError("conflict", f"round {rnd.number} is {rnd.status}")
        g = DuplicateGame.from_json(game.state)
        try:
            ended = g.no_move()
        except GameError as exc:
            raise ServiceError(exc.code, str(exc)) from None
        Round.objects.filter(pk=rnd.pk).update(status=Round.Status.CANCELLED)
        game.state = g.to_json()
        fields = ["state"]
        if g.over:
            game.status, game.end_reason = Game.Status.FINISHED, g.end_reason or "no_move"
            fields += ["status", "end_reason"]
        game.save(update_fields=fields)
        audit(actor, "round.no_move", rnd, before={"rack": rnd.rack, "status": rnd.status},
              after={"returned_to_bag": not ended, "game_over": g.over, "log": [e.to_json() for e in g.log[-1:]]},
              tournament=game.tournament)
        if g.over:
            apply_warning_penalties(game)
            return None
    return draw_round(actor, game)


def finish_game(actor, game: Game, *, why: str) -> Game:
    """The arbiter ends a game (e.g. the prepared racks are used up or time is called): no round may be
    pending; warnings become penalties as at a natural end."""
    if not why or not why.strip():
        raise ServiceError("why_missing", "ending a game needs a reason")
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.PLAYING:
            raise ServiceError("game_over", f"{game} is already {game.status}")
        pending = _live_rounds(game).exclude(status=Round.Status.PUBLISHED).first()
        if pending is not None:
            raise ServiceError("round_pending", f"round {pending.number} is {pending.status}: publish or cancel it first")
        game.status, game.end_reason = Game.Status.FINISHED, "arbiter"
        game.save(update_fields=["status", "end_reason"])
        penalties = apply_warning_penalties(game)
        audit(actor, "game.finish", game, after={"why": why.strip(), "warning_penalties": len(penalties)},
              tournament=game.tournament)
    return game


def add_penalty(actor, game: Game, registration: Registration, *, points: int, reason: str) -> Penalty:
    """An arbiter's penalty (conduct, illegible slip…), audited; it counts in the game's standings."""
    if registration.tournament_id != game.tournament_id:
        raise ServiceError("wrong_tournament", "this player is not registered in the game's tournament")
    if not isinstance(points, int) or isinstance(points, bool) or not 1 <= points <= 1000:
        raise ServiceError("bad_points", "a penalty is a whole number of points from 1 to 1000")
    if not reason or not reason.strip():
        raise ServiceError("why_missing", "a penalty needs a reason")
    with transaction.atomic():
        penalty = Penalty.objects.create(game=game, registration=registration, kind=Penalty.Kind.OTHER,
                                         points=points, reason=reason.strip(), created_by=actor)
        audit(actor, "penalty.add", penalty, after={"table": registration.table_number, "points": points,
                                                    "reason": reason.strip()}, tournament=game.tournament)
    return penalty


def apply_warning_penalties(game: Game) -> list[Penalty]:
    """End of game: from the (free + 1)-th warning each costs the penalty. Recomputed from scratch."""
    t = game.tournament
    Penalty.objects.filter(game=game, kind=Penalty.Kind.WARNINGS).delete()
    counts = Counter(
        Verdict.objects.filter(round__game=game, round__status=Round.Status.PUBLISHED, warning=True)
        .values_list("registration_id", flat=True)
    )
    out = []
    for reg_id, n in counts.items():
        extra = n - t.free_warnings
        if extra > 0:
            out.append(Penalty.objects.create(
                game=game, registration_id=reg_id, kind=Penalty.Kind.WARNINGS, points=extra * t.warning_penalty,
                reason=f"{n} warnings, {t.free_warnings} free: {extra} × {t.warning_penalty}",
            ))
    return out


def cancel_round(actor, rnd: Round, *, why: str) -> Round:
    """Cancels a round (arbiter error) and every later round of its game; the game state goes back
    to before the round's draw, solos and end-of-game penalties are recomputed; slips and verdicts are kept."""
    if not why or not why.strip():
        raise ServiceError("why_missing", "a cancellation needs a reason")
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=rnd.game_id)
        rnd.refresh_from_db()
        if rnd.status == Round.Status.CANCELLED:
            return rnd
        later = list(_live_rounds(game).filter(number__gte=rnd.number).order_by("number"))
        before = {"rounds": [(r.number, r.status) for r in later], "game_status": game.status}
        for r in later:
            Round.objects.filter(pk=r.pk).update(status=Round.Status.CANCELLED)
            Solo.objects.filter(round=r).delete()
        game.state = rnd.state_before
        game.status, game.end_reason = Game.Status.PLAYING, ""
        game.save(update_fields=["state", "status", "end_reason"])
        Penalty.objects.filter(game=game, kind=Penalty.Kind.WARNINGS).delete()
        audit(actor, "round.cancel", rnd, before=before, after={"why": why.strip(), "cancelled": [r.number for r in later]},
              tournament=game.tournament)
    rnd.refresh_from_db()
    return rnd


# -- standings ------------------------------------------------------------------------------------------


@dataclass
class Row:
    registration: Registration
    awarded: int = 0
    solos: int = 0
    penalties: int = 0
    warnings: int = 0
    top_total: int = 0
    rank: int = 0
    tie_key: tuple = ()
    per_round: list[int] = field(default_factory=list)
    per_game: list[int] = field(default_factory=list)

    @property
    def player(self) -> Player:
        return self.registration.player

    @property
    def total(self) -> int:
        return self.awarded + self.solos - self.penalties

    @property
    def deficit(self) -> int:
        return self.total - self.top_total

    @property
    def percentage(self) -> float:
        return round(100.0 * self.total / self.top_total, 2) if self.top_total else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"table": self.registration.table_number, "name": self.player.name, "total": self.total,
                "awarded": self.awarded, "solos": self.solos, "penalties": self.penalties,
                "top_total": self.top_total, "deficit": self.deficit, "percentage": self.percentage, "rank": self.rank}


def _game_rows(game: Game, regs: list[Registration]) -> dict[int, Row]:
    rounds = list(game.rounds.filter(status=Round.Status.PUBLISHED).order_by("number"))
    top_total = sum(r.chosen_score or 0 for r in rounds)
    index = {r.pk: i for i, r in enumerate(rounds)}
    rows = {reg.pk: Row(reg, top_total=top_total, per_round=[0] * len(rounds)) for reg in regs}
    for v in Verdict.objects.filter(round__in=rounds).values("registration_id", "round_id", "awarded", "warning"):
        row = rows.get(v["registration_id"])
        if row:
            row.awarded += v["awarded"]
            row.warnings += int(v["warning"])
            row.per_round[index[v["round_id"]]] += v["awarded"]
    for s in Solo.objects.filter(round__in=rounds).values("registration_id", "points"):
        if s["registration_id"] in rows:
            rows[s["registration_id"]].solos += s["points"]
    for p in Penalty.objects.filter(game=game).values("registration_id", "points"):
        if p["registration_id"] in rows:
            rows[p["registration_id"]].penalties += p["points"]
    return rows


def _rank(rows: list[Row], tie_break: bool) -> list[Row]:
    for row in rows:
        row.tie_key = (row.total, *row.tie_key) if tie_break else (row.total,)
    rows.sort(key=lambda r: (tuple(-k for k in r.tie_key), r.registration.table_number))
    # sorted best first: a row's rank is 1 + the number of rows strictly better = the position of the
    # first row with the same key (ties share it, the next rank skips: 1, 2, 2, 4)
    for i, row in enumerate(rows):
        row.rank = rows[i - 1].rank if i and row.tie_key == rows[i - 1].tie_key else i + 1
    return rows


def game_standings(game: Game) -> list[Row]:
    t = game.tournament
    regs = list(t.registrations.select_related("player"))
    rows = list(_game_rows(game, regs).values())
    for row in rows:
        row.tie_key = tuple(reversed(row.per_round))  # last move first, backwards
    return _rank(rows, t.tie_break == Tournament.TieBreak.BACKWARDS)


def tournament_standings(tournament: Tournament, *, group_by: str | None = None):
    """Standings over every game; ``group_by`` = "series" / "category" / "club" → {group: ranked rows}."""
    regs = list(tournament.registrations.select_related("player"))
    totals = {reg.pk: Row(reg) for reg in regs}
    last_rounds: dict[int, list[int]] = {}
    for game in tournament.games.exclude(status=Game.Status.CANCELLED).order_by("number"):
        for reg_id, row in _game_rows(game, regs).items():
            acc = totals[reg_id]
            acc.awarded += row.awarded
            acc.solos += row.solos
            acc.penalties += row.penalties
            acc.warnings += row.warnings
            acc.top_total += row.top_total
            acc.per_game.append(row.total)
            last_rounds[reg_id] = row.per_round
    for reg_id, row in totals.items():
        row.tie_key = (*reversed(row.per_game), *reversed(last_rounds.get(reg_id, [])))
    tie = tournament.tie_break == Tournament.TieBreak.BACKWARDS
    if group_by is None:
        return _rank(list(totals.values()), tie)
    if group_by not in ("series", "category", "club"):
        raise ServiceError("bad_group", f"standings by {group_by!r}: series, category or club")
    groups: dict[str, list[Row]] = defaultdict(list)
    for row in totals.values():
        groups[getattr(row.player, group_by) or ""].append(row)
    return {name: _rank(rows, tie) for name, rows in sorted(groups.items())}


def state_hash(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


__all__ = [
    "ServiceError", "cancel_round", "choose_top", "close_round", "create_game", "create_tournament", "draw_round",
    "game_standings", "issue_tablet_token", "judge_round", "open_round", "override_verdict", "publish_round",
    "register_player", "review_round", "submit_slip", "tournament_standings",
]
