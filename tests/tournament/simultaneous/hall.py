"""A hall of a simultaneous game on its own server, for the tests: run in a subprocess with the hall's own
``DUPLICATE_VAR_DIR`` and SQLite database.

    python -m tests.tournament.simultaneous.hall template SIM_EN OTHER  # the database, two lexicons, a tournament
                                                                        # on the other one (copied for each hall)
    python -m tests.tournament.simultaneous.hall play SPEC.json

``play`` makes the hall's tournament and players, imports the package with ``manage.py simultaneous
import-package``, plays the whole game through the services (tablet slips and paper slips typed by the arbiter:
each player hands in one of the round's best moves, some none, one a wrong score), and writes the signed results
with ``manage.py simultaneous results``; it prints what the hall's own standings say, as JSON.
"""

from __future__ import annotations

import json
import os
import sys


def setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    import django

    django.setup()
    from django.conf import settings

    from tournament.celery import app

    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.BACKUP_SECONDS = 0
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True


def template(sim_en: str, other: str) -> None:
    from django.core.management import call_command

    from lexicon import services
    from tournament.services import tournaments

    call_command("migrate", verbosity=0)
    services.import_wordlist("sim-en", "en", sim_en)
    tournaments.create_tournament(None, name="Other words", slug="other", ruleset="en",
                                  lexicon=services.import_wordlist("sim-en-b", "en", other))


def slip_of(moves: list[dict], i: int, round_no: int) -> tuple[str, str, int] | None:
    """Player ``i``'s slip in a round: one of the best moves (the top for some), none now and then."""
    if (i + round_no) % 7 == 3:
        return None
    move = moves[(i * round_no) % min(len(moves), 4)]
    coord, word = move["move"].split()
    score = move["score"] + (1 if (i + round_no) % 11 == 5 else 0)  # a wrong score now and then: a warning
    return coord, word, score


def play(spec: dict) -> dict:
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from lexicon.models import Lexicon
    from tournament.models import Game, Slip
    from tournament.services import games, judging, players, rounds, slips, standings, tournaments

    arbiter = User.objects.create_user("arbiter", password="x")  # noqa: S106 (a test hall)
    t = tournaments.create_tournament(arbiter, name=spec["hall"], slug=spec["slug"], ruleset="en",
                                      lexicon=Lexicon.latest(spec.get("lexicon", "sim-en")), arbiters=[arbiter],
                                      solo_mode="on")
    regs = [players.register_player(arbiter, t, name=n, club=c, series=s, category=k)[0]
            for n, c, s, k in spec["players"]]
    call_command("simultaneous", "import-package", spec["package"], "--tournament", t.slug)
    game = Game.objects.get(tournament=t)
    while game.status == Game.Status.PLAYING:
        rnd = rounds.draw_round(arbiter, game)
        rnd.refresh_from_db()
        rounds.open_round(arbiter, rnd)
        for i, reg in enumerate(regs):
            slip = slip_of(rnd.top_moves, i, rnd.number)
            if slip is not None:
                paper = i % 3 == 2
                slips.submit_slip(rnd, reg, coordinates=slip[0], word=slip[1], score=slip[2],
                                  source=Slip.Source.PAPER if paper else Slip.Source.TABLET,
                                  actor=arbiter if paper else None)
        rounds.close_round(rnd, arbiter, force=True)
        judging.judge_round(rnd, arbiter)
        rounds.publish_round(arbiter, rnd)
        game.refresh_from_db()
    if spec.get("penalty"):
        games.add_penalty(arbiter, game, regs[0], points=spec["penalty"], reason="phone rang")
    call_command("simultaneous", "results", "--tournament", t.slug, "--game", "1", "--out", spec["out"])
    rows = standings.game_standings(game)
    return {r.player.name: {"total": r.total, "rank": r.rank, "scores": r.per_round, "solos": r.solos,
                            "penalties": r.penalties, "warnings": r.warnings} for r in rows}


def main() -> None:
    setup()
    if sys.argv[1] == "template":
        template(sys.argv[2], sys.argv[3])
        return
    with open(sys.argv[2], encoding="utf-8") as f:
        spec = json.load(f)
    print(json.dumps(play(spec), ensure_ascii=False))


if __name__ == "__main__":
    main()
