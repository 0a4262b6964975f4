"""A simultaneous game as rows (no engine): for the permission matrices and the pages' tests."""

from __future__ import annotations

import uuid

from tournament.models import SimulHall, Simultaneous

ROUNDS = [{"round": 1, "rack": "CATSROE", "top": "H4 CARTS", "score": 20},
          {"round": 2, "rack": "OE+DRSZ?", "top": "5E ZOEs", "score": 30}]


def simul_rows(lexicon, *, halls: tuple[str, ...] = ("paris",)) -> Simultaneous:
    simul = Simultaneous.objects.create(game_id=uuid.uuid4(), name="Coupe", ruleset=lexicon.ruleset,
                                        lexicon=lexicon, lexicon_hash=lexicon.content_hash, seed=1, rounds=ROUNDS)
    for code in halls:
        SimulHall.objects.create(simultaneous=simul, code=code, name=code.title(), key="k" * 64)
    return simul
