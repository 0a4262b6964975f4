"""``manage.py simulate``: play whole duplicate games with the tops (RULES §4).

    python manage.py simulate --ruleset ru --lexicon ru --seed 1
    python manage.py simulate --ruleset ru --lexicon ru --seed 1 --json
    python manage.py simulate --ruleset en --lexicon words.txt --seed 1 --gcg game.gcg
    python manage.py simulate --ruleset ru --lexicon ru --seed 1 --games 100
    python manage.py simulate --ruleset fr --lexicon fr --seed 1 --variant joker
    python manage.py simulate --ruleset fr --lexicon fr --seed 1 --variant 7among8

Text output: one line per round (round, rack as leftover+new tiles with its
redraws, top move, score, cumulative score), then the total and why the game
ended. ``--json``: the game record of ``scoring.records``. ``--games K`` plays
the seeds N … N+K−1 and prints one line per game and the games per second
(the game play only, the lexicon being loaded once before). The same seed
always gives the same game. ``--variant joker`` plays the Joker game
(``scoring.variants``: a blank on every rack, replaced on the board by its
letter's tile after the top); ``--variant 7among8`` the 7-among-8 game (racks of 8,
moves of at most 7, the bonus for 7). Bad arguments exit with status 2 and one line.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandError, CommandParser

from lexicon.resolve import LexiconNotFound, open_lexicon
from scoring.draw import sort_tiles
from scoring.game import DuplicateGame
from scoring.records import game_to_gcg, game_to_json
from scoring.rules import RulesError, get_ruleset, ruleset_ids
from scoring.solver import graph_solver
from scoring.variants import variant_ids

from ..cli import one_line_errors


def _usage_error(message: str) -> CommandError:
    return CommandError(message, returncode=2)


def _refuse(message: str) -> NoReturn:
    raise _usage_error(message)


class Command(BaseCommand):
    help = "Play whole duplicate games with the tops (text, JSON or GCG); --games K measures games per second."

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        return one_line_errors(parser, lambda message: sys.stderr.write(f"simulate: error: {message}\n"), _refuse)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--ruleset", required=True, metavar="RS", help=f"rule set: {', '.join(ruleset_ids())}")
        parser.add_argument(
            "--lexicon", required=True, metavar="NAME",
            help="a registered lexicon name, a compiled .kwg file or a word-list file",
        )
        parser.add_argument("--seed", type=int, default=1, metavar="N", help="the seed of the bag (default 1)")
        parser.add_argument("--games", type=int, default=None, metavar="K", help="play seeds N … N+K−1")
        parser.add_argument("--json", action="store_true", help="print the game record as JSON")
        parser.add_argument("--gcg", metavar="FILE", help="also write the game as GCG to FILE (one game)")
        parser.add_argument(
            "--variant", choices=variant_ids(), default="classic", help="the game's variant (default classic)"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            ruleset = get_ruleset(opts["ruleset"])
        except RulesError as exc:
            raise _usage_error(str(exc)) from None
        seed = opts["seed"]
        if seed < 0:
            raise _usage_error(f"--seed must be 0 or more, not {seed}")
        games = opts["games"]
        if games is not None and games < 1:
            raise _usage_error(f"--games must be 1 or more, not {games}")
        if opts["gcg"] and (games or 1) > 1:
            raise _usage_error("--gcg writes one game: leave out --games (or use --games 1)")
        gcg_path = Path(opts["gcg"]) if opts["gcg"] else None
        if gcg_path is not None and not gcg_path.parent.is_dir():
            raise _usage_error(f"cannot write {gcg_path}: the folder {gcg_path.parent} does not exist")

        try:
            graph = open_lexicon(opts["lexicon"], ruleset.id)
        except LexiconNotFound as exc:
            raise _usage_error(str(exc).splitlines()[0]) from None
        solve = graph_solver(ruleset, graph)
        lexicon_name = opts["lexicon"]
        variant = opts["variant"]

        if games is None:
            game = DuplicateGame(ruleset, seed, variant=variant).play_out(solve)
            if opts["json"]:
                self.stdout.write(json.dumps(game_to_json(game, lexicon=lexicon_name), ensure_ascii=False, indent=1))
            else:
                self._table(game)
            if gcg_path is not None:
                self._write_gcg(gcg_path, game, lexicon_name)
            return

        started = time.perf_counter()
        played = []
        for s in range(seed, seed + games):
            game = DuplicateGame(ruleset, s, variant=variant).play_out(solve)
            played.append(game)
        seconds = time.perf_counter() - started
        rate = games / seconds if seconds > 0 else float("inf")
        if opts["json"]:
            records = [game_to_json(g, lexicon=lexicon_name) for g in played]
            self.stdout.write(
                json.dumps(
                    {"games": records, "count": games, "seconds": round(seconds, 3), "games_per_second": round(rate, 2)},
                    ensure_ascii=False,
                )
            )
        else:
            for g in played:
                self.stdout.write(
                    f"seed {g.seed}: {len(g.rounds)} rounds, total {g.total}, "
                    f"{sum(r.redraws for r in g.rounds)} redraws, end: {g.end_message}"
                )
            mean = sum(g.total for g in played) / games
            self.stdout.write(
                f"{games} games ({ruleset.id}{'' if variant == 'classic' else ', ' + variant}, lexicon {lexicon_name}, seeds {seed}–{seed + games - 1}) "
                f"in {seconds:.2f} s: {rate:.1f} games/s; mean top total {mean:.1f}"
            )
        if gcg_path is not None:
            self._write_gcg(gcg_path, played[0], lexicon_name)

    def _write_gcg(self, path: Path, game: DuplicateGame, lexicon: str) -> None:
        try:
            path.write_text(game_to_gcg(game, lexicon=lexicon), encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"cannot write {path}: {exc.strerror or exc}", returncode=1) from None

    def _table(self, game: DuplicateGame) -> None:
        rows = [(str(r.round), r.rack_display(), r.move, str(r.score), str(r.cumulative)) for r in game.rounds]
        head = ("round", "rack", "top", "score", "total")
        widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h) for i, h in enumerate(head)]
        right = {0, 3, 4}

        def line(cells: Sequence[str]) -> str:
            return "  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))).rstrip()

        rs = game.ruleset
        variant = "" if game.variant.classic else f", variant {game.variant.id}"
        self.stdout.write(f"Duplicate game: rule set {rs.id} ({rs.name}){variant}, seed {game.seed}")
        self.stdout.write(line(head))
        for row in rows:
            self.stdout.write(line(row))
        self.stdout.write(f"Total: {game.total} in {len(game.rounds)} rounds")
        left = "".join(sort_tiles(rs, game.tiles_left()))
        self.stdout.write(f"End: {game.end_message}" + (f" (tiles left: {left})" if left else ""))
