"""``manage.py bench_pdf``: how long the standings PDF of a big tournament takes (target ≤ 5 s), or every
player's sheet in one PDF (``--document player-sheets``: what the arbiter prints after a game).

Creates a tournament with ``--players`` players and ``--games`` × ``--rounds`` published rounds (a slip and a
verdict for each player in each round) inside a transaction that is rolled back at the end (nothing stays in
the database), then times what the Celery task does: the fingerprint of the data, the data read, the PDF laid
out. It prints the peak memory of the process as well (the PDF is built in the process that reads the data:
the worker's pool process). The file goes to a temporary folder (or ``--out``).
"""

from __future__ import annotations

import random
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.test.utils import override_settings
from django.utils import timezone, translation

from lexicon.memory import rss_mb
from lexicon.models import Lexicon
from tournament.models import (
    Game,
    Penalty,
    Player,
    Registration,
    Round,
    Slip,
    Solo,
    Tournament,
    Verdict,
    secret_hash,
)
from tournament.printing import build as pdf
from tournament.printing import documents, jobs
from tournament.printing import spec as specs

FIRST = ["Іван", "Ołena", "Łukasz", "Марія", "Пётр", "Zofia", "Jean", "Ёлка", "Ґанна", "Paweł", "Анна", "Émile"]
LAST = ["Ґудзь", "Żółć", "Шевченко", "Kowalczyk", "Ёлкин", "Dupont", "Wiśniewski", "Петров", "Їжакевич",
        "Łęcka-Świętochowska", "Коваленко-Загорулько", "Brzęczyszczykiewicz"]
WORDS = ["ЗАКАЗЧИК", "ЙОД", "ЩЁКА", "ПРОВЕРКА", "ЁЖ", "ЭКСПОНАТ", "ЦАПЛЯ", "ШЪЁМ"]
CLUBS = ["Київ", "Kraków", "Спартак", "Paris", "Łódź", "Одеса", "Wrocław", "Минск", ""]


class _Rollback(Exception):
    pass


class Command(BaseCommand):
    help = "Time the standings PDF of a generated tournament (rolled back afterwards)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=1500)
        parser.add_argument("--games", type=int, default=3)
        parser.add_argument("--rounds", type=int, default=20, help="published rounds per game")
        parser.add_argument("--document", choices=["standings", "player-sheets"], default="standings",
                            help="the standings (default) or every player's sheet in one PDF")
        parser.add_argument("--group-by", choices=specs.GROUPS, help="also time the standings in sections")
        parser.add_argument("--target", type=float, default=None,
                            help="seconds (default 5 for the standings, 0.075 a player for the player sheets)")
        parser.add_argument("--check", action="store_true", help="exit 1 when the target is missed")
        parser.add_argument("--out", help="keep the PDF here")
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, **opts: Any) -> None:
        if not 1 <= opts["players"] <= 20000 or not 1 <= opts["games"] <= 20 or not 1 <= opts["rounds"] <= 40:
            raise CommandError("--players 1..20000, --games 1..20, --rounds 1..40", returncode=2)
        media = Path(tempfile.mkdtemp(prefix="bench-pdf-"))
        results: dict[str, dict[str, float]] = {}
        if opts["target"] is None:
            opts["target"] = 5.0 if opts["document"] == "standings" else 0.075 * opts["players"]
        try:
            with override_settings(MEDIA_ROOT=str(media)):
                try:
                    with transaction.atomic():
                        tournament = self._make(opts)
                        if opts["document"] == "player-sheets":
                            self._time_sheets(tournament, opts, results)
                            raise _Rollback
                        self._time(tournament, None, opts, results)
                        if opts["group_by"]:
                            self._time(tournament, opts["group_by"], opts, results)
                        raise _Rollback
                except _Rollback:
                    pass
        finally:
            shutil.rmtree(media, ignore_errors=True)
        ok = all(r["total"] <= opts["target"] for r in results.values())
        if opts["check"] and not ok:
            raise CommandError(f"the {opts['document']} PDF took longer than {opts['target']:.1f} s", returncode=1)

    def _time_sheets(self, tournament: Tournament, opts: dict[str, Any], results: dict[str, dict[str, float]]
                     ) -> None:
        before = rss_mb("ru_maxrss")
        spec = specs.make_spec(tournament, "player-sheet", player="all")
        t0 = time.perf_counter()
        built = pdf.build(spec)  # what the task does: fingerprint, data, PDF, file
        t1 = time.perf_counter()
        peak = rss_mb("ru_maxrss")
        jobs.give_back_memory()  # as the task does after a document
        after = rss_mb("VmRSS")
        if opts["out"]:
            shutil.copyfile(built.path, opts["out"])
        results["player sheets"] = {"total": t1 - t0}
        verdict = "OK" if t1 - t0 <= opts["target"] else "SLOW"
        self.stdout.write(
            f"player sheets: {opts['players']} players, {opts['games']} games × {opts['rounds']} rounds — "
            f"{t1 - t0:.1f} s ({(t1 - t0) / opts['players'] * 1000:.0f} ms a player), {built.pages} pages, "
            f"{built.path.stat().st_size / 1024 / 1024:.1f} MB [{verdict}, target ≤ {opts['target']:.1f} s]; "
            f"peak memory of the process {peak:.0f} MB ({before:.0f} MB before the PDF, {after:.0f} MB after it, "
            f"its memory given back)")

    def _time(self, tournament: Tournament, group_by: str | None, opts: dict[str, Any],
              results: dict[str, dict[str, float]]) -> None:
        spec = specs.make_spec(tournament, "standings", group_by=group_by)
        resolved = specs.resolve(spec)
        t0 = time.perf_counter()
        pdf.fingerprint(spec, resolved)
        t1 = time.perf_counter()
        with translation.override(tournament.language):
            doc = documents.standings_document(tournament, group_by=group_by)
            t2 = time.perf_counter()
            data = doc.build() or b""
        t3 = time.perf_counter()
        built = pdf.build(spec)  # what the task does: fingerprint, data, PDF, file
        t4 = time.perf_counter()
        again = pdf.build(spec)  # unchanged data: the cached file
        t5 = time.perf_counter()
        if opts["out"]:
            Path(opts["out"]).write_bytes(data)
        name = f"standings{' by ' + group_by if group_by else ''}"
        results[name] = {"total": t4 - t3}
        verdict = "OK" if t4 - t3 <= opts["target"] else "SLOW"
        self.stdout.write(
            f"{name}: {opts['players']} players, {opts['games']} games × {opts['rounds']} rounds — "
            f"fingerprint {t1 - t0:.2f} s, standings {t2 - t1:.2f} s, PDF {t3 - t2:.2f} s "
            f"({doc.page_count} pages, {len(data) / 1024:.0f} KB); "
            f"task total {t4 - t3:.2f} s [{verdict}, target ≤ {opts['target']:.1f} s]; "
            f"again with unchanged data {t5 - t4:.3f} s (cached: {again.cached}, file {built.path.name})"
        )

    def _make(self, opts: dict[str, Any]) -> Tournament:
        rng = random.Random(opts["seed"])
        lexicon = Lexicon.objects.create(name="bench-pdf", ruleset="ru", status=Lexicon.Status.READY, version=1,
                                         content_hash="0" * 64, file_path="none.kwg")
        t = Tournament.objects.create(name="Бенчмарк «Ґудзик» — Łódź", slug=f"bench-pdf-{rng.randrange(10**9)}",
                                      ruleset="ru", lexicon=lexicon, language="ru", starts_on=timezone.localdate(),
                                      venue="Київ")
        n = opts["players"]
        players = Player.objects.bulk_create([
            Player(name=f"{rng.choice(FIRST)} {rng.choice(LAST)} {i}", club=rng.choice(CLUBS),
                   category=rng.choice(["senior", "junior", "veteran", "U12"]), series=rng.choice("ABCD"))
            for i in range(n)])
        regs = Registration.objects.bulk_create([
            Registration(tournament=t, player=p, table_number=i + 1, access_code_hash=secret_hash(f"bench-{t.slug}-{i}"),
                         access_code_hint="BE…")
            for i, p in enumerate(players)])
        now = timezone.now()
        for g in range(opts["games"]):
            game = Game.objects.create(tournament=t, number=g + 1, seed=g, state={}, status=Game.Status.FINISHED)
            rounds = Round.objects.bulk_create([
                Round(game=game, number=r + 1, rack="АБВГДЕЖ", status=Round.Status.PUBLISHED, published_at=now,
                      chosen_move="H8 ТОП", chosen_score=rng.randint(20, 90))
                for r in range(opts["rounds"])])
            slips = Slip.objects.bulk_create([
                Slip(registration=reg, round=rnd, word=rng.choice(WORDS), coordinates=f"{rng.choice('ABCDEFGHIJKLMNO')}"
                     f"{rng.randint(1, 15)}", announced_score=rng.randint(2, 90), received_at=now,
                     idempotency_key=f"bench-{t.pk}-{rnd.pk}-{reg.pk}")
                for rnd in rounds for reg in regs], batch_size=5000)
            verdicts = []
            for slip, (rnd, reg) in zip(slips, ((rnd, reg) for rnd in rounds for reg in regs), strict=True):
                top = rnd.chosen_score or 0
                score = max(0, top - rng.choice([0, 0, 0, 2, 5, 10, 20, top]))
                verdicts.append(Verdict(registration=reg, round=rnd, slip=slip, awarded=score, reason="ok",
                                        warning=rng.random() < 0.02))
            Verdict.objects.bulk_create(verdicts, batch_size=5000)
            Solo.objects.bulk_create([Solo(round=rnd, registration=rng.choice(regs), points=10)
                                      for rnd in rounds[:3]])
            Penalty.objects.bulk_create([Penalty(game=game, registration=rng.choice(regs), points=5,
                                                 kind=Penalty.Kind.WARNINGS) for _ in range(5)])
        return t
