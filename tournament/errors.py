"""The one catalogue of refusals: every code a service (or the engine behind it) can refuse with.

A service raises :class:`ServiceError` with a code of this catalogue and a message that names the
objects involved. Each code has, here and nowhere else:

* the HTTP status the API answers with (400: the request itself is wrong; 409: the state of the
  round, game or tournament does not allow it now; 403/404 where the code says so);
* a translated explanation the console shows before the message (the API sends it as ``hint``).

Engine errors (:class:`scoring.draw.DrawError`, :class:`scoring.game.GameError`) keep their own
code when a service passes them on: they are in the catalogue too.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from . import labels

BAD_REQUEST = 400
FORBIDDEN = 403
NOT_FOUND = 404
CONFLICT = 409
TOO_MANY = 429


class Code(StrEnum):
    # the request
    BAD_CODE = "bad_code"
    CODE_REPLACED = "code_replaced"
    BAD_GROUP = "bad_group"
    BAD_LETTER = "bad_letter"
    BAD_POINTS = "bad_points"
    BAD_TIME_PER_MOVE = "bad_time_per_move"
    WHY_MISSING = "why_missing"
    NOT_LEGAL = "not_legal"
    NOT_TOP = "not_top"
    LEXICON_RULESET = "lexicon_ruleset"
    LEXICON_NOT_READY = "lexicon_not_ready"
    UNKNOWN_TABLE = "unknown_table"
    NO_SUCH_TABLE = "no_such_table"
    NOT_ASSISTED = "not_assisted"
    HAS_MOVES = "has_moves"
    DUPLICATE_NAME = "duplicate_name"
    UNKNOWN_ACTION = "unknown_action"
    TOO_MANY_ATTEMPTS = "too_many_attempts"
    TOO_MANY_TILES = "too_many_tiles"
    # the state
    CONFLICT = "conflict"
    ROUND_PENDING = "round_pending"
    ROUND_NOT_OPEN = "round_not_open"
    ROUND_NOT_CLOSED = "round_not_closed"
    ROUND_CANCELLED = "round_cancelled"
    ROUND_CHANGED = "round_changed"
    NO_OPEN_ROUND = "no_open_round"
    NOT_JUDGED = "not_judged"
    NOT_DUE = "not_due"
    GAME_OVER = "game_over"
    KEY_REUSED = "key_reused"
    SLUG_TAKEN = "slug_taken"
    TABLE_TAKEN = "table_taken"
    WRONG_TOURNAMENT = "wrong_tournament"
    NO_MOVE = "no_move"
    TIME_OVER = "time_over"
    RACK_REJECTED = "rack_rejected"
    IDEMPOTENCY_CONFLICT = "idempotency_conflict"
    # a simultaneous game (one game, many halls)
    SIMUL_BAD_FILE = "simul_bad_file"
    SIMUL_SIGNATURE = "simul_signature"
    SIMUL_CHANGED = "simul_changed"
    SIMUL_TOTALS = "simul_totals"
    SIMUL_REFUSED = "simul_refused"
    SIMUL_OTHER_GAME = "simul_other_game"
    SIMUL_LEXICON = "simul_lexicon"
    SIMUL_RACKS = "simul_racks"
    SIMUL_UNKNOWN_HALL = "simul_unknown_hall"
    SIMUL_IMPORTED = "simul_imported"
    SIMUL_HALL_TAKEN = "simul_hall_taken"
    SIMUL_RULESET = "simul_ruleset"
    SIMUL_HALL_TOKEN = "simul_hall_token"
    # the topping variant
    TOP_UNKNOWN = "top_unknown"
    ALREADY_TOPPED = "already_topped"
    TOPPING_PAPER = "topping_paper"
    BAD_TIME = "bad_time"
    # the engine's codes passed on by the services
    WRONG_PHASE = "wrong_phase"
    BAD_STATE = "bad_state"
    FIRST_MOVE_VERTICAL = "first_move_vertical"
    NOT_ON_RACK = "not_on_rack"
    OCCUPIED = "occupied"
    PREPARED_EXHAUSTED = "prepared_exhausted"
    PREPARED_REDRAW = "prepared_redraw"
    BAD_RACK = "bad_rack"
    BAD_TILE = "bad_tile"
    BAD_SEED = "bad_seed"
    INVALID_RACK = "invalid_rack"
    NO_VALID_RACK = "no_valid_rack"
    NOT_IN_BAG = "not_in_bag"
    DRAW_ERROR = "draw_error"


@dataclass(frozen=True)
class Entry:
    status: int
    text: Promise


CATALOGUE: dict[Code, Entry] = {
    Code.BAD_CODE: Entry(BAD_REQUEST, _("The access code is wrong.")),
    Code.CODE_REPLACED: Entry(BAD_REQUEST, _("This card was replaced by a new one.")),
    Code.BAD_GROUP: Entry(BAD_REQUEST, _("Standings exist by series, category or club.")),
    Code.BAD_LETTER: Entry(BAD_REQUEST, _("A letter is not in the tile set.")),
    Code.BAD_POINTS: Entry(BAD_REQUEST, _("A penalty is a whole number of points from 1 to 1000.")),
    Code.BAD_TIME_PER_MOVE: Entry(BAD_REQUEST, _("A move has 3:00, 2:30, 2:00 or 1:00.")),
    Code.WHY_MISSING: Entry(BAD_REQUEST, _("Give a reason.")),
    Code.NOT_LEGAL: Entry(BAD_REQUEST, _("This move is not legal with this rack.")),
    Code.NOT_TOP: Entry(BAD_REQUEST, _("This move does not have the top score.")),
    Code.LEXICON_RULESET: Entry(BAD_REQUEST, _("The lexicon does not match the rule set.")),
    Code.LEXICON_NOT_READY: Entry(BAD_REQUEST, _("The lexicon is not ready.")),
    Code.UNKNOWN_TABLE: Entry(BAD_REQUEST, _("No player is registered at this table.")),
    Code.NO_SUCH_TABLE: Entry(NOT_FOUND, _("No player is registered at this table.")),
    Code.NOT_ASSISTED: Entry(FORBIDDEN, _("The tournament is not in assisted mode.")),
    Code.HAS_MOVES: Entry(BAD_REQUEST, _("The solver has not reported that the rack has no legal move.")),
    Code.DUPLICATE_NAME: Entry(CONFLICT, _("A player of this name is already registered.")),
    Code.UNKNOWN_ACTION: Entry(BAD_REQUEST, _("Unknown action.")),
    Code.TOO_MANY_ATTEMPTS: Entry(TOO_MANY, _("Too many wrong codes from this tablet: wait a few minutes and try again.")),
    Code.TOO_MANY_TILES: Entry(BAD_REQUEST, _("The slip places more tiles than a move may: it is not taken.")),
    Code.CONFLICT: Entry(CONFLICT, _("Someone else changed this round meanwhile; the page shows its state now.")),
    Code.ROUND_PENDING: Entry(CONFLICT, _("Publish or cancel the current round first.")),
    Code.ROUND_NOT_OPEN: Entry(CONFLICT, _("The round does not take slips now.")),
    Code.ROUND_NOT_CLOSED: Entry(CONFLICT, _("Close the round before judging it.")),
    Code.ROUND_CANCELLED: Entry(CONFLICT, _("The round was cancelled.")),
    Code.ROUND_CHANGED: Entry(CONFLICT, _("The round changed: the slip was for an earlier round.")),
    Code.NO_OPEN_ROUND: Entry(CONFLICT, _("No round is open.")),
    Code.NOT_JUDGED: Entry(CONFLICT, _("Judge the round before publishing it.")),
    Code.NOT_DUE: Entry(CONFLICT, _("The time for this round is not over yet.")),
    Code.GAME_OVER: Entry(CONFLICT, _("The game is over.")),
    Code.KEY_REUSED: Entry(CONFLICT, _("This slip key belongs to another slip.")),
    Code.SLUG_TAKEN: Entry(CONFLICT, _("This short name is taken.")),
    Code.TABLE_TAKEN: Entry(CONFLICT, _("This table is taken.")),
    Code.WRONG_TOURNAMENT: Entry(CONFLICT, _("This player is not registered in this tournament.")),
    Code.NO_MOVE: Entry(CONFLICT, _("The rack has no legal move.")),
    Code.TIME_OVER: Entry(CONFLICT, _("Time is over: the slip was stored as late and counts as missing.")),
    Code.RACK_REJECTED: Entry(CONFLICT, _("The rack typed is not valid: all its tiles went back into the bag.")),
    Code.IDEMPOTENCY_CONFLICT: Entry(CONFLICT, _("This slip key was already used for another slip.")),
    Code.TOP_UNKNOWN: Entry(CONFLICT, _("A topping round opens once the solver has found its top.")),
    Code.ALREADY_TOPPED: Entry(CONFLICT, _("You found the top of this round: no more attempts are taken.")),
    Code.TOPPING_PAPER: Entry(CONFLICT, _("In a topping game a paper slip is recorded as a time: table, time and move.")),
    Code.BAD_TIME: Entry(BAD_REQUEST, _("A time is minutes and seconds (0:42), within the round's time limit.")),
    Code.WRONG_PHASE: Entry(CONFLICT, _("The game is not at this step.")),
    Code.BAD_STATE: Entry(CONFLICT, _("The saved game cannot be read.")),
    Code.FIRST_MOVE_VERTICAL: Entry(BAD_REQUEST, _("The first move is placed horizontally.")),
    Code.NOT_ON_RACK: Entry(BAD_REQUEST, _("A letter is not on the rack.")),
    Code.OCCUPIED: Entry(BAD_REQUEST, _("This square already holds a tile.")),
    Code.PREPARED_EXHAUSTED: Entry(CONFLICT, _("The prepared game has no rack for this round.")),
    Code.PREPARED_REDRAW: Entry(CONFLICT, _("A prepared game cannot redraw.")),
    Code.BAD_RACK: Entry(BAD_REQUEST, _("The rack cannot be read.")),
    Code.BAD_TILE: Entry(BAD_REQUEST, _("A tile is not in the tile set.")),
    Code.BAD_SEED: Entry(BAD_REQUEST, _("The seed is not usable.")),
    Code.INVALID_RACK: Entry(BAD_REQUEST, _("The rack is not valid for this round.")),
    Code.NO_VALID_RACK: Entry(CONFLICT, _("No valid rack can be drawn from the tiles left.")),
    Code.NOT_IN_BAG: Entry(BAD_REQUEST, _("These tiles are not in the bag.")),
    Code.DRAW_ERROR: Entry(BAD_REQUEST, _("The rack cannot be drawn.")),
    Code.SIMUL_BAD_FILE: Entry(BAD_REQUEST, _("This is not a file of a simultaneous game.")),
    Code.SIMUL_SIGNATURE: Entry(BAD_REQUEST, _("The results file is not signed with the hall's key: it was changed "
                                              "after its export, or it comes from another hall.")),
    Code.SIMUL_CHANGED: Entry(BAD_REQUEST, _("The results file was changed after it was signed.")),
    Code.SIMUL_TOTALS: Entry(BAD_REQUEST, _("The hall's results do not add up.")),
    Code.SIMUL_REFUSED: Entry(CONFLICT, _("The organiser's server refused the request.")),
    Code.SIMUL_OTHER_GAME: Entry(BAD_REQUEST, _("The file belongs to another simultaneous game.")),
    Code.SIMUL_LEXICON: Entry(CONFLICT, _("The file was played with another lexicon version.")),
    Code.SIMUL_RACKS: Entry(BAD_REQUEST, _("The racks or tops of the file are not those of the game.")),
    Code.SIMUL_UNKNOWN_HALL: Entry(NOT_FOUND, _("No such hall in this simultaneous game.")),
    Code.SIMUL_IMPORTED: Entry(CONFLICT, _("This game package is already imported here.")),
    Code.SIMUL_HALL_TAKEN: Entry(CONFLICT, _("A hall with this code takes part already.")),
    Code.SIMUL_RULESET: Entry(CONFLICT, _("The tournament is played by another rule set than the game.")),
    Code.SIMUL_HALL_TOKEN: Entry(FORBIDDEN, _("The hall's token is not right.")),
}


class ServiceError(Exception):
    """A refused action: ``code`` (a :class:`Code`), ``message`` naming what was refused, and extra data
    the API may send (``extra``)."""

    def __init__(self, code: Code | str, message: str, **extra: object):
        super().__init__(message)
        self.code = str(code)
        self.message = message
        self.extra = extra

    @property
    def entry(self) -> Entry | None:
        return entry_of(self.code)

    @property
    def status(self) -> int:
        entry = self.entry
        return entry.status if entry else BAD_REQUEST

    @property
    def hint(self) -> str:
        """The catalogue's translated explanation in the active language ("" for an unknown code)."""
        entry = self.entry
        return str(entry.text) if entry else ""

    def explained(self) -> str:
        """The explanation followed by the message, as the console shows it."""
        hint = self.hint
        if not hint or _plain(hint) == _plain(self.message):  # the details say no more than the explanation
            return hint or self.message
        return f"{hint} ({self.message})"


def _plain(text: str) -> str:
    return text.strip().rstrip(".").casefold()


def entry_of(code: str) -> Entry | None:
    try:
        return CATALOGUE[Code(code)]
    except ValueError:
        return None


def from_engine(exc: Exception, default: Code = Code.DRAW_ERROR, style: labels.CoordStyle | None = None) -> ServiceError:
    """A service error carrying an engine error's code (when it has one) and its text in the active language
    (:func:`labels.engine_refusal`, moves in ``style``); the engine's English text for a code without one."""
    code = getattr(exc, "code", None) or default
    params = getattr(exc, "params", None)
    text = labels.engine_refusal(str(code), params if isinstance(params, dict) else {}, style or labels.CoordStyle())
    return ServiceError(code, text if text is not None else str(exc))


#: What a request that could not store its change answers (503: nothing stored, send it again with the same key).
UNAVAILABLE = _("the server could not store this now: try again with the same slip key")


__all__ = ["CATALOGUE", "UNAVAILABLE", "Code", "Entry", "ServiceError", "entry_of", "from_engine"]
