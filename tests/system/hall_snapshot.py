"""``python -m tests.system.hall_snapshot SLUG``: what a restore must give back, as JSON on standard output —
the standings, each player's results game by game, the rounds, and the audit log (its own rows of the
restore left out). ``--fingerprint``: the fingerprint an archive of the tournament's present state holds in its
manifest instead. Run in a stack's environment (its var dir, database) from its checkout."""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from typing import Any

import django


def snapshot(slug: str) -> dict[str, Any]:
    from tournament.models import AuditLog, Tournament
    from tournament.services import standings

    t = Tournament.objects.get(slug=slug)

    def plain(obj: Any) -> Any:
        if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            return {f.name: plain(getattr(obj, f.name)) for f in dataclasses.fields(obj) if f.name != "player"}
        if isinstance(obj, list | tuple):
            return [plain(x) for x in obj]
        return obj if isinstance(obj, int | float | str | bool | type(None)) else repr(obj)

    regs = list(t.registrations.select_related("player").order_by("table_number"))
    return {
        "standings": [[s.table, s.player.name, plain(s.line)] for s in standings.tournament_standings(t)],
        "players": {r.player.name: [plain(g) for g in standings.player_game_lines(r)] for r in regs},
        "rounds": [[r.game.number, r.number, r.status, r.rack, r.chosen_move, r.chosen_score]
                   for g in t.games.order_by("number") for r in g.rounds.order_by("number")],
        "audit": [[a.action, a.object_type, a.object_id, a.before, a.after, a.at.isoformat(),
                   a.actor.username if a.actor else None]
                  for a in AuditLog.objects.filter(tournament=t).exclude(action="tournament.restore")
                  .select_related("actor").order_by("at", "id")],
    }


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    django.setup()
    if sys.argv[2:] == ["--fingerprint"]:
        from tournament.backup.archive import fingerprint
        from tournament.models import Tournament

        print(fingerprint(Tournament.objects.get(slug=sys.argv[1])))
        return
    json.dump(snapshot(sys.argv[1]), sys.stdout, ensure_ascii=False, default=str)


if __name__ == "__main__":
    main()
