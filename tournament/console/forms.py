"""Forms of the arbiter console: tournament set-up, players, games, rounds, slips, verdicts."""

from __future__ import annotations

import csv
import io
import zoneinfo
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Any, cast

from django import forms
from django.conf import settings
from django.db import models
from django.http import QueryDict
from django.utils.formats import get_format, number_format
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext, pgettext_lazy

from lexicon.models import Lexicon
from scoring.coords import Convention, CoordError, parse_coord
from scoring.notation import NotationError, parse_word
from scoring.rules import SIZE as BOARD_SIZE
from scoring.rules import RuleSet, get_ruleset

from .. import labels
from ..models import VARIANT_CHOICES, Player, Registration, Tournament
from ..models.names import clean_name as strip_controls
from ..services import playerimport, tournaments

SETUP_FIELDS = [
    "name", "slug", "starts_on", "ends_on", "venue", "ruleset", "lexicon", "seconds_per_move", "grace_seconds",
    "convention", "coordinate_script", "solo_mode", "solo_bonus", "free_warnings", "free_warnings_fast",
    "warning_penalty", "tie_break", "language", "time_zone", "assisted_mode",
]
#: Settings that can't change once a game exists (the racks and the words depend on them).
LOCKED_WHEN_PLAYED = ("ruleset", "lexicon")


@cache
def time_zones() -> frozenset[str]:
    """The time zones of the system's database (IANA names)."""
    return frozenset(zoneinfo.available_timezones())


def capital_labels(form: forms.BaseForm) -> None:
    """Every label of the form starts with a capital letter, in every language: the translated label, its first
    letter upper case (``capfirst`` of the lazy text: done when the page is rendered, in the page's language)."""
    for field in form.fields.values():
        if field.label:
            field.label = capfirst(field.label)


class ConsoleForm(forms.Form):
    """A form of the console: its labels start with a capital letter (:func:`capital_labels`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        capital_labels(self)


#: Django's date-format letters of a day written with digits, as strftime writes them.
DAY_LETTERS = {"d": "%d", "j": "%d", "m": "%m", "n": "%m", "Y": "%Y", "y": "%y"}


def typed_day_format() -> str:
    """The strftime format of a day as the pages of the active language show it (:data:`labels.DATE_FORMAT`):
    uk and ru 07.03.2026, pl 07-03-2026, fr 07/03/2026, en 03/07/2026. A day is typed as it is read."""
    return "".join(DAY_LETTERS.get(c, c) for c in str(get_format(labels.DATE_FORMAT)))


def day_placeholder() -> str:
    """What a day field shows while empty, in the page's language: ДД.ММ.РРРР, JJ/MM/AAAA, MM/DD/YYYY."""
    parts = {"%d": pgettext("day field", "DD"), "%m": pgettext("day field", "MM"), "%Y": pgettext("day field", "YYYY"),
             "%y": pgettext("day field", "YY")}
    text = typed_day_format()
    for code, shown in parts.items():
        text = text.replace(code, shown)
    return text


class DayInput(forms.DateInput):
    """A day typed as the page's language writes it, not the browser's date picker: that one follows the device's
    language, so an en-US laptop in a Ukrainian hall shows and expects 03/07/2026. The format is found when the
    page is drawn (the active language), as is the placeholder."""

    def format_value(self, value: Any) -> str | None:
        if isinstance(value, date):
            return value.strftime(typed_day_format())
        return super().format_value(value)

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        context["widget"]["attrs"].setdefault("placeholder", day_placeholder())
        context["widget"]["attrs"].setdefault("size", 10)
        return context


def accept_typed_days(form: forms.BaseForm, *names: str) -> None:
    """The day fields take the day as the pages show it first, then every format of the language, then ISO."""
    for name in names:
        field = form.fields[name]
        assert isinstance(field, forms.DateField)
        field.input_formats = [typed_day_format(), *get_format("DATE_INPUT_FORMATS")]


class LexiconField(forms.ModelChoiceField):  # unparameterised: ModelChoiceField[...] fails at runtime
    def label_from_instance(self, obj: Lexicon) -> str:
        return f"{obj.label} ({obj.ruleset}, {obj.word_count})"


class TournamentForm(forms.ModelForm):  # unparameterised: ModelForm[...] fails at runtime
    lexicon = LexiconField(queryset=Lexicon.objects.none(), label=_("lexicon version"))
    #: Offered while typing the time zone (any IANA name is taken).
    time_zone_hints = ("Europe/Kyiv", "Europe/Warsaw", "Europe/Moscow", "Europe/Minsk", "Europe/Chisinau",
                       "Europe/Vilnius", "Europe/Riga", "Europe/Tallinn", "Europe/Paris", "Europe/Brussels",
                       "Europe/Zurich", "Europe/London", "Asia/Almaty", "America/Toronto", "Africa/Dakar", "UTC")

    class Meta:
        model = Tournament
        fields = SETUP_FIELDS
        widgets = {"starts_on": DayInput(), "ends_on": DayInput()}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        lexicon = self.fields["lexicon"]
        assert isinstance(lexicon, LexiconField)  # the field declared above (a copy per form)
        lexicon.queryset = Lexicon.objects.filter(status=Lexicon.Status.READY).order_by("name", "-version")
        capital_labels(self)
        self.fields["slug"].required = False
        self.fields["slug"].help_text = _("Short name in addresses; made from the name when empty.")
        self.fields["name"].widget.attrs["autofocus"] = True
        accept_typed_days(self, "starts_on", "ends_on")
        script = self.fields["coordinate_script"]
        assert isinstance(script, forms.TypedChoiceField)
        script.required = False
        script.choices = [("", _("automatic: Cyrillic for a Cyrillic rule set in Russian or Ukrainian")),
                          *Tournament.Script.choices]
        if not self.instance.pk:
            script.initial = ""
        self.fields["time_zone"].help_text = _("The hall's time zone, e.g. Europe/Kyiv: every time shown is in it.")
        self.fields["time_zone"].widget.attrs["list"] = "time-zones"
        self.fields["time_zone"].required = False
        if self.instance.pk and self.instance.games.exists():
            for name in LOCKED_WHEN_PLAYED:
                self.fields[name].disabled = True
                self.fields[name].help_text = _("Locked: a game has been played.")

    def clean_slug(self) -> str:
        """The short name typed, or one made from the name (transliterated; a suffix when another tournament
        has it). A typed one that is taken is refused, a free one proposed in the field."""
        typed = self.cleaned_data.get("slug")
        if not typed:
            name = self.cleaned_data.get("name") or ""
            language = self.cleaned_data.get("language") or self.data.get("language") or ""
            return tournaments.free_short_name(tournaments.short_name(name, str(language)) or "tournament",
                                               self.instance.pk)
        free = tournaments.free_short_name(typed, self.instance.pk)
        if free != typed:
            self.data = {**self.data.dict(), "slug": free} if isinstance(self.data, QueryDict) \
                else {**self.data, "slug": free}  # the field shows the proposal under the message
            raise forms.ValidationError(_("This short name is taken: %(free)s is free.") % {"free": free})
        return typed

    def clean_time_zone(self) -> str:
        zone = (self.cleaned_data.get("time_zone") or "").strip() or settings.TIME_ZONE
        if zone not in time_zones():
            raise forms.ValidationError(_("Unknown time zone «%(zone)s»: write it as Region/City, e.g. Europe/Kyiv.")
                                        % {"zone": zone})
        return zone

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if not data.get("coordinate_script"):
            data["coordinate_script"] = labels.default_script(data.get("ruleset") or "", data.get("language") or "")
        lexicon, ruleset = data.get("lexicon"), data.get("ruleset")
        if lexicon and ruleset and lexicon.ruleset != ruleset:
            if not Lexicon.objects.filter(status=Lexicon.Status.READY, ruleset=ruleset).exists():
                self.add_error("lexicon", _("No lexicon for the rule set %(rs)s yet: build it below the form, or add "
                                            "one (Check words → Lexicons).") % {"rs": ruleset})
            else:
                self.add_error("lexicon", _("This lexicon is for the rule set %(rs)s.") % {"rs": lexicon.ruleset})
        starts, ends = data.get("starts_on"), data.get("ends_on")
        if starts and ends and ends < starts:
            self.add_error("ends_on", _("The tournament ends before it starts."))
        return data


class PlayerForm(ConsoleForm):
    name = forms.CharField(label=_("name"), max_length=200)
    club = forms.CharField(label=_("club"), max_length=200, required=False)
    category = forms.CharField(label=_("category"), max_length=40, required=False)
    series = forms.CharField(label=_("series"), max_length=40, required=False)
    licence = forms.CharField(label=_("licence"), max_length=40, required=False)
    table_number = forms.IntegerField(label=_("table"), min_value=1, required=False)

    def __init__(self, *args: Any, known: Iterable[tuple[str, int]] = (), **kwargs: Any) -> None:
        """``known``: (name, table) of the players already registered in the tournament."""
        super().__init__(*args, **kwargs)
        self.known = {name_key(name): (name, table) for name, table in known}
        self.fields["name"].widget.attrs.update(autofocus=True, autocomplete="off")

    def clean_name(self) -> str:
        name = " ".join(strip_controls(self.cleaned_data["name"]).split())
        if name_key(name) in self.known:
            same, table = self.known[name_key(name)]
            raise forms.ValidationError(_("%(name)s is already registered in this tournament, at table %(n)d.")
                                        % {"name": same, "n": table})
        return name


def name_key(name: str) -> str:
    """A player's name as compared for duplicates: case, spaces and invisible controls ignored."""
    return " ".join(strip_controls(name).split()).casefold()


# -- CSV import -----------------------------------------------------------------------------------

CSV_COLUMNS = ("name", "club", "category", "series", "licence")
HEADER_WORDS = {"name", "имя", "фио", "ім'я", "імʼя", "imię", "nazwisko", "nom", "player", "игрок"}


@dataclass
class CsvLine:
    line: int
    name: str
    club: str = ""
    category: str = ""
    series: str = ""
    licence: str = ""

    def fields(self) -> playerimport.Row:
        """The player's fields, as ``register_player`` and the background import take them."""
        return playerimport.Row(name=self.name, club=self.club, category=self.category, series=self.series,
                                licence=self.licence)


def too_many_rows(n: int) -> str:
    """The refusal of a file of ``n`` players, over the limit."""
    return ngettext("The file holds %(n)s player: at most %(most)s are imported at once.",
                    "The file holds %(n)s players: at most %(most)s are imported at once.", n) % {
        "n": number_format(n, force_grouping=True),
        "most": number_format(playerimport.MAX_ROWS, force_grouping=True)}


def import_limits() -> str:
    """What the import form says of its limits."""
    return _("At most %(mb)s MB and %(rows)s lines; more than %(batch)s players are imported in the background "
             "while this page shows the progress.") % {
        "mb": playerimport.MAX_BYTES // (1024 * 1024),
        "rows": number_format(playerimport.MAX_ROWS, force_grouping=True), "batch": playerimport.BATCH}


@dataclass
class CsvProblem:
    line: int
    text: str
    message: str


def parse_players_csv(text: str, known_names: set[str] | None = None) -> tuple[list[CsvLine], list[CsvProblem]]:
    """Reads ``name, club, category, series, licence`` lines (comma, semicolon or tab; optional header)."""
    text = text.lstrip("\ufeff")
    sample = "\n".join(text.splitlines()[:5])
    delimiter = ","
    for candidate in (";", "\t", ","):
        if candidate in sample:
            delimiter = candidate
            break
    limits = {f: _max_length(f) for f in CSV_COLUMNS}
    rows: list[CsvLine] = []
    problems: list[CsvProblem] = []
    seen: dict[str, int] = {}
    known = {name_key(n) for n in (known_names or set())}
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        # a name is stored without its invisible controls (tournament/models/names.py): compared and checked so;
        # a NUL is refused instead (a file that is not text), as before
        cells = [(c if "\x00" in c else strip_controls(c)).strip()
                 for c in next(csv.reader(io.StringIO(raw), delimiter=delimiter))]
        if number == 1 and cells and cells[0].casefold() in HEADER_WORDS:
            continue
        messages = _line_problems(cells, limits)
        values = dict(zip(CSV_COLUMNS, cells + [""] * (len(CSV_COLUMNS) - len(cells)), strict=False))
        key = name_key(values["name"])
        if key and key in seen:
            messages.append(str(_("the same player as on line %(n)d")) % {"n": seen[key]})
        elif key and key in known:
            messages.append(str(_("this player is already registered")))
        elif key:
            seen[key] = number
        if messages:  # every problem of the line at once, every line of the file
            problems.append(CsvProblem(number, strip_controls(raw.replace("\x00", "\ufffd")),
                                       "; ".join(messages)))
        else:
            rows.append(CsvLine(number, **values))
    return rows, problems


def _line_problems(cells: list[str], limits: dict[str, int]) -> list[str]:
    """What is wrong with one line's cells (the duplicates apart), every problem."""
    messages = []
    if len(cells) > len(CSV_COLUMNS):
        messages.append(str(_("too many columns (at most 5: name, club, category, series, licence)")))
    values = dict(zip(CSV_COLUMNS, cells, strict=False))
    if not values.get("name"):
        messages.append(str(_("the name is missing")))
    if any("\x00" in v for v in cells):
        messages.append(str(_("a null character (not text) in the line")))
    too_long = [f for f in CSV_COLUMNS if len(values.get(f, "")) > limits[f]]
    if too_long:
        messages.append(str(_("too long: %(fields)s")) % {"fields": ", ".join(too_long)})
    return messages


def _max_length(name: str) -> int:
    """The length of a player's column in the database (every CSV column is a CharField)."""
    field = Player._meta.get_field(name)
    if not isinstance(field, models.CharField) or field.max_length is None:
        raise TypeError(f"Player.{name} is not a CharField with a max_length")
    return field.max_length


#: The example line of the import's text box, in the page's language (a name and a club of its country).
EXAMPLE_LINE = pgettext_lazy("a player line of the CSV import: name;club;category;series;licence",
                             "Smith John;Riverside;adults;A;GB-123")


class ImportForm(ConsoleForm):
    file = forms.FileField(label=_("CSV file"), required=False, widget=forms.ClearableFileInput(
        attrs={"data-choose": _("Choose a file…"), "data-none": _("No file chosen")}))  # the page's words
    text = forms.CharField(label=_("or paste the lines"), required=False,
                           widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false",
                                                        "placeholder": EXAMPLE_LINE}))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["file"].help_text = import_limits()

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        upload = data.get("file")
        size = upload.size if upload else len((data.get("text") or "").encode())
        if size > playerimport.MAX_BYTES:
            raise forms.ValidationError(_("The file has %(size)s MB: at most %(mb)s MB are imported at once.") % {
                "size": number_format(round(size / (1024 * 1024), 1)), "mb": playerimport.MAX_BYTES // (1024 * 1024)})
        if upload:
            raw = upload.read()
            try:
                data["content"] = raw.decode("utf-8")
            except UnicodeDecodeError:
                try:
                    data["content"] = raw.decode("cp1251")
                except UnicodeDecodeError:
                    raise forms.ValidationError(_("The file is neither UTF-8 nor Windows-1251 text.")) from None
        else:
            data["content"] = data.get("text") or ""
        if not data["content"].strip():
            raise forms.ValidationError(_("Choose a file or paste the lines."))
        return data


# -- games and rounds -----------------------------------------------------------------------------


class GameForm(ConsoleForm):
    seconds_per_move = forms.TypedChoiceField(
        label=_("time per move"), required=False, coerce=int, empty_value=None,
        help_text=_("A fast game (2:00 or 1:00) has more free warnings: %(free)s instead of %(normal)s."))
    variant = forms.ChoiceField(
        label=_("variant"), choices=VARIANT_CHOICES, initial="classic", required=False,
        help_text=_("Joker: every rack holds a blank; a blank the top played is replaced on the board by its "
                    "letter from the bag and comes back on the next rack. Topping: a round opens once its top is "
                    "known, each player tries until he finds it, and the time he took ranks him (lowest total "
                    "first). 7-among-8: racks of 8 tiles, a move places at most 7, and 7 earn the bonus."))
    seed = forms.IntegerField(label=_("seed"), required=False, min_value=0,
                              help_text=_("Empty: a random bag. The same seed gives the same racks."))
    prepared = forms.CharField(
        label=_("prepared game"), required=False,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false", "placeholder": "ОЕТВРАК\nОЕТ+ВРАК"}),
        help_text=_("One rack per line, checked round by round. Empty: racks are drawn."))

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = cast(forms.TypedChoiceField, self.fields["seconds_per_move"])
        own = tournament.get_seconds_per_move_display()
        field.choices = [("", _("the tournament's: %(time)s") % {"time": own}),
                         *[(s, label) for s, label in Tournament.SECONDS_CHOICES if s != tournament.seconds_per_move]]
        field.help_text = str(field.help_text) % {"free": tournament.free_warnings_fast,
                                                  "normal": tournament.free_warnings}

    def clean_variant(self) -> str:
        return self.cleaned_data.get("variant") or "classic"  # a page from before the field: the classic game

    def clean_prepared(self) -> list[str] | None:
        lines = [line.strip() for line in (self.cleaned_data.get("prepared") or "").splitlines() if line.strip()]
        return lines or None


class DrawForm(ConsoleForm):
    typed_rack = forms.CharField(
        label=_("Rack from the bag"), required=False, max_length=16,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false", "autocapitalize": "characters",
                                      "placeholder": _("empty: automatic draw")}),
        help_text=_("Type the tiles drawn from a physical bag (? for a blank), or leave empty."))


class ReasonForm(ConsoleForm):
    why = forms.CharField(label=_("reason"), max_length=500)


class PenaltyForm(ConsoleForm):
    table = forms.IntegerField(label=_("Table"), min_value=1)
    points = forms.IntegerField(label=_("Points"), min_value=1, max_value=1000)
    reason = forms.CharField(label=_("Reason"), max_length=300)


class SlipForm(ConsoleForm):
    table = forms.IntegerField(label=_("table"), min_value=1)
    word = forms.CharField(label=_("word"), max_length=40)
    coordinates = forms.CharField(label=_("coordinates"), max_length=10, required=False)
    score = forms.IntegerField(label=_("score"), min_value=0, max_value=9999, required=False)
    late = forms.BooleanField(label=_("handed in late"), required=False)
    key = forms.CharField(widget=forms.HiddenInput, max_length=60)

    def __init__(self, *args: Any, tables: dict[int, int] | None = None, ruleset: str | None = None,
                 convention: str = Convention.DUPLICATE, script: str = labels.LATIN, **kwargs: Any) -> None:
        """``tables``: table number → registration id of the tournament's players; ``ruleset``: the
        tournament's rule set (letters checked), ``convention`` and ``script``: its coordinates (both scripts
        are read; examples and messages are in the tournament's)."""
        super().__init__(*args, **kwargs)
        self.tables = tables or {}
        self.ruleset = get_ruleset(ruleset) if ruleset else None
        self.convention = convention
        self.style = labels.script_style(convention, script)
        self.highest = max(self.tables, default=1)
        attrs = {"autocomplete": "off", "spellcheck": "false"}
        self.fields["table"].widget.attrs.update(attrs, autofocus=True, inputmode="numeric", max=self.highest)
        self.fields["word"].widget.attrs.update(attrs, autocapitalize="characters")
        self.fields["coordinates"].widget.attrs.update(attrs, autocapitalize="characters", size=5)
        self.fields["score"].widget.attrs.update(attrs, inputmode="numeric")

    def clean_table(self) -> int:
        table = self.cleaned_data["table"]
        if table > self.highest:
            raise forms.ValidationError(_("No player at table %(n)d: tables go from 1 to %(max)d.")
                                        % {"n": table, "max": self.highest})
        if table not in self.tables:
            raise forms.ValidationError(_("No player at table %(n)d.") % {"n": table})
        return table

    def clean_word(self) -> str:
        word = "".join(self.cleaned_data["word"].split())
        if not word:
            raise forms.ValidationError(_("The word is missing."))
        if self.ruleset is None:
            return word
        try:
            tiles = parse_word(word, self.ruleset)
        except NotationError:
            bad = next((ch for ch in word if not _letter_ok(ch, self.ruleset)), word[0])
            raise forms.ValidationError(_("«%(ch)s» is not a letter of this tournament's tiles.")
                                        % {"ch": bad}) from None
        if len(tiles) > BOARD_SIZE:
            raise forms.ValidationError(ngettext("A word has at most %(n)d letter (the width of the board); "
                                                 "this one has %(k)d.",
                                                 "A word has at most %(n)d letters (the width of the board); "
                                                 "this one has %(k)d.", BOARD_SIZE)
                                        % {"n": BOARD_SIZE, "k": len(tiles)})
        return word

    def clean_coordinates(self) -> str:
        text = "".join((self.cleaned_data.get("coordinates") or "").split()).upper()
        if not text or self.ruleset is None:
            return text
        try:
            parse_coord(text, cyrillic=True, convention=self.convention)
        except CoordError as exc:
            if exc.code == "off_board":
                message = _("«%(text)s» is off the board: numbers go from 1 to %(n)d.")
            elif exc.code == "unknown_row":
                message = _("«%(text)s»: the letter must be one of %(rows)s.")
            else:
                message = _("«%(text)s» is not a coordinate: a row letter and a column number, "
                            "%(h)s for a horizontal word, %(v)s for a vertical one.")
            rows = self.style.rows() if not self.style.english else self.style.columns()
            across, down = self.style.example().split(" / ")
            raise forms.ValidationError(message % {"text": text, "n": BOARD_SIZE, "rows": f"{rows[0]}–{rows[-1]}",
                                                   "h": across, "v": down}) from None
        return text


def _letter_ok(ch: str, ruleset: RuleSet) -> bool:
    """One character of a typed word reads as a letter of the rule set (the notation's rule)."""
    try:
        parse_word(ch, ruleset)
    except NotationError:
        return False
    return True


class OverrideForm(ConsoleForm):
    awarded = forms.IntegerField(label=_("awarded"), min_value=-999, max_value=9999)
    warning = forms.BooleanField(label=_("warning"), required=False)
    why = forms.CharField(label=_("reason"), max_length=500,
                          widget=forms.TextInput(attrs={"placeholder": _("reason of the change")}))


class TopForm(ConsoleForm):
    move = forms.CharField(label=_("top"), max_length=40)


class TablesForm(ConsoleForm):
    """Table numbers of every registration: ``table_<registration id>`` fields."""

    def __init__(self, *args: Any, registrations: Iterable[Registration] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.registrations = list(registrations)
        for reg in self.registrations:
            self.fields[f"table_{reg.pk}"] = forms.IntegerField(
                label=reg.player.name, min_value=1, max_value=9999, initial=reg.table_number,
                # named by the column's head and the player's name cell (templates/arbiter/players.html)
                widget=forms.NumberInput(attrs={"class": "table-input",
                                                "aria-labelledby": f"tables-head player-{reg.pk}"}))

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        numbers: dict[int, str] = {}
        for reg in self.registrations:
            n = data.get(f"table_{reg.pk}")
            if n is None:
                continue
            if n in numbers:
                self.add_error(f"table_{reg.pk}", _("Table %(n)d is also given to %(name)s.")
                               % {"n": n, "name": numbers[n]})
            numbers[n] = reg.player.name
        return data

    def rows(self) -> list[tuple[Registration, forms.BoundField]]:
        return [(reg, self[f"table_{reg.pk}"]) for reg in self.registrations]
