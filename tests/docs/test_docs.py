"""The documentation site (``mkdocs.yml``, ``docs/``): it builds with ``--strict`` (a link to a missing page or
anchor, a page left out of the nav, a missing image fail the build), every page of the layout is there in
every language, every screenshot a page shows exists and every screenshot is shown, and the built site loads
nothing from the internet. The README stays one screen and points into the docs."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT

DOCS = ROOT / "docs"
LANGUAGES = ("ru", "uk", "pl", "fr", "en")
ARBITER_PAGES = ("index", "prepare", "cards", "round", "paper", "review", "variants", "halls", "printing",
                 "training", "trouble")
#: The guides in English only: folder → its pages.
ENGLISH_GUIDES = {
    "operator": ("index", "server", "settings", "commands", "backups", "halls", "upgrades", "monitoring"),
    "rules": ("index", "joker", "7among8", "topping", "fast"),
    "developer": ("index", "howto", "screens", "realtime", "training", "printing", "solver", "lexicon", "testing",
                  "performance"),
}
README_MAX_LINES = 120

#: ``![alt](path)`` and ``<img src="path">`` in a page's Markdown.
IMAGE = re.compile(r"!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)|<img\s[^>]*src=\"([^\"]+)\"")
#: What a built page or style sheet would fetch: a script, a style sheet, an image, a font, a frame.
FETCHED = re.compile(r"<(?:script|img|iframe|source)\b[^>]*\bsrc=\"([^\"]+)\"|<link\b[^>]*\bhref=\"([^\"]+)\"")
CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)|@import\s+['\"]([^'\"]+)")


def layout() -> list[Path]:
    """Every page the nav lists, as the other guides' helpers and this test agree on."""
    pages = [DOCS / "index.md"]
    for lang in LANGUAGES:
        pages += [DOCS / lang / "arbiter" / f"{name}.md" for name in ARBITER_PAGES]
        pages.append(DOCS / lang / "player.md")
    for guide, names in ENGLISH_GUIDES.items():
        pages += [DOCS / "en" / guide / f"{name}.md" for name in names]
    return pages


def markdown_pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


def images_of(page: Path) -> list[str]:
    text = page.read_text(encoding="utf-8")
    return [a or b for a, b in IMAGE.findall(text)]


def test_every_page_of_the_layout_exists():
    missing = [str(p.relative_to(ROOT)) for p in layout() if not p.is_file()]
    assert not missing, f"pages of the layout missing: {missing}"


def test_the_nav_lists_exactly_the_layout():
    nav = re.findall(r"^\s*-\s+(?:[^:\n]+:\s+)?([\w/.-]+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"),
                     re.MULTILINE)
    assert nav == [str(p.relative_to(DOCS)) for p in layout()]


def test_every_image_a_page_shows_exists():
    missing = []
    for page in markdown_pages():
        for src in images_of(page):
            if re.match(r"[a-z]+:|/", src):
                missing.append(f"{page.relative_to(ROOT)}: {src} (not a file beside the page)")
            elif not (page.parent / src).resolve().is_file():
                missing.append(f"{page.relative_to(ROOT)}: {src}")
    assert not missing, f"images missing: {missing}"


def test_every_screenshot_is_shown_by_a_page():
    shown = {(page.parent / src).resolve() for page in markdown_pages() for src in images_of(page)}
    orphans = [str(png.relative_to(ROOT)) for png in sorted(DOCS.glob("*/img/*.png")) if png.resolve() not in shown]
    assert not orphans, f"screenshots no page shows: {orphans}"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site as ``./hall docs`` builds it (``mkdocs build --strict``), into a folder of this test's own."""
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    return out


def test_the_site_builds_strict(site):
    for page in layout():
        built = site / page.relative_to(DOCS).with_suffix(".html")
        assert built.is_file(), built


def test_the_site_loads_nothing_from_the_internet(site):
    remote = []
    for html in site.rglob("*.html"):
        for a, b in FETCHED.findall(html.read_text(encoding="utf-8")):
            if re.match(r"(?:https?:)?//", a or b):
                remote.append(f"{html.relative_to(site)}: {a or b}")
    for css in site.rglob("*.css"):
        for a, b in CSS_URL.findall(css.read_text(encoding="utf-8", errors="replace")):
            if re.match(r"(?:https?:)?//", a or b):
                remote.append(f"{css.relative_to(site)}: {a or b}")
    assert not remote, f"the site fetches from the internet: {remote}"


def test_a_strict_build_fails_on_a_broken_link(tmp_path):
    """The validation settings make a link to a missing page a failure, not a remark (the check the other
    tests rely on)."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\n[gone](nowhere.md)\n", encoding="utf-8")
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config = config.split("\nnav:")[0] + "\nnav:\n  - index.md\n"
    (tmp_path / "mkdocs.yml").write_text(config, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "nowhere.md" in done.stderr


def test_the_readme_is_one_screen_and_points_into_the_docs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= README_MAX_LINES
    for command in ("./hall run", "./hall test", "./hall docs"):
        assert command in readme
    for lang in LANGUAGES:
        assert f"docs/{lang}/arbiter/index.md" in readme and f"docs/{lang}/player.md" in readme
    for guide in ENGLISH_GUIDES:
        assert f"docs/en/{guide}/index.md" in readme
    for shot in ("docs/en/img/console-round.png", "docs/en/img/tablet-rack.png"):
        assert shot in readme
