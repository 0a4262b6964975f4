"""What the public API shows: published rounds only."""

from __future__ import annotations

from rest_framework import serializers

from .common import GameSerializer, TopSerializer, TournamentSerializer


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
