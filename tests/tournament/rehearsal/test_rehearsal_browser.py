"""The rehearsal: a whole short tournament played in Chromium with every clock and language mismatched on purpose.

The server's zone is Europe/Warsaw; the Ukrainian hall plays in Europe/Kyiv, the Russian one in
Asia/Yekaterinburg; every browser speaks en-US and lives in America/New_York. A tablet types Latin coordinates, the
arbiter types racks and paper slips in Cyrillic. The play walks every page and every state of a tablet — login,
waiting, the arbiter typing the rack, the rack, a redraw, a draft kept over a reload, the receipt, the verdict, a
correction of an earlier game, game over, a 7-among-8 slip refused at the door, topping, a training run, a club
session — and reads each one as its person does (``innerText``): the page's language is the hall's, no Latin row
letter, no word of another language, every time of day in the hall's zone, counts in their plural form
(``tests/tools/seen.py``). Every state is photographed at tablet and laptop size under ``var/rehearsal/<lang>/``.
"""

from __future__ import annotations

import pytest
from django.utils import timezone, translation

from tests.tournament.console.test_paper_entry_browser import LABELS, apart
from tournament.models import Game, Slip, TrainingClub

from .people import Arbiter, Tablet, display
from .stage import HALLS, LAPTOP, TABLET, Eyes, cyrillic, reopen
from .world import World, build, current, lesser_move, playable_seed, rack_to_type, redrawn_seed, top_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_a_whole_tournament_with_every_clock_and_language_mismatched(language, chromium, live_server, alice, eager,
                                                                     monkeypatch, settings):
    spec = HALLS[language]
    world = build(spec, alice, monkeypatch, settings)
    eyes = Eyes(spec, live_server, chromium)
    arbiter, a, b = Arbiter(world, eyes), Tablet(eyes, world.codes[0]), Tablet(eyes, world.codes[1], phone=True)
    logins(world, eyes, arbiter, a, b)
    game_one(world, eyes, arbiter, a, b)
    game_two(world, eyes, arbiter, a, b)
    game_three(world, eyes, arbiter, a)
    training_run(world, eyes)
    club_session(world, eyes)
    console_pages(world, eyes, arbiter)
    assert len(eyes.shots) >= 2 * len(eyes.looked)
    assert not eyes.problems, f"{len(eyes.problems)} defects seen:\n" + "\n".join(eyes.problems)


def logins(w: World, eyes: Eyes, arbiter: Arbiter, a: Tablet, b: Tablet) -> None:
    arbiter.log_in()
    eyes.look(arbiter.page, "console-tournament")
    a.log_in_by_qr()
    eyes.look(a.page, "tablet-waiting")
    b.log_in_by_hand("tablet-login")


def game_one(w: World, eyes: Eyes, arbiter: Arbiter, a: Tablet, b: Tablet) -> None:
    """Two rounds: the computer's rack redrawn, then a rack typed from the bag; then the arbiter ends the game."""
    arbiter.new_game("classic", redrawn_seed(w.spec, w.solve))
    arbiter.draw(1)
    eyes.look(arbiter.page, "console-drawn-redrawn")
    a.phase("drawn")
    a.page.wait_for_selector("#redraws:not([hidden])")
    eyes.look(a.page, "tablet-redraw")
    arbiter.action(1, "open")
    a.phase("open")
    eyes.look(a.page, "tablet-rack")
    game = Game.objects.get(tournament=w.tournament, number=1)
    coord, word, score = top_move(current(game))
    a.type_slip(word, coord, score)
    eyes.expect(cyrillic(coord) in a.page.inner_text("#slip-form"), f"the coordinates typed {coord.lower()!r} are "
                f"echoed as {cyrillic(coord)!r}")
    a.reload()
    a.phase("open")
    eyes.expect(a.page.input_value("#slip-word") == word, "the draft's word survives a reload")
    eyes.look(a.page, "tablet-draft")
    receipt = a.hand_in()
    received = timezone.localtime(Slip.objects.get(registration=w.regs[0], is_current=True).received_at,
                                  timezone=_zone(w))
    eyes.expect(received.strftime("%H:%M:%S") in receipt, f"the receipt gives the hall's time {received:%H:%M:%S}")
    eyes.look(a.page, "tablet-receipt")
    off_board(w, eyes, b, word, coord, score)
    paper = arbiter.paper_slip(1, 3, word, coord, score)
    eyes.look(paper, "console-paper-entry")
    for width, height in (TABLET, LAPTOP):
        paper.set_viewport_size({"width": width, "height": height})
        wrong = apart(paper.evaluate(LABELS))
        eyes.expect(not wrong, f"the paper entry's labels apart at {width} px: {wrong}")
    paper.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})
    paper.click("#save-button")
    paper.wait_for_load_state("load")
    eyes.look(paper, "console-paper-saved")
    eyes.look(display(eyes, w.slug), "display-open")
    eyes.look(arbiter.go("/g/1/"), "console-round-open")
    arbiter.close_judge_publish(1)
    eyes.look(arbiter.page, "console-published")
    a.results()
    reason = a.page.inner_text("#result .tb-res-reason")
    eyes.expect(reason[:1].isupper(), f"the verdict's explanation starts with a capital: {reason!r}")
    eyes.look(a.page, "tablet-verdict")
    b.results()
    eyes.look(b.page, "tablet-verdict-phone")
    round_typed_from_the_bag(w, eyes, arbiter, a, game)
    arbiter.end_game(1, w.spec.why_end)
    a.page.wait_for_selector("#game-over:not([hidden])")
    eyes.look(a.page, "tablet-game-over")
    why = a.page.inner_text("#game-over .tb-end-reason")
    eyes.expect(why[:1].isupper(), f"the line saying why the game ended starts with a capital: {why!r}")


def off_board(w: World, eyes: Eyes, b: Tablet, word: str, coord: str, score: int) -> None:
    """The phone types the word so that it runs off the board: said before it is sent; then the slip, its score
    wrong, in Cyrillic coordinates."""
    b.phase("open")
    row = "H" if coord[0].isalpha() else coord[-1]
    b.type_slip(word, f"{row}{16 - len(word) + 1}", score)
    b.page.wait_for_selector("#slip-hint:not([hidden])")
    eyes.look(b.page, "tablet-off-board")
    b.type_slip(word, coord, score + 2)
    b.hand_in()
    eyes.look(b.page, "tablet-receipt-phone")


def round_typed_from_the_bag(w: World, eyes: Eyes, arbiter: Arbiter, a: Tablet, game: Game) -> None:
    """The arbiter types the rack drawn from the physical bag: the tablets say so until the draw."""
    typed = rack_to_type(game, w.solve)
    page = arbiter.type_rack_slowly(1, typed[:-1])
    a.page.wait_for_selector("#status[data-typing='1']")
    eyes.expect(a.page.locator("#redraws").is_hidden(), "no redraw of the last rack beside the empty rack being typed")
    eyes.look(a.page, "tablet-arbiter-typing")
    eyes.look(page, "console-typing-rack")
    page.locator("#draw-form input[name=typed_rack]").press_sequentially(typed[-1])
    page.click("#draw-form button[type=submit]")
    page.wait_for_load_state("load")
    eyes.look(page, "console-drawn-typed")
    arbiter.action(1, "open")
    a.phase("open")
    coord, word, score = top_move(current(game))
    a.type_slip(word, coord, score)
    a.hand_in()
    arbiter.close_judge_publish(1)
    a.results()


def game_two(w: World, eyes: Eyes, arbiter: Arbiter, a: Tablet, b: Tablet) -> None:
    """7-among-8: a slip of 8 tiles refused at the door; game 1 corrected while game 2 runs; a third game asked
    for while this one is played (the console warns)."""
    arbiter.new_game("7among8", playable_seed(w.spec, w.solve, "7among8"))
    arbiter.draw(2)
    arbiter.action(2, "open")
    a.phase("open")
    game = Game.objects.get(tournament=w.tournament, number=2)
    rnd = current(game)
    a.type_slip(rnd.rack.replace("?", "А" if w.spec.language != "en" else "A"), "H1", 90)
    a.page.click("#slip-submit")
    a.page.wait_for_selector("#receipt.refused, #form-message:not([hidden])")
    eyes.look(a.page, "tablet-eight-tiles-refused")
    head, *rest = a.page.inner_text("#receipt").split("\n")
    refused = head.strip("✖ ")
    eyes.expect(not any(refused in line for line in rest), f"{refused!r} said once, in the head: {rest!r}")
    coord, word, score = top_move(rnd)
    a.type_slip(word, coord, score)
    a.hand_in()
    arbiter.correct(1, 1, w.regs[1].table_number, 3, w.spec.why_override)
    eyes.look(arbiter.page, "console-review-corrected")
    arbiter.close_judge_publish(2)
    b.results()
    b.page.wait_for_function("() => document.querySelector('#result').innerText.split('\\n').length > 6")
    eyes.look(b.page, "tablet-correction-of-game-1")
    page = arbiter.go("/")
    page.evaluate("() => { const d = document.getElementById('new-game'); if (d) d.open = true; }")
    page.select_option("#id_variant", "topping")
    page.click("#new-game button[type=submit]")
    page.wait_for_selector("#games-in-play")
    eyes.look(page, "console-new-game-warned")
    arbiter.end_game(2, w.spec.why_end)


def game_three(w: World, eyes: Eyes, arbiter: Arbiter, a: Tablet) -> None:
    """Topping: an attempt that is not the top, then the top; a paper player's time typed by the arbiter."""
    arbiter.new_game("topping", playable_seed(w.spec, w.solve, "topping"))
    arbiter.draw(3)
    arbiter.action(3, "open")
    a.phase("open")
    game = Game.objects.get(tournament=w.tournament, number=3)
    rnd = current(game)
    lesser = lesser_move(rnd, w.solve)
    if lesser is not None:
        a.type_slip(lesser[1], lesser[0], None)
        a.page.click("#slip-submit")
        a.page.wait_for_selector("#topping.bad")
        eyes.look(a.page, "tablet-topping-not-top")
    coord, word, _score = top_move(rnd)
    a.type_slip(word, coord, None)
    a.page.click("#slip-submit")
    a.page.wait_for_selector("#topping.ok")
    eyes.look(a.page, "tablet-topping-top")
    page = arbiter.go("/g/3/times/")
    page.fill("#id_table", "3")
    page.fill("#id_time", "1:05")
    page.fill("#id_word", f"{cyrillic(coord)} {word}")
    page.click("#time-form button[type=submit]")
    page.wait_for_load_state("load")
    eyes.look(page, "console-topping-times")
    arbiter.close_judge_publish(3)
    a.results()
    eyes.look(a.page, "tablet-topping-published")
    arbiter.end_game(3, w.spec.why_end)
    a.page.wait_for_selector("#game-over:not([hidden])")
    eyes.look(a.page, "tablet-tournament-over")
    topping = a.page.inner_text("#topping")
    eyes.expect(tablet_says(w, "topping_done") not in topping, f"no next rack once the game is over: {topping!r}")


def training_run(w: World, eyes: Eyes) -> None:
    """Game 1 played again on a tablet, to its end (the slips typed with Latin coordinates)."""
    game = Game.objects.get(tournament=w.tournament, number=1)
    tops = [top_move(r) for r in game.rounds.filter(status="published").order_by("number")]
    page = eyes.page(TABLET)
    page.goto(f"{page.base}/training/")
    eyes.look(page, "training-index")
    page.fill(f"#name-g{game.pk}", w.spec.players[0])
    page.click(f"form:has(#name-g{game.pk}) button[type=submit]")
    page.wait_for_url("**/training/run/*/")
    for i, (coord, word, score) in enumerate(tops):
        page.click("#next-round")
        page.wait_for_selector("#slip-form")
        if i == 0:
            eyes.look(page, "training-round")
        page.fill("#slip-word", word)
        page.locator("#slip-coords").press_sequentially(coord.lower(), delay=30)
        page.fill("#slip-score", str(score))
        page.click("#slip-submit")
        page.wait_for_selector("#result")
        if i == 0:
            eyes.look(page, "training-result")
    page.wait_for_selector("#final, #next-round")
    if page.locator("#next-round").count():
        page.click("#next-round")
    page.wait_for_selector("#final")
    eyes.look(page, "training-final")


def club_session(w: World, eyes: Eyes) -> None:
    """The club's leader opens a session of game 2 (7-among-8) on a laptop; a phone joins; one round; the end."""
    game = Game.objects.get(tournament=w.tournament, number=2)
    leader = eyes.page(LAPTOP)
    leader.goto(f"{leader.base}/training/")
    leader.select_option("#club-game", f"g{game.pk}")
    leader.fill("#club-name", w.spec.club)
    leader.click("form:has(#club-name) button[type=submit]")
    leader.wait_for_url("**/lead/**")
    eyes.expect(leader.locator(".tr-variant[data-variant='7among8']").count() == 1, "the session names the variant")
    eyes.look(leader, "club-leader-waiting")
    code = TrainingClub.objects.get().code
    phone = eyes.page((390, 844), is_mobile=True)
    phone.goto(f"{phone.base}/training/")
    phone.fill("#join-code", code.lower())
    phone.fill("#join-name", w.spec.players[1])
    phone.click("form:has(#join-code) button[type=submit]")
    phone.wait_for_selector("#club-wait")
    eyes.look(phone, "club-phone-waiting")
    coord, word, score = top_move(current(game))
    for _round in range(game.rounds.filter(status="published").count()):
        leader.click("#club-start")
        phone.wait_for_selector("#slip-form", timeout=10_000)
        phone.fill("#slip-word", word)
        phone.fill("#slip-coords", coord.lower())
        phone.fill("#slip-score", str(score))
        phone.click("#slip-submit")
        phone.wait_for_selector("#club-wait, #final")
    leader.wait_for_timeout(1000)  # the leader's page follows the session by itself
    reopen(leader)
    eyes.look(leader, "club-leader-over")
    eyes.expect(not leader.locator("[role=timer]:visible").count(), "no clock beside the end of the session")


def console_pages(w: World, eyes: Eyes, arbiter: Arbiter) -> None:
    for path, state in (("/players/", "console-players"), ("/g/1/board/", "console-board"),
                        ("/standings/", "console-standings"), ("/audit/", "console-audit"),
                        ("/settings/", "console-settings"), ("/g/1/review/?round=1", "console-review")):
        eyes.look(arbiter.go(path), state)
    page = arbiter.page
    page.goto(f"{page.base}/arbiter/pdf/t/{w.slug}/")
    eyes.look(page, "console-print")


def tablet_says(w: World, key: str) -> str:
    """A text of the tablet's, in the hall's language."""
    from tournament.tablet.strings import tablet_strings  # noqa: PLC0415

    with translation.override(w.spec.language):
        return str(tablet_strings()[key])


def _zone(w: World):
    from tournament.labels import zone_of  # noqa: PLC0415 (the hall's zone, as the product reads it)

    return zone_of(w.tournament.time_zone)

