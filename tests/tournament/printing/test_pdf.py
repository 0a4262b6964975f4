"""Printed documents: the text of each PDF (Cyrillic and Polish names, numbers, order), pages rendered,
QR codes of the access cards decoded, "page x of y", the Celery task with its progress and the cache,
permissions, the print_pdf command.

Needs poppler-utils (pdftotext, pdftoppm) and zbar-tools (zbarimg) installed.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation

from tests.conftest import run_manage
from tests.tools.users import user
from tests.tournament.printing.conftest import BASE_URL, PEOPLE
from tournament import labels, services, tasks
from tournament.models import AuditLog, Game, Registration, Tournament, Verdict, secret_hash
from tournament.printing import build as pdf
from tournament.printing import documents
from tournament.printing import jobs as pdf_tasks
from tournament.printing import layout as pdf_base
from tournament.printing import spec as specs
from tournament.services import reading

pytestmark = [pytest.mark.django_db]

def tool(name: str) -> str:
    exe = shutil.which(name)
    if exe is None:
        package = "zbar-tools" if name == "zbarimg" else "poppler-utils"
        pytest.fail(f"{name} is needed by the PDF tests: apt-get install {package}")
    return exe


def text_of(source) -> str:
    """The text of a PDF (a path or bytes), laid out as on the page."""
    data = Path(source).read_bytes() if not isinstance(source, bytes) else source
    done = subprocess.run([tool("pdftotext"), "-layout", "-enc", "UTF-8", "-", "-"], input=data,
                          capture_output=True, check=True)
    return done.stdout.decode()


def flat(source) -> str:
    """The text in drawing order (a table row by row, cell by cell), all white space as single spaces."""
    data = Path(source).read_bytes() if not isinstance(source, bytes) else source
    done = subprocess.run([tool("pdftotext"), "-raw", "-enc", "UTF-8", "-", "-"], input=data,
                          capture_output=True, check=True)
    return " ".join(done.stdout.decode().split())


def page_texts(source) -> list[str]:
    return text_of(source).split("\f")[:-1]


def render(source: Path, folder: Path, dpi: int = 60) -> list[Path]:
    """Every page as PNG; pdftoppm must not complain."""
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([tool("pdftoppm"), "-r", str(dpi), "-png", str(source), str(folder / "page")],
                          capture_output=True, text=True)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
    pngs = sorted(folder.glob("page*.png"))
    assert pngs and all(p.stat().st_size > 1000 for p in pngs)
    return pngs


def order(text: str, *names: str) -> list[str]:
    """The names in the order they appear in the text."""
    return sorted(names, key=lambda n: text.index(n))


def build(tournament, kind, tmp_path, **params) -> Path:
    spec = specs.make_spec(tournament, kind, **params)
    out = tmp_path / f"{kind}.pdf"
    pdf.build(spec, out=out, base_url=BASE_URL)
    return out


# -- the documents ------------------------------------------------------------------------------------------


def test_game_and_tournament_standings(tournament, played, tmp_path):
    for params in ({"game": 1}, {}):
        out = build(tournament, "standings", tmp_path, **params)
        text = flat(out)
        names = [n for n, *_ in PEOPLE]
        assert order(text, *names) == ["Іван Ґудзь", "Łukasz Żółć", "Jean Dupont", "Ёлкин Пётр"]
        # rank, name, club, series, category, total, deficit, percentage (Russian: decimal comma)
        assert "1 Іван Ґудзь Київ A senior 34 0 100,00" in text
        assert "2 Łukasz Żółć Kraków A junior 26 −8 76,47" in text
        assert "3 Jean Dupont Paris B senior 14 −20 41,18" in text
        assert "4 Ёлкин Пётр Спартак B veteran 10 −24 29,41" in text
        assert "Open de test" in text and "Сумма топов: 34" in text and "Игроков: 4" in text
        assert "Страница 1 из 1" in text
        render(out, tmp_path / f"png-{len(params)}")
    assert "Партий: 1" in text and "Ходов: 2" in text


def test_standings_in_sections_by_series_and_category(tournament, played, tmp_path):
    text = flat(build(tournament, "standings", tmp_path, group_by="series"))
    a, b = text.index("Серия: A"), text.index("Серия: B")
    assert a < text.index("Іван Ґудзь") < text.index("Łukasz Żółć") < b < text.index("Jean Dupont") < text.index(
        "Ёлкин Пётр")
    assert "1 Jean Dupont Paris B senior 14" in text and "2 Ёлкин Пётр" in text  # ranks inside the series
    assert "Турнирная таблица · по сериям" in text
    text = flat(build(tournament, "standings", tmp_path, group_by="category"))
    assert text.index("Категория: junior") < text.index("Категория: senior") < text.index("Категория: veteran")
    senior = text[text.index("Категория: senior"):text.index("Категория: veteran")]
    assert "1 Іван Ґудзь" in senior and "2 Jean Dupont" in senior


def test_long_standings_say_page_x_of_y_on_every_page(alice, tournament, tmp_path):
    Tournament.objects.filter(pk=tournament.pk).update(language="en")
    tournament.refresh_from_db()
    for i in range(130):
        services.players.register_player(alice, tournament, name=f"Gracz Żółty {i:03d}", club="Łódź")
    pages = page_texts(build(tournament, "standings", tmp_path))
    assert len(pages) == 3
    for i, page in enumerate(pages, start=1):
        assert f"Page {i} of 3" in page
        assert "Name" in page  # the header row is repeated
    assert "Gracz Żółty 129" in pages[-1]


def test_game_sheet_racks_tops_and_board(tournament, played, tmp_path):
    out = build(tournament, "game-sheet", tmp_path, game=1)
    rows = flat(out)
    assert "1 CATSROE H4 CARTS 20 20 93" in rows and "2 OE+SRDZ? 4H CaRDS 14 34 88" in rows  # leftover + new
    assert "Протокол партии" in rows and "Сумма топов: 34" in rows and "Доска после хода 2" in rows
    text = text_of(out)
    # the diagram: column numbers, Latin row labels for an English set, the tiles
    assert re.search(r"1\s+2\s+3\s+4\s+5\s+6\s+7\s+8\s+9\s+10\s+11\s+12\s+13\s+14\s+15", text)
    assert re.search(r"H\s.*C\s*3\s*A\s*1\s*R\s*1\s*T\s*1\s*S\s*1", text)
    assert re.search(r"^\s*O\s", text, re.M) and "Ё" not in text.split("Доска")[-1]
    pngs = render(out, tmp_path / "png", dpi=100)
    assert len(pngs) == 1


def paper(name: str, ruleset: str, language: str) -> reading.TournamentInfo:
    script = labels.default_script(ruleset, language)
    return reading.TournamentInfo(name=name, ruleset=ruleset, convention="duplicate", language=language,
                                  coordinate_script=script)


def test_game_sheet_of_a_russian_game_marks_kept_tiles_redraws_and_uses_cyrillic_rows():
    t = paper("Кубок Ґудзика", "ru", "ru")
    rounds = [
        reading.SheetRound(1, "", "ЗДОРОВЫ", 0, [], "H8 ЗДОРОВЫ", 82, 82, 86),
        reading.SheetRound(2, "ОЕТ", "ВРАК", 0, [], "8H ЗАНОВО", 11, 93, 82),
        reading.SheetRound(3, "", "АЕИКНОР", 2, ["АЕИОУЫЯ", "ЙЦКНГШЩ"], "J6 ЁЖиК", 22, 115, 78),
    ]
    fen = "15/15/15/15/15/15/15/7ЗДОРОВЫ1/7А7/5ЁЖиК6/7О7/7В7/7О7/15/15"
    sheet = reading.GameSheet(2, Game.Status.FINISHED, Game.Status.FINISHED.label, rounds, fen)
    with translation.override("ru"):
        data = documents.GameSheetDocument(t, sheet).build()
    text = text_of(data)
    assert re.search(r"2\s+ОЕТ\+ВРАК\s+8З ЗАНОВО\s+11\s+93", text)
    assert re.search(r"1\s+ЗДОРОВЫ\s+З8 ЗДОРОВЫ\s+82\s+82", text)
    assert "перетяжка ×2: АЕИОУЫЯ, ЙЦКНГШЩ" in text and "К6 ЁЖиК" in text
    assert "Итоговая доска" in text
    for label in "АБВГДЕЖЗИКЛМНОП":
        assert re.search(rf"^\s*{label}\s", text, re.M), label


def test_ukrainian_and_literaki_boards_print_their_letters(tmp_path):
    cases = [("uk", "uk", "15/15/15/15/15/15/15/5ҐЄІЇ'*4/15/15/15/15/15/15/15", ["Ґ", "Є", "І", "Ї", "'"]),
             ("pl-literaki", "pl", "15/15/15/15/15/15/15/4ŻÓŁĆŹĄĘ4/15/15/15/15/15/15/15", list("ŻÓŁĆŹĄĘ"))]
    for ruleset, lang, fen, letters in cases:
        t = paper("Puchar Łodzi — Кубок Києва", ruleset, lang)
        sheet = reading.GameSheet(1, Game.Status.FINISHED, Game.Status.FINISHED.label, [], fen)
        with translation.override(lang):
            data = documents.GameSheetDocument(t, sheet).build()
        text = text_of(data)
        for letter in letters:
            assert letter in text, (ruleset, letter)
        assert "Puchar Łodzi — Кубок Києва" in text
        (tmp_path / f"{ruleset}.pdf").write_bytes(data)
        render(tmp_path / f"{ruleset}.pdf", tmp_path / ruleset)
    assert "Plansza końcowa" in text and "Strona 1 z 1" in text


def test_player_sheet(tournament, people, played, tmp_path):
    ivan = people[0][0]
    out = build(tournament, "player-sheet", tmp_path, player=ivan.player_id)
    text = flat(out)
    assert "Іван Ґудзь" in text and "Стол 1" in text and "Клуб: Київ" in text
    assert "1 H4 CARTS 20 1-й ход: лучшее место 20 H4 CARTS 20 0" in text
    assert "2 4H CARDS 10 неверные очки предупреждение 14 4H CaRDS 14 0" in text  # a warning
    assert "Сумма 34 34 0" in text
    assert "Итого за партию 34" in text and "Предупреждения 1 (3 без штрафа)" in text
    render(out, tmp_path / "png")
    # Ёлкин: a warning in round 1, no slip in round 2
    text = flat(build(tournament, "player-sheet", tmp_path, player=people[2][0].player_id))
    assert "1 ACT 11 1-й ход: неверные очки предупреждение 10 H4 CARTS 20 −10" in text
    assert "2 нет бланка нет бланка 0 4H CaRDS 14 −14" in text
    assert "Итого за партию 10" in text and "Отставание от топа −24" in text and "% 29,41" in text


def test_arbitration_sheet_flags_what_needs_a_look(tournament, played, tmp_path, alice):
    Verdict.objects.update(message="", explanation=None)  # without the judge's explanation: the reason's label
    out = build(tournament, "arbitration", tmp_path, game=1, round=1)
    text = flat(out)
    assert order(text, *(n for n, *_ in PEOPLE)) == [n for n, *_ in PEOPLE]  # table order
    best = "1-й ход: лучшее место"
    assert f"1 Іван Ґудзь H4 CARTS 20 планшет {best} {best} 20 20" in text
    assert f"2 Łukasz Żółć CATS 12 планшет {best} {best} 12 12" in text
    assert "⚑ 3 Ёлкин Пётр ACT 11 планшет 1-й ход: неверные очки предупреждение 1-й ход: неверные очки 10 10" in text
    assert "⚑ 4 Jean Dupont — нет бланка нет бланка 0" in text
    assert re.findall(r"⚑ (\d+) ", text) == ["3", "4"]
    assert "Требуют внимания: 2" in text and "Получено 3 из 4 бланков." in text
    assert "Подставка: CATSROE" in text and "Топ: H4 CARTS 20" in text
    # an arbiter's decision is flagged too
    v = Verdict.objects.get(registration=played.tournament.registrations.get(table_number=1), round__number=1)
    services.judging.override_verdict(alice, v, awarded=18, warning=False, why="блок зачёркнут")
    text = flat(build(tournament, "arbitration", tmp_path, game=1, round=1))
    assert "Требуют внимания: 3" in text and "изменено арбитром: блок зачёркнут" in text
    assert "⚑ 1 Іван Ґудзь H4 CARTS 20 планшет решение арбитра изменено арбитром: блок зачёркнут решение арбитра " \
           "20 18" in text
    render(out, tmp_path / "png")


def test_blank_slips(tournament, people, tmp_path):
    out = build(tournament, "slips", tmp_path, game=1, round=7, copies=3)
    pages = page_texts(out)
    assert len(pages) == 2  # 4 tables × 3 copies, 8 per page
    text = "".join(pages)
    for name, *_ in PEOPLE:
        assert text.count(name) == 3
    assert "Open de test" in text and "Координаты" in text and "Слово" in text and "Очки" in text
    assert "Страница 2 из 2" in pages[1]
    render(out, tmp_path / "png")
    Registration.objects.all().delete()  # no player: a page of anonymous slips
    assert len(page_texts(build(tournament, "slips", tmp_path))) == 1


def test_access_cards_issue_new_codes_and_their_qr_codes_log_in(alice, tournament, people, tmp_path):
    out = build(tournament, "cards", tmp_path)
    text = text_of(out)
    codes = {}
    for reg, old in people:
        reg.refresh_from_db()
        name = reg.player.name
        assert name in text
        found = [c for c in re.findall(r"\b[A-Z2-9]{10}\b", text) if reg.check_access_code(c)]
        assert len(found) == 1, name
        codes[reg.table_number] = found[0]
        assert not reg.check_access_code(old)  # printing cards issued a new code
    assert AuditLog.objects.filter(action="player.new_code").count() == 4
    assert "Карточки доступа" in text and "Код доступа" in text
    pngs = render(out, tmp_path / "png", dpi=200)
    done = subprocess.run([tool("zbarimg"), "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", *map(str, pngs)],
                          capture_output=True, text=True)
    urls = set(done.stdout.split())
    assert urls == {f"{BASE_URL}/tablet/login/?code={code}" for code in codes.values()}
    for url in urls:
        query = parse_qs(urlsplit(url).query)
        assert Registration.objects.filter(access_code_hash=secret_hash(query["code"][0])).exists()


def test_one_card_can_also_log_out_the_tablets(alice, tournament, people, tmp_path):
    reg, code = people[1]
    token = services.players.issue_tablet_token(reg, code)
    spec = specs.make_spec(tournament, "cards", player=reg.player_id)
    pdf.build(spec, base_url=BASE_URL, out=tmp_path / "one.pdf", log_out_tablets=True)
    text = text_of(tmp_path / "one.pdf")
    assert "Łukasz Żółć" in text and "Іван Ґудзь" not in text
    assert services.players.registration_for_token(token) is None
    other = people[0][0]
    assert services.players.registration_for_token(services.players.issue_tablet_token(other, people[0][1])) is not None


def test_bad_requests_are_refused(tournament, played):
    bad = [("poster", {}), ("game-sheet", {}), ("game-sheet", {"game": 9}), ("arbitration", {"game": 1}),
           ("arbitration", {"game": 1, "round": 7}), ("player-sheet", {}), ("player-sheet", {"player": 999}),
           ("standings", {"group_by": "colour"}), ("standings", {"game": "x"}), ("slips", {"copies": 99}),
           ("game-sheet", {"game": 1, "group_by": "club"}), ("standings", {"language": "de"})]
    for kind, params in bad:
        with pytest.raises(specs.SpecError):
            specs.make_spec(tournament, kind, **params)


def test_a_missing_font_is_explained(monkeypatch, tmp_path):
    monkeypatch.setattr(pdf_base, "find_font", lambda role: None)
    pdf_base.register_fonts.cache_clear()
    try:
        with pytest.raises(pdf_base.FontError, match="fonts-dejavu-core"):
            pdf_base.register_fonts()
    finally:
        monkeypatch.undo()
        pdf_base.register_fonts.cache_clear()
    assert pdf_base.register_fonts().regular == "DejaVuSans"


def test_the_font_is_looked_for_in_the_configured_folder(monkeypatch, tmp_path):
    folder = tmp_path / "fonts" / "dejavu"
    folder.mkdir(parents=True)
    shutil.copy(pdf_base.register_fonts().files["regular"], folder / "DejaVuSans.ttf")
    monkeypatch.setenv("DUPLICATE_PDF_FONT_DIR", str(tmp_path / "fonts"))
    assert pdf_base.find_font("regular") == folder / "DejaVuSans.ttf"


# -- task, progress, cache, download -------------------------------------------------------------------------------


def post(client, slug, **data):
    return client.post(reverse("pdf:request", args=[slug]), {"format": "json", **data})


def test_task_progress_cache_and_invalidation(client, alice, tournament, played, eager, monkeypatch):
    seen = []
    real_update = pdf_tasks.update_job
    monkeypatch.setattr(pdf_tasks, "update_job",
                        lambda job_id, **f: seen.append((f.get("state"), f.get("progress"))) or real_update(job_id, **f))
    client.force_login(alice)
    first = post(client, tournament.slug, kind="standings", game="1")
    assert first.status_code == 200, first.content
    job = first.json()
    assert job["state"] == "done" and job["cached"] is False and job["progress"] == 100
    assert ("done", 100) in seen and any(s == "running" and 0 < p < 100 for s, p in seen)
    status = client.get(job["status_url"]).json()
    assert status["state"] == "done" and status["download_url"] == job["download_url"]
    download = client.get(job["download_url"])
    assert download.status_code == 200 and download["Content-Type"] == "application/pdf"
    body = b"".join(download.streaming_content)
    assert body.startswith(b"%PDF") and "Іван Ґудзь" in text_of(body)
    assert "open-test-standings-g1.pdf" in download["Content-Disposition"]
    file1 = pdf_tasks.job_file(pdf_tasks.get_job(job["id"]))

    # the same request, nothing changed: the file is reused without a task
    seen.clear()
    second = post(client, tournament.slug, kind="standings", game="1").json()
    assert second["state"] == "done" and second["cached"] is True and not seen
    assert pdf_tasks.job_file(pdf_tasks.get_job(second["id"])) == file1
    # another document is another file
    other = post(client, tournament.slug, kind="standings").json()
    assert pdf_tasks.job_file(pdf_tasks.get_job(other["id"])) != file1

    # a verdict changes: the standings are made again, the old file goes
    v = Verdict.objects.get(registration__table_number=4, round__number=1)
    services.judging.override_verdict(alice, v, awarded=30, warning=False, why="arbiter")
    third = post(client, tournament.slug, kind="standings", game="1").json()
    assert third["cached"] is False
    file3 = pdf_tasks.job_file(pdf_tasks.get_job(third["id"]))
    assert file3 != file1 and not file1.exists()
    assert text_of(file3).index("Jean Dupont") < text_of(file3).index("Łukasz Żółć")  # 44 > 26
    assert client.get(job["download_url"]).status_code == 410  # the old job's file is gone
    # a renamed player changes the document too
    Registration.objects.get(table_number=3).player.__class__.objects.filter(name="Ёлкин Пётр").update(
        name="Ёлкин Пётр Ільїч")
    fourth = post(client, tournament.slug, kind="standings", game="1").json()
    assert fourth["cached"] is False and "Ёлкин Пётр Ільїч" in text_of(
        pdf_tasks.job_file(pdf_tasks.get_job(fourth["id"])))


def test_every_kind_through_the_view(client, alice, tournament, played, eager):
    client.force_login(alice)
    requests = [{"kind": "standings", "group_by": "club"}, {"kind": "game-sheet", "game": "1"},
                {"kind": "player-sheet", "player": str(Registration.objects.get(table_number=2).player_id)},
                {"kind": "arbitration", "game": "1", "round": "2"}, {"kind": "slips", "copies": "2"},
                {"kind": "cards", "confirm": "1", "base_url": BASE_URL + "/"}]
    for data in requests:
        job = post(client, tournament.slug, **data).json()
        assert job["state"] == "done", (data, job)
        body = b"".join(client.get(job["download_url"]).streaming_content)
        assert body.startswith(b"%PDF"), data
        if data["kind"] != "game-sheet":
            assert "Łukasz Żółć" in text_of(body), data
        page = client.get(job["page_url"])
        assert page.status_code == 200 and job["download_url"] in page.content.decode()
    assert client.get(reverse("pdf:index", args=[tournament.slug])).status_code == 200


def test_a_queued_job_waits_for_a_worker_then_shows_its_file(client, alice, tournament, played, monkeypatch):
    sent = []
    monkeypatch.setattr(tasks.build_pdf, "delay", lambda *a, **kw: sent.append((a, kw)))
    client.force_login(alice)
    response = client.post(reverse("pdf:request", args=[tournament.slug]), {"kind": "game-sheet", "game": "1"})
    assert response.status_code == 302
    page = client.get(response.url)
    assert page.status_code == 200 and '<progress class="progress" id="pdf-bar" max="100" value="0">' in page.content.decode()
    job_id = response.url.rstrip("/").rsplit("/", 1)[-1]
    status = client.get(reverse("pdf:status", args=[tournament.slug, job_id])).json()
    assert status["state"] == "queued" and status["download_url"] is None and not status["worker_hint"]
    assert client.get(reverse("pdf:download", args=[tournament.slug, job_id])).status_code == 409
    (args, kwargs), = sent
    assert tasks.build_pdf.run(*args, **kwargs) == "built"  # what the worker does
    status = client.get(reverse("pdf:status", args=[tournament.slug, job_id])).json()
    assert status["state"] == "done" and status["pages"] == 1 and status["download_url"]


def test_a_failed_build_is_reported(client, alice, tournament, played, eager, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the printer caught fire")

    monkeypatch.setattr(pdf, "build", broken)
    client.force_login(alice)
    job = post(client, tournament.slug, kind="game-sheet", game="1").json()
    assert job["state"] == "failed" and "the printer caught fire" in job["error"]
    assert job["download_url"] is None


def test_cards_need_a_confirmation_and_an_address(client, alice, tournament, people, eager):
    client.force_login(alice)
    refused = post(client, tournament.slug, kind="cards")
    assert refused.status_code == 400 and "новые коды" in refused.json()["error"]
    assert post(client, tournament.slug, kind="cards", confirm="1", base_url="ftp://x").status_code == 400
    assert all(reg.check_access_code(code) for reg, code in people)  # nothing was issued
    response = client.post(reverse("pdf:request", args=[tournament.slug]), {"kind": "cards"})
    assert response.status_code == 302  # the form page shows the message
    assert "pdf/t/open-test/" in response.url


def test_only_the_tournaments_arbiters(client, alice, bob, tournament, played, eager):
    client.force_login(alice)
    job = post(client, tournament.slug, kind="standings").json()
    cards = post(client, tournament.slug, kind="cards", confirm="1").json()
    urls = [reverse("pdf:index", args=[tournament.slug]), job["page_url"], job["status_url"], job["download_url"]]
    client.force_login(bob)
    for url in urls:
        assert client.get(url).status_code == 404, url
    assert post(client, tournament.slug, kind="standings").status_code == 404
    client.logout()
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302 and response.url.startswith("/arbiter/login/"), url
    assert post(client, tournament.slug, kind="standings").status_code == 302
    # another arbiter of the same tournament sees the standings, not the cards (they hold codes)
    carol = user("carol")
    tournament.arbiters.add(carol)
    client.force_login(carol)
    assert client.get(job["download_url"]).status_code == 200
    assert client.get(cards["download_url"]).status_code == 404
    assert client.get(cards["status_url"]).status_code == 404
    # a job id of another tournament is not found under this one
    other = services.tournaments.create_tournament(bob, name="Другой", slug="other", ruleset="en",
                                       lexicon=tournament.lexicon, arbiters=[bob])
    client.force_login(bob)
    assert client.get(reverse("pdf:status", args=[other.slug, job["id"]])).status_code == 404


def test_cards_files_are_private_and_expire(client, alice, tournament, people, eager, monkeypatch):
    client.force_login(alice)
    job = post(client, tournament.slug, kind="cards", confirm="1").json()
    path = pdf_tasks.job_file(pdf_tasks.get_job(job["id"]))
    assert "private" in path.parts and (path.stat().st_mode & 0o077) == 0
    response = client.get(job["download_url"])
    assert response["Cache-Control"] == "no-store"
    monkeypatch.setattr(pdf, "CARDS_TTL", -1)
    assert client.get(job["download_url"]).status_code == 410 and not path.exists()


# -- the command ---------------------------------------------------------------------------------------------------


def test_print_pdf_command(tournament, played, people, tmp_path):
    out = tmp_path / "standings.pdf"
    stdout = io.StringIO()
    call_command("print_pdf", "standings", "--tournament", tournament.slug, "--group-by", "club", "--out", str(out),
                 stdout=stdout)
    assert "standings: 1 page" in stdout.getvalue() and "Клуб: Kraków" in text_of(out)
    call_command("print_pdf", "standings", "--tournament", tournament.slug, "--group-by", "club", "--out", str(out),
                 stdout=stdout)
    assert "cached" in stdout.getvalue()
    call_command("print_pdf", "game-sheet", "--tournament", tournament.slug, "--game", "1", "--language", "pl",
                 "--out", str(out), stdout=io.StringIO())
    assert "Protokół partii" in text_of(out)
    call_command("print_pdf", "cards", "--tournament", tournament.slug, "--player", str(people[3][0].player_id),
                 "--base-url", BASE_URL, "--new-codes", "--out", str(out), stdout=io.StringIO(), stderr=io.StringIO())
    people[3][0].refresh_from_db()
    assert "Jean Dupont" in text_of(out) and not people[3][0].check_access_code(people[3][1])
    bad = [
        ["standings", "--tournament", "nope"],
        ["game-sheet", "--tournament", tournament.slug],
        ["arbitration", "--tournament", tournament.slug, "--game", "1", "--round", "9"],
        ["player-sheet", "--tournament", tournament.slug, "--player", "abc"],
        ["cards", "--tournament", tournament.slug, "--new-codes"],
        ["cards", "--tournament", tournament.slug, "--base-url", BASE_URL],
        ["standings", "--tournament", tournament.slug, "--base-url", BASE_URL],
    ]
    for args in bad:
        with pytest.raises(CommandError) as info:
            call_command("print_pdf", *args, "--out", str(tmp_path / "x.pdf"))
        assert info.value.returncode == 2, args
    with pytest.raises(CommandError) as info:
        call_command("print_pdf", "standings", "--tournament", tournament.slug, "--out", str(tmp_path / "no" / "x.pdf"))
    assert info.value.returncode == 2 and "no such folder" in str(info.value)
    assert not (tmp_path / "x.pdf").exists()


def test_print_pdf_command_line_errors_exit_2():
    for args in (["poster", "--tournament", "x", "--out", "x.pdf"], ["standings", "--tournament", "x"],
                 ["standings", "--tournament", "x", "--out", "x.pdf", "--group-by", "colour"]):
        done = run_manage("print_pdf", *args)
        assert done.returncode == 2 and "error" in done.stderr.lower(), done.stderr


def test_a_failed_card_print_issues_no_code(tournament, people, tmp_path, monkeypatch):
    def broken(self, *args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(documents.AccessCardsDocument, "build", broken)
    with pytest.raises(OSError):
        pdf.build(specs.make_spec(tournament, "cards"), base_url=BASE_URL)
    for reg, code in people:
        reg.refresh_from_db()
        assert reg.check_access_code(code)
    assert not AuditLog.objects.filter(action="player.new_code").exists()
    assert not list((pdf.pdf_root() / str(tournament.pk) / "private").glob("*"))
