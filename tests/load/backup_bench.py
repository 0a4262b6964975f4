"""What a backup and a restore of a big hall cost (issue 15): a tournament of N players and R published rounds
(a slip, a verdict and an audit row per player and round, the solver's 50 best moves per round) in a fresh
embedded database, its archive written (as the worker does every few minutes, with the lexicon file),
checked, and restored into another fresh database, each in its own process.

    python -m tests.load.backup_bench [--players 1000] [--rounds 40] [--dir var/backup-bench]
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


def child_env(var: Path) -> dict[str, str]:
    env = {**os.environ, "DUPLICATE_VAR_DIR": str(var), "DJANGO_SETTINGS_MODULE": "tournament.settings"}
    for name in ("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL"):
        env.pop(name, None)
    return env


def make_hall(players: int, rounds: int, out: Path) -> None:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.utils import timezone

    from lexicon import services as lexicon_services
    from tests.paths import LEXICONS
    from tournament import services
    from tournament.backup import write_archive
    from tournament.models import AuditLog, Game, Player, Registration, Round, Slip, Tournament, Verdict

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench", password="bench-only")
    lexicon = lexicon_services.import_wordlist("sim-ru", "ru", LEXICONS / "sim-ru.txt")
    t = services.tournaments.create_tournament(user, name="Bench", slug="bench", ruleset="ru", lexicon=lexicon,
                                               arbiters=[user])
    people = Player.objects.bulk_create([Player(name=f"Игрок {i:04d}", club=f"Клуб {i % 40}")
                                         for i in range(players)], batch_size=1000)
    regs = Registration.objects.bulk_create(
        [Registration(tournament=t, player=p, table_number=i + 1, access_code_hash=f"{t.pk}-{i:060d}",
                      access_code_hint="B…") for i, p in enumerate(people)], batch_size=1000)
    now = timezone.now()
    top = [{"move": f"H{i % 15 + 1} СЛОВО", "score": 90 - i, "words": ["СЛОВО"], "bingo": False} for i in range(50)]
    for g in (1, 2):
        game = Game.objects.create(tournament=t, number=g, seed=g, status=Game.Status.FINISHED)
        rnds = Round.objects.bulk_create([Round(game=game, number=n + 1, rack="АБВГДЕЖ", status=Round.Status.PUBLISHED,
                                                top_moves=top, move_count=500, chosen_move="H8 СЛОВО",
                                                chosen_score=40, solver_status=Round.SolverStatus.DONE,
                                                board_before="15/15/15", published_at=now)
                                          for n in range(rounds // 2)])
        for rnd in rnds:
            slips = Slip.objects.bulk_create(
                [Slip(registration=r, round=rnd, word="СЛОВО", coordinates="H8", announced_score=40, received_at=now,
                      idempotency_key=f"{rnd.pk}-{r.pk}") for r in regs], batch_size=1000)
            Verdict.objects.bulk_create(
                [Verdict(registration=s.registration, round=rnd, slip=s, awarded=40, reason="valid",
                         explanation={"key": "valid", "args": {"score": 40}}, true_score=40, move="H8 СЛОВО")
                 for s in slips], batch_size=1000)
            AuditLog.objects.bulk_create(
                [AuditLog(tournament=t, action="slip.submit", object_type="Slip", object_id=str(s.pk),
                          after={"word": "СЛОВО", "coordinates": "H8", "score": 40}) for s in slips], batch_size=1000)
    t = Tournament.objects.get(pk=t.pk)
    started = time.perf_counter()
    manifest = write_archive(out, [t], reason="bench")
    took = time.perf_counter() - started
    rows = sum(manifest["counts"].values())
    print(f"backup: {players} players, {rounds} rounds, {rows} rows: {took:.2f} s, "
          f"{out.stat().st_size / 1e6:.1f} MB (lexicon {manifest['lexicons'][0]['size'] / 1e6:.1f} MB)")


def restore(archive: Path) -> None:
    import django

    django.setup()
    from django.core.management import call_command

    from tournament.backup import read_archive, restore_archive

    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    migrated = time.perf_counter()
    checked = read_archive(archive)
    read = time.perf_counter()
    report = restore_archive(checked)
    done = time.perf_counter()
    print(f"restore into a fresh database: migrate {migrated - started:.2f} s, read and check {read - migrated:.2f} s, "
          f"insert {done - read:.2f} s ({sum(report.counts.values())} rows)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--dir", type=Path, default=ROOT / "var" / "backup-bench")
    parser.add_argument("--child", choices=["make", "restore"], help=argparse.SUPPRESS)
    parser.add_argument("--archive", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child == "make":
        make_hall(args.players, args.rounds, args.archive)
        return
    if args.child == "restore":
        restore(args.archive)
        return
    shutil.rmtree(args.dir, ignore_errors=True)
    archive = args.dir / "bench.zip"
    for step, var in (("make", args.dir / "hall"), ("restore", args.dir / "other-laptop")):
        out = subprocess.run([sys.executable, "-m", "tests.load.backup_bench", "--child", step, "--archive",
                              str(archive), "--players", str(args.players), "--rounds", str(args.rounds)],
                             cwd=ROOT, env=child_env(var), capture_output=True, text=True)
        if out.returncode:
            sys.exit(out.stdout + out.stderr)
        print(out.stdout.strip().splitlines()[-1], flush=True)
    shutil.rmtree(args.dir, ignore_errors=True)


if __name__ == "__main__":
    main()
