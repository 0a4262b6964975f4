"""Issue 34, defect 22: the console's words as a person reads them. The variant help names every variant; labels
and flash messages start with a capital letter in every language; the keys read as combinations; file sizes are
written in bytes' units of the page's language (МБ, never Django's "Мб"); the menu carries the tournament's whole
name (cut by the style sheet, whole in its title); the summary names the time zone."""

from __future__ import annotations

import ast
import re

import pytest
from django.urls import reverse
from django.utils import translation

from tests.paths import ROOT
from tests.tools.world import PREPARED, run_round
from tournament import services
from tournament.console import forms
from tournament.templatetags.duplicate import file_size, minus

pytestmark = [pytest.mark.django_db]

LANGUAGES = ("en", "ru", "uk", "pl", "fr")


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.fixture
def played(alice, tournament, regs, eager):
    """Round 1 published, round 2 drawn; a Kyiv tournament."""
    tournament.time_zone = "Europe/Kyiv"
    tournament.save()
    game = services.games.create_game(alice, tournament, prepared_racks=PREPARED)
    rnd = run_round(alice, game, eager, {regs[0]: "H4 CARTS 20", regs[1]: "CAST 12"})
    services.rounds.publish_round(alice, rnd)
    with eager(execute=True):
        services.rounds.draw_round(alice, game)
    return game


def test_the_variant_help_names_every_variant(tournament):
    with translation.override("en"):
        help_text = str(forms.GameForm(tournament=tournament).fields["variant"].help_text)
    assert all(name in help_text for name in ("Joker", "Topping", "7-among-8"))


def console_pages(slug: str) -> list[str]:
    return ([reverse("arbiter:tournament_create")]
            + [reverse(f"arbiter:{name}", args=[slug]) for name in ("tournament", "settings", "players", "import")]
            + [reverse(f"arbiter:{name}", args=[slug, 1]) for name in ("game", "slips", "review")])


def first_letter(text: str) -> str:
    return next((c for c in text if c.isalpha()), "")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_label_of_the_console_starts_with_a_capital_letter(client, alice, tournament, played, language):
    client.cookies["django_language"] = language
    client.force_login(alice)
    for url in console_pages(tournament.slug):
        page = client.get(url).content.decode()
        labels = [text_of(label) for label in re.findall(r"<label\b[^>]*>(.*?)</label>", page, re.S)]
        lower = [label for label in labels if first_letter(label).islower()]
        assert labels and not lower, (url, lower)


def flash_msgids() -> list[str]:
    """The texts of the console's flash messages (``messages.*(request, _("…"))`` and ngettext's singular)."""
    found = []
    for path in sorted((ROOT / "tournament" / "console").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "messages" and len(node.args) > 1):
                for inner in ast.walk(node.args[1]):
                    if (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name)
                            and inner.func.id in ("_", "gettext", "ngettext") and inner.args
                            and isinstance(inner.args[0], ast.Constant)):
                        found.append(inner.args[0].value)
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_flash_message_of_the_console_starts_with_a_capital_letter(language):
    msgids = flash_msgids()
    assert len(msgids) > 20
    with translation.override(language):
        said = {msgid: translation.gettext(msgid) for msgid in msgids}
    lower = {m: t for m, t in said.items() if not t.startswith("%(") and first_letter(t).islower()}
    assert not lower


def test_a_refusal_flashed_starts_with_a_capital_letter(client, alice, tournament, played):
    client.cookies["django_language"] = "uk"
    client.force_login(alice)
    rnd = played.rounds.get(number=2)
    action = reverse("arbiter:round_action", args=[tournament.slug, 1])
    page = client.post(action, {"action": "draw"}, follow=True).content.decode()  # round 2 is not published yet
    flashed = re.findall(r'<li class="msg msg-error">(.*?)</li>', page, re.S)
    assert flashed and all(first_letter(text).isupper() for text in flashed), flashed
    assert rnd.status == "drawn"


def test_the_keys_read_as_combinations(client, alice, tournament, played):
    client.cookies["django_language"] = "en"
    client.force_login(alice)
    page = text_of(client.get(reverse("arbiter:game", args=[tournament.slug, 1])).content.decode())
    assert "Keys: Alt + D Draw · Alt + O Open · Alt + C Close · Alt + J Judge · Alt + P Publish" in page


@pytest.mark.parametrize(("language", "size", "text"), [
    ("uk", int(37.8 * 1024 * 1024), "37,8 МБ"), ("ru", int(37.8 * 1024 * 1024), "37,8 МБ"),
    ("uk", 9626, "9,4 КБ"), ("ru", 3 * 1024 ** 3, "3,0 ГБ"), ("en", int(37.8 * 1024 * 1024), "37.8 MB"),
    ("pl", 9626, "9,4 KB"), ("fr", int(37.8 * 1024 * 1024), "37,8 Mo"),
    ("uk", 1, "1 байт"), ("uk", 3, "3 байти"), ("uk", 512, "512 байтів"), ("en", 512, "512 bytes"),
])
def test_file_sizes_in_the_units_of_the_page(language, size, text):
    with translation.override(language):
        assert file_size(size) == text


def test_no_page_writes_sizes_with_djangos_filter():
    templates = [p for p in (ROOT / "templates").rglob("*.html") if "filesizeformat" in p.read_text(encoding="utf-8")]
    assert templates == []


def test_the_menu_names_the_whole_tournament_and_the_summary_its_time_zone(client, alice, tournament, played):
    tournament.name = "Відкритий кубок Полтавської області з подвійного скрабла"
    tournament.save()
    client.cookies["django_language"] = "uk"
    client.force_login(alice)
    page = client.get(reverse("arbiter:tournament", args=[tournament.slug])).content.decode()
    link = re.search(r'<a href="/arbiter/t/[^"]+/" class="tournament-name[^"]*" title="([^"]+)">([^<]+)</a>', page)
    assert link and link.group(1) == link.group(2) == tournament.name
    row = re.search(r'<tr id="time-zone"><th>(.*?)</th><td>(.*?)</td>', page, re.S)
    assert row and text_of(row.group(1)) == "Часовий пояс" and text_of(row.group(2)).startswith("Europe/Kyiv (зараз ")


def test_the_standings_page_writes_a_deficit_with_a_minus_sign(client, alice, tournament, played):
    """Deficits are negative: the page writes them as the PDFs do (U+2212), never with a hyphen."""
    client.force_login(alice)
    page = client.get(reverse("arbiter:standings", args=[tournament.slug])).content.decode()
    cells = re.findall(r'<td class="num">([^<]*)</td><td class="num">[0-9]+[.,][0-9]{2}</td>', page)
    assert cells and all(re.fullmatch("\u2212[0-9]+|0", c) for c in cells), cells
    assert minus(-12) == "\u221212" and minus(0) == "0" and minus(None) == ""


def test_no_page_writes_a_deficit_without_the_minus_filter():
    unsigned = [(p.name, line.strip()) for p in (ROOT / "templates").rglob("*.html")
                for line in p.read_text(encoding="utf-8").splitlines()
                if re.search(r"\{\{[^}]*deficit\s*\}\}", line)]
    assert unsigned == []
