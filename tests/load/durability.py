"""What SQLite's ``synchronous=FULL`` costs a slip on the embedded default (issue 15: a committed slip must
survive a power cut). Each mode gets a fresh database in its own folder on the same disk; slips are submitted
one after another through the service (the cost is the commit's fsync, so there is no need of tablets).

    python -m tests.load.durability --slips 300 [--dir var/durability]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_mode(mode: str, slips: int, folder: Path) -> str:
    """Runs one mode in a child process (its own settings and database) and returns its figures line."""
    var = folder / mode.lower()
    shutil.rmtree(var, ignore_errors=True)
    env = {**os.environ, "DUPLICATE_VAR_DIR": str(var), "DJANGO_SETTINGS_MODULE": "tournament.settings"}
    env.pop("DATABASE_URL", None)
    out = subprocess.run([sys.executable, "-m", "tests.load.durability", "--child", mode, "--slips", str(slips)],
                         cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    shutil.rmtree(var, ignore_errors=True)
    return out.stdout.strip().splitlines()[-1]


def child(mode: str, slips: int) -> None:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from lexicon.models import Lexicon
    from tournament import services
    from tournament.models import Round

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench", password="bench-only")
    lexicon = Lexicon.objects.create(name="bench", ruleset="en", status=Lexicon.Status.READY, version=1,
                                     content_hash="0" * 64, file_path="bench.kwg")
    t = services.tournaments.create_tournament(user, name="Bench", slug="bench", ruleset="en", lexicon=lexicon)
    regs = [services.players.register_player(user, t, name=f"Player {i}")[0] for i in range(slips)]
    game = services.games.create_game(user, t, prepared_racks=["CATSROE"])
    rnd = services.rounds.draw_round(user, game)
    assert rnd is not None
    Round.objects.filter(pk=rnd.pk).update(solver_status=Round.SolverStatus.DONE)
    services.rounds.open_round(user, rnd)
    with connection.cursor() as cursor:
        cursor.execute(f"PRAGMA synchronous={mode}")
        cursor.execute("PRAGMA synchronous")
        level = cursor.fetchone()[0]
    times = []
    for reg in regs:
        started = time.perf_counter()
        services.slips.submit_slip(rnd, reg, word="CARTS", coordinates="H4", score=20)
        times.append((time.perf_counter() - started) * 1000)
    times.sort()

    def at(q: float) -> float:
        return times[min(len(times) - 1, int(q * len(times)))]

    print(f"synchronous={mode} ({level}): {slips} slips, p50 {at(0.5):.2f} ms, p95 {at(0.95):.2f} ms, "
          f"p99 {at(0.99):.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slips", type=int, default=300)
    parser.add_argument("--dir", type=Path, default=ROOT / "var" / "durability")
    parser.add_argument("--child", choices=["NORMAL", "FULL"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.slips)
        return
    for mode in ("NORMAL", "FULL", "NORMAL", "FULL"):
        print(run_mode(mode, args.slips, args.dir), flush=True)


if __name__ == "__main__":
    main()
