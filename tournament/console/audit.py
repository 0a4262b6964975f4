"""The audit log of a tournament: every change, who made it, before and after — in the page's language.

Each action by its label (``labels.AUDIT_ACTIONS``), the filter tabs by theirs, and before/after as
"field: value" lines: moves in the tournament's coordinates, verdict reasons by their labels, times in the
tournament's time zone in the one date-time format of the pages (``labels.DATETIME_FORMAT``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from .. import gamestate, labels
from ..models import (
    RULESET_CHOICES,
    VARIANT_CHOICES,
    AuditLog,
    Game,
    Penalty,
    Registration,
    Round,
    Slip,
    Tournament,
    Verdict,
)
from ..web.access import arbiter_view
from ..web.timezone import zone_of
from .tournaments import context

PAGE_SIZE = 50
#: Fields kept in the log for the record but not shown (the engine's own wording, in English).
HIDDEN = frozenset({"message"})
#: Fields an action repeats that the "object" column already says (game, round, table).
WHERE = {"verdict.override": frozenset({"game", "round", "table"})}


@dataclass(frozen=True)
class Line:
    """One "field: value" line of a before or after."""

    field: str
    value: str


@dataclass(frozen=True)
class Entry:
    """One row of the log as the page shows it."""

    row: AuditLog
    who: str
    action: str
    what: str
    before: list[Line]
    after: list[Line]


def _yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def _choice(choices: Any) -> Callable[[Any], str]:
    table = {value: str(label) for value, label in choices}
    return lambda value: table.get(value, str(value))


def _marked(text: str) -> str:
    before, letter, after = labels.letter_parts(text)
    if not letter:
        return text
    return format_html('{}<span class="coord-letter">{}</span>{}', before, letter, after)


class Presenter:
    """Writes the before/after of a tournament's audit rows for people."""

    def __init__(self, tournament: Tournament):
        self.tournament = tournament
        self.style = labels.tournament_style(tournament)
        self.zone = zone_of(tournament.time_zone)
        self.values: dict[str, Callable[[Any], str]] = {
            "move": self.move,
            "text": self.slip,
            "reason": labels.reason_label,
            "deadline": self.moment,
            "at": self.moment,
            "log": self.draws,
            "rounds": self.rounds,
            "status": _choice(Round.Status.choices),
            "game_status": _choice(Game.Status.choices),
            "source": _choice(Slip.Source.choices),
            "cancelled": lambda v: ", ".join(str(n) for n in v) or "—",
            "variant": _choice(VARIANT_CHOICES),
            "seconds_per_move": labels.time_per_move,
            "seconds": labels.time_per_move,
            "ruleset": _choice(RULESET_CHOICES),
        }

    def move(self, value: Any) -> str:
        """A stored move in the tournament's coordinates, its row letter marked (never read as a digit)."""
        return _marked(self.style.move(str(value))) if value else "—"

    def slip(self, value: Any) -> str:
        """A slip's text as recorded ("H6 WORD 16", as typed) with its coordinates in the tournament's rows."""
        coord, sep, rest = str(value or "").partition(" ")
        return _marked(self.style.coordinate(coord) + sep + rest) if value else "—"

    def moment(self, value: Any) -> str:
        """A stored moment (ISO text) in the tournament's zone and the pages' date-time format."""
        when = parse_datetime(value) if isinstance(value, str) else None
        if when is None:
            return str(value)
        if timezone.is_aware(when):
            when = timezone.localtime(when, self.zone)
        return date_format(when, labels.DATETIME_FORMAT)

    @staticmethod
    def rounds(value: Any) -> str:
        """Round numbers with their status ("3 (published), 4 (open)"), or a number of rounds."""
        if not isinstance(value, list):
            return str(value)
        status = _choice(Round.Status.choices)
        return ", ".join(f"{n} ({status(s)})" for n, s in value) or "—"

    def draws(self, events: Any) -> str:
        """A round's draw log: "drawn again: AEI+OUST (too few consonants); drawn: …" — why a rack went back in
        the page's language (the engine's English reason is kept in the log, not shown)."""
        if not isinstance(events, list):
            return str(events)
        parts = []
        for e in events:
            if not isinstance(e, dict):
                parts.append(str(e))
                continue
            tiles = "+".join(t for t in (e.get("leftover", ""), e.get("drawn", "")) if t) or e.get("rack", "")
            text = f"{labels.DRAW_KINDS.get(e.get('kind', ''), e.get('kind', ''))}: {tiles}"
            if not e.get("valid", True):
                text += f" ({labels.REDRAW_REASONS[gamestate.redraw_reason(self.tournament.ruleset, e)]})"
            elif e.get("reason"):  # a valid rack under the relaxed minimum
                text += f" ({labels.RELAXED_MINIMUM})"
            parts.append(text)
        return "; ".join(parts) or "—"

    def field(self, action: str, key: str) -> str:
        """A field's label: the table's, a tournament setting's name, else the key (a player's name)."""
        setting = action.startswith("tournament.")  # the tournament's "name" is not a person's
        if key in labels.AUDIT_FIELDS and not (setting and key == "name"):
            return str(labels.AUDIT_FIELDS[key])
        if setting:
            try:
                return str(getattr(Tournament._meta.get_field(key), "verbose_name", key))
            except FieldDoesNotExist:
                return key
        return key

    def value(self, action: str, key: str, value: Any) -> str:
        if action == "tournament.update" and key not in self.values:
            return self.setting(key, value)
        if value is None or value == "":
            return "—"
        if key in self.values:
            return self.values[key](value)
        if isinstance(value, bool):
            return _yes_no(value)
        if isinstance(value, list):
            return ", ".join(str(v) for v in value) or "—"
        if isinstance(value, dict):
            return "; ".join(f"{k}: {self.value(action, str(k), v)}" for k, v in value.items())
        return str(value)

    def setting(self, key: str, value: Any) -> str:
        """A changed tournament setting, by its choice's label when it has choices."""
        try:
            model_field = Tournament._meta.get_field(key)
        except FieldDoesNotExist:
            return str(value)
        choices = getattr(model_field, "choices", None)
        if choices:
            return _choice([(str(v), label) for v, label in choices])(str(value))
        if value in ("True", "False"):
            return _yes_no(value == "True")
        return str(value) if value not in (None, "") else "—"

    def lines(self, action: str, data: Any) -> list[Line]:
        if data is None or data == {}:
            return []
        if not isinstance(data, dict):
            return [Line("", self.value(action, "", data))]
        hidden = HIDDEN | WHERE.get(action, frozenset())
        return [Line(self.field(action, str(k)), self.value(action, str(k), v))
                for k, v in data.items() if k not in hidden]

    def entries(self, rows: list[AuditLog]) -> list[Entry]:
        names = objects(rows)
        players = tablet_players(rows)
        return [Entry(row=row, who=who(row, players), action=labels.audit_action(row.action),
                      what=names.get((row.object_type, row.object_id)) or self.kind(row.object_type),
                      before=self.lines(row.action, row.before), after=self.lines(row.action, row.after))
                for row in rows]

    @staticmethod
    def kind(object_type: str) -> str:
        return str(labels.AUDIT_OBJECTS.get(object_type, object_type))


def _ids(rows: list[AuditLog], object_type: str) -> list[int]:
    return [int(r.object_id) for r in rows if r.object_type == object_type and r.object_id.isdigit()]


def objects(rows: list[AuditLog]) -> dict[tuple[str, str], str]:
    """What each row changed, as the arbiter knows it ("game 1, round 3, table 12"), not by database id:
    one query per kind of object on the page."""
    def at(game: int, rnd: int | None = None, table: int | None = None) -> str:
        if rnd is None:
            text = _("game %(game)s") % {"game": game}
        else:
            text = _("game %(game)s, round %(round)s") % {"game": game, "round": rnd}
        return text if table is None else _("%(where)s, table %(table)s") % {"where": text, "table": table}

    names: dict[tuple[str, str], str] = {}
    for g in Game.objects.filter(pk__in=_ids(rows, "Game")):
        names["Game", str(g.pk)] = at(g.number)
    for r in Round.objects.filter(pk__in=_ids(rows, "Round")).select_related("game"):
        names["Round", str(r.pk)] = at(r.game.number, r.number)
    for reg in Registration.objects.filter(pk__in=_ids(rows, "Registration")).select_related("player"):
        names["Registration", str(reg.pk)] = _("table %(table)s: %(name)s") % {"table": reg.table_number,
                                                                               "name": reg.player.name}
    for kind, model in (("Slip", Slip), ("Verdict", Verdict)):
        for o in model.objects.filter(pk__in=_ids(rows, kind)).select_related("round__game", "registration"):
            names[kind, str(o.pk)] = at(o.round.game.number, o.round.number, o.registration.table_number)
    for p in Penalty.objects.filter(pk__in=_ids(rows, "Penalty")).select_related("game", "registration"):
        names["Penalty", str(p.pk)] = at(p.game.number, None, p.registration.table_number)
    return names


def tablet_players(rows: list[AuditLog]) -> dict[str, str]:
    """Who handed in each slip of the page that came from a tablet (no user behind it): "table 7 — Ivan Petrenko
    (tablet)", by the slip's id."""
    ids = [int(r.object_id) for r in rows if r.actor_id is None and r.object_type == "Slip" and r.object_id.isdigit()]
    return {str(slip.pk): _("table %(table)s — %(name)s (tablet)") % {"table": slip.registration.table_number,
                                                                       "name": slip.registration.player.name}
            for slip in Slip.objects.filter(pk__in=ids, source=Slip.Source.TABLET)
            .select_related("registration__player")}


def who(row: AuditLog, players: dict[str, str]) -> str:
    """Who made a change: the arbiter's user name, the player whose tablet handed a slip in, else the system (a
    task of the server: a round closed at its deadline, a solver's result)."""
    if row.actor is not None:
        return row.actor.get_username()
    if row.object_type == "Slip" and row.object_id in players:
        return players[row.object_id]
    return _("system")


@arbiter_view
@require_GET
def audit_log(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    qs = AuditLog.objects.filter(tournament=tournament).select_related("actor")
    action = request.GET.get("action", "")
    if action:
        qs = qs.filter(action=action) if "." in action else qs.filter(action__startswith=action + ".")
    page = Paginator(qs, PAGE_SIZE).get_page(request.GET.get("page"))
    groups = sorted({a.split(".")[0] for a in AuditLog.objects.filter(tournament=tournament)
                     .values_list("action", flat=True).distinct()})
    entries = Presenter(tournament).entries(list(page))
    tabs = [(group, labels.audit_group(group)) for group in groups]
    return render(request, "arbiter/audit.html", context(tournament, "audit", page=page, entries=entries,
                                                         action=action, tabs=tabs))
