"""What the arbiter API reads and the inputs it takes."""

from __future__ import annotations

from rest_framework import serializers

from tournament.models import (
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

from .common import GameSerializer, SlipInputSerializer


class ArbiterTokenSerializer(serializers.Serializer):
    token = serializers.CharField(read_only=True, help_text="send as `Authorization: Token <token>`")


class ArbiterGameSerializer(GameSerializer):
    prepared = serializers.SerializerMethodField()
    current_round = serializers.SerializerMethodField()

    class Meta(GameSerializer.Meta):
        fields = [*GameSerializer.Meta.fields, "seed", "prepared", "current_round", "created_at"]
        read_only_fields = fields

    def get_prepared(self, game: Game) -> bool:
        return bool(game.prepared_racks)

    def get_current_round(self, game: Game) -> int | None:
        rnd = game.rounds.exclude(status=Round.Status.CANCELLED).order_by("-number", "-id").first()
        return rnd.pk if rnd else None

class GameCreateSerializer(serializers.Serializer):
    variant = serializers.ChoiceField(choices=[v for v, _name in VARIANT_CHOICES], default="classic", help_text=(
        "the game's variant (RULES §4): classic, or joker (every rack holds a blank; a blank the top played "
        "is replaced on the board by its letter from the bag)"))
    seconds_per_move = serializers.ChoiceField(
        choices=Tournament.SECONDS_CHOICES, required=False, allow_null=True, help_text=(
            "the game's time per move when it differs from the tournament's (a fast game: 120 or 60 seconds, "
            "whose free warnings are the tournament's free_warnings_fast); absent: the tournament's"))
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**62)
    prepared_racks = serializers.ListField(child=serializers.CharField(max_length=20), required=False,
                                           allow_empty=False, max_length=200)

class RegistrationSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="player.name", read_only=True)
    club = serializers.CharField(source="player.club", read_only=True)
    category = serializers.CharField(source="player.category", read_only=True)
    series = serializers.CharField(source="player.series", read_only=True)
    licence = serializers.CharField(source="player.licence", read_only=True)
    tablet_logged_in = serializers.SerializerMethodField()

    class Meta:
        model = Registration
        fields = ["id", "table_number", "name", "club", "category", "series", "licence", "access_code_hint",
                  "tablet_logged_in"]
        read_only_fields = fields

    def get_tablet_logged_in(self, reg: Registration) -> bool:
        return bool(reg.token_hash)

class RegisterSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    club = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    category = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    series = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    licence = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    table_number = serializers.IntegerField(required=False, min_value=1, max_value=100000)

class RegisteredSerializer(RegistrationSerializer):
    access_code = serializers.CharField(read_only=True, help_text="the personal access code, shown only once")

    class Meta(RegistrationSerializer.Meta):
        fields = [*RegistrationSerializer.Meta.fields, "access_code"]
        read_only_fields = fields

class ArbiterRoundSerializer(serializers.ModelSerializer):
    game = serializers.IntegerField(source="game.number", read_only=True)
    tournament = serializers.CharField(source="game.tournament.slug", read_only=True)
    draw_log = serializers.JSONField(read_only=True)
    top_moves = serializers.JSONField(read_only=True)

    class Meta:
        model = Round
        fields = ["id", "tournament", "game", "number", "status", "rack", "leftover", "drawn", "draw_log",
                  "board_before", "opened_at", "deadline", "grace_seconds", "closed_at", "judged_at", "published_at",
                  "solver_status", "solver_error", "move_count", "top_moves", "chosen_move", "chosen_score"]
        read_only_fields = fields

class DrawSerializer(serializers.Serializer):
    typed_rack = serializers.CharField(required=False, allow_blank=False, max_length=20,
                                       help_text="the rack drawn from a physical bag; omit to draw automatically")

class ChooseTopSerializer(serializers.Serializer):
    move = serializers.CharField(max_length=60, help_text='coordinates and word, e.g. "H4 CARTS"')

class RackTypingSerializer(serializers.Serializer):
    shown = serializers.BooleanField(help_text=(
        "the tablets and the hall display now say that the arbiter is typing the next rack (false when the game "
        "is not waiting for a draw: nothing recorded)"))


class WhySerializer(serializers.Serializer):
    why = serializers.CharField(max_length=2000, help_text="the reason, recorded in the audit log")

class PenaltyInputSerializer(serializers.Serializer):
    table = serializers.IntegerField(min_value=1, max_value=100000)
    points = serializers.IntegerField(min_value=1, max_value=1000)
    reason = serializers.CharField(max_length=300)

class PenaltySerializer(serializers.ModelSerializer):
    table = serializers.IntegerField(source="registration.table_number", read_only=True)

    class Meta:
        model = Penalty
        fields = ["id", "table", "kind", "points", "reason", "created_at"]
        read_only_fields = fields

class SlipSerializer(serializers.ModelSerializer):
    table = serializers.IntegerField(source="registration.table_number", read_only=True)
    name = serializers.CharField(source="registration.player.name", read_only=True)
    round = serializers.IntegerField(source="round_id", read_only=True)
    entered_by = serializers.CharField(source="entered_by.username", read_only=True, default=None)

    class Meta:
        model = Slip
        fields = ["id", "round", "table", "name", "word", "coordinates", "announced_score", "received_at", "source",
                  "version", "is_current", "late", "entered_by"]
        read_only_fields = fields

class PaperSlipSerializer(SlipInputSerializer):
    table = serializers.IntegerField(min_value=1)
    received_at = serializers.DateTimeField(required=False, help_text="when the slip was handed in (default: now)")

class VerdictSerializer(serializers.ModelSerializer):
    table = serializers.IntegerField(source="registration.table_number", read_only=True)
    name = serializers.CharField(source="registration.player.name", read_only=True)
    round = serializers.IntegerField(source="round_id", read_only=True)
    slip = serializers.SerializerMethodField()
    overridden_by = serializers.CharField(source="overridden_by.username", read_only=True, default=None)
    history = serializers.JSONField(read_only=True)

    class Meta:
        model = Verdict
        fields = ["id", "round", "table", "name", "slip", "awarded", "warning", "reason", "message", "true_score",
                  "move", "automatic", "overridden_by", "override_reason", "overridden_at", "history"]
        read_only_fields = fields

    def get_slip(self, verdict: Verdict) -> str | None:
        slip = verdict.slip  # None without a query when the verdict has no slip
        return slip.text if slip is not None else None

class OverrideSerializer(serializers.Serializer):
    awarded = serializers.IntegerField(min_value=-1000, max_value=10000)
    warning = serializers.BooleanField()
    why = serializers.CharField(max_length=2000)
    reason = serializers.CharField(max_length=40, required=False, default="override")

class SlipCountSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    status = serializers.CharField()
    registered = serializers.IntegerField()
    received = serializers.IntegerField(help_text="tables with an on-time slip")
    late = serializers.ListField(child=serializers.IntegerField(), help_text="tables with only a late slip")
    missing = serializers.ListField(child=serializers.IntegerField(), help_text="tables without an on-time slip")
    server_time = serializers.DateTimeField()
    deadline = serializers.DateTimeField(allow_null=True)
    seconds_left = serializers.IntegerField(allow_null=True)

class AuditLogSerializer(serializers.ModelSerializer):
    actor = serializers.CharField(source="actor.username", read_only=True, default=None)
    before = serializers.JSONField(read_only=True)
    after = serializers.JSONField(read_only=True)

    class Meta:
        model = AuditLog
        fields = ["id", "at", "actor", "address", "action", "object_type", "object_id", "before", "after"]
        read_only_fields = fields
