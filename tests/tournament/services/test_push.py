"""The Redis messages of :mod:`tournament.services.push`: a burst of slips tells the streams a few times a second
(the live count is read at most every 0.25 s), and always tells of the last slip."""

from __future__ import annotations

import time

from tournament.services import push


def test_a_burst_of_slips_is_told_a_few_times_a_second_and_the_last_one_always(monkeypatch):
    sent: list[tuple[int, str, float]] = []
    monkeypatch.setattr(push, "publish", lambda tid, channel=push.CHANNEL: sent.append((tid, channel, time.monotonic())))
    monkeypatch.setattr(push, "_slips_sent", {})
    monkeypatch.setattr(push, "_slips_due", set())
    began = time.monotonic()
    for _ in range(200):  # 200 slips within a few milliseconds
        push._tell_slips(7)
    push._tell_slips(8)  # another tournament is told at once
    assert [(t, c) for t, c, _at in sent] == [(7, push.SLIPS_CHANNEL), (8, push.SLIPS_CHANNEL)]
    time.sleep(push.SLIPS_EVERY_SECONDS + 0.3)
    assert [(t, c) for t, c, _at in sent] == [(7, push.SLIPS_CHANNEL), (8, push.SLIPS_CHANNEL), (7, push.SLIPS_CHANNEL)]
    assert sent[2][2] - began >= push.SLIPS_EVERY_SECONDS - 0.01  # the burst's end, told once its interval ended
    time.sleep(push.SLIPS_EVERY_SECONDS + 0.05)
    push._tell_slips(7)  # a quiet while later: at once again
    assert len(sent) == 4
