"""Every presentation of a domain code, in the reader's language: one table each.

* verdict reasons: a short label (console, arbitration sheet, player sheet) and the player's
  explanation (tablet), :func:`reason_label` / :func:`reason_text`;
* review flags: which verdicts the arbiter should look at again (:func:`flagged`);
* coordinates: named here from their home, :mod:`tournament.coordinates` (one rule for the row letters and the
  convention of a tournament, :func:`tournament_style`; one way to show a stored move, :meth:`CoordStyle.move`);
* what the engine says (placement, notation, the judge's explanations): :func:`explain`, in the active
  language with the tournament's coordinates;
* the board for the screens: premiums, labels, tile values (:func:`board_config`);
* placement errors of the assisted mode, end-of-game reasons;
* times: the hall's time zone every time a person reads is shown in (:func:`zone_of`).

The engine speaks in codes (``scoring.judge.Reason``, placement and end codes) and writes moves in the
duplicate convention with Latin rows (``H8 WORD``); nothing else in the tournament side maps a code
to words (nor, but :mod:`tournament.coordinates`, decides how a coordinate is shown).
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable, Iterable, Mapping
from datetime import tzinfo
from typing import Protocol, TypedDict

from django.conf import settings
from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext, ngettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring.judge import PLAIN_REASONS, Reason
from scoring.messages import COUNTED, TEXTS, Message, Renderer, render
from scoring.rules import RULESET_NAMES, SIZE, get_ruleset

from .coordinates import (
    COORD_ECHO,
    CYRILLIC,
    CYRILLIC_READERS,
    LATIN,
    CoordSettings,
    CoordStyle,
    coordinate_texts,
    default_script,
    letter_parts,
    reader_style,
    script_style,
    split_coordinate,
    tournament_style,
)


def zone_of(name: str | None) -> tzinfo:
    """The time zone called ``name`` (a tournament's ``time_zone``; the server's, ``DJANGO_TIME_ZONE``, when empty
    or unknown): every time a person reads of a tournament is shown in it, whatever his device's zone."""
    try:
        return zoneinfo.ZoneInfo(name or settings.TIME_ZONE)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(settings.TIME_ZONE)


#: Verdict reason → (short label, the player's explanation). ``override``: the arbiter's decision.
REASONS: dict[str, tuple[Promise, Promise]] = {
    Reason.OK: (_("right"), _("right: the move and its score")),
    Reason.SCORE_WRONG: (_("score wrong"), _("score wrong: you get the true score, with a warning")),
    Reason.SCORE_MISSING: (_("score missing"), _("score missing: you get the true score, with a warning")),
    Reason.FIRST_ROUND: (_("round 1: best place"), _("round 1: the word's best score")),
    Reason.FIRST_ROUND_SCORE_WRONG: (_("round 1: score wrong"), _("round 1: score wrong, with a warning")),
    Reason.FIRST_ROUND_SCORE_MISSING: (_("round 1: score missing"), _("round 1: score missing, with a warning")),
    Reason.DIRECTION_REVERSED: (_("direction reversed"), _("direction reversed: your score, with a warning")),
    Reason.COORDINATES_SWAPPED: (_("row and column swapped"),
                                 _("row and column swapped: your score, with a warning")),
    Reason.PLACE_WRONG: (_("place wrong: announced − 5"), _("place wrong: announced score − 5")),
    Reason.PLACE_MISSING: (_("place missing: announced − 5"), _("place missing: announced score − 5")),
    Reason.PLACE_AND_SCORE_WRONG: (_("place and score wrong"), _("place and score wrong: 0")),
    Reason.NO_SLIP: (_("no slip"), _("no slip: 0")),
    Reason.LATE: (_("late slip"), _("late slip: 0")),
    Reason.UNREADABLE: (_("slip unreadable"), _("the slip cannot be read: 0")),
    Reason.INVALID_WORD: (_("word not in the lexicon"), _("a word is not in the lexicon: 0")),
    Reason.ILLEGAL_PLACEMENT: (_("illegal placement"), _("the move breaks a placement rule: 0")),
    Reason.NOT_ON_RACK: (_("letter not on the rack"), _("a letter is not on the rack: 0")),
    "override": (_("arbiter's decision"), _("arbiter's decision")),
}

#: Placement errors of the assisted mode (codes of :mod:`scoring.placement`).
PLACEMENT: dict[str, Promise] = {
    "not_in_line": _("The tiles must lie in one row or one column."),
    "gap": _("There is a gap between the tiles."),
    "occupied": _("This square already holds a tile."),
    "first_single_tile": _("The first move places at least 2 tiles."),
    "too_many_tiles": _("A move places at most 7 of the 8 tiles."),
    "first_off_centre": _("The first move covers the centre square."),
    "not_touching": _("The word must touch a tile on the board."),
    "not_on_rack": _("These tiles are not all on your rack."),
    "off_board": _("The word goes off the board."),
    "no_new_tile": _("Place at least one tile."),
    "too_short": _("A word has at least 2 letters."),
    "word_continues": _("Write the whole word, letters already on the board included."),
    "board_mismatch": _("The word does not match the letters on the board."),
}

#: Refusals of the engine's rack draw and game (codes of :class:`scoring.draw.DrawError` and
#: :class:`scoring.game.GameError`, with their params; ``wrong_phase`` by the game's phase). A code missing
#: here is shown by :func:`engine_refusal` from :data:`PLACEMENT`, else as the engine's English text.
ENGINE_ERRORS: dict[str, Promise] = {
    "bad_tile": _("«%(tile)s» is not a tile of this set."),
    "bad_seed": _("The seed must be a whole number."),
    "bad_rack": _("«%(typed)s» is not a rack: type letters of the tile set, ? for a blank."),
    "not_in_bag": _("«%(typed)s» cannot come from the bag: it does not hold %(missing)s."),
    "no_valid_rack": _("Round %(round)s: no valid rack can be drawn from the tiles left."),
    "leftover_missing": _("The rack «%(typed)s» must keep the leftover %(leftover)s of the previous round "
                          "(%(missing)s missing)."),
    "wrong_size": ngettext_lazy("The rack «%(typed)s» has %(size)s tile: it must have %(expected)s.",
                                "The rack «%(typed)s» has %(size)s tiles: it must have %(expected)s.", "size"),
    "invalid_rack": _("The rack «%(typed)s» is not valid in round %(round)s: vowels %(vowels)s of %(need_vowels)s, "
                      "consonants %(consonants)s of %(need_consonants)s (a blank counts as either)."),
    "joker_no_blank": _("The rack «%(typed)s» has no blank: in the Joker game every rack holds one while one is "
                        "left."),
    "joker_two_blanks": _("The rack «%(typed)s» has two blanks: in the Joker game a rack holds one."),
    "game_over": _("The game is over: %(end)s."),
    "wrong_phase.draw": _("Round %(round)s needs a rack first."),
    "wrong_phase.play": _("The rack of round %(round)s is already drawn."),
    "bad_state": _("The saved game cannot be read."),
    "prepared_exhausted": ngettext_lazy("Round %(round)s: the prepared game has only %(count)s rack (type the "
                                        "rack drawn from the bag instead).",
                                        "Round %(round)s: the prepared game has only %(count)s racks (type the "
                                        "rack drawn from the bag instead).", "count"),
    "prepared_redraw": _("Round %(round)s: the prepared rack «%(typed)s» had no legal move and a prepared game "
                         "cannot redraw (type the rack drawn from the bag instead)."),
    "first_move_vertical": _("%(move)s: the first move is placed horizontally"),
    "not_top": ngettext_lazy("%(move)s scores %(score)s point, the top of this round scores %(best)s",
                             "%(move)s scores %(score)s points, the top of this round scores %(best)s", "score"),
    "not_legal": _("%(move)s is not a legal move of the rack %(rack)s: a word is not in the lexicon (%(words)s)."),
    "no_move": _("Round %(round)s: the rack has no legal move."),
    "no_candidates": _("A move given as text needs the legal moves to check it against."),
    "not_on_rack": _("%(move)s plays tiles that are not on the rack %(rack)s."),
    "occupied": _("%(move)s: square %(square)s is taken."),
}

#: Why a game ended (codes of :mod:`scoring.tops` and the arbiter's end).
END_REASONS: dict[str, Promise] = {
    "bag_and_rack_empty": _("the bag and the rack are empty"),
    "one_tile_left": _("one tile is left"),
    "no_vowel": _("the tiles left contain no vowel"),
    "no_consonant": _("the tiles left contain no consonant"),
    "no_move": _("no legal move and no other rack can be drawn"),
    "arbiter": _("ended by the arbiter"),
}

#: Premium squares: the CSS class of each engine code (letter colours of Literaki: Y, G, B, R).
PREMIUM_CLASS = {"TW": "tw", "DW": "dw", "TL": "tl", "DL": "dl", "Y": "ly", "G": "lg", "B": "lb", "R": "lr"}
#: What an empty premium square shows on the boards (letter premiums as a plain figure, word ones ×N).
PREMIUM_TEXT = {"tw": "×3", "dw": "×2", "tl": "3", "dl": "2"}



def reason_label(reason: str) -> str:
    """The short label of a verdict reason (the code itself when unknown)."""
    entry = REASONS.get(reason)
    return str(entry[0]) if entry else reason


def reason_text(reason: str) -> str:
    """The player's explanation of a verdict reason (the code itself when unknown)."""
    entry = REASONS.get(reason)
    return str(entry[1]) if entry else reason


def reason_texts() -> dict[str, str]:
    """Every player's explanation, in the active language (for the tablet's script)."""
    return {code: str(texts[1]) for code, texts in REASONS.items()}


def placement_texts() -> dict[str, str]:
    return {code: str(text) for code, text in PLACEMENT.items()}


#: A number of each plural form a script tells apart (``D.text.plural`` in static/js/text.js): one, few, many.
PLURAL_SAMPLES = (1, 2, 5)


def plural_forms(text: Callable[[int], str]) -> dict[str, str]:
    """A counted text (``lambda n: ngettext(…, n)``) in every plural form of the active language, by a number of that
    form ("1", "2", "5"): a script picks the form of its own number by the language's rule and fills it in."""
    return {str(n): text(n) for n in PLURAL_SAMPLES}


def points_forms() -> dict[str, str]:
    """"%(n)s points" in each plural form, for the screens' scripts."""
    return plural_forms(lambda n: ngettext("%(n)s point", "%(n)s points", n))


def end_reason_label(code: str) -> str:
    entry = END_REASONS.get(code)
    return str(entry) if entry is not None else code


def end_text(code: str, note: str = "") -> str:
    """Why a game ended, with the arbiter's own words when he ended it."""
    label = end_reason_label(code)
    return f"{label}: {note}" if note else label


def end_reason_texts() -> dict[str, str]:
    """Every end-of-game reason, in the active language (for the screens' scripts)."""
    return {code: str(text) for code, text in END_REASONS.items()}


#: Why a rack went back into the bag (``gamestate.redraws``): shown to players with the rack (RULES §4).
REDRAW_REASONS: dict[str, Promise] = {
    "vowels": _("too few vowels"),
    "consonants": _("too few consonants"),
    "vowels_consonants": _("too few vowels and consonants"),
    "no_move": _("no legal move"),
}


#: A valid rack drawn under the relaxed minimum (RULES §4: the tiles left cannot meet the rule).
RELAXED_MINIMUM: Promise = _("relaxed minimum: the tiles left cannot meet the rule")


def time_per_move(seconds: object) -> str:
    """A number of seconds as the time per move is written ("2:00", "0:42"); the value itself when it is no number."""
    try:
        total = int(str(seconds))
    except ValueError:
        return str(seconds)
    return f"{total // 60}:{total % 60:02d}"


def redraw_reason_texts() -> dict[str, str]:
    return {code: str(text) for code, text in REDRAW_REASONS.items()}


def flagged(reason: str, warning: bool, automatic: bool = True) -> bool:
    """Whether the arbiter should look at a verdict again: a warning, a reason other than plain right,
    or an overridden verdict. ``reason`` "" (no verdict yet) is flagged."""
    return warning or reason not in PLAIN_REASONS or not automatic


#: The audit log (``services.audit.record``): each action's label, the filter tabs (the part before the
#: dot) and the fields of its before/after. An action missing here shows as its code.
AUDIT_ACTIONS: dict[str, Promise] = {
    "tournament.create": _("tournament created"),
    "tournament.update": _("tournament settings changed"),
    "tournament.backup": _("backup downloaded"),
    "tournament.restore": _("restored from a backup"),
    "player.register": _("player registered"),
    "player.import": _("players imported from a file"),
    "player.new_code": _("new access code"),
    "player.code_handed_out": _("access codes handed out"),
    "tables.assign": _("tables assigned"),
    "game.create": _("game created"),
    "game.finish": _("game finished"),
    "penalty.add": _("penalty added"),
    "round.rack_rejected": _("rack refused"),
    "round.draw": _("rack drawn"),
    "round.open": _("round opened"),
    "round.close": _("round closed"),
    "round.judge": _("slips judged"),
    "round.review": _("review started"),
    "round.choose_top": _("top chosen"),
    "round.publish": _("round published"),
    "round.no_move": _("no legal move: rack returned"),
    "round.cancel": _("round cancelled"),
    "slip.submit": _("slip handed in"),
    "slip.topping_time": _("topping time recorded"),
    "verdict.override": _("verdict overridden"),
    "simul.prepare": _("simultaneous game prepared"),
    "simul.hall": _("hall registered"),
    "simul.import": _("simultaneous game imported from its package"),
    "simul.export": _("hall results exported"),
    "simul.results": _("hall results imported"),
    "simul.results.replace": _("hall results replaced by a corrected file"),
}
AUDIT_GROUPS: dict[str, Promise] = {
    "tournament": _("Tournament"), "player": _("Players"), "tables": _("Tables"), "game": _("Games"),
    "penalty": _("Penalties"), "round": _("Rounds"), "slip": _("Slips"), "verdict": _("Verdicts"),
    "simul": _("Simultaneous games"),
}
AUDIT_FIELDS: dict[str, Promise] = {
    "name": _("name"), "table": _("table"), "printed": _("printed"), "tablets_logged_out": _("tablets logged out"),
    "typed": _("typed rack"), "log": _("draws"), "rack": _("rack"), "deadline": _("deadline"),
    "forced": _("closed early"), "move": _("move"), "score": _("score"), "over": _("game over"),
    "status": _("status"), "returned_to_bag": _("rack back in the bag"), "game_over": _("game over"),
    "rounds": _("rounds"), "game_status": _("game status"), "why": _("why"), "cancelled": _("rounds cancelled"),
    "new_seed": _("new bag"), "ruleset": _("rule set"), "lexicon": _("lexicon"), "number": _("number"),
    "seed": _("bag"), "prepared": _("prepared racks"), "warning_penalties": _("warning penalties"),
    "points": _("points"), "reason": _("reason"), "text": _("slip"), "version": _("version"), "late": _("late"),
    "source": _("source"), "verdicts": _("verdicts"), "awarded": _("points awarded"), "warning": _("warning"),
    "true_score": _("true score"), "automatic": _("automatic"), "round": _("round"), "game": _("game"),
    "archive": _("archive"), "written_at": _("written at"), "host": _("machine"), "program": _("program"),
    "replaced": _("replaced"), "bytes": _("bytes"), "seconds": _("topping time"),
    "variant": _("variant"), "seconds_per_move": _("time per move"), "code": _("code"), "digest": _("digest"),
    "hall": _("hall"), "players": _("players"), "received_at": _("received at"), "tables": _("tables"),
}
AUDIT_OBJECTS: dict[str, Promise] = {
    "Tournament": _("tournament"), "Registration": _("player"), "Game": _("game"), "Round": _("round"),
    "Slip": _("slip"), "Verdict": _("verdict"), "Penalty": _("penalty"),
    "Simultaneous": _("simultaneous game"), "SimulHall": _("hall"), "SimulResult": _("hall results"),
}
#: What a draw of the log was (``scoring.draw.DrawEvent.kind``).
DRAW_KINDS: dict[str, Promise] = {
    "draw": _("drawn"), "redraw": _("drawn again"), "typed": _("typed"), "prepared": _("prepared"),
    "no_move": _("back in the bag"),
}


def audit_action(code: str) -> str:
    """The label of an audited action (its code when it has none)."""
    return str(AUDIT_ACTIONS.get(code, code))


def audit_group(code: str) -> str:
    """The label of a filter tab of the audit log (the part of the action codes before the dot)."""
    return str(AUDIT_GROUPS.get(code, code))


#: The one date format and the one date-time format of every page and paper (Django's, localized).
DATE_FORMAT = "SHORT_DATE_FORMAT"
DATETIME_FORMAT = "SHORT_DATETIME_FORMAT"


def minus(n: int | float) -> str:
    """A number as pages, the display and the PDFs write it: a typographic minus (U+2212), never a hyphen."""
    return str(n).replace("-", "\u2212")


def table_ranges(tables: Iterable[int]) -> str:
    """Table numbers as runs: ``[1, 2, 3, 5, 7, 8]`` → ``"1–3, 5, 7–8"`` (sorted, each table once), the one
    way a page shows a list of tables (the missing slips of a round in a hall of 1,000)."""
    runs: list[list[int]] = []
    for n in sorted(set(tables)):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}\u2013{b}" for a, b in runs)


# -- what the engine says --------------------------------------------------------------------------------------


def renderer(style: CoordStyle, *, text: Callable[[str], str] = str,
             coordinate: Callable[[str], str] = str) -> Renderer:
    """Engine messages in the active language, positions in ``style``; ``text`` and ``coordinate`` shape the
    parameters (e.g. escape them and mark the letter of a coordinate, for a page or a paper)."""
    return Renderer(template=_engine_template, convention=style.convention, cyrillic=style.cyrillic,
                    quote=_quote, join=_join, text=text, coordinate=coordinate, counted=_engine_counted)


def _engine_template(code: str) -> str:
    text = TEXTS.get(code)
    return gettext(text) if text is not None else code


def _engine_counted(code: str, number: int) -> str:
    """A counted engine template (``scoring.messages.COUNTED``) in the plural form of ``number``."""
    singular, plural = COUNTED[code][1]
    return ngettext(singular, plural, number)


def _quote(text: str) -> str:
    return gettext("«%(text)s»") % {"text": text}


def _join(items: tuple[str, ...]) -> str:
    return ", ".join(items)


def explain(message: Message | Mapping[str, object] | None, style: CoordStyle, fallback: str = "", *,
            text: Callable[[str], str] = str, coordinate: Callable[[str], str] = str) -> str:
    """An engine message (or its stored JSON) in the active language, coordinates in ``style``; ``fallback``
    (e.g. a verdict's stored English text) when there is none or it can't be read. ``text`` and ``coordinate``:
    see :func:`renderer`."""
    if message is None:
        return fallback
    if not isinstance(message, Message):
        try:
            message = Message.from_json(message)
        except (KeyError, TypeError, ValueError):
            return fallback
    return render(_named(message), renderer(style, text=text, coordinate=coordinate))


def _named(message: Message) -> Message:
    """The message with its rule-set ids (``tileset``) replaced by the rule sets' names."""
    params = tuple((k, _named(v) if isinstance(v, Message) else RULESET_NAMES.get(v, v)
                    if k == "tileset" and isinstance(v, str) else v) for k, v in message.params)
    return Message(message.code, params)


class ExplainedVerdict(Protocol):
    @property
    def explanation(self) -> Mapping[str, object] | None: ...

    @property
    def message(self) -> str: ...

    @property
    def automatic(self) -> bool: ...

    @property
    def override_reason(self) -> str: ...


def verdict_explanation(verdict: ExplainedVerdict, tournament: CoordSettings) -> str:
    """Why a verdict is what it is, in the active language with the tournament's coordinates: the arbiter's
    reason for an overridden verdict; the stored text for a verdict judged before explanations were stored."""
    if not verdict.automatic:
        return gettext("arbiter's decision: %(why)s") % {"why": verdict.override_reason}
    return explain(verdict.explanation, tournament_style(tournament), verdict.message)


def engine_error(exc: Exception, style: CoordStyle) -> str:
    """An engine error (it carries a :class:`~scoring.messages.Message` as ``message``) for a person."""
    message = getattr(exc, "message", None)
    return explain(message, style, str(exc)) if isinstance(message, Message) else str(exc)


def engine_refusal(code: str, params: Mapping[str, object], style: CoordStyle) -> str | None:
    """A refusal of the engine's draw or game (its code and params, :data:`ENGINE_ERRORS`) in the active
    language, moves and squares in ``style``; None when the code has no text or the params do not fit it."""
    detail = params.get("detail")  # the placement or notation message a game error passes on
    if isinstance(detail, Message):
        return explain(detail, style)
    key = f"{code}.{params['phase']}" if "phase" in params else code
    text = ENGINE_ERRORS.get(key) or PLACEMENT.get(code)
    if text is None:
        return None
    values = {name: _engine_param(name, value, style) for name, value in params.items()}
    if "top" in values:
        values.setdefault("best", values["top"])
    try:
        shown = str(text % values)  # a counted text picks its form by its number's parameter
    except (KeyError, TypeError, ValueError):
        return None
    if params.get("prepared"):
        return gettext("Round %(round)s, prepared rack «%(typed)s»: %(why)s") % {
            "round": values.get("round", ""), "typed": values["prepared"], "why": shown}
    return shown


def _engine_param(name: str, value: object, style: CoordStyle) -> object:
    if name in ("move", "square"):
        return style.move(str(value))
    if name == "end":
        return end_reason_label(str(value))
    return value


# -- the board for the screens --------------------------------------------------------------------------------


class BoardSettings(CoordSettings, Protocol):
    @property
    def ruleset(self) -> str: ...


class BoardConfig(TypedDict):
    """What ``static/js/board.js`` draws the board and the tiles with."""

    ruleset: str
    values: dict[str, int]
    blank_value: int
    colours: dict[str, str]  # Literaki: letter → colour
    premiums: list[list[str]]  # CSS class of each square ("" for none)
    premium_text: dict[str, str]
    rows: list[str]
    cols: list[str]
    convention: str
    cyrillic: bool
    cyrillic_input: bool
    alphabet: list[str]
    rack_size: int


def board_config(tournament: BoardSettings) -> BoardConfig:
    """What a screen needs to draw the board and tiles (``static/js/board.js``): premiums, labels,
    tile values, letters, and the coordinate style."""
    ruleset_id = tournament.ruleset
    ruleset = get_ruleset(ruleset_id)
    layout = ruleset.layout
    style = tournament_style(tournament)
    premiums = [[PREMIUM_CLASS.get(layout.premium_code(r, c), "") for c in range(SIZE)] for r in range(SIZE)]
    return {"ruleset": ruleset_id, "values": dict(ruleset.values), "blank_value": ruleset.blank_value,
            "colours": dict(ruleset.letter_colours), "premiums": premiums, "premium_text": PREMIUM_TEXT,
            "rows": style.rows(), "cols": style.columns(), "convention": style.convention,
            "cyrillic": style.cyrillic, "cyrillic_input": ruleset.cyrillic and not style.english,
            "alphabet": list(ruleset.letters), "rack_size": ruleset.rack_size}


__all__ = ["COORD_ECHO", "CYRILLIC", "CYRILLIC_READERS", "LATIN", "coordinate_texts", "REDRAW_REASONS", "BoardSettings", "default_script", "end_reason_texts",
           "end_text", "engine_error", "explain", "redraw_reason_texts", "renderer", "script_style", "letter_parts", "split_coordinate",
           "verdict_explanation", "reader_style", "END_REASONS", "ENGINE_ERRORS", "PLACEMENT", "engine_refusal", "PREMIUM_CLASS",
           "PREMIUM_TEXT", "REASONS", "BoardConfig",
           "CoordSettings", "CoordStyle",
           "board_config", "end_reason_label", "flagged", "placement_texts", "plural_forms", "points_forms", "reason_label",
           "reason_text", "reason_texts", "table_ranges", "tournament_style"]
__all__ += ["minus", "AUDIT_ACTIONS", "AUDIT_FIELDS", "AUDIT_GROUPS", "AUDIT_OBJECTS", "DATETIME_FORMAT", "DATE_FORMAT", "DRAW_KINDS",
            "audit_action", "audit_group", "RELAXED_MINIMUM", "time_per_move", "zone_of"]
