"""Issue 14, done-when: every page and paper of a judged Ukrainian and a judged Russian tournament is in the hall's
language and its coordinate script — no Latin coordinate, no English sentence of ours.

The hall: a tournament on the Ukrainian (Russian) rule set, in Ukrainian (Russian), Cyrillic row letters; five
players with Cyrillic names; two published rounds judged from slips of every kind (right, wrong score, a word not
in the lexicon, a letter not in the set, no slip, late), one correction; then a third round open. Every console,
tablet, display and lexicon page is fetched and its visible text (and the texts the scripts show) read; every
PDF's text is extracted.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.rules import get_ruleset
from tests.paths import LEXICONS
from tests.tools.wordlist_solver import WordListSolver
from tournament import services
from tournament.live import tablet as live_tablet
from tournament.models import Round, Tournament
from tournament.printing import build as pdf
from tournament.printing import spec as specs

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_cache")]

#: A coordinate written with a Latin row letter (duplicate convention): H8, 8H, 11D …
LATIN_COORDINATE = re.compile(r"(?<![\w/.#-])(?:[A-O](?:1[0-5]|[1-9])|(?:1[0-5]|[1-9])[A-O])(?![\w/.-])")
#: Words of an English sentence (ASCII only: a Cyrillic or Polish text never contains them).
ENGLISH = re.compile(
    r"(?<![\w'’-])(the|and|is|are|not|of|to|for|with|from|this|that|was|has|have|your|you|round|rounds|slip|slips|"
    r"rack|score|scores|points?|players?|games?|moves?|warning|warnings|table|tables|close|open|published|judge|"
    r"judged|review|standings|top|tiles?|words?|missing|late|none|save|cancel|print|logout|log out|settings|"
    r"name|club|language|arbiter|lexicon|check|upload|status|draw|drawn|redraw|received|solver|seconds|minutes|"
    r"total|rank|bag|blank|blanks|verdict|verdicts|correct|wrong|place|announced|playable|lower|case)(?![\w'’-])",
    re.IGNORECASE)
#: Three ASCII words in a row: a sentence of English (names of the hall are Cyrillic; product names are one token).
ENGLISH_RUN = re.compile(r"(?<![\w.-])[A-Za-z]{2,}(?:[ ,]+[A-Za-z]{2,}){2,}(?![\w.-])")
#: Latin tokens that are names, not English (file formats, codes, the zone's name).
ALLOWED = {"A4", "PDF", "CSV", "QR", "API", "UTC", "Europe/Kyiv", "Europe/Moscow", "DejaVu"}


class _Text(HTMLParser):
    """The text a person sees (and the placeholders, titles, labels), without scripts and styles; the JSON
    blocks of texts the page's scripts show are read apart."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.json_blocks: list[str] = []
        self._skip = 0
        self._json = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag in ("script", "style"):
            self._skip += 1
            self._json = tag == "script" and a.get("type") == "application/json"
        for name in ("placeholder", "title", "aria-label", "alt"):
            if a.get(name):
                self.parts.append(str(a[name]))
        if tag == "input" and a.get("type") in ("submit", "button") and a.get("value"):
            self.parts.append(str(a["value"]))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skip:
            self._skip -= 1
            self._json = False

    def handle_data(self, data: str) -> None:
        if self._json:
            self.json_blocks.append(data)
        elif not self._skip and data.strip():
            self.parts.append(data.strip())


def strings_of(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings_of(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings_of(v)]
    return []


def page_text(html: str, *, text_tables: bool = True) -> str:
    parser = _Text()
    parser.feed(html)
    texts = list(parser.parts)
    if text_tables:
        for block in parser.json_blocks:
            try:
                data = json.loads(block)
            except ValueError:
                continue
            texts.extend(s for s in strings_of(data) if " " in s)  # sentences of the scripts' tables
    return "\n".join(texts)


PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}")
#: What a page shows verbatim, not words: the first signs of an access code.
VERBATIM = re.compile(r"^[A-Z0-9]{2}…$")


def problems(where: str, text: str) -> list[str]:
    text = "\n".join(line for line in PLACEHOLDER.sub("", text).splitlines() if not VERBATIM.match(line.strip()))
    found = []
    for m in LATIN_COORDINATE.finditer(text):
        if m.group(0) not in ALLOWED:
            found.append(f"{where}: Latin coordinate {m.group(0)!r} in …{text[max(0, m.start() - 40):m.end() + 40]!r}")
    for line in text.splitlines():
        m = ENGLISH.search(line) or ENGLISH_RUN.search(line)
        if m:
            found.append(f"{where}: English {m.group(0)!r} in {line[:160]!r}")
    return found


HALLS = {
    "uk": {"ruleset": "uk", "words": LEXICONS / "sim-uk.txt", "names": ["Олена Коваль", "Іван Ґудзь", "Марія Шевчук",
                                                                      "Петро Їжак", "Юрій Бабенко"]},
    "ru": {"ruleset": "ru", "words": LEXICONS / "sim-ru.txt", "names": ["Анна Зайцева", "Борис Орлов", "Вера Щукина",
                                                                      "Глеб Ёлкин", "Дарья Белова"]},
}


def played_hall(language: str, alice, monkeypatch, eager) -> tuple[Tournament, list, str]:
    """The judged tournament of ``language``: returns it, its registrations and a tablet's access code."""
    from lexicon.models import Lexicon

    hall = HALLS[language]
    ruleset = get_ruleset(hall["ruleset"])
    words = frozenset(hall["words"].read_text(encoding="utf-8").split())
    solver = WordListSolver(ruleset, words)
    monkeypatch.setattr(services.solving, "round_tools", lambda tournament: (solver, words))
    lexicon = Lexicon.objects.create(name=f"sim-{language}", ruleset=ruleset.id, status=Lexicon.Status.READY,
                                     version=1, content_hash="1" * 64, file_path=f"sim-{language}.kwg")
    t = services.tournaments.create_tournament(alice, name="Кубок зали" if language == "uk" else "Кубок зала",
                                               slug=f"hall-{language}", ruleset=ruleset.id, lexicon=lexicon,
                                               language=language, arbiters=[alice], venue="Полтава",
                                               time_zone="Europe/Kyiv" if language == "uk" else "Europe/Moscow")
    assert t.coordinate_script == "cyrillic"
    regs, codes = [], []
    for name in hall["names"]:
        reg, code = services.players.register_player(alice, t, name=name, club="Ерудит")
        regs.append(reg)
        codes.append(code)
    game = services.games.create_game(alice, t, seed=11)
    for number in (1, 2):
        play_round(alice, game, eager, regs, number)
    rnd = Round.objects.get(game=game, number=1)
    verdict = rnd.verdicts.get(registration=regs[1])
    services.judging.override_verdict(alice, verdict, awarded=verdict.awarded + 3, warning=False,
                                      why="бланк перевірено" if language == "uk" else "бланк проверен")
    with eager(execute=True):
        services.rounds.draw_round(alice, game)
    return t, regs, codes[0]


def play_round(alice, game, eager, regs, number: int) -> None:
    with eager(execute=True):
        rnd = services.rounds.draw_round(alice, game)
    assert rnd is not None and rnd.number == number
    rnd.refresh_from_db()
    services.rounds.open_round(alice, rnd)
    top = rnd.top_moves[0]
    coord, word = top["move"].split(" ", 1)
    services.slips.submit_slip(rnd, regs[0], word=word, coordinates=coord, score=top["score"])
    services.slips.submit_slip(rnd, regs[1], word=word, coordinates=coord, score=top["score"] + 2)
    services.slips.submit_slip(rnd, regs[2], word="ЖЖЖЖ", coordinates=coord, score=30)
    services.slips.submit_slip(rnd, regs[3], word=word, coordinates="", score=top["score"])
    services.rounds.close_round(rnd, alice, force=True)
    services.judging.judge_round(rnd, alice)
    services.rounds.publish_round(alice, rnd)


def console_pages(t: Tournament) -> list[str]:
    slug = t.slug
    urls = [reverse("arbiter:tournaments"), reverse("arbiter:tournament_create"), reverse("arbiter:tournament", args=[slug]),
            reverse("arbiter:settings", args=[slug]), reverse("arbiter:players", args=[slug]),
            reverse("arbiter:import", args=[slug]),
            reverse("arbiter:game", args=[slug, 1]), reverse("arbiter:slips", args=[slug, 1]),
            reverse("arbiter:board", args=[slug, 1]), reverse("arbiter:standings", args=[slug]),
            reverse("arbiter:audit", args=[slug]), reverse("pdf:index", args=[slug])]
    review = reverse("arbiter:review", args=[slug, 1])
    urls += [f"{review}?round=1", f"{review}?round=2", f"{review}?round=3", f"{review}?round=1&show=attention"]
    return urls


def lexicon_pages() -> list[str]:
    from lexicon.models import Lexicon

    pk = Lexicon.objects.order_by("pk").values_list("pk", flat=True).first()
    return [reverse("lexicon:list"), reverse("lexicon:check"), reverse("lexicon:upload"),
            reverse("lexicon:detail", args=[pk])]


def pdf_texts(t: Tournament, regs, tmp_path: Path) -> dict[str, str]:
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext (poppler-utils) is not installed")
    requests = {"standings": {}, "game-sheet": {"game": 1}, "player-sheet": {"player": regs[1].player_id},
                "arbitration": {"game": 1, "round": 1}, "arbitration-2": {"game": 1, "round": 2}, "slips": {},
                "cards": {}}
    texts = {}
    for name, params in requests.items():
        spec = specs.make_spec(t, name.removesuffix("-2"), **params)
        built = pdf.build(spec, out=tmp_path / f"{name}.pdf", base_url="http://192.168.1.20:8000")
        path = tmp_path / f"{name}.pdf" if (tmp_path / f"{name}.pdf").exists() else built.path
        texts[name] = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                                     check=True).stdout
    return texts


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_every_page_in_the_halls_language_and_script(language, client, alice, monkeypatch, eager, tmp_path):
    t, regs, code = played_hall(language, alice, monkeypatch, eager)
    alice.is_staff = alice.is_superuser = True  # the lexicon upload page too
    alice.save()
    client.force_login(alice)
    client.cookies["django_language"] = language
    found: list[str] = []
    job = client.post(reverse("pdf:request", args=[t.slug]), {"kind": "standings"})  # the print job's page
    assert job.status_code == 302
    extra = [job.url, reverse("home"), reverse("arbiter:standings", args=[t.slug]) + "?by=club",
             reverse("display:index"), reverse("display:display", args=[t.slug])]
    for url in console_pages(t) + lexicon_pages() + extra:
        response = client.get(url)
        assert response.status_code == 200, url
        found += problems(url, page_text(response.content.decode()))
    for reg in regs:  # what each player's tablet says of his verdict
        for verdict in reg.verdicts.all():
            with translation.override(language):
                found += problems(f"tablet verdict {reg.table_number}", live_tablet.verdict_dict(verdict, t)["message"])
    tablet = client.__class__()
    tablet.cookies["django_language"] = language
    arbiter_login = tablet.get(reverse("login"))  # logged out: the login page in the reader's language
    found += problems("arbiter login", page_text(arbiter_login.content.decode()))
    login = tablet.get(reverse("tablet:login"))
    found += problems("tablet login", page_text(login.content.decode()))
    _reg, token = services.players.login(code)
    tablet.cookies["tablet_token"] = token
    app = tablet.get(reverse("tablet:app"))
    assert app.status_code == 200
    found += problems("tablet", page_text(app.content.decode()))
    with translation.override(language):
        for name, text in pdf_texts(t, regs, tmp_path).items():
            found += problems(f"PDF {name}", text)
    assert not found, "\n".join(found)
