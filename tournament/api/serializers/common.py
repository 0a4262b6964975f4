"""Serializers every audience shares: errors, tournaments, games, tops, standings, the slip input."""

from __future__ import annotations

from rest_framework import serializers

from tournament.models import Game, Round, Tournament

MAX_WORD = 40
MAX_COORD = 10


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="a clear message")
    code = serializers.CharField(help_text="a stable machine-readable code")
    # DRF's metaclass takes declared fields out of the class, so the errors property stays as it is
    errors = serializers.DictField(  # type: ignore[assignment]
        required=False, help_text="field errors of an invalid request body")

class TournamentSerializer(serializers.ModelSerializer):
    lexicon = serializers.CharField(source="lexicon.label", read_only=True)

    class Meta:
        model = Tournament
        fields = ["id", "slug", "name", "starts_on", "ends_on", "venue", "ruleset", "lexicon", "language",
                  "seconds_per_move", "grace_seconds", "convention", "solo_mode", "solo_bonus", "free_warnings",
                  "free_warnings_fast", "warning_penalty", "tie_break", "assisted_mode"]
        read_only_fields = fields

class GameSerializer(serializers.ModelSerializer):
    status = serializers.CharField(read_only=True, help_text="playing, finished or cancelled")
    variant = serializers.CharField(read_only=True, help_text="the game's variant (RULES §4): classic or joker")
    seconds_per_move = serializers.IntegerField(source="time_per_move", read_only=True,
                                                help_text="the game's time per move (its own, else the tournament's)")
    fast = serializers.BooleanField(read_only=True, help_text="a fast game (2:00 or 1:00 a move)")
    free_warnings = serializers.IntegerField(read_only=True, help_text="the warnings of this game that cost nothing")
    published_rounds = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = ["id", "number", "status", "variant", "seconds_per_move", "fast", "free_warnings", "end_reason",
                  "published_rounds"]
        read_only_fields = fields

    def get_published_rounds(self, game: Game) -> int:
        return game.rounds.filter(status=Round.Status.PUBLISHED).count()

class TopSerializer(serializers.Serializer):
    move = serializers.CharField()
    score = serializers.IntegerField()
    replaced = serializers.CharField(required=False, help_text="the Joker variant: the letters whose tiles replaced "
                                     "on the board the blank the top played (absent when none)")

class SlipInputSerializer(serializers.Serializer):
    word = serializers.CharField(max_length=MAX_WORD, trim_whitespace=True)
    coordinates = serializers.CharField(max_length=MAX_COORD, required=False, allow_blank=True, default="")
    score = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=10000, default=None)

class StandingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    table = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    category = serializers.CharField()
    series = serializers.CharField()
    total = serializers.IntegerField()
    awarded = serializers.IntegerField()
    solos = serializers.IntegerField()
    penalties = serializers.IntegerField()
    warnings = serializers.IntegerField()
    top_total = serializers.IntegerField()
    deficit = serializers.IntegerField()
    percentage = serializers.FloatField()

class StandingGroupSerializer(serializers.Serializer):
    name = serializers.CharField()
    rows = StandingRowSerializer(many=True)

class StandingsSerializer(serializers.Serializer):
    tournament = serializers.CharField()
    game = serializers.IntegerField(allow_null=True)
    group_by = serializers.CharField(allow_null=True)
    top_total = serializers.IntegerField()
    rows = StandingRowSerializer(many=True, help_text="the ranking (empty when grouped)")
    groups = StandingGroupSerializer(many=True, help_text="one ranking per group (when grouped)")
