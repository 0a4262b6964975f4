"""Every refusal a person reads is in the page's language (issue 14, "Untranslated"): the services' details, the
engine's rack and game errors, with the tournament's row letters, never an English sentence nor a Latin coordinate
in a Cyrillic tournament."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

import pytest
from django.utils import translation

from scoring.draw import Bag, DrawError, accept_rack, check_tiles
from scoring.game import DuplicateGame, GameError
from scoring.rules import get_ruleset
from tests.paths import LEXICONS
from tests.tools.wordlist_solver import WordListSolver
from tournament import labels
from tournament.errors import Code, ServiceError, from_engine

UK = get_ruleset("uk")
RACK = "МОРИСТУ"
#: English words a refusal used to be written with (each ≥ 2 letters, matched as whole words).
ENGLISH = {"the", "round", "is", "not", "must", "rack", "slip", "with", "already", "missing", "cannot", "from",
           "bag", "tiles", "has", "player", "table", "reason", "needs", "code", "wrong", "taken", "first", "open"}
LATIN_COORD = re.compile(r"(?<![A-Za-z])([A-O](1[0-5]|[1-9])|(1[0-5]|[1-9])[A-O])(?![A-Za-z0-9])")


def english_in(text: str) -> list[str]:
    """The English words of a text: a stop-list word, or any Latin word of 4 letters or more."""
    return [w for w in re.findall(r"[A-Za-z]+", text) if w.lower() in ENGLISH or len(w) >= 4]


def assert_translated(exc: ServiceError, code: str) -> None:
    assert exc.code == code
    for text in (str(exc), exc.explained()):
        assert not english_in(text), f"English in {text!r}: {english_in(text)}"
        assert not LATIN_COORD.search(text), f"a Latin coordinate in {text!r}"


def refused(code: str, action: Callable[[], object]) -> ServiceError:
    with translation.override("uk"), pytest.raises(ServiceError) as info:
        action()
    with translation.override("uk"):
        assert_translated(info.value, code)
    return info.value


@pytest.fixture
def uk_tournament(alice, db):
    from lexicon.models import Lexicon
    from tournament import services

    lexicon = Lexicon.objects.create(name="sim-uk", ruleset="uk", status=Lexicon.Status.READY, version=1,
                                     content_hash="1" * 64, file_path="none.kwg")
    return services.tournaments.create_tournament(alice, name="Кубок Полтави", slug="kubok-poltavy", ruleset="uk",
                                                  lexicon=lexicon, arbiters=[alice], language="uk")


@pytest.fixture
def uk_eager(eager, monkeypatch):
    """Celery eager, and a solver over the words of the rack МОРИСТУ (a few, so that it is quick)."""
    from tournament import services

    have = Counter(RACK)
    words = [w for w in (LEXICONS / "sim-uk.txt").read_text(encoding="utf-8").split() if not Counter(w) - have]
    solver = WordListSolver(UK, words)
    monkeypatch.setattr(services.solving, "round_tools", lambda tournament: (solver, frozenset(words)))
    return eager


@pytest.fixture
def uk_regs(alice, uk_tournament):
    from tournament import services

    return [services.players.register_player(alice, uk_tournament, name=n)[0] for n in ("Оксана", "Тарас")]


def test_the_tournament_writes_cyrillic_rows(uk_tournament):
    assert labels.tournament_style(uk_tournament).cyrillic


def test_refusals_of_rounds_and_slips_are_ukrainian(alice, uk_tournament, uk_regs, uk_eager):
    from tournament import services

    game = services.games.create_game(alice, uk_tournament, seed=7)
    with uk_eager(execute=True):
        rnd = services.rounds.draw_round(alice, game, typed_rack=RACK)
    assert rnd is not None
    # a rack before this one is published; the round does not take slips yet; it cannot be closed
    refused(Code.ROUND_PENDING, lambda: services.rounds.draw_round(alice, game))
    refused(Code.ROUND_NOT_OPEN, lambda: services.slips.submit_slip(rnd, uk_regs[0], word="МОРИСТУ", coordinates="З2"))
    refused(Code.ROUND_NOT_OPEN, lambda: services.rounds.close_round(rnd, alice))
    with uk_eager(execute=False):
        services.rounds.open_round(alice, rnd)
    # a letter that is not a tile of the set (the player typed a Latin C)
    refused(Code.BAD_LETTER, lambda: services.slips.submit_slip(rnd, uk_regs[0], word="CОРТ", coordinates="З5"))
    services.slips.submit_slip(rnd, uk_regs[0], word="МОРИСТУ", coordinates="З2", score=20)
    services.rounds.close_round(rnd, alice, force=True)
    services.judging.judge_round(rnd, alice)
    # the round is closed and judged: a tablet's slip is kept as late (for the review), a paper one typed with its
    # hand-in time counts (refused only after the publication: test_late_slips.py); an override needs a reason
    assert services.slips.submit_slip(rnd, uk_regs[1], word="СИРОТ", coordinates="З4").late
    assert not services.slips.submit_slip(rnd, uk_regs[1], word="СИРОТ", coordinates="З4", source="paper",
                                          received_at=rnd.deadline).late
    verdict = rnd.verdicts.get(registration=uk_regs[0])
    refused(Code.WHY_MISSING, lambda: services.judging.override_verdict(alice, verdict, awarded=0, warning=False,
                                                                          why=" "))
    refused(Code.WHY_MISSING, lambda: services.rounds.cancel_round(alice, rnd, why=""))
    refused(Code.NOT_LEGAL, lambda: services.rounds.choose_top(alice, rnd, "З4 СИРОТ"))  # not in the lexicon
    error = refused(Code.NOT_TOP, lambda: services.rounds.choose_top(alice, rnd, "З6 ТИР"))
    assert "З6 ТИР" in str(error)


@pytest.mark.parametrize("typed, code", [
    ("ФФФФФФФ", "not_in_bag"),  # a tile the bag does not hold
    ("МОР", "wrong_size"),  # neither the new tiles nor the whole rack
    ("М0Р1СТУ", "bad_rack"),  # digits typed for letters
])
def test_typed_racks_are_refused_in_ukrainian(alice, uk_tournament, uk_eager, typed, code):
    from tournament import services

    game = services.games.create_game(alice, uk_tournament, seed=7)
    error = refused(code, lambda: services.rounds.draw_round(alice, game, typed_rack=typed))
    assert typed in str(error)


def test_a_prepared_rack_refused_by_the_engine_is_ukrainian(alice, uk_tournament, uk_eager):
    from tournament import services

    game = services.games.create_game(alice, uk_tournament, seed=7, prepared_racks=["МОРИСТ"])
    error = refused("wrong_size", lambda: services.rounds.draw_round(alice, game))
    assert "МОРИСТ" in str(error) and "6" in str(error) and "7" in str(error)


def test_players_and_tables_are_refused_in_ukrainian(alice, uk_tournament, uk_regs):
    from tournament import services

    refused(Code.TABLE_TAKEN, lambda: services.players.register_player(alice, uk_tournament, name="Богдан",
                                                                        table_number=1))
    refused(Code.BAD_CODE, lambda: services.players.login("ZZZZ-ZZZZ-ZZ"))
    game = services.games.create_game(alice, uk_tournament, seed=7)
    refused(Code.WHY_MISSING, lambda: services.games.finish_game(alice, game, why=""))
    refused(Code.BAD_POINTS, lambda: services.games.add_penalty(alice, game, uk_regs[0], points=0, reason="x"))


# -- the engine's errors: one translated text for each code, its params filled --------------------------------


def engine_errors() -> list[Exception]:
    out: list[Exception] = []

    def catch(action: Callable[[], object]) -> None:
        try:
            action()
        except (DrawError, GameError) as exc:
            out.append(exc)
        else:  # pragma: no cover - the test's own set-up
            raise AssertionError("no engine error")

    bag = Bag(UK, 7)
    catch(lambda: bag.take(["Ф", "Ф", "Ф"]))
    catch(lambda: check_tiles(UK, ["Q"]))
    catch(lambda: Bag(UK, "x"))  # type: ignore[arg-type]
    catch(lambda: accept_rack(UK, Bag(UK, 7), ["Ж"], 2, "МОРИСТУ"))  # the leftover Ж is missing
    catch(lambda: accept_rack(UK, Bag(UK, 7), [], 1, "МОР"))
    catch(lambda: accept_rack(UK, Bag(UK, 7), [], 1, "СТРКМНП", invalid="raise"))  # no vowel
    catch(lambda: accept_rack(UK, Bag(UK, 7), [], 1, "12"))
    game = DuplicateGame(UK, 7, prepared=["МОРИСТУ"])
    catch(lambda: game.tops([]))  # no rack drawn yet
    game.draw()
    catch(game.draw)  # already drawn
    over = DuplicateGame(UK, 7)
    over._finish("arbiter")
    catch(over.draw)
    exhausted = DuplicateGame(UK, 7, prepared=[])
    catch(exhausted.draw)
    return out


def test_every_engine_error_has_a_ukrainian_text():
    errors = engine_errors()
    style = labels.script_style("duplicate", labels.CYRILLIC)
    with translation.override("uk"):
        for exc in errors:
            text = labels.engine_refusal(exc.code, exc.params, style)  # type: ignore[attr-defined]
            assert text is not None, f"no text for {exc.code} with {exc.params}"  # type: ignore[attr-defined]
            error = from_engine(exc, style=style)
            assert error.message == text
            assert not english_in(text), f"English in {text!r}"
    assert {e.code for e in errors} >= {"not_in_bag", "bad_tile", "bad_seed", "leftover_missing",  # type: ignore[attr-defined]
                                        "wrong_size", "invalid_rack", "bad_rack", "wrong_phase", "game_over",
                                        "prepared_exhausted"}


def test_every_engine_text_is_a_catalogue_entry_and_an_unknown_code_keeps_the_engines_words():
    assert set(labels.ENGINE_ERRORS) >= {"not_in_bag", "wrong_size", "leftover_missing", "invalid_rack", "game_over",
                                          "no_valid_rack", "prepared_exhausted", "prepared_redraw"}
    odd = DrawError("brand_new", "something new happened")
    assert from_engine(odd).message == "something new happened" and from_engine(odd).code == "brand_new"
    assert from_engine(ValueError("plain")).code == Code.DRAW_ERROR


def test_moves_in_engine_errors_take_the_tournaments_rows():
    style = labels.script_style("duplicate", labels.CYRILLIC)
    exc = GameError("occupied", "H8 МОРИСТУ: square H8 is taken", move="H8 МОРИСТУ", square="H8")
    with translation.override("uk"):
        text = from_engine(exc, style=style).message
    assert "З8 МОРИСТУ" in text and "H8" not in text


def test_an_api_field_error_names_the_field_in_the_readers_language():
    from rest_framework.exceptions import ValidationError

    from tournament.api.errors import api_exception_handler

    with translation.override("uk"):
        response = api_exception_handler(ValidationError({"word": ["Забагато літер."]}), {})
        assert response is not None and response.data["detail"] == "слово: Забагато літер."
        response = api_exception_handler(ValidationError(["Покладіть фішки на дошку."]), {})
        assert response is not None and response.data["detail"] == "Покладіть фішки на дошку."


def test_the_explanation_is_not_repeated_when_the_details_say_the_same():
    with translation.override("en"):
        assert ServiceError(Code.BAD_CODE, "the access code is wrong").explained() == "The access code is wrong."
        assert ServiceError(Code.BAD_CODE, "code 12").explained() == "The access code is wrong. (code 12)"
    assert ServiceError("brand_new", "something").explained() == "something"
