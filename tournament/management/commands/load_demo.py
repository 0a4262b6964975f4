"""``manage.py load_demo [--if-missing]``: a demo hall a new user can open at once.

Creates the arbiter ``arbiter`` (password from DEMO_ARBITER_PASSWORD or generated and printed once),
a Russian lexicon (built from pymorphy3, or a fixture word list), a Russian tournament with 30 players,
and a game in progress: rounds played and published through the services, the current round open
(:mod:`tournament.demo`).
"""

from __future__ import annotations

import os
import random
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament import demo
from tournament.celery import app
from tournament.models import Tournament


class Command(BaseCommand):
    help = "Loads the demo: arbiter, Russian lexicon, a tournament with 30 players and a game in progress."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--if-missing", action="store_true", help="do nothing when the demo tournament exists")
        parser.add_argument("--lexicon-file", help="build the demo lexicon from this word list (UTF-8, one word a "
                                                   "line) instead of pymorphy3")
        parser.add_argument("--rounds", type=int, default=demo.PLAYED_ROUNDS, help="rounds played and published")
        parser.add_argument("--seed", type=int, default=20240517, help="seed of the demo game and slips")

    def handle(self, *args: Any, **opts: Any) -> None:
        existing = Tournament.objects.filter(slug=demo.DEMO_SLUG).first()
        if existing is not None:
            if opts["if_missing"]:
                self.stdout.write(f"The demo tournament exists ({existing.name}): nothing to do.")
                self._print_login(None)
                return
            raise CommandError("the demo tournament exists (slug 'demo'); use --if-missing to skip")
        saved = (app.conf.task_always_eager, app.conf.task_eager_propagates)
        app.conf.task_always_eager, app.conf.task_eager_propagates = True, True  # solve here, now
        try:
            arbiter, password = demo.arbiter()
            words = demo.demo_lexicon(opts.get("lexicon_file"), self.stdout.write,
                                      lambda text: self.stderr.write(self.style.WARNING(text)))
            tournament, codes = demo.demo_tournament(arbiter, words)
            demo.play_game(arbiter, tournament, opts["rounds"], random.Random(opts["seed"]), opts["seed"],
                           self.stderr.write)
        except demo.DemoError as exc:
            raise CommandError(str(exc)) from None
        finally:
            app.conf.task_always_eager, app.conf.task_eager_propagates = saved
        self.stdout.write(self.style.SUCCESS(f"Demo loaded: {tournament.name}"))
        self._print_login(password)
        self.stdout.write("Player access codes (tablets):")
        for reg, code in codes[:3]:
            self.stdout.write(f"  table {reg.table_number:>2}  {reg.player.name:<28} {code}")

    def _print_login(self, password: str | None) -> None:
        port = os.environ.get("PORT", "8000")
        self.stdout.write(f"Arbiter console: http://localhost:{port}{settings.LOGIN_URL}")
        if password:
            self.stdout.write(f"  user: {demo.DEMO_USER}   password: {password}   (shown once)")
        else:
            self.stdout.write(f"  user: {demo.DEMO_USER}   password: as printed when the demo was loaded "
                              "(or DEMO_ARBITER_PASSWORD)")
