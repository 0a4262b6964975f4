"""Training: a finished game played again by one player, self-paced, with the clock and the judge.

A :class:`~tournament.models.TrainingGame` holds the rounds of a finished game (rack, board before, top):
taken once from a tournament game's published rounds (:func:`from_tournament_game`), or from an imported
record (:func:`import_record`: the engine's JSON record or a duplicate GCG). A
:class:`~tournament.models.TrainingRun` is one player's replay: each round starts when he asks for it
(:func:`next_round`), the game's time per move runs from then, his slip is judged by the engine's judge
(:func:`scoring.judge.judge_slip`, as a tournament judges it) on the board of that round; a slip after the
clock (and a few seconds' grace for the network) counts as missing. Results use :mod:`scoring.sheet`.

Nothing here writes a tournament's rows: a tournament game is only read (its published rounds, and its
players' lines for the comparison at the end).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NotRequired, TypedDict

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from lexicon.models import Lexicon
from scoring import sheet
from scoring.board import Board
from scoring.coords import Convention
from scoring.game import DuplicateGame
from scoring.judge import SlipParts, judge_slip
from scoring.messages import Message
from scoring.records import ReplayError, replay_json
from scoring.rules import RuleSet
from scoring.solver import solver_for
from scoring.tops import offered_moves, ranked_moves
from scoring.training import TrainingRound, board_after, read_gcg, training_rounds
from scoring.variants import variant_ruleset

from .. import gamestate, labels, safejson
from ..models import Game, Registration, Round, TrainingClub, TrainingGame, TrainingRun
from ..services import solving, standings

#: Seconds a slip may reach the server after the clock (the network), as a tournament's grace.
GRACE_SECONDS = 5
#: Moves listed after each round (the best moves list).
BEST_MOVES = 10
#: The largest record accepted (bytes): a game of 30 rounds is a few kilobytes.
MAX_RECORD_BYTES = 200_000
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


class TrainingError(ValueError):
    """A refusal, its message translated where it is raised; nothing was changed."""


class RoundResult(TypedDict):
    """One round of a run as judged (kept on the run)."""

    round: int
    word: str
    coordinates: str
    announced: int | None
    late: bool
    awarded: int
    warning: bool
    reason: str
    explanation: dict[str, Any] | None
    message: str
    move: str
    top: str
    top_score: int
    replaced: NotRequired[str]  # the Joker variant: the blank the top played is now this letter's tile ("? → S")
    best: list[dict[str, Any]]


# -- the games offered ----------------------------------------------------------------------------------


def finished_games() -> list[Game]:
    """Every finished game of this server's tournaments (their tops were published in the hall: nothing is
    secret in them), newest tournament first."""
    return list(
        Game.objects.filter(status=Game.Status.FINISHED)
        .select_related("tournament")
        .order_by("-tournament__created_at", "tournament_id", "number")
    )


def imported_games() -> list[TrainingGame]:
    return list(TrainingGame.objects.filter(source_game__isnull=True))


def from_tournament_game(game: Game) -> TrainingGame:
    """The training game of a finished tournament game (made once, from its published rounds)."""
    if game.status != Game.Status.FINISHED:
        raise TrainingError(_("Only a finished game can be played in training."))
    existing = TrainingGame.objects.filter(source_game=game).first()
    if existing is not None:
        return existing
    replaced = gamestate.replaced_blanks(game)
    rounds: list[TrainingRound] = []
    for r in game.rounds.filter(status=Round.Status.PUBLISHED).order_by("number"):
        row: TrainingRound = {
            "round": r.number,
            "rack": r.rack,
            "board_before": r.board_before,
            "top": r.chosen_move,
            "score": r.chosen_score or 0,
        }
        if replaced.get(r.number):
            row["replaced"] = replaced[r.number]
        rounds.append(row)
    if not rounds:
        raise TrainingError(_("This game has no published round."))
    t = game.tournament
    title = _("%(tournament)s, game %(n)s") % {"tournament": t.name, "n": game.number}
    with transaction.atomic():
        made, _created = TrainingGame.objects.get_or_create(
            source_game=game,
            defaults=dict(
                title=title,
                ruleset=t.ruleset,
                variant=game.variant,
                lexicon=t.lexicon,
                # the game's own time (a fast game), else the tournament's
                seconds_per_move=game.time_per_move,
                convention=t.convention,
                coordinate_script=t.coordinate_script,
                language=t.language,
                rounds=rounds,
            ),
        )
    return made


def read_record(text: str, lexicon: Lexicon, style: labels.CoordStyle | None = None) -> DuplicateGame:
    """The game of a record (JSON or duplicate GCG), replayed and checked; TrainingError otherwise, its reason
    in the active language (moves and squares in ``style``)."""
    stripped = text.lstrip("\ufeff").strip()
    if not stripped:
        raise TrainingError(_("The file is empty."))
    try:
        if stripped.startswith("{"):
            try:
                data = safejson.loads(stripped)
            except safejson.JsonRefused as exc:  # not JSON, or JSON over a limit (the limit said)
                if exc.syntax:
                    raise TrainingError(_("The file is not a JSON record: it cannot be read as JSON.")) from None
                raise TrainingError(str(exc)) from None
            if isinstance(data, dict) and data.get("end_reason") is None:
                data["end_reason"] = "no_move"  # a record of a game stopped early: replay what was played
            game = replay_json(data)
        elif stripped.startswith(("#", ">")):
            game = read_gcg(stripped, ruleset=lexicon.ruleset)
        else:
            raise TrainingError(_("The file is neither a JSON record nor a GCG record."))
    except ReplayError as exc:
        raise TrainingError(_refusal(exc, style or labels.CoordStyle())) from None
    if game.ruleset.id != lexicon.ruleset:
        raise TrainingError(
            _("The record is a game of the rule set %(game)s, the lexicon %(lexicon)s is for %(rules)s.")
            % {"game": game.ruleset.id, "lexicon": lexicon.name, "rules": lexicon.ruleset}
        )
    if not game.rounds:
        raise TrainingError(_("The record has no round."))
    return game


def _refusal(exc: ReplayError, style: labels.CoordStyle) -> str:
    """Why a record is refused, wholly in the active language: the engine's message (or the draw's or the game's
    refusal it passes on) written by :mod:`tournament.labels`, never its English text."""
    if exc.code == "two_players":
        return _(
            "This GCG record is a game of two players: training needs a duplicate game's record "
            "(one player, the top of each round with its rack)."
        )
    detail = _detail(exc, style)
    if exc.round is not None:
        if detail is None:
            return _("Round %(round)s of the record does not replay.") % {"round": exc.round}
        return _("Round %(round)s of the record does not replay: %(detail)s") % {"round": exc.round, "detail": detail}
    if detail is None:
        return _("The record cannot be read.")
    return _("The record cannot be read: %(detail)s") % {"detail": detail}


def _detail(exc: ReplayError, style: labels.CoordStyle) -> str | None:
    cause = exc.cause
    if cause is not None:
        params = getattr(cause, "params", None)
        shown = labels.engine_refusal(str(getattr(cause, "code", "")), params if isinstance(params, dict) else {},
                                      style)
        if shown is not None:
            return shown
    if isinstance(exc.message, Message):
        return labels.explain(exc.message, style)
    return None


def import_record(
    *, text: str, lexicon: Lexicon, seconds_per_move: int, title: str, language: str
) -> TrainingGame:
    """A training game from an uploaded record (nothing is created when it does not replay)."""
    if len(text.encode()) > MAX_RECORD_BYTES:
        raise TrainingError(_("The file is too large for a game record."))
    if lexicon.status != Lexicon.Status.READY:
        raise TrainingError(_("The lexicon %(name)s is not ready.") % {"name": lexicon.name})
    script = labels.default_script(lexicon.ruleset, language)
    game = read_record(text, lexicon, labels.script_style(Convention.DUPLICATE, script))
    return TrainingGame.objects.create(
        title=title.strip() or _("Imported game, rounds: %(rounds)s") % {"rounds": len(game.rounds)},
        ruleset=game.ruleset.id,
        variant=game.variant.id,
        lexicon=lexicon,
        seconds_per_move=seconds_per_move,
        coordinate_script=script,
        language=language,
        rounds=training_rounds(game),
    )


# -- a run ----------------------------------------------------------------------------------------------


def new_code(model: type[TrainingRun] | type[TrainingClub]) -> str:
    """A free code of 8 characters (no 0/O, 1/I: read aloud in a club, typed on a tablet)."""
    for _attempt in range(5):
        code = "".join(secrets.choice(CODE_ALPHABET) for _i in range(8))
        if not model.objects.filter(code=code).exists():
            return code
    raise TrainingError(_("No free code: try again."))  # pragma: no cover (32^8 codes)


def start_run(game: TrainingGame, name: str, club: TrainingClub | None = None) -> TrainingRun:
    name = name.strip()
    if not name:
        raise TrainingError(_("Write your name."))
    return TrainingRun.objects.create(game=game, club=club, name=name[:100], code=new_code(TrainingRun))


def run_for_code(code: str) -> TrainingRun | None:
    code = code.strip().upper()
    return TrainingRun.objects.select_related("game").filter(code=code).first() if code else None


def rounds_count(run: TrainingRun) -> int:
    return len(run.game.rounds)


def is_finished(run: TrainingRun) -> bool:
    return len(run.results) >= rounds_count(run)


def is_playing(run: TrainingRun) -> bool:
    """A round is started and not judged yet."""
    return run.started_at is not None


def current_round(run: TrainingRun) -> TrainingRound | None:
    return run.game.rounds[run.round - 1] if 0 < run.round <= rounds_count(run) else None


def deadline(run: TrainingRun) -> datetime | None:
    if run.started_at is None:
        return None
    return run.started_at + timedelta(seconds=run.game.seconds_per_move)


def next_round(run: TrainingRun, now: datetime | None = None) -> TrainingRun:
    """Starts the next round: its clock runs from now."""
    now = now or timezone.now()
    with transaction.atomic():
        run = TrainingRun.objects.select_for_update().select_related("game").get(pk=run.pk)
        if run.club_id is not None:
            raise TrainingError(_("In a club session the leader starts each round."))
        if is_playing(run):
            raise TrainingError(_("Round %(n)s is being played: hand in the slip first.") % {"n": run.round})
        if is_finished(run):
            raise TrainingError(_("The game is over."))
        run.round = len(run.results) + 1
        run.started_at = now
        run.save(update_fields=["round", "started_at"])
    return run


def tools_for(game: TrainingGame) -> solving.Tools:
    """``(solve_fn, lexicon)``: a tournament game's as its tournament judged it, else the game's lexicon."""
    source = game.source_game
    if source is not None:
        return solving.round_tools(source.tournament)
    return lexicon_tools(game)


def lexicon_tools(game: TrainingGame) -> solving.Tools:
    graph = game.lexicon.graph()
    # the board carries the game's rule set (a 7-among-8 game's racks of 8): its solver
    return (lambda board, rack: solver_for(board.ruleset, graph).solve(board, rack).moves), graph


def ruleset_of(game: TrainingGame) -> RuleSet:
    """The rule set the game was played by: its variant's (7-among-8: racks of 8, moves of at most 7)."""
    return variant_ruleset(game.ruleset, game.variant)


def hand_in(
    run: TrainingRun, slip: SlipParts | None, now: datetime | None = None, *, round_number: int | None = None
) -> RoundResult:
    """Judges the slip of the round being played (None: no slip, the clock ran out) and ends the round.
    A slip after the clock and its grace counts as missing; ``round_number``: the round the slip was written
    for (a slip for a round already over is refused, never judged on the next round's rack)."""
    now = now or timezone.now()
    with transaction.atomic():
        run = TrainingRun.objects.select_for_update().select_related("game").get(pk=run.pk)
        rnd = current_round(run)
        if not is_playing(run) or rnd is None:
            raise TrainingError(_("No round is being played: start the next round."))
        if round_number is not None and round_number != run.round:
            raise TrainingError(_("The round changed: the slip was for an earlier round."))
        end = deadline(run)
        late = end is not None and now > end + timedelta(seconds=GRACE_SECONDS)
        result = judge(run.game, rnd, slip, late=late)
        run.results = [*run.results, result]
        run.started_at = None
        run.save(update_fields=["results", "started_at"])
    return result


def judge(
    game: TrainingGame, rnd: TrainingRound, slip: SlipParts | None, *, late: bool = False
) -> RoundResult:
    """The verdict on a slip for a round of the game: the tournament's judge on the round's board."""
    solve_fn, lexicon = tools_for(game)
    board = Board.from_fen(ruleset_of(game), rnd["board_before"] or None)
    rack = list(rnd["rack"])
    moves = offered_moves(board, solve_fn(board, rack))
    verdict = judge_slip(
        board,
        rack,
        slip,
        round_number=rnd["round"],
        lexicon=lexicon,
        solve_fn=lambda _board, _rack: moves,
        convention=game.convention,
        late=late,
    )
    best = [
        {"move": m.notation(), "score": m.score} for m in ranked_moves(board, rack, moves, limit=BEST_MOVES)
    ]
    announced = slip.score if slip is not None and isinstance(slip.score, int) else None
    result: RoundResult = {
        "round": rnd["round"],
        "word": (slip.word or "") if slip else "",
        "coordinates": (slip.coord or "") if slip else "",
        "announced": announced,
        "late": late,
        "awarded": verdict.awarded,
        "warning": verdict.warning,
        "reason": verdict.reason,
        "explanation": verdict.explanation.to_json(),
        "message": verdict.message,
        "move": verdict.move or "",
        "top": rnd["top"],
        "top_score": rnd["score"],
        "best": best[:BEST_MOVES],
    }
    if rnd.get("replaced"):
        result["replaced"] = rnd["replaced"]
    return result


def set_show_moves(run: TrainingRun, show: bool) -> None:
    TrainingRun.objects.filter(pk=run.pk).update(show_moves=show)


# -- results --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Score:
    """Where a run stands: its total, the tops' total of the rounds played, the deficit and percentage."""

    rounds: int
    total: int
    top_total: int
    warnings: int

    @property
    def deficit(self) -> int:
        return self.total - self.top_total

    @property
    def percentage(self) -> float:
        return sheet.percentage(self.total, self.top_total)


def score(run: TrainingRun) -> Score:
    results: list[RoundResult] = run.results
    return Score(
        len(results),
        sum(r["awarded"] for r in results),
        sum(r["top_score"] for r in results),
        sum(1 for r in results if r["warning"]),
    )


@dataclass(frozen=True)
class Comparison:
    """A finished run against the players who played the game live: his would-be rank among them."""

    players: int
    rank: int
    best_total: int
    percentage_of_best: float


def live_totals(game: TrainingGame) -> list[int]:
    """The totals of the game's players in its tournament (solos and penalties counted), best first."""
    source = game.source_game
    if source is None:
        return []
    regs = list(Registration.objects.filter(tournament=source.tournament_id))
    return sorted((line.total for line in standings.game_lines(source, regs)), reverse=True)


def compare(total: int, totals: list[int]) -> Comparison | None:
    """His would-be rank among ``totals`` (equal totals share a rank, as the standings rank them)."""
    if not totals:
        return None
    best = max(totals)
    return Comparison(
        len(totals), 1 + sum(1 for t in totals if t > total), best, sheet.percentage(total, best)
    )


def comparison(run: TrainingRun) -> Comparison | None:
    return compare(score(run).total, live_totals(run.game))


def board_before_next(run: TrainingRun) -> str:
    """The board the player sees now: before the round being played, else after the last round judged."""
    rounds = run.game.rounds
    if is_playing(run):
        return str(rounds[run.round - 1]["board_before"])
    done = len(run.results)
    if done < len(rounds):
        return str(rounds[done]["board_before"])
    last = rounds[-1]
    board = Board.from_fen(ruleset_of(run.game), last["board_before"] or None)
    return board_after(board, last["top"], last.get("replaced", "")).to_fen()


def signature(run: TrainingRun) -> str:
    """What a waiting page compares to know that its run moved on (a club's leader started a round)."""
    return f"{run.round}:{int(is_playing(run))}:{len(run.results)}"
