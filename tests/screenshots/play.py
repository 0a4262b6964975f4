"""The play the screenshots are taken from: one hall, six players, a game of two rounds through the real pages. Two
tablets log in (one by typing its code, one by its card's QR address); the arbiter draws, opens, closes, judges and
publishes round 1 (its slips come in beside the pages); in round 2 the tablets hand in, two more slips come in, a paper
slip is typed, the round is closed, judged, reviewed and published; the game is ended; a player plays it again in
training. Every screen is a stranger's browser (``camera.BROWSER``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from scoring.game import DuplicateGame
from tests.tournament.rehearsal.stage import cyrillic
from tests.tournament.rehearsal.world import World, build, current, lesser_move, top_move
from tournament import services
from tournament.models import Game

from .camera import HALLS, MORE_PLAYERS, Camera


@dataclass
class Hall:
    """The hall being photographed: its world, the camera, and the arbiter's console."""

    w: World
    camera: Camera
    console: Any

    @property
    def base(self) -> str:
        return f"/arbiter/t/{self.w.slug}"

    def go(self, path: str) -> Any:
        self.console.goto(f"{self.console.base}{self.base}{path}")
        return self.console

    def action(self, action: str) -> Any:
        """A round action of game 1's page, its button clicked (the draw: with no rack typed, the computer draws)."""
        page = self.console
        if not page.url.endswith(f"{self.base}/g/1/"):
            page = self.go("/g/1/")
        with page.expect_navigation():
            page.click("#draw-form button[type=submit]" if action == "draw" else f"button[name=action][value={action}]")
        return page

    def written(self, coordinate: str) -> str:
        """A stored coordinate as this hall writes it (its rows' letters)."""
        return cyrillic(coordinate) if self.w.tournament.coordinate_script == "cyrillic" else coordinate


def photograph(language: str, camera: Camera, arbiter: Any, monkeypatch: Any, settings: Any) -> None:
    """The whole play of ``language``'s hall, each screenshot of ``camera.NAMES`` taken on the way."""
    spec = HALLS[language]
    w = build(spec, arbiter, monkeypatch, settings)
    for name in MORE_PLAYERS[language]:
        reg, code = services.players.register_player(arbiter, w.tournament, name=name, club=spec.club)
        w.regs.append(reg)
        w.codes.append(code)
    try:
        play(Hall(w, camera, camera.console(arbiter, language)))
    finally:
        camera.close()


def play(hall: Hall) -> None:
    """The game played and photographed: two rounds, the game's end, a training run."""
    camera = hall.camera
    new_game(hall)
    first, second = log_in(hall, 0), log_in(hall, 1, by_qr=True)
    first_round(hall)
    hall.action("draw")
    hall.action("open")
    hand_in(hall, first, second)
    paper_slip(hall)
    hall.action("close")
    hall.action("judge")
    camera.take(hall.go("/g/1/review/?round=2"), "console-review", top="h1")
    hall.action("publish")
    first.wait_for_selector("#result:not([hidden])")
    camera.take(first, "tablet-result", bottom="#result")
    camera.take(hall.go("/standings/"), "console-standings", bottom="table.data")
    end_game(hall)
    camera.take(hall.go("/"), "console-tournament")
    training(hall)


def two_round_seed(w: World) -> int:
    """A bag whose first two racks are drawn without a redraw and have a move, the second with few tops and a lesser
    move (the review's list of tops is short; a player hands in a move that is not the top)."""
    for seed in range(1, 500):
        game = DuplicateGame(w.spec.language, seed)
        for number in (1, 2):
            game.draw()
            moves = game.legal_moves(w.solve)
            tops = game.tops(moves) if moves else []
            if game.redraws or not tops or number == 2 and not 0 < len(tops) <= 3 < len(moves):
                break
            game.play(tops[0])
        else:
            return seed
    raise AssertionError("no bag of 500 has two such racks")


def new_game(hall: Hall) -> None:
    """The tournament page's new-game form, with a bag whose first two racks suit the pictures."""
    page = hall.go("/")
    page.evaluate("() => { const d = document.getElementById('new-game'); if (d) d.open = true; }")
    page.fill("#id_seed", str(two_round_seed(hall.w)))
    page.click("#new-game button[type=submit]")
    page.wait_for_url(re.compile(r".*/g/1/$"))


def log_in(hall: Hall, index: int, *, by_qr: bool = False) -> Any:
    """A player's tablet logged in with the code of his card: typed (photographed), or its QR address opened."""
    page = hall.camera.tablet()
    code = hall.w.codes[index]
    if by_qr:
        page.goto(f"{page.base}/tablet/login/?code={code}")
    else:
        page.goto(f"{page.base}/tablet/login/")
        page.fill("#login-code", code)
        hall.camera.take(page, "tablet-login", bottom=".tb-login")
        page.click("#login-submit")
    page.wait_for_url(re.compile(r".*/tablet/$"))
    page.wait_for_selector("#status:not([data-phase=loading])")
    return page


def first_round(hall: Hall) -> None:
    """Round 1, unphotographed: drawn, opened, every player but the last hands in the top, closed, judged,
    published."""
    hall.action("draw")
    hall.action("open")
    rnd = current(Game.objects.get(tournament=hall.w.tournament, number=1))
    coordinate, word, score = top_move(rnd)
    for reg in hall.w.regs[:-1]:
        services.slips.submit_slip(rnd, reg, word=word, coordinates=coordinate, score=score)
    for action in ("close", "judge", "publish"):
        hall.action(action)


def type_slip(hall: Hall, page: Any, move: tuple[str, str, int], score: int) -> None:
    """A slip typed as the player does: the word, the coordinates in the hall's rows, the score."""
    coordinate, word, _points = move
    page.fill("#slip-word", word)
    page.locator("#slip-coords").press_sequentially(hall.written(coordinate).lower(), delay=20)
    page.locator("#slip-score").press_sequentially(str(score), delay=20)


def hand_in(hall: Hall, first: Any, second: Any) -> None:
    """The open round: the first tablet types the top (photographed) and hands it in, the second a lesser move; two
    more players' slips come in (one the top, one with a wrong score); the console counts them, the display shows
    the round."""
    game = Game.objects.get(tournament=hall.w.tournament, number=1)
    rnd = current(game)
    top = top_move(rnd)
    lesser = lesser_move(rnd, hall.w.solve) or top
    for page in (first, second):
        page.wait_for_selector("#status[data-phase=open]")
    type_slip(hall, first, top, top[2])
    hall.camera.take(first, "tablet-rack")
    first.click("#slip-submit")
    first.wait_for_selector("#receipt.ok")
    hall.camera.take(first, "tablet-receipt", top="#slip-form")
    type_slip(hall, second, lesser, lesser[2])
    second.click("#slip-submit")
    second.wait_for_selector("#receipt.ok")
    for reg, (coordinate, word, score) in zip(hall.w.regs[3:5], (top, (lesser[0], lesser[1], lesser[2] + 3)),
                                              strict=True):
        services.slips.submit_slip(rnd, reg, word=word, coordinates=coordinate, score=score)
    page = hall.go("/g/1/")
    page.wait_for_function("() => document.getElementById('live-count').textContent.trim() === '4'")
    hall.camera.take(page, "console-round")
    display = hall.camera.screen()
    display.goto(f"{display.base}/display/{hall.w.slug}/")
    display.wait_for_selector("#clock")
    hall.camera.take(display, "display")


def paper_slip(hall: Hall) -> None:
    """The third player's paper slip typed at the console (the coordinates' echo under the field), then saved."""
    coordinate, word, score = top_move(current(Game.objects.get(tournament=hall.w.tournament, number=1)))
    page = hall.go("/g/1/slips/")
    page.fill("#id_table", str(hall.w.regs[2].table_number))
    page.fill("#id_word", word)
    page.locator("#id_coordinates").press_sequentially(hall.written(coordinate), delay=20)
    page.fill("#id_score", str(score))
    hall.camera.take(page, "console-paper", bottom="#slip-form")
    page.click("#save-button")
    page.wait_for_load_state("load")


def end_game(hall: Hall) -> None:
    """"End this game", with the arbiter's reason."""
    page = hall.go("/g/1/")
    box = page.locator("details:has(input[value=finish])").first
    box.locator("summary").click()
    box.locator("textarea, input[type=text]").first.fill(hall.w.spec.why_end)
    box.locator("button[type=submit]").click()
    page.wait_for_load_state("load")


def training(hall: Hall) -> None:
    """The finished game played again on a tablet: its first round's slip handed in and its result."""
    game = Game.objects.get(tournament=hall.w.tournament, number=1)
    coordinate, word, score = top_move(game.rounds.get(number=1, status="published"))
    page = hall.camera.tablet()
    page.goto(f"{page.base}/training/")
    page.fill(f"#name-g{game.pk}", hall.w.spec.players[0])
    page.click(f"form:has(#name-g{game.pk}) button[type=submit]")
    page.wait_for_url("**/training/run/*/")
    page.click("#next-round")
    page.wait_for_selector("#slip-form")
    type_slip(hall, page, (coordinate, word, score), score)
    page.click("#slip-submit")
    page.wait_for_selector("#result")
    hall.camera.take(page, "training", bottom="#result")
