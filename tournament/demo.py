"""The demo hall (``manage.py load_demo``): an arbiter, a Russian lexicon, a tournament of 30 players and a game
in progress, its rounds played and published through the services and the current round open.

Progress and warnings go to the caller's ``say`` / ``warn`` (the command's stdout and stderr).
"""

from __future__ import annotations

import os
import random
import secrets
from collections.abc import Callable, Sequence
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone

from lexicon import services as lexicon_services
from lexicon.models import Lexicon, LexiconError

from .models import Game, Registration, Round, Tournament
from .services import games, judging, players, rounds, slips, solving, tournaments

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

Say = Callable[[str], object]


class DemoError(Exception):
    """The demo cannot be loaded (no lexicon can be built); the message says why."""


def arbiter() -> tuple[User, str | None]:
    """The demo arbiter, and its password when it was set now (DEMO_ARBITER_PASSWORD, else generated)."""
    env_password = os.environ.get("DEMO_ARBITER_PASSWORD")
    user, created = User.objects.get_or_create(username=DEMO_USER, defaults={"is_staff": True})
    password = None
    if created or env_password:
        password = env_password or secrets.token_urlsafe(9)
        user.set_password(password)
        user.is_staff = True
        user.save()
    return user, password


def demo_lexicon(path: str | None, say: Say, warn: Say) -> Lexicon:
    """The word list at ``path``, else the ready ``ru`` lexicon, else one built from pymorphy3 (or, failing
    that, from a fixture word list)."""
    if path:
        return _from_file(Path(path), say)
    ready = Lexicon.objects.filter(name="ru", ruleset="ru", status=Lexicon.Status.READY).order_by("-version").first()
    if ready is not None:
        return ready
    say("Building the Russian lexicon from pymorphy3 (OpenCorpora, all word forms, about a minute)…")
    try:
        return lexicon_services.build_lexicon("ru", "ru", "ru")
    except (LexiconError, ImportError, OSError) as exc:
        root = Path(settings.BASE_DIR)
        fallback = next((root / f for f in FALLBACK_FILES if (root / f).is_file()), None)
        if fallback is None:
            raise DemoError(f"cannot build the Russian lexicon ({exc}) and no fixture list found") from None
        warn(f"Could not build the Russian lexicon from pymorphy3 ({exc}); using the small fixture list "
             f"{fallback.relative_to(root)} instead: the demo's words will be few.")
        return _from_file(fallback, say)


def _from_file(path: Path, say: Say) -> Lexicon:
    if not path.is_absolute():
        path = Path(settings.BASE_DIR) / path
    if not path.is_file():
        raise DemoError(f"word list not found: {path}")
    name = "ru-demo"
    for row in Lexicon.objects.filter(name=name, status=Lexicon.Status.READY).order_by("-version"):
        if row.options.get("file_sha256") and row.source.startswith(path.name):
            return row
    say(f"Building the demo lexicon from {path.name}…")
    try:
        return lexicon_services.import_wordlist(name, "ru", path)
    except LexiconError as exc:
        raise DemoError(str(exc)) from None


def demo_tournament(user: User, words: Lexicon) -> tuple[Tournament, list[tuple[Registration, str]]]:
    """The demo tournament and its 30 players with their access codes."""
    today = timezone.localdate()
    t = tournaments.create_tournament(
        user, name="Кубок Москвы по скрэбблу-дубликату (демо)", slug=DEMO_SLUG, ruleset="ru", lexicon=words,
        arbiters=[user], starts_on=today, ends_on=today + timedelta(days=1), venue="Москва, Дом шахмат",
        language=Tournament.Language.RU, time_zone="Europe/Moscow")
    rng = random.Random(7)
    names: set[str] = set()
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
        reg, code = players.register_player(
            user, t, name=name, club=rng.choice(CLUBS), category=categories[i], series=series[i],
            licence=f"RU-{1000 + rng.randrange(9000)}")
        codes.append((reg, code))
    return t, codes


def _hand_in_slips(rnd: Round, regs: Sequence[Registration], rng: random.Random, share: float = 1.0) -> None:
    """Slips of the players: many tops, other moves of the round, some wrong scores and places, some missing."""
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
        slips.submit_slip(rnd, reg, word=word, coordinates=coord, score=max(score, 0),
                          source=rng.choice(["tablet", "tablet", "tablet", "paper"]))


def play_game(user: User, t: Tournament, played: int, rng: random.Random, seed: int, warn: Say) -> None:
    """A game of ``seed``: ``played`` rounds played, judged and published, then the next round open."""
    game = games.create_game(user, t, seed=seed)
    regs = list(t.registrations.order_by("table_number"))
    for _ in range(played):
        rnd = _draw(user, game, warn)
        if rnd is None:
            return
        rnd.refresh_from_db()
        if rnd.solver_status == Round.SolverStatus.NO_MOVE:
            warn(f"round {rnd.number}: the rack {rnd.rack} has no legal move; the demo stops here")
            return
        rounds.open_round(user, rnd)
        _hand_in_slips(rnd, regs, rng)
        rounds.close_round(rnd, user, force=True)
        judging.judge_round(rnd, user)
        rounds.publish_round(user, rnd)
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return
    rnd = _draw(user, game, warn)
    if rnd is None:
        return
    rounds.open_round(user, rnd)
    rnd.refresh_from_db()
    _hand_in_slips(rnd, regs, rng, share=0.6)


def _draw(user: User, game: Game, warn: Say) -> Round | None:
    for _ in range(5):
        rnd = rounds.draw_round(user, game)
        if rnd is not None:
            solving.solve_round(rnd)  # here and now (also when on_commit is deferred)
            rnd.refresh_from_db()
            return rnd
    warn("could not draw a valid rack; the demo stops here")
    return None


__all__ = ["DEMO_SLUG", "DEMO_USER", "PLAYED_ROUNDS", "DemoError", "arbiter", "demo_lexicon", "demo_tournament",
           "play_game"]
