"""What a backup and a restore of a big hall cost: a tournament of N players and R published rounds (a slip, a
verdict and an audit row per player and round, the solver's 50 best moves per round) in a fresh embedded
database; its automatic backups written as the worker writes them (the first copies the lexicon file once
beside the archives, each next one follows a change: the CPU and the size of each), a manual archive with the
lexicon inside; then the newest automatic archive and the lexicon file beside it, copied to another folder,
checked and restored into another fresh database (whose own backup folder is empty), each step in its own
process.

    python -m tests.load.backup_bench [--players 1000] [--rounds 40] [--wordlist FILE] [--dir var/backup-bench]

``--wordlist``: the lexicon's words (default the fixture ``sim-ru.txt``, 0.3 MB compiled; e.g. the Russian
list of ``lexicon export`` for a 58 MB file).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def child_env(var: Path) -> dict[str, str]:
    env = {**os.environ, "DUPLICATE_VAR_DIR": str(var), "DJANGO_SETTINGS_MODULE": "tournament.settings",
           "BACKUP_DIR": str(var / "backups")}
    for name in ("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL"):
        env.pop(name, None)
    return env


def make_hall(players: int, rounds: int, wordlist: Path) -> Any:
    """The tournament (the database of this process: DUPLICATE_VAR_DIR)."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.utils import timezone

    from lexicon import services as lexicon_services
    from tournament import services
    from tournament.models import AuditLog, Game, Player, Registration, Round, Slip, Tournament, Verdict

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench", password="bench-only")
    lexicon = lexicon_services.import_wordlist("bench-ru", "ru", wordlist)
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
    return Tournament.objects.get(pk=t.pk)


def timed(step: Callable[[], Any]) -> tuple[Any, float, float]:
    """What the step returns, its CPU seconds (this process) and its wall seconds."""
    cpu, wall = time.process_time(), time.perf_counter()
    out = step()
    return out, time.process_time() - cpu, time.perf_counter() - wall


def back_ups(players: int, rounds: int, wordlist: Path, usb: Path, changes: int) -> None:
    import django

    django.setup()
    from django.conf import settings

    from tournament.backup import automatic, read_archive, write_archive
    from tournament.models import AuditLog

    t = make_hall(players, rounds, wordlist)
    lexicon_mb = t.lexicon.file_size / 1e6
    first, cpu, wall = timed(lambda: automatic.back_up(t, reason="bench", force=True))
    rows = sum(read_archive(first.path).manifest["counts"].values())
    print(f"hall: {players} players, {rounds} rounds, {rows} rows; lexicon file {lexicon_mb:.1f} MB")
    print(f"first automatic backup (copies the lexicon beside it once): CPU {cpu:.2f} s, wall {wall:.2f} s, "
          f"{first.size / 1e6:.2f} MB")
    cpus, walls = [], []
    for i in range(changes):
        time.sleep(1.05)  # a new name (one archive per second and tournament)
        AuditLog.objects.create(tournament=t, action="slip.submit", object_type="Slip", object_id=f"bench-{i}",
                                after={"word": "СЛОВО"})
        written, cpu, wall = timed(lambda: automatic.back_up(t, reason="bench"))
        assert written is not None
        cpus.append(cpu)
        walls.append(wall)
    print(f"next automatic backups (each after a change, {changes} runs): CPU median {statistics.median(cpus):.2f} s "
          f"(min {min(cpus):.2f}, max {max(cpus):.2f}), wall median {statistics.median(walls):.2f} s, "
          f"{written.size / 1e6:.2f} MB each; the folder holds one lexicon file")
    manual = usb.parent / "manual.zip"
    _m, cpu, wall = timed(lambda: write_archive(manual, [t], reason="bench"))
    print(f"manual backup (lexicon inside, stored): CPU {cpu:.2f} s, wall {wall:.2f} s, "
          f"{manual.stat().st_size / 1e6:.1f} MB")
    usb.mkdir(parents=True)
    shutil.copy2(written.path, usb / "hall.zip")
    for path in Path(settings.BACKUP_DIR).glob("lexicon-*.kwg"):
        shutil.copy2(path, usb / path.name)


def restore(usb: Path) -> None:
    import django

    django.setup()
    from django.core.management import call_command

    from tournament.backup import read_archive, restore_archive

    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    migrated = time.perf_counter()
    checked = read_archive(usb / "hall.zip")
    read = time.perf_counter()
    report = restore_archive(checked)
    done = time.perf_counter()
    print(f"restore of the automatic archive into a fresh database (the lexicon file beside it: "
          f"{', '.join(report.lexicons_copied)} copied): migrate {migrated - started:.2f} s, "
          f"read and check {read - migrated:.2f} s, insert {done - read:.2f} s ({sum(report.counts.values())} rows)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--wordlist", type=Path, default=ROOT / "fixtures" / "lexicons" / "sim-ru.txt")
    parser.add_argument("--changes", type=int, default=5, help="automatic backups timed after the first")
    parser.add_argument("--dir", type=Path, default=ROOT / "var" / "backup-bench")
    parser.add_argument("--child", choices=["make", "restore"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    usb = args.dir.resolve() / "usb"
    if args.child == "make":
        back_ups(args.players, args.rounds, args.wordlist.resolve(), usb, args.changes)
        return
    if args.child == "restore":
        restore(usb)
        return
    shutil.rmtree(args.dir, ignore_errors=True)
    for step, var in (("make", args.dir / "hall"), ("restore", args.dir / "other-laptop")):
        out = subprocess.run([sys.executable, "-m", "tests.load.backup_bench", "--child", step, "--dir", str(args.dir),
                              "--players", str(args.players), "--rounds", str(args.rounds), "--wordlist",
                              str(args.wordlist.resolve()), "--changes", str(args.changes)],
                             cwd=ROOT, env=child_env(var.resolve()), capture_output=True, text=True)
        if out.returncode:
            sys.exit(out.stdout + out.stderr)
        for line in out.stdout.strip().splitlines():
            if not line.startswith(("Operations", "  Apply")):
                print(line, flush=True)
    shutil.rmtree(args.dir, ignore_errors=True)


if __name__ == "__main__":
    main()
