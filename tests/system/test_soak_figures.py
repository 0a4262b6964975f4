"""The whole-day soak's verdict (:mod:`tests.load.dayreport`): what counts as growth from the first game to the last,
and what fails a day."""

from __future__ import annotations

from typing import Any

from tests.load import dayreport as day

MB = 1_000_000


def game(n: int, *, rss: float = 100.0, db: int = 0, newest: int = 0, p95: float = 50.0, open_s: float = 1.2,
         errors: list[str] | None = None, client_errors: int = 0, slept: bool = False) -> dict[str, Any]:
    return {"game": n, "memory": {"web": [rss / 2, rss / 2], "worker": [rss]}, "database": {"db": db, "wal": 0},
            "backups": {"bytes": 0, "archives": 20, "lexicons": 1, "newest": newest}, "slips_p95_ms": p95,
            "open_to_rack_max_s": open_s, "publication_to_result_max_s": 1.5, "errors": errors or [],
            "client_errors": client_errors, "slept": slept}


BEFORE = {"database": {"db": 1 * MB, "wal": 0}, "backups": {"newest": 0}}


def flat_day(**last: Any) -> list[dict[str, Any]]:
    """Four games each adding 2 MB to the database and 0.5 MB to the newest archive; ``last`` changes game 4."""
    games = [game(n, db=(1 + 2 * n) * MB, newest=n * MB // 2) for n in (1, 2, 3)]
    return [*games, game(4, **{"db": 9 * MB, "newest": 2 * MB, **last})]


def check(**counts: int) -> dict[str, Any]:
    return {"lost": 0, "duplicated": 0, "mismatched": 0, "phantom": 0, "verdicts": 5, "registrations": 5,
            "failures": [], **counts}


def test_a_flat_day_passes_though_its_totals_grow():
    assert day.growth(flat_day(), BEFORE) == []
    assert day.day_failures(flat_day(), BEFORE, [check()], None, 20) == []


def test_memory_is_compared_strictly():
    assert day.growth(flat_day(rss=121.0), BEFORE) == ["RSS of web: 100 → 121 MB", "RSS of worker: 100 → 121 MB"]
    assert day.growth(flat_day(rss=119.0), BEFORE) == []


def test_what_a_game_adds_to_the_database_and_the_archive_must_stay_flat():
    found = day.growth(flat_day(db=int(9.5 * MB), newest=int(2.2 * MB)), BEFORE)
    assert found == ["database db added per game: 2.00 → 2.50 MB", "newest archive added per game: 0.50 → 0.70 MB"]


def test_latencies_grow_only_beyond_their_floor():
    assert day.growth(flat_day(p95=140.0, open_s=2.0), BEFORE) == []  # +180 % but under 100 ms; +0.8 s
    assert day.growth(flat_day(p95=151.0, open_s=2.3), BEFORE) == ["slips_p95_ms: 50.0 → 151.0",
                                                                  "open_to_rack_max_s: 1.2 → 2.3"]


def test_a_lost_or_duplicated_slip_an_error_or_too_many_archives_fail_the_day():
    games = flat_day(errors=["web: [CRITICAL] WORKER TIMEOUT (pid:12)"])
    games[1]["client_errors"] = 3
    games[2].update(client_errors=40, slept=True)  # the sleep's timeouts are expected
    games[3]["backups"]["archives"] = 21
    found = day.day_failures(games, BEFORE, [check(lost=1), check(duplicated=2, verdicts=4)], None, 20)
    assert found == ["1 slips lost", "2 slips duplicated", "1 rounds without a verdict for every player",
                     "game 2: 3 client errors (5xx, timeouts)", "game 4 logged: web: [CRITICAL] WORKER TIMEOUT (pid:12)",
                     "21 archives kept (BACKUP_KEEP 20)"]
