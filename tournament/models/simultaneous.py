"""One game, many halls (a simultaneous): the organiser's game, its halls, their results, a hall's imported game."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .core import RULESET_CHOICES, VARIANT_CHOICES, Game, Tournament
from .names import NameField


class Simultaneous(models.Model):
    """The organiser's record of a simultaneous game: one prepared game (racks and tops fixed by the engine in
    advance) played the same day in several halls, each on its own server, ranked together."""

    game_id = models.UUIDField(_("game id"), unique=True, editable=False)
    name = NameField(pgettext_lazy("tournament", "name"), max_length=200)
    ruleset = models.CharField(_("rule set"), max_length=16, choices=RULESET_CHOICES)
    variant = models.CharField(_("variant"), max_length=16, choices=VARIANT_CHOICES, default="classic")
    lexicon = models.ForeignKey("lexicon.Lexicon", on_delete=models.PROTECT, related_name="simultaneous_games")
    #: The content hash of the lexicon's compiled file: every hall must play with the same words.
    lexicon_hash = models.CharField(_("lexicon hash"), max_length=64)
    seconds_per_move = models.PositiveSmallIntegerField(_("time per move"), choices=Tournament.SECONDS_CHOICES,
                                                        default=180)
    seed = models.BigIntegerField(_("seed"))
    #: Every round of the game as the engine played it: ``{"round", "rack", "top", "score"}``.
    rounds = models.JSONField(_("rounds"), default=list)
    tie_break = models.CharField(_("tie-break"), max_length=10, choices=Tournament.TieBreak.choices,
                                 default=Tournament.TieBreak.NONE)
    language = models.CharField(_("language"), max_length=2, choices=Tournament.Language.choices,
                                default=Tournament.Language.RU)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name


class SimulHall(models.Model):
    """A hall taking part in a simultaneous, with the key that signs its results."""

    simultaneous = models.ForeignKey(Simultaneous, on_delete=models.CASCADE, related_name="halls")
    code = models.SlugField(_("hall code"), max_length=40)
    name = NameField(_("hall"), max_length=200)
    club = NameField(_("club"), max_length=200, blank=True)
    city = NameField(_("city"), max_length=200, blank=True)
    key = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["simultaneous", "code"]
        constraints = [models.UniqueConstraint(fields=["simultaneous", "code"], name="simul_hall_unique_code")]

    def __str__(self) -> str:
        return f"{self.simultaneous} — {self.name}"


class SimulResult(models.Model):
    """A hall's results as the organiser received them (the last accepted file; earlier ones are in the audit)."""

    class Source(models.TextChoices):
        FILE = "file", _("file")
        API = "api", _("API")

    hall = models.OneToOneField(SimulHall, on_delete=models.CASCADE, related_name="result")
    document = models.JSONField()
    digest = models.CharField(max_length=64)
    source = models.CharField(max_length=4, choices=Source.choices, default=Source.FILE)
    version = models.PositiveSmallIntegerField(default=1)
    received_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.hall} v{self.version}"


class HallGame(models.Model):
    """The hall's side: a game of this server played from a simultaneous game package."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="simultaneous")
    simul_id = models.UUIDField(_("game id"))
    hall = models.CharField(_("hall code"), max_length=40)
    hall_name = NameField(_("hall"), max_length=200)
    key = models.CharField(max_length=64)
    lexicon_hash = models.CharField(_("lexicon hash"), max_length=64)
    package = models.JSONField()
    imported_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["simul_id", "hall"], name="hall_game_unique")]

    def __str__(self) -> str:
        return f"{self.game} ({self.hall})"


__all__ = ["Simultaneous", "SimulHall", "SimulResult", "HallGame"]
