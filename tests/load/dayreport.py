"""The whole-day soak's figures and verdict (:mod:`tests.load.day`, whose doc says what is compared and why):
one line per game, what grew from the first game to the last, every reason the day failed."""

from __future__ import annotations

from typing import Any

Row = dict[str, Any]

#: Growth allowed from the first game to the last.
GROWTH = 0.20
#: Floors under which a difference is not growth: bytes (sizes per game), ms (slips p95), s (real time).
SIZE_FLOOR, SLIP_FLOOR_MS, REAL_TIME_FLOOR_S = 64 * 1024, 100.0, 1.0


def game_line(g: Row) -> str:
    mem = "; ".join(f"{name} " + "+".join(f"{v:.0f}" for v in values) for name, values in g["memory"].items())
    db = ", ".join(f"{k} {v / 1e6:.1f}" for k, v in g["database"].items())
    pdfs = ", ".join(f"{p['kind']} {p['seconds']} s" for p in g["pdfs"])
    return (f"game {g['game']}: {g['rounds']} rounds, slips p95 {g['slips_p95_ms']} ms ({g['slip_requests']} "
            f"requests), open → rack max {g['open_to_rack_max_s']} s, publication → result max "
            f"{g['publication_to_result_max_s']} s; RSS MB {mem}; database MB {db}; backups "
            f"{g['backups']['bytes'] / 1e6:.1f} MB ({g['backups']['archives']} archives, newest "
            f"{g['backups']['newest'] / 1e6:.2f} MB, {g['backups']['lexicons']} lexicon file); server errors "
            f"{len(g['errors'])}, client errors {g['client_errors']}" + (" (the sleep's game)" if g["slept"] else "")
            + (f"; PDFs {pdfs}" if pdfs else ""))


def grew(first: float | None, last: float | None, floor: float) -> bool:
    """``last`` more than 20 % above ``first`` and by more than ``floor``."""
    if first is None or last is None:
        return False
    return last > first * (1 + GROWTH) and last - first > floor


def growth(games: list[Row], before: Row) -> list[str]:
    """What grew from the first game to the last (see the module's doc); ``before``: the sizes before game 1."""
    if len(games) < 2:
        return []
    first, last, second_last = games[0], games[-1], games[-2]
    found = []
    for name in first["memory"]:
        a, b = sum(first["memory"][name]), sum(last["memory"].get(name, []))
        if grew(a, b, 0):
            found.append(f"RSS of {name}: {a:.0f} → {b:.0f} MB")
    for key in first["database"]:
        a = first["database"][key] - before["database"].get(key, 0)
        b = last["database"][key] - second_last["database"][key]
        if not key.endswith("wal") and grew(a, b, SIZE_FLOOR):
            found.append(f"database {key} added per game: {a / 1e6:.2f} → {b / 1e6:.2f} MB")
    a = first["backups"]["newest"] - before["backups"]["newest"]
    b = last["backups"]["newest"] - second_last["backups"]["newest"]
    if grew(a, b, SIZE_FLOOR):
        found.append(f"newest archive added per game: {a / 1e6:.2f} → {b / 1e6:.2f} MB")
    for key, floor in (("slips_p95_ms", SLIP_FLOOR_MS), ("open_to_rack_max_s", REAL_TIME_FLOOR_S),
                       ("publication_to_result_max_s", REAL_TIME_FLOOR_S)):
        if grew(first[key], last[key], floor):
            found.append(f"{key}: {first[key]} → {last[key]}")
    return found


def day_failures(games: list[Row], before: Row, checks: list[Row], slept: Row | None, limit: int) -> list[str]:
    """Every reason the day failed: growth, lost or duplicated slips, errors, the archives kept."""
    found = growth(games, before)
    for key in ("lost", "duplicated", "mismatched", "phantom"):
        n = sum(c[key] for c in checks)
        if n:
            found.append(f"{n} slips {key}")
    short = [c for c in checks if c["verdicts"] != c["registrations"]]
    if short:
        found.append(f"{len(short)} rounds without a verdict for every player")
    found += [f"check: {f}" for c in checks for f in c["failures"][:3]]
    for g in games:
        found += [f"game {g['game']} logged: {e}" for e in g["errors"][:5]]
        if g["client_errors"] and not g["slept"]:
            found.append(f"game {g['game']}: {g['client_errors']} client errors (5xx, timeouts)")
    if games and games[-1]["backups"]["archives"] > limit:
        found.append(f"{games[-1]['backups']['archives']} archives kept (BACKUP_KEEP {limit})")
    if slept is not None and not slept["answered"]:
        found.append("the web server did not answer within 2 minutes of the sleep's end")
    return found
