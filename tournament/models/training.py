"""Training rows (``tournament/training/``: a finished game played again; never a tournament's rows)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.coords import Convention

from .core import RULESET_CHOICES, VARIANT_CHOICES, Game, Tournament
from .names import NameField


class TrainingGame(models.Model):
    """A finished game offered to training: a tournament game of this server or an imported record, kept as
    its rounds (:class:`scoring.training.TrainingRound`: rack, board before, top) so that nothing a
    training does reads or writes the tournament's rounds again."""

    title = NameField(_("title"), max_length=200)
    #: the tournament game it comes from (None: an imported record)
    source_game = models.OneToOneField(Game, null=True, blank=True, on_delete=models.SET_NULL,
                                       related_name="training")
    ruleset = models.CharField(_("rule set"), max_length=16, choices=RULESET_CHOICES)
    variant = models.CharField(_("variant"), max_length=16, choices=VARIANT_CHOICES, default="classic")
    lexicon = models.ForeignKey("lexicon.Lexicon", on_delete=models.PROTECT, related_name="+")
    seconds_per_move = models.PositiveSmallIntegerField(_("time per move"), choices=Tournament.SECONDS_CHOICES,
                                                        default=180)
    convention = models.CharField(_("coordinates"), max_length=10, default=Convention.DUPLICATE)
    coordinate_script = models.CharField(_("row letters"), max_length=8, default=Tournament.Script.LATIN)
    language = models.CharField(_("language"), max_length=2, choices=Tournament.Language.choices,
                                default=Tournament.Language.RU)
    rounds = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.title

    @property
    def shown_title(self) -> str:
        """The title in the reader's language: a tournament game's is said again ("Кубок Полтави, партія 1"),
        whatever the language of the page that first offered it; an imported record keeps the title it was given."""
        source = self.source_game
        if source is None:
            return self.title
        return gettext("%(tournament)s, game %(n)s") % {"tournament": source.tournament.name, "n": source.number}

    @property
    def top_total(self) -> int:
        return sum(int(r["score"]) for r in self.rounds)


class TrainingClub(models.Model):
    """A club session: one person (the leader, who holds ``leader_key``) starts each round of a training game
    for every run that joined with ``code`` at once."""

    game = models.ForeignKey(TrainingGame, on_delete=models.CASCADE, related_name="clubs")
    name = NameField(_("club"), max_length=100)
    #: what the players type to join (their runs' pages show the session's table at the end)
    code = models.CharField(max_length=16, unique=True)
    #: the leader's page address holds it
    leader_key = models.CharField(max_length=32, unique=True)
    round = models.PositiveSmallIntegerField(default=0)
    started_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} — {self.game}"


class TrainingRun(models.Model):
    """One player's replay of a training game, self-paced: ``round`` is the round played or last played,
    ``started_at`` its start (None between rounds); ``results`` one entry per round judged."""

    game = models.ForeignKey(TrainingGame, on_delete=models.CASCADE, related_name="runs")
    #: a club session's run: its rounds start when the leader starts them
    club = models.ForeignKey(TrainingClub, null=True, blank=True, on_delete=models.CASCADE, related_name="runs")
    name = NameField(_("name"), max_length=100)
    #: the code that resumes the run (its address)
    code = models.CharField(max_length=16, unique=True)
    round = models.PositiveSmallIntegerField(default=0)
    started_at = models.DateTimeField(null=True, blank=True)
    results = models.JSONField(default=list)
    show_moves = models.BooleanField(_("show the best moves"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} — {self.game}"


__all__ = ["TrainingGame", "TrainingClub", "TrainingRun"]
