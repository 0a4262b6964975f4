"""Whom a stream speaks for (:mod:`tournament.live.tokens`): a hall's tablets connecting at once cost one query
together, a stream that comes back within a minute none, and a token logged out since the last read gets the
public event, never the player's own state."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator

from tournament import services
from tournament.live import stream as live_stream
from tournament.live import tokens as live_tokens
from tournament.models import Registration

from .test_stream import fresh_memo, open_round, request  # noqa: F401 (fresh_memo: autouse here too)

pytestmark = pytest.mark.django_db(transaction=True)


def logged_in(alice, tournament, names: list[str]) -> list[tuple[Registration, str]]:
    out = []
    for name in names:
        _reg, code = services.players.register_player(alice, tournament, name=name)
        out.append(services.players.login(code))
    return out


def test_tokens_connecting_together_are_read_in_one_query(alice, tournament):
    tablets = logged_in(alice, tournament, [f"Player {i}" for i in range(12)])

    async def scenario() -> None:
        memory = live_tokens.Tokens()
        holders = await asyncio.gather(*(memory.holder(token) for _reg, token in tablets),
                                       memory.holder("not-a-token"))
        assert memory.queries == 1
        assert [h.player[0] for h in holders[:-1] if h] == [reg.pk for reg, _t in tablets]
        assert all(h is not None and h.tournament_id == tournament.pk for h in holders[:-1])
        assert holders[-1] is None
        again = await memory.holder(tablets[3][1])  # the stream back after a Wi-Fi drop: from the memory
        assert again is holders[3] and memory.queries == 1

    asyncio.run(scenario())


def test_a_batch_is_bounded(alice, tournament, monkeypatch):
    monkeypatch.setattr(live_tokens, "BATCH", 5)
    tablets = logged_in(alice, tournament, [f"Player {i}" for i in range(12)])

    async def scenario() -> None:
        memory = live_tokens.Tokens()
        holders = await asyncio.gather(*(memory.holder(token) for _reg, token in tablets))
        assert all(holders) and memory.queries == 3

    asyncio.run(scenario())


def test_the_database_away_leaves_the_stream_without_its_own_state(monkeypatch):
    def away(_tokens):
        raise OSError("the database does not answer")

    monkeypatch.setattr(live_tokens, "read_tokens", away)

    async def scenario() -> None:
        memory = live_tokens.Tokens()
        assert await memory.holder("some-token") is None
        assert not memory.known  # read again next time

    asyncio.run(scenario())


def own_events(body: str) -> list[dict]:
    return [json.loads(b.split("data: ", 1)[1]) for b in body.split("\n\n") if "event: own" in b]


def test_a_token_logged_out_gets_the_public_event_from_the_next_change(alice, tournament, eager):
    _reg, rnd = open_round(alice, tournament, eager)
    (reg, token), = logged_in(alice, tournament, ["Boris"])

    async def scenario() -> None:
        hub = live_stream.Hub()
        app = live_stream.StreamApp(None, hub=hub)
        scope = {**request(f"/live/stream/{tournament.slug}/"),
                 "headers": [(b"cookie", f"tablet_token={token}".encode())]}
        comm = ApplicationCommunicator(app, scope)
        await comm.send_input({"type": "http.request", "body": b"", "more_body": False})
        await comm.receive_output(3)
        await comm.receive_output(3)

        await sync_to_async(services.rounds.close_round, thread_sensitive=False)(rnd, alice, force=True)
        while not own_events((await comm.receive_output(3)).get("body", b"").decode()):
            pass  # the close: still logged in, its own state

        def log_out_and_judge() -> None:  # the arbiter replaces the card and logs the tablet out
            services.players.save_access_codes(alice, services.players.new_access_codes([reg]), log_out_tablets=True)
            services.judging.judge_round(rnd, alice)

        await sync_to_async(log_out_and_judge, thread_sensitive=False)()
        while True:
            body = (await comm.receive_output(3)).get("body", b"").decode()
            assert not own_events(body), "a logged-out token got the player's own state"
            if "event: state" in body and '"judged"' in body:
                break
        assert hub.tokens.queries == 1  # the stream's token was read once, when it connected
        await comm.send_input({"type": "http.disconnect"})
        await hub.stop()

    asyncio.run(scenario())
