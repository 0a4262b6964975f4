"""What a tablet reads (its state, its own slip) and sends (login, slip, assisted-mode tiles)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework import serializers

from tournament.models import Slip, Tournament

from .common import SlipInputSerializer, TopSerializer


class TabletLoginSerializer(serializers.Serializer):
    code = serializers.CharField(max_length=64, help_text="the personal access code")
    language = serializers.ChoiceField(choices=Tournament.Language.choices, required=False,
                                       help_text="the language the player picked on the tablet: a refusal is said in "
                                                 "it (else a replaced card is told in its hall's language)")

class TabletTokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="send as `Authorization: Tablet <token>`")
    tournament = serializers.CharField()
    table = serializers.IntegerField()
    name = serializers.CharField()

class ToppingAnswerSerializer(serializers.Serializer):
    topped = serializers.BooleanField(help_text="the attempt was the top: the player's round is over")
    points = serializers.IntegerField(allow_null=True, help_text="the attempt's points (null: not a legal move)")
    seconds = serializers.IntegerField(allow_null=True, help_text="when topped: the player's time, in seconds from "
                                       "the round's opening (server clock)")
    attempts = serializers.IntegerField(help_text="the player's attempts in this round so far")


class OwnSlipSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round_id", read_only=True)
    seconds = serializers.IntegerField(allow_null=True, read_only=True, help_text=(
        "a topping attempt that was the top: the player's time in seconds from the round's opening"))
    # an answer's field that may be absent: not read_only, which the schema would list as always there (this
    # serializer only writes answers)
    topping = ToppingAnswerSerializer(required=False, help_text=(
        "the answer to a topping game's attempt (only in the answer to a slip of a topping game)"))

    class Meta:
        model = Slip
        fields = ["id", "round", "word", "coordinates", "announced_score", "received_at", "version", "is_current",
                  "late", "source", "topped", "points", "seconds", "topping"]
        read_only_fields = fields

class TabletSlipSerializer(SlipInputSerializer):
    round = serializers.IntegerField(required=False, help_text="the round the slip is for (refused if not current)")

class TabletRoundSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.CharField()
    rack = serializers.CharField(allow_null=True, help_text="shown once the round is open")
    rack_size = serializers.IntegerField(help_text="tiles on the rack (8 in a 7-among-8 game), known before it opens")
    deadline = serializers.DateTimeField(allow_null=True)
    seconds_left = serializers.IntegerField(allow_null=True)
    seconds_per_move = serializers.IntegerField(help_text="the game's time per move (2:00 or 1:00 in a fast game)")
    accepting_slips = serializers.BooleanField()
    rack_source = serializers.CharField(help_text="how the rack came: random (the computer drew it), typed (the arbiter "
                                             "typed the rack drawn from a bag), prepared")
    redraws = serializers.ListField(child=serializers.DictField(), help_text="racks of the round that went back "
                                    "into the bag: {rack, reason} (vowels, consonants, vowels_consonants, no_move)")
    variant = serializers.CharField(help_text="the game's variant: classic, joker, topping (the tablet answers each "
                                    "attempt at once: the top, or try again)")

class TabletVerdictSerializer(serializers.Serializer):
    awarded = serializers.IntegerField()
    warning = serializers.BooleanField()
    reason = serializers.CharField()
    message = serializers.CharField(allow_blank=True)
    true_score = serializers.IntegerField(allow_null=True)
    move = serializers.CharField(allow_blank=True)

class TabletResultSerializer(serializers.Serializer):
    round_score = serializers.IntegerField()
    solo = serializers.IntegerField()
    total = serializers.IntegerField()
    top_total = serializers.IntegerField()
    rank = serializers.IntegerField()
    players = serializers.IntegerField()
    time_total = serializers.IntegerField(required=False, help_text="a topping game: the total time in seconds "
                                          "(it ranks the game)")
    time_rank = serializers.IntegerField(required=False, help_text="a topping game: the rank by total time")
    topped = serializers.IntegerField(required=False, help_text="a topping game: the rounds the player topped")

class TabletGameResultSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    total = serializers.IntegerField()
    top_total = serializers.IntegerField()
    rank = serializers.IntegerField()

class TabletTournamentResultSerializer(serializers.Serializer):
    total = serializers.IntegerField(help_text="the player's total over every game, corrections included")
    top_total = serializers.IntegerField()
    rank = serializers.IntegerField(help_text="his rank in the tournament's standings")
    players = serializers.IntegerField()
    games = TabletGameResultSerializer(many=True, help_text="each finished game but the one of the state's round")

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
    game_over = serializers.DictField(allow_null=True, help_text="after the game's end: {game, reason (code), note "
                                      "(the arbiter's words), total, top_total, rank, players; a topping game: time_total, "
                                      "time_rank}")
    tournament_result = TabletTournamentResultSerializer(allow_null=True, help_text=(
        "with a published round's result or the game over, in a tournament of several games: the tournament's "
        "total and rank and each other finished game's result"))
    rack_typing_until = serializers.DateTimeField(allow_null=True, help_text=(
        "waiting for a draw: the arbiter is typing the rack drawn from the bag; the tablet says so until then "
        "(on the server's clock) or the draw"))


class PlacementInput(serializers.Serializer):
    row = serializers.IntegerField(min_value=0, max_value=14)
    col = serializers.IntegerField(min_value=0, max_value=14)
    letter = serializers.CharField(max_length=2)
    blank = serializers.BooleanField(default=False)


class AssistInput(serializers.Serializer):
    placements = PlacementInput(many=True, required=False)
    move = serializers.CharField(max_length=60, required=False, help_text="or a written move: «H8 WORD»")
    cyrillic = serializers.BooleanField(default=False, help_text="Cyrillic row labels in the answer")

    def validate(self, attrs: dict) -> dict:
        if not attrs.get("placements") and not attrs.get("move"):
            raise serializers.ValidationError(_("Place tiles on the board or write a move."))
        return attrs


class AssistOutput(serializers.Serializer):
    legal = serializers.BooleanField()
    code = serializers.CharField(allow_null=True)
    error = serializers.CharField(allow_null=True)
    move = serializers.CharField(allow_null=True)
    coordinates = serializers.CharField(allow_null=True)
    word = serializers.CharField(allow_null=True)
    score = serializers.IntegerField(allow_null=True)
    bingo = serializers.BooleanField()
    words = serializers.ListField(child=serializers.DictField())
