"""The papers of a real hall (issue 14): the arbitration sheet's "flagged only" and explanation column, every
player's sheet in one PDF, the board readable in black and white with the tile values inside the tiles, names
never cut on slips and cards, the cards' QR address (the machine's LAN address, checked), the dates in the
tournament's time zone."""

from __future__ import annotations

import io
import socket
import subprocess
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from django.core.management import CommandError, call_command
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from scoring.board import Tile
from scoring.rules import get_ruleset
from tests.tournament.printing.conftest import PEOPLE
from tests.tournament.printing.test_pdf import build, flat, page_texts, render, text_of, tool
from tournament import services
from tournament.models import Game, Penalty, Registration, Slip, Solo, Verdict
from tournament.printing import address, documents
from tournament.printing import build as pdf
from tournament.printing import layout as pdf_layout
from tournament.printing import spec as specs
from tournament.printing.documents.arbitration import EXPLANATION_CHARS, _explanation
from tournament.printing.documents.board import BoardDiagram, colour_values, premium_text
from tournament.services import reading
from tournament.web import address as web_address

pytestmark = [pytest.mark.django_db]

NAMES = [n for n, *_ in PEOPLE]


def post(client, slug, **data):
    return client.post(reverse("pdf:request", args=[slug]), {"format": "json", **data})


def job_text(client, job) -> str:
    return text_of(b"".join(client.get(job["download_url"]).streaming_content))


# -- the arbitration sheet -------------------------------------------------------------------------------------


def test_the_flagged_only_arbitration_sheet_lists_only_the_verdicts_to_look_at(tournament, played, tmp_path):
    every = flat(build(tournament, "arbitration", tmp_path, game=1, round=1))
    assert all(name in every for name in NAMES)
    out = build(tournament, "arbitration", tmp_path, game=1, round=1, flagged_only="1")
    text = flat(out)
    assert "Ёлкин Пётр" in text and "Jean Dupont" in text  # a warning, no slip
    assert "Іван Ґудзь" not in text and "Łukasz Żółć" not in text  # right: nothing to look at
    assert "Требуют внимания: 2" in text and "Получено 3 из 4 бланков." in text  # the round's figures
    assert "flagged" in pdf.download_name(specs.make_spec(tournament, "arbitration", game=1, round=1,
                                                          flagged_only=True), tournament)
    render(out, tmp_path / "png")
    with pytest.raises(specs.SpecError):
        specs.make_spec(tournament, "standings", flagged_only="1")


def test_a_round_with_nothing_to_look_at_says_so(tournament):
    info = reading.tournament_info(tournament)
    line = reading.ArbitrationLine(1, "Іван Ґудзь", "H4 CARTS 20", 1, "tablet", False,
                                   reading.VerdictLine("ok", "", False, True, "", 20, 20), 0)
    sheet = reading.ArbitrationSheet(1, 1, "published", "", "CATSROE", "H4 CARTS", 20, [line])
    with translation.override("en"):
        text = flat(documents.ArbitrationDocument(info, sheet, flagged_only=True).build())
    assert "Nothing to look at again." in text and "Іван Ґудзь" not in text


def test_the_explanation_column_shows_the_verdicts_message_shortened(tournament, played, tmp_path):
    long = "ACT is at H6 for 10 points " + "and the word is checked again " * 12 + "THE-TAIL"
    Verdict.objects.filter(registration__table_number=3, round__number=1).update(message=long, explanation=None)
    Verdict.objects.filter(registration__table_number=2, round__number=1).update(message="CATS scores 12, as announced",
                                                                                  explanation=None)
    Verdict.objects.filter(registration__table_number=1, round__number=1).update(message="", explanation=None)
    text = flat(build(tournament, "arbitration", tmp_path, game=1, round=1))
    assert "Explanation" in text or "Пояснение" in text  # the column (its header is translated by the lead)
    assert "Łukasz Żółć CATS 12 планшет 1-й ход: лучшее место CATS scores 12, as announced 12 12" in text
    assert "Іван Ґудзь H4 CARTS 20 планшет 1-й ход: лучшее место 1-й ход: лучшее место 20 20" in text  # no message
    assert "ACT is at H6 for 10 points and the word" in text and "THE-TAIL" not in text and "…" in text
    # one function says what the column shows
    verdict = reading.VerdictLine("score_wrong", long, True, True, "", 10, 10)
    shown = _explanation(verdict)
    assert len(shown) <= EXPLANATION_CHARS and shown.endswith("…") and long.startswith(shown[:-2])
    assert _explanation(None) == ""
    with translation.override("ru"):
        assert _explanation(reading.VerdictLine("no_slip", "", False, True, "", None, 0)) == "нет бланка"


# -- player sheets of several players ----------------------------------------------------------------------------


def test_every_players_sheet_in_one_pdf_a_page_each(tournament, played, tmp_path):
    out = build(tournament, "player-sheet", tmp_path, player="all")
    pages = page_texts(out)
    assert len(pages) == 4
    for page, name in zip(pages, ["Іван Ґудзь", "Łukasz Żółć", "Ёлкин Пётр", "Jean Dupont"], strict=True):
        assert page.count(name) >= 2  # the title and the page header name the page's player
        assert all(other not in page for other in NAMES if other != name)
    assert "Стол 4" in pages[3] and "Страница 4 из 4" in pages[3]
    assert "Итого за партию 34" in " ".join(pages[0].split())
    render(out, tmp_path / "png")


def test_the_sheets_read_a_part_of_the_hall_at_a_time_say_what_each_players_own_sheet_says(
        alice, tournament, played, people):
    """The hall's sheets are read some players at a time (every game's rows of a part at once): each sheet is
    the one read for that player alone — penalties, solos, a replaced slip, a slip handed in late, an override."""
    ivan, lukasz, yolkin, jean = (reg for reg, _code in people)
    r1, r2 = played.rounds.order_by("number")
    Penalty.objects.create(game=played, registration=lukasz, points=5, kind=Penalty.Kind.OTHER, reason="phone")
    Solo.objects.create(round=r2, registration=jean, points=10)
    Slip.objects.create(registration=jean, round=r1, word="TACS", coordinates="H4", announced_score=9,
                        received_at=r1.published_at, idempotency_key="late-jean", late=True, version=2)
    Slip.objects.create(registration=jean, round=r1, word="CAT", coordinates="H4", announced_score=5,
                        received_at=r1.published_at, idempotency_key="first-jean", is_current=False, version=1)
    services.judging.override_verdict(alice, Verdict.objects.get(registration=yolkin, round=r1), awarded=11,
                                      warning=False, why="checked")
    services.games.create_game(alice, tournament)  # a second game, nothing published yet
    regs = reading.sheet_registrations(tournament)
    alone = [reading.player_sheet(r) for r in regs]
    assert [len(s.games) for s in alone] == [2, 2, 2, 2] and alone[1].games[0].penalties
    for at_once in (1, 3, 200):
        assert list(reading.player_sheets(tournament, regs, at_once=at_once)) == alone
    shown = {s.name: s for s in alone}["Jean Dupont"].games[0].rounds[0]
    assert shown.late and "TACS" in shown.slip


def test_a_long_story_is_made_as_it_is_laid_out():
    """The player sheets of a hall come through a LazyStory: the flowables of a sheet are made when the layout
    gets near them, never the whole hall's at once."""
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate

    style = getSampleStyleSheet()["BodyText"]
    made, held, story = [], [], []

    def parts():
        for i in range(400):
            made.append(i)
            held.append(list.__len__(story))  # what the story holds when it asks for one more sheet
            yield [Paragraph(f"Sheet {i} line {j}", style) for j in range(10)]

    story = pdf_layout.LazyStory(parts(), ahead=32)
    assert len(made) == 4  # 32 flowables ahead: four parts of ten
    out = io.BytesIO()
    SimpleDocTemplate(out).build(story)
    assert len(made) == 400 and max(held) < 32 + 10
    assert text_of(out.getvalue()).count("line 9") == 400


def test_the_sheets_of_a_club_or_a_series(tournament, played, tmp_path):
    pages = page_texts(build(tournament, "player-sheet", tmp_path, player="all", group_by="club", group="Kraków"))
    assert len(pages) == 1 and "Łukasz Żółć" in pages[0] and "Іван Ґудзь" not in pages[0]
    pages = page_texts(build(tournament, "player-sheet", tmp_path, group_by="series", group="B"))
    assert len(pages) == 2 and "Ёлкин Пётр" in pages[0] and "Jean Dupont" in pages[1]
    for bad in ({"player": "all", "group_by": "club", "group": "Nowhere"}, {"player": "all", "group_by": "club"},
                {"player": "all", "group_by": "colour", "group": "x"}, {"group": "Kraków"}):
        with pytest.raises(specs.SpecError):
            specs.make_spec(tournament, "player-sheet", **bad)


def test_the_printing_page_offers_all_players_a_club_a_series(client, alice, tournament, played, eager):
    client.force_login(alice)
    page = client.get(reverse("pdf:index", args=[tournament.slug])).content.decode()
    assert 'value="all"' in page and 'value="club:Kraków"' in page and 'value="series:B"' in page
    assert 'value="category:veteran"' in page and 'name="flagged_only"' in page
    job = post(client, tournament.slug, kind="player-sheet", player="club:Київ").json()
    assert job["state"] == "done" and job["pages"] == 1
    text = job_text(client, job)
    assert "Іван Ґудзь" in text and "Jean Dupont" not in text
    job = post(client, tournament.slug, kind="player-sheet", player="all").json()
    assert job["pages"] == 4 and all(name in job_text(client, job) for name in NAMES)
    job = post(client, tournament.slug, kind="arbitration", game="1", round="1", flagged_only="1").json()
    text = job_text(client, job)
    assert "Jean Dupont" in text and "Łukasz Żółć" not in text


def test_several_sheets_are_made_again_when_a_verdict_changes(client, alice, tournament, played, eager):
    client.force_login(alice)
    first = post(client, tournament.slug, kind="player-sheet", player="all").json()
    assert post(client, tournament.slug, kind="player-sheet", player="all").json()["cached"] is True
    v = Verdict.objects.get(registration__table_number=4, round__number=1)
    services.judging.override_verdict(alice, v, awarded=30, warning=False, why="arbiter")
    again = post(client, tournament.slug, kind="player-sheet", player="all").json()
    assert again["cached"] is False and again["download_url"] != first["download_url"]


# -- the board in black and white, the tile values -----------------------------------------------------------


def test_the_board_tells_word_from_letter_premiums_by_text(tmp_path):
    assert [premium_text(c) for c in ("TW", "DW", "TL", "DL")] == ["×3", "×2", "3", "2"]
    info = reading.TournamentInfo(name="Кубок Полтави", ruleset="uk", convention="duplicate", language="uk")
    sheet = reading.GameSheet(1, Game.Status.FINISHED, Game.Status.FINISHED.label, [], "")
    with translation.override("uk"):
        data = documents.GameSheetDocument(info, sheet).build()
    board = text_of(data).split("\n")
    tokens = " ".join(board).split()
    # the squares (the centre is a star), their samples in the legend, the column numbers
    assert tokens.count("×3") == 8 + 1 and tokens.count("×2") == 16 + 1  # word premiums
    assert tokens.count("3") == 12 + 1 + 1 and tokens.count("2") == 24 + 1 + 1  # letter premiums
    (tmp_path / "board.pdf").write_bytes(data)
    grey = subprocess.run([tool("pdftoppm"), "-r", "60", "-gray", "-png", str(tmp_path / "board.pdf"),
                           str(tmp_path / "grey")], capture_output=True, text=True)
    assert grey.returncode == 0 and not grey.stderr.strip()


class Recorder(Canvas):
    """A canvas that keeps the strings drawn: (text, x left, x right, baseline, font, size)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.drawn: list[tuple[str, float, float, float, str, float]] = []

    def _keep(self, text, left, y):
        width = pdfmetrics.stringWidth(text, self._fontname, self._fontsize)
        self.drawn.append((text, left, left + width, y, self._fontname, self._fontsize))

    def drawCentredString(self, x, y, text, *args, **kwargs):  # noqa: N802
        self._keep(text, x - pdfmetrics.stringWidth(text, self._fontname, self._fontsize) / 2, y)
        return super().drawCentredString(x, y, text, *args, **kwargs)

    def drawRightString(self, x, y, text, *args, **kwargs):  # noqa: N802
        self._keep(text, x - pdfmetrics.stringWidth(text, self._fontname, self._fontsize), y)
        return super().drawRightString(x, y, text, *args, **kwargs)


@pytest.mark.parametrize("letter", ["Щ", "Ш", "Ж", "Ґ", "Ф"])
def test_a_tiles_value_is_inside_the_tile_beside_its_letter(tmp_path, letter):
    fonts = pdf_layout.register_fonts()
    style = SimpleNamespace(rows=lambda: list("ABCDEFGHIJKLMNO"), columns=lambda: [str(i) for i in range(1, 16)])
    diagram = BoardDiagram("uk", "", width=400, fonts=fonts, style=style)
    canvas = Recorder(str(tmp_path / "t.pdf"))
    diagram.canv = canvas
    s = diagram.cell
    pad = s * 0.06
    diagram._tile(0, 0, Tile(letter, False), False)
    (text, l_left, l_right, l_y, _f, l_size), (value, v_left, v_right, v_y, _g, v_size) = canvas.drawn
    assert text == letter and value == str(diagram.ruleset.value(letter))
    assert pad < l_left and l_right <= v_left  # the letter, then the value, not over each other
    assert v_right <= s - pad - 0.5 and v_y >= pad  # the value inside the tile's edge
    assert l_size >= s * 0.3


# -- names on slips and cards --------------------------------------------------------------------------------------


LONG_NAME = "Олександра-Вікторія Костянтинівна Шевченко-Квітка-Основ'яненко"


def test_long_names_are_not_cut_on_slips_cards_and_standings(alice, tournament, people, tmp_path):
    services.players.register_player(alice, tournament, name=LONG_NAME, club="Полтавський клуб ерудитів «Слово» імені "
                                     "Івана Котляревського")
    slips = build(tournament, "slips", tmp_path)
    assert LONG_NAME in flat(slips) and "…" not in flat(slips)
    render(slips, tmp_path / "slips")
    standings = flat(build(tournament, "standings", tmp_path))
    assert LONG_NAME in standings and "…" not in standings
    cards = build(tournament, "cards", tmp_path)
    assert LONG_NAME in flat(cards)
    render(cards, tmp_path / "cards")
    for width, height in ((100, 30), (60, 12), (30, 30)):
        size, lines = pdf_layout.fit_lines(LONG_NAME, "DejaVuSans-Bold", width, height)
        assert "".join("".join(lines).split()) == "".join(LONG_NAME.split())  # every letter is there
        assert all(pdfmetrics.stringWidth(line, "DejaVuSans-Bold", size) <= width + 0.01 for line in lines)


def test_a_long_name_on_a_card_takes_two_larger_lines_rather_than_one_small_one():
    """The card's name box (7.6 mm high): a name that fits one line only below 9 pt goes on two lines."""
    bold = pdf_layout.register_fonts().bold
    width, height = 48 * mm, 7.6 * mm
    name = "Олександра Костянтинівна Шевченко"
    one_size, one = pdf_layout.fit_lines(name, bold, width, height, largest=13, smallest=6)
    size, lines = pdf_layout.fit_lines(name, bold, width, height, largest=13, smallest=6, one_line_down_to=9)
    assert len(one) == 1 and one_size < 9  # without the floor: one small line
    assert len(lines) == 2 and size > one_size and size >= 9
    short_size, short = pdf_layout.fit_lines("Іван Петренко", bold, width, height, largest=13,
                                             smallest=6, one_line_down_to=9)
    assert short == ["Іван Петренко"] and short_size >= 9


# -- the cards' address ---------------------------------------------------------------------------------------------


def qr_urls(pdf_bytes: bytes, folder) -> set[str]:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cards.pdf").write_bytes(pdf_bytes)
    pngs = render(folder / "cards.pdf", folder / "png", dpi=200)
    done = subprocess.run([tool("zbarimg"), "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", *map(str, pngs)],
                          capture_output=True, text=True)
    return set(done.stdout.split())


def test_the_cards_qr_code_holds_the_address_given_on_the_form(client, alice, tournament, people, eager, tmp_path):
    client.force_login(alice)
    job = post(client, tournament.slug, kind="cards", confirm="1", base_url=" http://10.20.30.40:8080/ ").json()
    assert job["state"] == "done", job
    urls = qr_urls(b"".join(client.get(job["download_url"]).streaming_content), tmp_path / "given")
    assert len(urls) == 4 and all(u.startswith("http://10.20.30.40:8080/tablet/login/?code=") for u in urls)


def test_the_form_offers_the_machines_lan_address(client, alice, tournament, people, eager, tmp_path, monkeypatch):
    monkeypatch.setattr(web_address, "lan_address", lambda: "192.168.7.7")
    client.force_login(alice)
    page = client.get(reverse("pdf:index", args=[tournament.slug]), SERVER_PORT="8000").content.decode()
    assert 'value="http://192.168.7.7:8000"' in page and "localhost" not in page.split('id="ac-base"')[1][:200]
    job = post(client, tournament.slug, kind="cards", confirm="1", player=str(people[0][0].player_id)).json()
    urls = qr_urls(b"".join(client.get(job["download_url"]).streaming_content), tmp_path / "lan")
    assert len(urls) == 1 and urls.pop().startswith("http://192.168.7.7/tablet/login/?code=")  # port 80: none


BAD_ADDRESSES = ["ftp://192.168.1.10", "http://", "192.168.1.10:8000", "http://192.168.1.10:8000/tablet/",
                 "http://192.168.1.10:99999", "http://arbiter@192.168.1.10", "http://192.168.1.10/?x=1",
                 "http://999.1.1.1:8000", "http://hall_pc:8000", "javascript:alert(1)", "http://192.168.1.10:0"]


def test_a_bad_address_is_refused_with_a_translated_message(client, alice, tournament, people, eager):
    client.force_login(alice)
    for bad in BAD_ADDRESSES:
        response = post(client, tournament.slug, kind="cards", confirm="1", base_url=bad)
        assert response.status_code == 400, bad
        assert "Адрес для планшетов должен выглядеть как http://192.168.1.10:8000" in response.json()["error"], bad
    assert all(reg.check_access_code(code) for reg, code in people)  # nothing was issued
    for bad in BAD_ADDRESSES:
        with pytest.raises(address.AddressError):
            address.clean_address(bad)
    good = {"http://192.168.1.10:8000": "http://192.168.1.10:8000", "https://Hall.local/": "https://hall.local",
            "http://[fe80::1]:8000": "http://[fe80::1]:8000", "http://scrabble-hall": "http://scrabble-hall"}
    assert {given: address.clean_address(given) for given in good} == good


def test_the_lan_address_is_found_without_a_network(monkeypatch):
    found = web_address.lan_address()
    assert found is None or not found.startswith("127.")

    class NoRoute:
        def __init__(self, *args):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def connect(self, where):
            raise OSError("network is unreachable")

    monkeypatch.setattr(socket, "socket", NoRoute)
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: [(2, 1, 6, "", ("127.0.1.1", 0)),
                                                               (2, 1, 6, "", ("10.0.0.5", 0))])
    assert web_address.lan_address() == "10.0.0.5"
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: [(2, 1, 6, "", ("127.0.0.1", 0))])
    assert web_address.lan_address() is None
    request = RequestFactory().get("/", HTTP_HOST="localhost:8000")
    assert web_address.suggested_address(request) == "http://localhost:8000"  # the request's host, at worst


# -- dates --------------------------------------------------------------------------------------------------------


def test_dates_are_printed_in_the_tournaments_time_zone(settings):
    moment = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    with translation.override("ru"):
        assert pdf_layout.local_datetime(SimpleNamespace(time_zone="Asia/Tokyo"), moment) == "01.03.2026 21:00"
        settings.TIME_ZONE = "Europe/Kyiv"
        assert pdf_layout.local_datetime(SimpleNamespace(), moment) == "01.03.2026 14:00"
        assert pdf_layout.local_datetime(SimpleNamespace(time_zone="Nowhere/City"), moment).endswith(
            ("14:00", "13:00"))  # an unknown zone: the site's
    info = reading.TournamentInfo(name="Кубок", ruleset="uk", convention="duplicate", language="uk",
                                  time_zone="America/New_York")
    sheet = reading.GameSheet(1, Game.Status.FINISHED, Game.Status.FINISHED.label, [], "")
    with translation.override("uk"):
        text = flat(documents.GameSheetDocument(info, sheet, generated_at=moment).build())
    assert "Надруковано 01.03.2026 07:00" in text


def test_every_registration_is_on_some_page(tournament, played, tmp_path):
    """The player sheets of all players follow the table order of the registrations."""
    pages = page_texts(build(tournament, "player-sheet", tmp_path, player="all"))
    tables = list(Registration.objects.filter(tournament=tournament).order_by("table_number")
                  .values_list("player__name", flat=True))
    assert [next(n for n in tables if n in page) for page in pages] == tables


def test_the_print_pdf_command_takes_the_new_choices(tournament, played, tmp_path):
    out = tmp_path / "x.pdf"
    call_command("print_pdf", "player-sheet", "--tournament", tournament.slug, "--player", "all", "--out", str(out),
                 stdout=io.StringIO())
    assert len(page_texts(out)) == 4
    call_command("print_pdf", "player-sheet", "--tournament", tournament.slug, "--group-by", "club", "--group",
                 "Kraków", "--out", str(out), stdout=io.StringIO())
    assert "Łukasz Żółć" in text_of(out) and "Іван Ґудзь" not in text_of(out)
    call_command("print_pdf", "arbitration", "--tournament", tournament.slug, "--game", "1", "--round", "1",
                 "--flagged-only", "--out", str(out), stdout=io.StringIO())
    assert "Jean Dupont" in text_of(out) and "Łukasz Żółć" not in text_of(out)
    for base_url in ("http://192.168.1.10:8000/tablet/", "192.168.1.10"):
        with pytest.raises(CommandError) as info:
            call_command("print_pdf", "cards", "--tournament", tournament.slug, "--base-url", base_url,
                         "--new-codes", "--out", str(out))
        assert info.value.returncode == 2


def test_a_literaki_colour_square_shows_the_value_of_its_tiles():
    """In black and white a colour square is told by the figure printed on the tiles it triples."""
    assert colour_values(get_ruleset("pl-literaki")) == {"Y": "1", "G": "2", "B": "3", "R": "5"}
    info = reading.TournamentInfo(name="Puchar Łodzi", ruleset="pl-literaki", convention="duplicate", language="pl")
    sheet = reading.GameSheet(1, Game.Status.FINISHED, Game.Status.FINISHED.label, [], "")
    with translation.override("pl"):
        tokens = text_of(documents.GameSheetDocument(info, sheet).build()).split()
    assert tokens.count("5") > 1 + 1 and tokens.count("1") > 1 + 1  # the squares, beyond the column numbers


def test_a_request_the_form_can_make_is_refused_in_the_pages_language(client, alice, tournament, played, eager,
                                                                       monkeypatch):
    client.force_login(alice)
    refused = post(client, tournament.slug, kind="arbitration", game="1", round="9")
    assert refused.status_code == 400 and refused.json()["error"] == "В партии 1 нет хода 9."
