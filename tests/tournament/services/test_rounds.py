"""Round lifecycle through the services: draw → solve → open → slips → close → judge → top → publish; cancel."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.tools.world import run_round
from tournament import services
from tournament.errors import ServiceError
from tournament.models import AuditLog, Game, Round, Slip, Verdict

pytestmark = pytest.mark.django_db(transaction=False)
PREPARED = ["CATSROE", "OE+DRSZ?"]


@pytest.fixture
def game(alice, tournament):
    return services.games.create_game(alice, tournament, prepared_racks=PREPARED)


def test_draw_solves_after_commit_and_opens_with_a_server_deadline(alice, game, eager):
    with eager(execute=True) as callbacks:
        rnd = services.rounds.draw_round(alice, game)
    # one task sent after the commit (with Redis, the screens' push is another after-commit callback)
    assert len([cb for cb in callbacks if "send" in cb.__qualname__]) == 1
    rnd.refresh_from_db()
    assert (rnd.number, rnd.rack, rnd.status) == (1, "CATSROE", "drawn")
    assert rnd.solver_status == "done" and rnd.move_count > 0
    assert rnd.top_moves[0] == {"move": "H4 CARTS", "score": 20, "blanks": 0, "tiles_placed": 5}
    with eager(execute=False):
        before = timezone.now()
        services.rounds.open_round(alice, rnd)
    rnd.refresh_from_db()
    assert rnd.status == "open"
    assert before + timedelta(seconds=179) < rnd.deadline <= timezone.now() + timedelta(seconds=180)
    with pytest.raises(ServiceError) as exc:
        services.rounds.open_round(alice, rnd)
    assert exc.value.code == "conflict"
    with pytest.raises(ServiceError) as exc:
        services.rounds.draw_round(alice, game)
    assert exc.value.code == "round_pending"


def test_solve_is_idempotent(alice, game, eager):
    from tournament.tasks import solve_round

    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    assert solve_round.delay(rnd.pk).get() == "already"


def test_automatic_close_waits_for_deadline_plus_grace(alice, game, eager):
    from tournament.tasks import close_round

    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    with eager(execute=True):  # the scheduled close runs eagerly at once: not due yet
        services.rounds.open_round(alice, rnd)
    rnd.refresh_from_db()
    assert rnd.status == "open"
    with pytest.raises(ServiceError) as exc:
        services.rounds.close_round(rnd)
    assert exc.value.code == "not_due"
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=11))
    with eager(execute=True):
        assert close_round.delay(rnd.pk).get() == "closed"
    rnd.refresh_from_db()
    assert rnd.status == "judged"  # the close task chains the judging
    assert close_round.delay(rnd.pk).get() == "not_open"  # idempotent
    assert services.rounds.close_round(rnd).status == "judged"


def test_idempotent_submit_replace_until_deadline_and_late_slips(alice, game, eager, regs):
    ivan, olena = regs[0], regs[1]
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    with eager(execute=False):
        services.rounds.open_round(alice, rnd)
    first = services.slips.submit_slip(rnd, ivan, word="CARTS", coordinates="H8", score=16, idempotency_key="k1")
    again = services.slips.submit_slip(rnd, ivan, word="CARTS", coordinates="H8", score=16, idempotency_key="k1")
    assert again.pk == first.pk and Slip.objects.filter(registration=ivan).count() == 1
    with pytest.raises(ServiceError) as exc:
        services.slips.submit_slip(rnd, olena, word="CAT", idempotency_key="k1")
    assert exc.value.code == "key_reused"
    second = services.slips.submit_slip(rnd, ivan, word="CARTS", coordinates="H4", score=20, idempotency_key="k2")
    first.refresh_from_db()
    assert (second.version, second.is_current, first.is_current) == (2, True, False)
    # Olena hands in only after the deadline: kept, marked late, counts as missing
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    late = services.slips.submit_slip(rnd, olena, word="CARTS", score=20, idempotency_key="k3")
    assert late.late and not late.is_current
    # a late replacement does not replace Ivan's on-time slip
    services.slips.submit_slip(rnd, ivan, word="CATS", score=12, idempotency_key="k4")
    services.rounds.close_round(rnd, alice, force=True)
    services.judging.judge_round(rnd, alice)
    verdicts = {v.registration_id: v for v in Verdict.objects.filter(round=rnd)}
    assert (verdicts[ivan.pk].awarded, verdicts[ivan.pk].reason) == (20, "first_round")
    assert (verdicts[olena.pk].awarded, verdicts[olena.pk].reason) == (0, "late")
    assert (verdicts[regs[2].pk].awarded, verdicts[regs[2].pk].reason) == (0, "no_slip")
    assert Slip.objects.filter(round=rnd).count() == 4  # every version kept


def test_full_round_override_top_and_publish(alice, game, eager, regs):
    ivan, olena, jean, maria = regs
    rnd = run_round(alice, game, eager, {ivan: "CARTS 20", olena: "H8 CARTS 16", jean: "CARDS 20"})
    v = {x.registration_id: x for x in rnd.verdicts.all()}
    assert (v[ivan.pk].awarded, v[ivan.pk].warning) == (20, False)
    assert (v[olena.pk].awarded, v[olena.pk].warning) == (20, True)
    assert (v[jean.pk].awarded, v[jean.pk].reason) == (0, "not_on_rack")
    assert (v[maria.pk].awarded, v[maria.pk].reason) == (0, "no_slip")
    with pytest.raises(ServiceError):
        services.judging.override_verdict(alice, v[jean.pk], awarded=10, warning=False, why="  ")
    services.judging.override_verdict(alice, v[jean.pk], awarded=10, warning=False, why="slip misread")
    jv = Verdict.objects.get(pk=v[jean.pk].pk)
    assert (jv.awarded, jv.automatic, jv.overridden_by.username, jv.override_reason) == (10, False, "alice", "slip misread")
    assert jv.history[0]["awarded"] == 0
    log = AuditLog.objects.filter(action="verdict.override").get()
    assert log.before["awarded"] == 0 and log.after["awarded"] == 10 and log.actor.username == "alice"
    services.judging.judge_round(rnd, alice)  # re-judging keeps the override
    assert Verdict.objects.get(pk=jv.pk).awarded == 10
    with pytest.raises(ServiceError) as exc:
        services.rounds.choose_top(alice, rnd, "H8 CARTS")
    assert exc.value.code == "not_top"
    with pytest.raises(ServiceError) as exc:
        services.rounds.choose_top(alice, rnd, "8D CARTS")  # scores 20 too, but the first move is horizontal
    assert exc.value.code == "not_legal"
    services.rounds.choose_top(alice, rnd, "H4 CARTS")
    rnd.refresh_from_db()
    assert (rnd.chosen_move, rnd.chosen_score) == ("H4 CARTS", 20)


def test_publish_applies_the_top_and_allows_the_next_draw(alice, game, eager, regs):
    ivan = regs[0]
    rnd = run_round(alice, game, eager, {ivan: "CARTS 20"})
    services.rounds.publish_round(alice, rnd)
    rnd.refresh_from_db()
    assert (rnd.status, rnd.chosen_move, rnd.chosen_score) == ("published", "H4 CARTS", 20)
    game.refresh_from_db()
    assert game.state["board"].split("/")[7] == "3CARTS7"
    rnd2 = run_round(alice, game, eager, {ivan: "11D DOERS 18"})
    assert (rnd2.number, rnd2.rack) == (2, "OEDRSZ?")
    assert rnd2.board_before == game.state["board"]


def test_cancel_round_restores_the_game(alice, game, eager, regs):
    ivan = regs[0]
    rnd = run_round(alice, game, eager, {ivan: "CARTS 20"})
    services.rounds.publish_round(alice, rnd)
    rnd2 = run_round(alice, game, eager, {ivan: "DOERS 18"})
    game.refresh_from_db()
    state_before_round2 = rnd2.state_before
    services.rounds.cancel_round(alice, rnd, why="wrong rack announced")
    rnd.refresh_from_db()
    rnd2.refresh_from_db()
    game.refresh_from_db()
    assert rnd.status == rnd2.status == "cancelled"
    # the game as before the round's draw, but for the bag's new seed (a redraw must not repeat the rack)
    restored = {**game.state, "bag": {**game.state["bag"], "seed": rnd.state_before["bag"]["seed"]}}
    assert restored == rnd.state_before != state_before_round2
    assert game.state["bag"]["seed"] != rnd.state_before["bag"]["seed"]
    assert game.status == Game.Status.PLAYING
    assert Verdict.objects.filter(round=rnd).exists()  # kept for the record
    again = run_round(alice, game, eager, {ivan: "CARTS 20"})
    assert again.number == 1 and again.pk != rnd.pk
    assert AuditLog.objects.filter(action="round.cancel").get().after["cancelled"] == [1, 2]


def test_publication_plays_the_stored_top_without_solving_again(alice, game, eager, regs, monkeypatch):
    """The solver task ranks the moves once (scoring.tops); the review page shows them and the publication
    plays the first one, or the arbiter's choice among the moves of top score."""
    from scoring.board import Board
    from scoring.tops import ranked_moves
    from tests.tools.wordlist_solver import WordListSolver
    from tests.tools.world import EN, WORDS

    rnd = run_round(alice, game, eager, {regs[0]: "CARTS 20"})
    everything = WordListSolver(EN, WORDS)(Board.from_fen(EN, rnd.board_before or None), list(rnd.rack))
    board = Board.from_fen(EN, rnd.board_before or None)
    expected = [m.notation() for m in ranked_moves(board, list(rnd.rack), everything)][: len(rnd.top_moves)]
    assert [m["move"] for m in rnd.top_moves] == expected
    best = rnd.top_moves[0]["score"]
    assert [m["move"] for m in services.solving.tops(rnd)] == [
        m["move"] for m in rnd.top_moves if m["score"] == best]

    monkeypatch.setattr(services.solving, "solve_round", lambda rnd: pytest.fail("solved again"))
    solved = services.solving.round_tools(rnd.game.tournament)
    monkeypatch.setattr(services.solving, "round_tools", lambda t: (lambda b, r: pytest.fail("solved again"),
                                                                     solved[1]))
    services.rounds.publish_round(alice, rnd)
    rnd.refresh_from_db()
    assert (rnd.chosen_move, rnd.chosen_score) == (rnd.top_moves[0]["move"], rnd.top_moves[0]["score"])
