"""Bug 7 (issue 14): the ``solve`` command, the console's proposed top and the publication agree among equal scores."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.tools.world import WORDLIST
from tournament import services

pytestmark = pytest.mark.django_db(transaction=False)
#: On the empty board ORES, ROES, ROSE, SORE, TOES… all score 8: several equal tops.
RACK = "EORSTAP"


def command_moves(board_fen: str, rack: str) -> list[str]:
    out = io.StringIO()
    call_command("solve", "--ruleset", "en", "--lexicon", str(WORDLIST), "--board", board_fen, "--rack", rack,
                 "--json", stdout=out)
    return [m["move"] for m in json.loads(out.getvalue())["moves"]]


def test_the_command_first_move_is_the_console_proposal_and_the_published_top(alice, tournament, eager, client):
    game = services.games.create_game(alice, tournament, prepared_racks=[RACK])
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    rnd.refresh_from_db()
    tops = services.solving.tops(rnd)
    assert len(tops) >= 4, tops
    shown = command_moves(rnd.board_before, rnd.rack)
    assert shown[:len(tops)] == [m["move"] for m in tops]
    client.force_login(alice)
    page = client.get(reverse("arbiter:game", args=[tournament.slug, game.number]))
    assert page.context["top"]["move"] == shown[0]
    review = client.get(reverse("arbiter:review", args=[tournament.slug, game.number]))
    assert review.context["tops"][0]["move"] == shown[0]
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    services.rounds.close_round(rnd, alice, force=True)
    services.judging.judge_round(rnd, alice)
    published = services.rounds.publish_round(alice, rnd)
    assert published.chosen_move == shown[0]
