"""Tournament domain: tournaments, players, games, rounds, slips, verdicts, penalties, solos, audit, code keys.

State changes go through :mod:`tournament.services` (transactions, conditional
status claims, audit log); the models hold data and small helpers only.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring import sheet
from scoring.coords import Convention
from scoring.rules import RULESET_NAMES, ruleset_ids
from scoring.variants import variant_ids

from .names import NameField

RULESET_CHOICES = [(r, f"{r} — {RULESET_NAMES[r]}") for r in ruleset_ids()]
#: A game's variant (:mod:`scoring.variants`, RULES §4 "Variants"), its name in the active language.
VARIANT_NAMES = {"classic": _("Classic"), "joker": _("Joker"), "topping": _("Topping"), "7among8": _("7-among-8")}
VARIANT_CHOICES = [(v, VARIANT_NAMES[v]) for v in variant_ids()]


def seconds_left(deadline: datetime | None, now: datetime) -> int | None:
    """Whole seconds until the deadline (0 once it passed; None without a deadline)."""
    if deadline is None:
        return None
    return max(0, int((deadline - now).total_seconds()))


class CodeKey(models.Model):
    """A key of the keyed hashes of access codes and tablet tokens (the *code key*).

    Not Django's secret key: the code keys are rows of the database, so a backup carries them and a restore
    on another machine keeps every access code and tablet token working. The newest key hashes new codes
    and tokens; every key (a restore may add one from another hall) is tried when one is looked up."""

    key = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"code key {self.pk} ({self.created_at:%Y-%m-%d})"


#: This process's copy of the code keys, newest first, and when it was read (monotonic seconds).
_code_keys: tuple[float, list[bytes]] = (-1e9, [])
#: Seconds a process reuses its copy (a key added by a restore in another process is seen this late).
CODE_KEYS_TTL = 10.0


def code_keys() -> list[bytes]:
    """The code keys, newest first; the first one is made on first use."""
    global _code_keys
    now = time.monotonic()
    read_at, keys = _code_keys
    if keys and now - read_at < CODE_KEYS_TTL:
        return keys
    keys = [k.encode() for k in CodeKey.objects.order_by("-created_at", "-id").values_list("key", flat=True)]
    if not keys:
        CodeKey.objects.get_or_create(key=secrets.token_hex(32))
        keys = [k.encode() for k in CodeKey.objects.order_by("-created_at", "-id").values_list("key", flat=True)]
    _code_keys = (now, keys)
    return keys


def forget_code_keys() -> None:
    """Reads the keys again on next use (after a restore added one, or in tests)."""
    global _code_keys
    _code_keys = (-1e9, [])


def _keyed(key: bytes, value: str) -> str:
    return hmac.new(key, value.strip().upper().encode(), hashlib.sha256).hexdigest()


def secret_hash(value: str) -> str:
    """Keyed hash of an access code or token (HMAC-SHA256 with the newest code key): lookups by value,
    nothing stored in clear."""
    return _keyed(code_keys()[0], value)


def secret_hashes(value: str) -> list[str]:
    """Every hash the value may be stored under: one per code key, then the hash with Django's secret key
    that codes and tokens made before the code keys used (they work on the machine that made them)."""
    return [_keyed(k, value) for k in code_keys()] + [_keyed(settings.SECRET_KEY.encode(), value)]


class Tournament(models.Model):
    class SoloMode(models.TextChoices):
        AUTO = "auto", _("on from 16 players")
        ON = "on", _("on")
        OFF = "off", _("off")

    class TieBreak(models.TextChoices):
        NONE = "none", _("none: equal totals share a rank")
        BACKWARDS = "backwards", _("last game, then last move, backwards")

    class Language(models.TextChoices):
        RU = "ru", "Русский"
        UK = "uk", "Українська"
        PL = "pl", "Polski"
        EN = "en", "English"
        FR = "fr", "Français"

    SECONDS_CHOICES = [(180, "3:00"), (150, "2:30"), (120, "2:00"), (60, "1:00")]

    name = NameField(pgettext_lazy("tournament", "name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    starts_on = models.DateField(_("starts on"), null=True, blank=True)
    ends_on = models.DateField(_("ends on"), null=True, blank=True)
    venue = NameField(_("venue"), max_length=200, blank=True)
    ruleset = models.CharField(_("rule set"), max_length=16, choices=RULESET_CHOICES)
    lexicon = models.ForeignKey("lexicon.Lexicon", on_delete=models.PROTECT, related_name="tournaments")
    seconds_per_move = models.PositiveSmallIntegerField(_("time per move"), choices=SECONDS_CHOICES, default=180)
    grace_seconds = models.PositiveSmallIntegerField(_("grace after the deadline (s)"), default=10)
    class Script(models.TextChoices):
        LATIN = "latin", _("Latin: A B C … O")
        CYRILLIC = "cyrillic", _("Cyrillic: А Б В … П")

    convention = models.CharField(
        _("coordinates"), max_length=10, default=Convention.DUPLICATE,
        choices=[(Convention.DUPLICATE.value, _("duplicate: rows are letters, columns numbers")),
                 (Convention.ENGLISH.value, _("English: columns are letters, rows numbers"))],
    )
    #: The letters of the rows wherever a person reads a coordinate (both are read on input).
    coordinate_script = models.CharField(_("row letters"), max_length=8, choices=Script.choices, default=Script.LATIN)
    #: The hall's time zone: every time shown (pages, PDFs, audit log) is in it.
    time_zone = models.CharField(_("time zone"), max_length=64, default=settings.TIME_ZONE)
    solo_mode = models.CharField(_("solos"), max_length=4, choices=SoloMode.choices, default=SoloMode.AUTO)
    solo_bonus = models.PositiveSmallIntegerField(_("solo bonus"), default=10)
    free_warnings = models.PositiveSmallIntegerField(
        _("free warnings per game"), default=3, help_text=_("3: from the 4th each costs")
    )
    #: RULES §4: "from the 4th warning (option; 6th in fast games)" — games of 2:00 or 1:00 a move.
    free_warnings_fast = models.PositiveSmallIntegerField(
        _("free warnings per fast game"), default=5,
        help_text=_("games of 2:00 or 1:00 a move; 5: from the 6th each costs"))
    warning_penalty = models.PositiveSmallIntegerField(_("warning penalty"), default=5)
    tie_break = models.CharField(_("tie-break"), max_length=10, choices=TieBreak.choices, default=TieBreak.NONE)
    language = models.CharField(_("language"), max_length=2, choices=Language.choices, default=Language.RU)
    arbiters = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="arbitrated_tournaments")
    assisted_mode = models.BooleanField(_("assisted mode"), default=False)
    #: Moves forward with every audited change a screen shows (tournament.services.audit.record).
    screen_version = models.PositiveBigIntegerField(default=0, editable=False)
    #: The arbiter's last sign that he is typing the next rack drawn from the bag (services.signs): shown a while.
    rack_typing_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "name"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    name = NameField(_("name"), max_length=200)
    club = NameField(_("club"), max_length=200, blank=True)
    category = NameField(_("category"), max_length=40, blank=True, help_text=_("age category"))
    series = NameField(_("series"), max_length=40, blank=True)
    licence = NameField(_("licence"), max_length=40, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Registration(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    table_number = models.PositiveIntegerField(_("table"))
    access_code_hash = models.CharField(max_length=64, unique=True)
    access_code_hint = models.CharField(_("access code (hint)"), max_length=16, blank=True)
    #: The code until it is handed out, sealed with a code key (:func:`tournament.services.players.seal_code`).
    access_code_sealed = models.CharField(max_length=96, blank=True, default="")
    token_hash = models.CharField(max_length=64, unique=True, null=True, blank=True)
    #: The hashes of the codes of the cards this player's card replaced (a login with one is told so).
    replaced_codes = models.JSONField(default=list, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "table_number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "table_number"], name="registration_unique_table"),
            models.UniqueConstraint(fields=["tournament", "player"], name="registration_unique_player"),
        ]

    def __str__(self) -> str:
        return f"{self.table_number}: {self.player}"

    def check_access_code(self, code: str) -> bool:
        return any(hmac.compare_digest(self.access_code_hash, h) for h in secret_hashes(code))


class Game(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")
        CANCELLED = "cancelled", _("cancelled")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(_("game"))
    seed = models.BigIntegerField(_("seed"))
    prepared_racks = models.JSONField(_("prepared racks"), null=True, blank=True)
    #: The rules the game is played by next to the tournament's rule set (the engine's state says it too).
    variant = models.CharField(_("variant"), max_length=16, choices=VARIANT_CHOICES, default="classic")
    #: This game's time per move when it differs from the tournament's (a fast game: 2:00, 1:00); None: the tournament's.
    seconds_per_move = models.PositiveSmallIntegerField(
        _("time per move"), choices=Tournament.SECONDS_CHOICES, null=True, blank=True)
    state = models.JSONField(_("game state"), default=dict)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    end_reason = models.CharField(max_length=40, blank=True)
    #: The arbiter's own words when he ends the game (``end_reason`` is then "arbiter").
    end_note = models.CharField(_("end note"), max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="game_unique_number")]

    def __str__(self) -> str:
        return f"{self.tournament} — game {self.number}"

    @property
    def time_per_move(self) -> int:
        """Seconds a move of this game has: its own time, else the tournament's."""
        return self.seconds_per_move or self.tournament.seconds_per_move

    @property
    def fast(self) -> bool:
        """A fast game (2:00 or 1:00 a move, :func:`scoring.sheet.is_fast`): more warnings are free."""
        return sheet.is_fast(self.time_per_move)

    @property
    def free_warnings(self) -> int:
        """The warnings of this game that cost nothing (the tournament's allowance for its kind of game)."""
        return self.tournament.free_warnings_fast if self.fast else self.tournament.free_warnings


class Round(models.Model):
    class Status(models.TextChoices):
        DRAWN = "drawn", _("drawn")
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")
        JUDGED = "judged", _("judged")
        REVIEWED = "reviewed", _("reviewed")
        PUBLISHED = "published", _("published")
        CANCELLED = "cancelled", _("cancelled")

    class SolverStatus(models.TextChoices):
        PENDING = "pending", _("pending")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        NO_MOVE = "no_move", _("no legal move")
        FAILED = "failed", _("failed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    rack = models.CharField(max_length=16)
    leftover = models.CharField(max_length=16, blank=True)
    drawn = models.CharField(max_length=16, blank=True)
    draw_log = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAWN, db_index=True)
    board_before = models.TextField(_("board before (FEN)"), blank=True)
    state_before = models.JSONField(default=dict, blank=True, help_text=_("game state before the draw (corrections)"))
    opened_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    grace_seconds = models.PositiveSmallIntegerField(default=10)
    closed_at = models.DateTimeField(null=True, blank=True)
    judged_at = models.DateTimeField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    top_moves = models.JSONField(default=list, blank=True, help_text=_("best 50 moves from the solver"))
    move_count = models.PositiveIntegerField(null=True, blank=True)
    solver_status = models.CharField(max_length=10, choices=SolverStatus.choices, default=SolverStatus.PENDING)
    solver_key = models.CharField(max_length=64, blank=True, help_text=_("hash of rack + board solved"))
    solver_error = models.TextField(blank=True)
    chosen_move = models.CharField(max_length=40, blank=True)
    chosen_score = models.IntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number"], condition=~Q(status="cancelled"), name="round_unique_live_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} — round {self.number}"

    def seconds_left(self, now: datetime) -> int | None:
        return seconds_left(self.deadline, now)


class Slip(models.Model):
    """One version of a player's slip; every version is kept, the current one counts."""

    class Source(models.TextChoices):
        TABLET = "tablet", _("tablet")
        PAPER = "paper", _("paper")
        ARBITER = "arbiter", _("arbiter")
        TIME = "time", _("time recorded by the arbiter")  # topping: a player's time typed by hand

    registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="slips")
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="slips")
    word = models.CharField(max_length=40)
    coordinates = models.CharField(max_length=10, blank=True)
    announced_score = models.PositiveIntegerField(null=True, blank=True)
    received_at = models.DateTimeField()
    source = models.CharField(max_length=8, choices=Source.choices, default=Source.TABLET)
    idempotency_key = models.CharField(max_length=80, unique=True)
    version = models.PositiveSmallIntegerField(default=1)
    is_current = models.BooleanField(default=True)
    late = models.BooleanField(default=False)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    #: A topping game's attempt, judged when it came: the top (True) or not (False); None outside topping.
    topped = models.BooleanField(null=True, blank=True)
    #: A topping attempt: the points its move makes (None: not a legal move).
    points = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["round", "registration", "version"]
        constraints = [
            models.UniqueConstraint(fields=["registration", "round", "version"], name="slip_unique_version"),
            models.UniqueConstraint(
                fields=["registration", "round"], condition=Q(is_current=True), name="slip_one_current"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.registration} r{self.round.number} v{self.version}: {self.text}"

    @property
    def text(self) -> str:
        parts = [self.coordinates, self.word, "" if self.announced_score is None else str(self.announced_score)]
        return " ".join(p for p in parts if p)


class Verdict(models.Model):
    registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="verdicts")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="verdicts")
    slip = models.ForeignKey(Slip, null=True, blank=True, on_delete=models.PROTECT, related_name="verdicts")
    awarded = models.IntegerField(default=0)
    warning = models.BooleanField(default=False)
    reason = models.CharField(max_length=40)
    message = models.TextField(blank=True)
    #: The engine's explanation as data (scoring.messages.Message.to_json); shown by tournament.labels.explain.
    explanation = models.JSONField(null=True, blank=True)
    true_score = models.IntegerField(null=True, blank=True)
    move = models.CharField(max_length=40, blank=True)
    automatic = models.BooleanField(default=True)
    overridden_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                      related_name="+")
    override_reason = models.TextField(blank=True)
    overridden_at = models.DateTimeField(null=True, blank=True)
    history = models.JSONField(default=list, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["round", "registration"]
        constraints = [models.UniqueConstraint(fields=["registration", "round"], name="verdict_unique")]

    def __str__(self) -> str:
        return f"{self.registration} r{self.round.number}: {self.awarded}"

    def snapshot(self) -> dict:
        return {"awarded": self.awarded, "warning": self.warning, "reason": self.reason, "message": self.message,
                "true_score": self.true_score, "automatic": self.automatic}


class Penalty(models.Model):
    class Kind(models.TextChoices):
        WARNINGS = "warnings", _("warnings over the free allowance")
        OTHER = "other", _("arbiter's penalty")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="penalties")
    registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="penalties")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.OTHER)
    points = models.PositiveIntegerField()
    reason = models.TextField(blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "registration", "id"]


class Solo(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="solos")
    registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="solos")
    points = models.PositiveIntegerField(default=10)

    class Meta:
        ordering = ["round", "registration"]
        constraints = [models.UniqueConstraint(fields=["round", "registration"], name="solo_unique")]


class AuditLog(models.Model):
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")
    tournament = models.ForeignKey(Tournament, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    action = models.CharField(max_length=40, db_index=True)
    object_type = models.CharField(max_length=40)
    object_id = models.CharField(max_length=40)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    #: Where the change came from (the client's address; behind a trusted proxy, the one the proxy saw).
    address = models.CharField(max_length=64, blank=True, null=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.action} {self.object_type}#{self.object_id}"


__all__ = ["RULESET_CHOICES", "VARIANT_NAMES", "VARIANT_CHOICES", "seconds_left", "CodeKey", "CODE_KEYS_TTL", "code_keys", "forget_code_keys", "secret_hash", "secret_hashes", "Tournament", "Player", "Registration", "Game", "Round", "Slip", "Verdict", "Penalty", "Solo", "AuditLog"]
