"""Signs the screens show that change no record: the arbiter typing the rack he drew from the bag.

When the hall plays from a physical bag, the arbiter draws the tiles and types them into the console's draw
form; until he sends it, the tablets would still show the last round's results. The console tells the server at
his first key and again while he types (:func:`rack_typing`); the tablets then say that the arbiter is typing the
rack, until the draw or :data:`RACK_TYPING_SECONDS` after his last sign (a form left half-typed stops saying it
by itself). A sign moves the tournament's screen version, as a change does, but writes no audit row: nothing
was decided.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import F
from django.utils import timezone

from ..models import Game, Round, Tournament
from . import games, push

#: Seconds the tablets say "the arbiter is typing the rack" after his last sign.
RACK_TYPING_SECONDS = 45
#: A sign closer than this to the one recorded changes nothing (the tablets know it; no new screen version).
RACK_TYPING_RENEW = 20


def rack_typing(game: Game, now: datetime | None = None) -> bool:
    """The arbiter is typing the rack of the game's next round. False (nothing recorded) when the game is not
    waiting for a draw: finished, or a round drawn and not published yet."""
    now = now or timezone.now()
    current = games.live_rounds(game).order_by("-number", "-id").first()
    if game.status != Game.Status.PLAYING or (current is not None and current.status != Round.Status.PUBLISHED):
        return False
    t = Tournament.objects.filter(pk=game.tournament_id)
    last = t.values_list("rack_typing_at", flat=True).first()
    published = current.published_at if current is not None else None
    if (last is not None and rack_typing_until(last, published) is not None
            and timedelta(0) <= now - last < timedelta(seconds=RACK_TYPING_RENEW)):
        return True  # the screens show the sign already
    t.update(rack_typing_at=now, screen_version=F("screen_version") + 1)
    push.changed(game.tournament_id)
    return True


def rack_typing_until(typing_at: datetime | None, published_at: datetime | None) -> datetime | None:
    """Until when the tablets say the arbiter is typing the next rack: ``typing_at`` (his last sign) shown
    :data:`RACK_TYPING_SECONDS`, when it came after the last round shown was published (``published_at``;
    None: no round yet); else None."""
    if typing_at is None or (published_at is not None and typing_at < published_at):
        return None
    return typing_at + timedelta(seconds=RACK_TYPING_SECONDS)


__all__ = ["RACK_TYPING_RENEW", "RACK_TYPING_SECONDS", "rack_typing", "rack_typing_until"]
