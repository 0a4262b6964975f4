"""Serializers of the tournament API: what each audience may read, and the inputs it may send."""

from __future__ import annotations

from rest_framework import serializers

from tournament.models import AuditLog, Game, Penalty, Registration, Round, Slip, Tournament, Verdict

MAX_WORD = 40
MAX_COORD = 10


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="a clear message")
    code = serializers.CharField(help_text="a stable machine-readable code")
    errors = serializers.DictField(required=False, help_text="field errors of an invalid request body")


# -- tournaments, players, games ------------------------------------------------------------------


class TournamentSerializer(serializers.ModelSerializer):
    lexicon = serializers.CharField(source="lexicon.label", read_only=True)

    class Meta:
        model = Tournament
        fields = ["id", "slug", "name", "starts_on", "ends_on", "venue", "ruleset", "lexicon", "language",
                  "seconds_per_move", "grace_seconds", "convention", "solo_mode", "solo_bonus", "free_warnings",
                  "warning_penalty", "tie_break", "assisted_mode"]
        read_only_fields = fields


class GameSerializer(serializers.ModelSerializer):
    status = serializers.CharField(read_only=True, help_text="playing, finished or cancelled")
    published_rounds = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = ["id", "number", "status", "end_reason", "published_rounds"]
        read_only_fields = fields

    def get_published_rounds(self, game: Game) -> int:
        return game.rounds.filter(status=Round.Status.PUBLISHED).count()


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


# -- rounds -------------------------------------------------------------------------------------------


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


class SlipInputSerializer(serializers.Serializer):
    word = serializers.CharField(max_length=MAX_WORD, trim_whitespace=True)
    coordinates = serializers.CharField(max_length=MAX_COORD, required=False, allow_blank=True, default="")
    score = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=10000, default=None)


class PaperSlipSerializer(SlipInputSerializer):
    table = serializers.IntegerField(min_value=1)
    received_at = serializers.DateTimeField(required=False, help_text="when the slip was handed in (default: now)")


class TabletSlipSerializer(SlipInputSerializer):
    round = serializers.IntegerField(required=False, help_text="the round the slip is for (refused if not current)")


class OwnSlipSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round_id", read_only=True)

    class Meta:
        model = Slip
        fields = ["id", "round", "word", "coordinates", "announced_score", "received_at", "version", "is_current",
                  "late"]
        read_only_fields = fields


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
        return verdict.slip.text if verdict.slip_id else None


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


# -- standings ------------------------------------------------------------------------------------------


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


class AuditLogSerializer(serializers.ModelSerializer):
    actor = serializers.CharField(source="actor.username", read_only=True, default=None)
    before = serializers.JSONField(read_only=True)
    after = serializers.JSONField(read_only=True)

    class Meta:
        model = AuditLog
        fields = ["id", "at", "actor", "action", "object_type", "object_id", "before", "after"]
        read_only_fields = fields


# -- tablet -----------------------------------------------------------------------------------------------


class TabletLoginSerializer(serializers.Serializer):
    code = serializers.CharField(max_length=64, help_text="the personal access code")


class TabletTokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="send as `Authorization: Tablet <token>`")
    tournament = serializers.CharField()
    table = serializers.IntegerField()
    name = serializers.CharField()


class TabletRoundSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.CharField()
    rack = serializers.CharField(allow_null=True, help_text="shown once the round is open")
    deadline = serializers.DateTimeField(allow_null=True)
    seconds_left = serializers.IntegerField(allow_null=True)
    accepting_slips = serializers.BooleanField()


class TabletVerdictSerializer(serializers.Serializer):
    awarded = serializers.IntegerField()
    warning = serializers.BooleanField()
    reason = serializers.CharField()
    message = serializers.CharField(allow_blank=True)
    true_score = serializers.IntegerField(allow_null=True)
    move = serializers.CharField(allow_blank=True)


class TopSerializer(serializers.Serializer):
    move = serializers.CharField()
    score = serializers.IntegerField()


class TabletResultSerializer(serializers.Serializer):
    round_score = serializers.IntegerField()
    solo = serializers.IntegerField()
    total = serializers.IntegerField()
    top_total = serializers.IntegerField()
    rank = serializers.IntegerField()
    players = serializers.IntegerField()


class TabletStateSerializer(serializers.Serializer):
    server_time = serializers.DateTimeField()
    version = serializers.CharField(help_text="the state version this answer shows (the version poll's ETag "
                                              "without quotes): the tablet keeps it as its ETag")
    tournament = serializers.DictField()
    player = serializers.DictField()
    round = TabletRoundSerializer(allow_null=True)
    board = serializers.CharField(allow_blank=True, help_text="board FEN after the last published top")
    slip = OwnSlipSerializer(allow_null=True)
    verdict = TabletVerdictSerializer(allow_null=True, help_text="after publication (before it in assisted mode)")
    top = TopSerializer(allow_null=True, help_text="after publication")
    result = TabletResultSerializer(allow_null=True, help_text="after publication")


# -- public -----------------------------------------------------------------------------------------------


class PublicTournamentSerializer(TournamentSerializer):
    games = GameSerializer(many=True, read_only=True)

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "games"]
        read_only_fields = fields


class PublicRoundSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    number = serializers.IntegerField()
    rack = serializers.CharField()
    top = TopSerializer()
    board_before = serializers.CharField(allow_blank=True)
    board_after = serializers.CharField(allow_blank=True)
    published_at = serializers.DateTimeField()
