"""The papers as the hall reads them: a finished game's sheet says why it ended; a short value ("Серия1") is never
cut while the page has room; names and clubs ("Казань-Скрэббл") wrap between words only, never inside one."""

from __future__ import annotations

import pytest
from django.utils import translation
from reportlab.lib.styles import ParagraphStyle

from tests.tools.world import PREPARED, run_round
from tests.tournament.printing.test_pdf import build, flat, paper, render
from tournament import services
from tournament.models import Game
from tournament.printing import columns, documents
from tournament.printing.documents.national import national_document
from tournament.printing.layout import register_fonts, text_width
from tournament.services import reading

pytestmark = [pytest.mark.django_db]

#: name, club, category, series: as a Russian hall registers them
HALL = [
    ("Александра Константинопольская", "Казань-Скрэббл", "ветераны", "Серия1"),
    ("Пётр Иванов", "Санкт-Петербург-Эрудит", "взрослые", "Серия2"),
    ("Анна Ли", "Казань-Скрэббл", "юниоры", "Серия1"),
    ("Ґаврило Їжакевич", "Київ-Скрабл", "дорослі", "Серія1"),
]


def test_the_game_sheet_says_why_the_arbiter_ended_the_game(alice, tournament, played, tmp_path):
    services.games.finish_game(alice, played, why="зал закрывается")
    text = flat(build(tournament, "game-sheet", tmp_path, game=1))
    assert "Партия окончена (закончена арбитром: зал закрывается)" in text, text[:400]


@pytest.mark.parametrize(("language", "said"), [
    ("ru", "Партия окончена (мешочек и подставка пусты)"),
    ("uk", "Партію закінчено (мішок і підставка порожні)"),
    ("en", "Game over (the bag and the rack are empty)"),
])
def test_the_game_sheet_says_why_the_game_ended_by_itself(language, said):
    sheet = reading.GameSheet(4, Game.Status.FINISHED, Game.Status.FINISHED.label, [], "15/" * 14 + "15",
                              end_reason="bag_and_rack_empty")
    with translation.override(language):
        text = flat(documents.GameSheetDocument(paper("Кубок Казани", "ru", language), sheet).build())
    assert said in text, text[:400]


def test_a_game_being_played_says_so(tournament, played, tmp_path):
    text = flat(build(tournament, "game-sheet", tmp_path, game=1))
    assert "Партия: идёт" in text, text[:400]


def three_games(alice, tournament, eager) -> None:
    """The hall's players over three games of one published round each (the standings get a column per game)."""
    regs = [services.players.register_player(alice, tournament, name=n, club=c, category=k, series=s)[0]
            for n, c, k, s in HALL]
    for _n in range(3):
        game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
        rnd = run_round(alice, game, eager, {regs[0]: "H4 CARTS 20", regs[1]: "CATS 12", regs[2]: "ACT 11"})
        services.rounds.publish_round(alice, rnd)


def test_short_values_are_whole_and_clubs_wrap_between_words_only(alice, tournament, eager, tmp_path):
    three_games(alice, tournament, eager)
    for params in ({}, {"game": 1}, {"group_by": "club"}):
        out = build(tournament, "standings", tmp_path, **params)
        text = flat(out)
        assert "…" not in text, (params, text)
        for name, club, category, series in HALL:
            for word in (*name.split(), club, category, series):
                assert word in text, (params, word, text)
    render(out, tmp_path / "png")


def test_the_national_standings_keep_series_and_clubs_whole(staff_simul, tmp_path):
    text = flat(national_document(staff_simul).build())
    assert "…" not in text.replace("…)", ")"), text  # the lexicon's hash alone is shortened
    for word in ("Серия1", "Казань-Скрэббл", "Санкт-Петербург-Эрудит", "Константинопольская"):
        assert word in text, (word, text)


@pytest.fixture
def staff_simul(lexicon_row):
    from tests.tournament.simultaneous.rows import simul_rows
    from tournament.services import simulfiles, simultaneous

    simul = simul_rows(lexicon_row, halls=("kazan", "spb"))
    simul.language = "ru"
    simul.save()
    for code, rows in (("kazan", HALL[::2]), ("spb", HALL[1:2])):
        players = [{"name": n, "club": c, "series": s, "category": k, "scores": [20, 30], "warnings": 0, "solos": 0,
                    "penalties": 0, "total": 50} for n, c, k, s in rows]
        doc = {"format": simulfiles.RESULTS_FORMAT, "version": simulfiles.VERSION, "game": str(simul.game_id),
               "hall": code, "lexicon_hash": simul.lexicon_hash, "variant": "classic", "rounds": simul.rounds,
               "finished": True, "players": players}
        simultaneous.import_results(None, simul, simulfiles.signed_results(doc, "k" * 64))
    with translation.override("ru"):
        yield simul


def test_columns_take_the_width_their_values_need():
    fonts = register_fonts()
    cols = [columns.Column("#", "RIGHT", ["1", "12"], 20),
            columns.Column("Имя", texts=["Александра Константинопольская"], grow=0.6),
            columns.Column("Клуб", texts=["Казань-Скрэббл"], grow=0.4),
            columns.Column("Серия", texts=["Серия1", "A"], minimum=34)]
    widths = columns.column_widths(cols, 400, font=fonts.regular, bold=fonts.bold, size=8.5)
    assert sum(widths) == pytest.approx(400)
    assert widths[3] >= text_width("Серия1", fonts.regular, 8.5) + columns.PADDING  # never "Сер…"
    assert columns.one_line("Серия1", widths[3], fonts.regular, 8.5) == "Серия1"
    for value in ("Серія1", "Серия1", "Seria 2", "ветерани", "дорослі", "A"):  # sized for it: whole, to the last point
        alone = [columns.Column("Серія", texts=[value]), columns.Column("Ім’я", texts=["Анна"], grow=1)]
        width = columns.column_widths(alone, 300, font=fonts.regular, bold=fonts.bold, size=8.5)[0]
        assert columns.one_line(value, width, fonts.regular, 8.5) == value or width > 34
        natural = text_width(value, fonts.regular, 8.5) + columns.PADDING
        assert columns.one_line(value, natural, fonts.regular, 8.5) == value, value
    assert widths[2] >= text_width("Казань-Скрэббл", fonts.regular, 8.5) + columns.PADDING
    # little room: the series stays whole, the club's word gets smaller (never split)
    tight = columns.column_widths(cols, 200, font=fonts.regular, bold=fonts.bold, size=8.5)
    assert columns.fits(cols, 200, font=fonts.regular, bold=fonts.bold, size=8.5)
    assert columns.one_line("Серия1", tight[3], fonts.regular, 8.5) == "Серия1"
    assert tight[2] >= text_width("Казань-Скрэббл", fonts.regular, columns.SMALLEST) + columns.PADDING
    assert sum(tight) == pytest.approx(200)
    # no room at all (a page that cannot turn): the series gives way to the names first (down to its header)
    assert not columns.fits(cols, 140, font=fonts.regular, bold=fonts.bold, size=8.5)
    squeezed = columns.column_widths(cols, 140, font=fonts.regular, bold=fonts.bold, size=8.5)
    assert sum(squeezed) == pytest.approx(140)
    assert squeezed[3] == pytest.approx(max(34, columns.header_width("Серия", fonts.bold)))
    assert squeezed[1] / squeezed[2] == pytest.approx(0.6 / 0.4)


def test_a_cell_wraps_between_words_and_shrinks_a_word_too_wide():
    fonts = register_fonts()
    style = ParagraphStyle("cell", fontName=fonts.regular, fontSize=8.5, leading=10.5)
    assert columns.words_cell("Анна Ли", 100, fonts.regular, style) == "Анна Ли"
    cell = columns.words_cell("Клуб Казань-Скрэббл", 60 + columns.PADDING, fonts.regular, style)
    assert cell.text.split("<br/>") == ["Клуб", "Казань-Скрэббл"] or cell.style.fontSize < 8.5
    narrow = columns.words_cell("Казань-Скрэббл", 50, fonts.regular, style)
    assert narrow.text == "Казань-Скрэббл" or narrow.text.endswith("…")  # smaller, or cut with "…": never split
    assert narrow.style.fontSize < 8.5
    assert columns.word_lines("Казань-Скрэббл Москва", fonts.regular, 8.5, 10) == ["Казань-Скрэббл", "Москва"]
