"""``manage.py simultaneous``: one game, many halls, from the command line.

Organiser::

    python manage.py simultaneous prepare --name "Cup 2026, game 1" --lexicon ru [--variant joker] [--seconds 180]
    python manage.py simultaneous hall GAME --name "Club Paris" [--club …] [--city …] [--code paris]
    python manage.py simultaneous package GAME --hall paris --out paris.json
    python manage.py simultaneous import-results GAME results.json
    python manage.py simultaneous standings GAME [--json]

Hall::

    python manage.py simultaneous import-package --tournament SLUG package.json
    python manage.py simultaneous results --tournament SLUG --game N --out results.json [--send [URL]]

``GAME`` is the game id (a UUID) or its first characters. Exit status: 0 done, 1 refused (the reason on one
line), 2 unusable arguments.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from lexicon.models import Lexicon, LexiconError
from scoring.variants import variant_ids
from tournament.errors import ServiceError
from tournament.models import Game, Simultaneous, Tournament
from tournament.services import simulfiles, simulhall, simultaneous


def _simul(prefix: str) -> Simultaneous:
    found = [s for s in Simultaneous.objects.all() if str(s.game_id).startswith(prefix.lower())]
    if len(found) != 1:
        raise CommandError(f"{len(found)} simultaneous games have an id starting with {prefix!r}", returncode=2)
    return found[0]


def _tournament(slug: str) -> Tournament:
    t = Tournament.objects.filter(slug=slug).first()
    if t is None:
        raise CommandError(f"no tournament with the short name {slug!r}", returncode=2)
    return t


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise CommandError(f"{path}: {exc.strerror or exc}", returncode=2) from None


class Command(BaseCommand):
    help = "A simultaneous game: prepare it, register halls, write packages, import results (organiser); " \
           "import a package, write or send the results (hall)."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        p = sub.add_parser("prepare", help="draw every rack and play every top now")
        p.add_argument("--name", required=True)
        p.add_argument("--lexicon", required=True, metavar="NAME", help="a registered lexicon (its latest version)")
        p.add_argument("--variant", choices=variant_ids(), default="classic")
        p.add_argument("--seconds", type=int, choices=[c for c, _l in Tournament.SECONDS_CHOICES], default=180)
        p.add_argument("--seed", type=int)
        p.add_argument("--language", default="ru", choices=[c for c, _l in Tournament.Language.choices])
        h = sub.add_parser("hall", help="register a hall")
        h.add_argument("game")
        h.add_argument("--name", required=True)
        for name in ("--club", "--city", "--code"):
            h.add_argument(name, default="")
        k = sub.add_parser("package", help="write a hall's game package")
        k.add_argument("game")
        k.add_argument("--hall", required=True, metavar="CODE")
        k.add_argument("--out", required=True, metavar="FILE")
        k.add_argument("--results-url", default="", metavar="URL", help="where the hall may send its results")
        i = sub.add_parser("import-package", help="(hall) a package as the tournament's next game")
        i.add_argument("file")
        i.add_argument("--tournament", required=True, metavar="SLUG")
        r = sub.add_parser("results", help="(hall) write the signed results of a game, or send them")
        r.add_argument("--tournament", required=True, metavar="SLUG")
        r.add_argument("--game", required=True, type=int, metavar="N")
        r.add_argument("--out", metavar="FILE")
        r.add_argument("--send", nargs="?", const="", default=None, metavar="URL",
                       help="send them to the organiser (the package's address unless URL)")
        m = sub.add_parser("import-results", help="a hall's results file")
        m.add_argument("game")
        m.add_argument("file")
        s = sub.add_parser("standings", help="the national standings")
        s.add_argument("game")
        s.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            getattr(self, "do_" + opts["action"].replace("-", "_"))(opts)
        except ServiceError as exc:
            raise CommandError(exc.explained(), returncode=1) from None
        except LexiconError as exc:
            raise CommandError(str(exc), returncode=2) from None

    def do_prepare(self, opts: dict[str, Any]) -> None:
        simul = simultaneous.prepare(None, name=opts["name"], lexicon=Lexicon.latest(opts["lexicon"]),
                                     variant=opts["variant"], seconds_per_move=opts["seconds"], seed=opts["seed"],
                                     language=opts["language"])
        self.stdout.write(f"{simul.game_id} {len(simul.rounds)} rounds, lexicon {simul.lexicon_hash[:12]}…")

    def do_hall(self, opts: dict[str, Any]) -> None:
        hall = simultaneous.add_hall(None, _simul(opts["game"]), name=opts["name"], club=opts["club"],
                                     city=opts["city"], code=opts["code"])
        self.stdout.write(hall.code)

    def do_package(self, opts: dict[str, Any]) -> None:
        hall = simultaneous.hall_of(_simul(opts["game"]), opts["hall"])
        Path(opts["out"]).write_bytes(simulfiles.dumps(simultaneous.package(hall, results_url=opts["results_url"])))
        self.stdout.write(opts["out"])

    def do_import_package(self, opts: dict[str, Any]) -> None:
        game = simulhall.import_package(None, _tournament(opts["tournament"]), _read(opts["file"]))
        self.stdout.write(str(game.number))

    def do_results(self, opts: dict[str, Any]) -> None:
        t = _tournament(opts["tournament"])
        game = Game.objects.filter(tournament=t, number=opts["game"]).first()
        if game is None:
            raise CommandError(f"no game {opts['game']} in {t.slug}", returncode=2)
        if opts["send"] is not None:
            self.stdout.write(json.dumps(simulhall.send_results(None, game, opts["send"]), ensure_ascii=False))
        if opts["out"]:
            Path(opts["out"]).write_bytes(simulfiles.dumps(simulhall.results_file(None, game)))
            self.stdout.write(opts["out"])

    def do_import_results(self, opts: dict[str, Any]) -> None:
        result, outcome = simultaneous.import_results(None, _simul(opts["game"]), _read(opts["file"]))
        self.stdout.write(f"{result.hall.code}: {outcome} (version {result.version})")

    def do_standings(self, opts: dict[str, Any]) -> None:
        rows = simultaneous.national_standings(_simul(opts["game"]))
        if opts["json"]:
            self.stdout.write(json.dumps([{"rank": r.rank, "hall": r.hall.code, **r.player} for r in rows],
                                         ensure_ascii=False, indent=1))
            return
        for r in rows:
            self.stdout.write(f"{r.rank:>4} {r.total:>5}  {r.player['name']} ({r.hall.name})")
