"""``manage.py load_demo [--if-missing]``: a demo hall a new user can open at once.

Creates the arbiter ``arbiter`` (password from DEMO_ARBITER_PASSWORD or generated and printed once),
a Russian lexicon (built from pymorphy3, or a fixture word list), a Russian tournament with 30 players,
and a game in progress: rounds played and published through the services, the current round open.
"""

from __future__ import annotations

import os
import random
import secrets
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from lexicon.models import Lexicon, LexiconError
from tournament import services
from tournament.models import Round, Tournament

DEMO_SLUG = "demo"
DEMO_USER = "arbiter"
FALLBACK_FILES = ("fixtures/lexicons/sim-ru.txt", "fixtures/lexicons/ru.txt")

FIRST = ["Александр", "Дмитрий", "Сергей", "Андрей", "Алексей", "Михаил", "Игорь", "Николай", "Павел", "Владимир",
         "Евгений", "Константин", "Юрий", "Олег", "Артём"]
FIRST_F = ["Елена", "Ольга", "Наталья", "Татьяна", "Ирина", "Анна", "Мария", "Светлана", "Екатерина", "Людмила",
           "Галина", "Марина", "Юлия", "Вера", "Ксения"]
LAST = ["Иванов", "Смирнов", "Кузнецов", "Попов", "Соколов", "Лебедев", "Козлов", "Новиков", "Морозов", "Петров",
        "Волков", "Соловьёв", "Васильев", "Зайцев", "Павлов", "Семёнов", "Голубев", "Виноградов", "Богданов",
        "Воробьёв", "Фёдоров", "Михайлов", "Беляев", "Тарасов", "Белов", "Комаров", "Орлов", "Киселёв", "Макаров",
        "Андреев"]
CLUBS = ["Эрудит (Москва)", "Белые ночи (Санкт-Петербург)", "Волга (Самара)", "Уральский слон (Екатеринбург)",
         "Сибирь (Новосибирск)", "Кама (Пермь)"]
CATEGORIES = [("взрослые", 18), ("юниоры", 5), ("ветераны", 7)]
SERIES = [("Элита", 8), ("Высшая", 12), ("Первая", 10)]
PLAYED_ROUNDS = 5


class Command(BaseCommand):
    help = "Loads the demo: arbiter, Russian lexicon, a tournament with 30 players and a game in progress."

    def add_arguments(self, parser):
        parser.add_argument("--if-missing", action="store_true", help="do nothing when the demo tournament exists")
        parser.add_argument("--lexicon-file", help="build the demo lexicon from this word list (UTF-8, one word a "
                                                   "line) instead of pymorphy3")
        parser.add_argument("--rounds", type=int, default=PLAYED_ROUNDS, help="rounds played and published")
        parser.add_argument("--seed", type=int, default=20240517, help="seed of the demo game and slips")

    def handle(self, *args, **opts):
        existing = Tournament.objects.filter(slug=DEMO_SLUG).first()
        if existing is not None:
            if opts["if_missing"]:
                self.stdout.write(f"The demo tournament exists ({existing.name}): nothing to do.")
                self._print_login(None)
                return
            raise CommandError("the demo tournament exists (slug 'demo'); use --if-missing to skip")
        from tournament.celery import app

        saved = (app.conf.task_always_eager, app.conf.task_eager_propagates)
        app.conf.task_always_eager, app.conf.task_eager_propagates = True, True  # solve here, now
        try:
            arbiter, password = self._arbiter()
            lexicon = self._lexicon(opts.get("lexicon_file"))
            tournament, codes = self._tournament(arbiter, lexicon)
            self._game(arbiter, tournament, opts["rounds"], random.Random(opts["seed"]), opts["seed"])
        finally:
            app.conf.task_always_eager, app.conf.task_eager_propagates = saved
        self.stdout.write(self.style.SUCCESS(f"Demo loaded: {tournament.name}"))
        self._print_login(password)
        self.stdout.write("Player access codes (tablets):")
        for reg, code in codes[:3]:
            self.stdout.write(f"  table {reg.table_number:>2}  {reg.player.name:<28} {code}")

    # -- parts -----------------------------------------------------------------------------------------

    def _print_login(self, password: str | None) -> None:
        port = os.environ.get("PORT", "8000")
        self.stdout.write(f"Arbiter console: http://localhost:{port}{settings.LOGIN_URL}")
        if password:
            self.stdout.write(f"  user: {DEMO_USER}   password: {password}   (shown once)")
        else:
            self.stdout.write(f"  user: {DEMO_USER}   password: as printed when the demo was loaded "
                              "(or DEMO_ARBITER_PASSWORD)")

    def _arbiter(self):
        User = get_user_model()
        env_password = os.environ.get("DEMO_ARBITER_PASSWORD")
        user, created = User.objects.get_or_create(username=DEMO_USER, defaults={"is_staff": True})
        password = None
        if created or env_password:
            password = env_password or secrets.token_urlsafe(9)
            user.set_password(password)
            user.is_staff = True
            user.save()
        return user, password

    def _lexicon(self, path: str | None) -> Lexicon:
        from lexicon import services as lexicon_services

        if path:
            return self._from_file(lexicon_services, Path(path))
        ready = Lexicon.objects.filter(name="ru", ruleset="ru", status=Lexicon.Status.READY).order_by("-version")
        if ready.exists():
            return ready.first()
        self.stdout.write("Building the Russian lexicon from pymorphy3 (OpenCorpora, all word forms, about a minute)…")
        try:
            return lexicon_services.build_lexicon("ru", "ru", "ru")
        except (LexiconError, ImportError, OSError) as exc:
            root = Path(settings.BASE_DIR)
            fallback = next((root / f for f in FALLBACK_FILES if (root / f).is_file()), None)
            if fallback is None:
                raise CommandError(f"cannot build the Russian lexicon ({exc}) and no fixture list found") from None
            self.stderr.write(self.style.WARNING(
                f"Could not build the Russian lexicon from pymorphy3 ({exc}); using the small fixture list "
                f"{fallback.relative_to(root)} instead: the demo's words will be few."))
            return self._from_file(lexicon_services, fallback)

    def _from_file(self, lexicon_services, path: Path) -> Lexicon:
        if not path.is_absolute():
            path = Path(settings.BASE_DIR) / path
        if not path.is_file():
            raise CommandError(f"word list not found: {path}")
        name = "ru-demo"
        for row in Lexicon.objects.filter(name=name, status=Lexicon.Status.READY).order_by("-version"):
            if row.options.get("file_sha256") and row.source.startswith(path.name):
                return row
        self.stdout.write(f"Building the demo lexicon from {path.name}…")
        try:
            return lexicon_services.import_wordlist(name, "ru", path)
        except LexiconError as exc:
            raise CommandError(str(exc)) from None

    def _tournament(self, arbiter, lexicon):
        today = timezone.localdate()
        t = services.tournaments.create_tournament(
            arbiter, name="Кубок Москвы по скрэбблу-дубликату (демо)", slug=DEMO_SLUG, ruleset="ru", lexicon=lexicon,
            arbiters=[arbiter], starts_on=today, ends_on=today + timedelta(days=1), venue="Москва, Дом шахмат",
            language=Tournament.Language.RU)
        rng = random.Random(7)
        names = set()
        while len(names) < 30:
            last = rng.choice(LAST)
            if rng.random() < 0.5:
                first, last = rng.choice(FIRST_F), (last[:-1] + "ва" if last.endswith("ий") else last + "а")
            else:
                first = rng.choice(FIRST)
            names.add(f"{last} {first}")
        categories = [c for c, n in CATEGORIES for _ in range(n)]
        series = [s for s, n in SERIES for _ in range(n)]
        rng.shuffle(categories)
        codes = []
        for i, name in enumerate(sorted(names)):
            reg, code = services.players.register_player(
                arbiter, t, name=name, club=rng.choice(CLUBS), category=categories[i], series=series[i],
                licence=f"RU-{1000 + rng.randrange(9000)}")
            codes.append((reg, code))
        return t, codes

    def _slips(self, rnd: Round, regs, rng: random.Random, share: float = 1.0) -> None:
        moves = rnd.top_moves or []
        for reg in regs:
            if rng.random() > share:
                continue
            roll = rng.random()
            if roll < 0.08 or not moves:
                continue  # no slip
            if roll < 0.45:
                m = moves[0]
            else:
                m = rng.choice(moves[: min(len(moves), 20)])
            coord, word = m["move"].split(" ", 1)
            score = m["score"]
            if rng.random() < 0.08:
                score += rng.choice([-3, -2, 2, 4])  # wrong score: true score + warning
            if rng.random() < 0.05 and rnd.number > 1:
                coord = coord[::-1] if coord[0].isalpha() else coord  # reversed direction
            if rnd.number == 1 and rng.random() < 0.5:
                coord = ""
            services.slips.submit_slip(rnd, reg, word=word, coordinates=coord, score=max(score, 0),
                                 source=rng.choice(["tablet", "tablet", "tablet", "paper"]))

    def _game(self, arbiter, t: Tournament, played: int, rng: random.Random, seed: int) -> None:
        game = services.games.create_game(arbiter, t, seed=seed)
        regs = list(t.registrations.order_by("table_number"))
        for _ in range(played):
            rnd = self._draw(arbiter, game)
            if rnd is None:
                return
            rnd.refresh_from_db()
            if rnd.solver_status == Round.SolverStatus.NO_MOVE:
                self.stderr.write(f"round {rnd.number}: the rack {rnd.rack} has no legal move; the demo stops here")
                return
            services.rounds.open_round(arbiter, rnd)
            self._slips(rnd, regs, rng)
            services.rounds.close_round(rnd, arbiter, force=True)
            services.judging.judge_round(rnd, arbiter)
            services.rounds.publish_round(arbiter, rnd)
            game.refresh_from_db()
            if game.status != game.Status.PLAYING:
                return
        rnd = self._draw(arbiter, game)
        if rnd is None:
            return
        services.rounds.open_round(arbiter, rnd)
        rnd.refresh_from_db()
        self._slips(rnd, regs, rng, share=0.6)

    def _draw(self, arbiter, game) -> Round | None:
        for _ in range(5):
            rnd = services.rounds.draw_round(arbiter, game)
            if rnd is not None:
                services.solving.solve_round(rnd)  # here and now (also when on_commit is deferred)
                rnd.refresh_from_db()
                return rnd
        self.stderr.write("could not draw a valid rack; the demo stops here")
        return None
