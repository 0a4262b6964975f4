"""Accessibility checks in the browser tests: axe-core (npm, ``tests/tools/npm``, installed by ``./hall test`` or
``./hall setup``) run inside a page, and the checks of ours that axe does not make — touch targets of 44 × 44 px on
the tablet, the landmarks and the order of the headings.

The pages run under the strict Content-Security-Policy (``tournament/web/csp.py``): a ``<script>`` element with
axe's text would be refused (``add_script_tag`` makes an inline one), so axe's source is evaluated through the
browser's debugging protocol (Playwright's ``evaluate``), which no page policy governs; the page's own policy stays
as it is served.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from tests.paths import ROOT

AXE = ROOT / "tests" / "tools" / "npm" / "node_modules" / "axe-core" / "axe.min.js"
#: The impacts that fail a page.
FAILING = ("serious", "critical")
#: The smallest touch target on the tablet, CSS px (WCAG 2.5.5, the level AAA size; axe's own rule asks for 24).
TOUCH = 44


@cache
def axe_source() -> str:
    if not AXE.exists():
        pytest.fail(f"{AXE.relative_to(ROOT)} is missing: run ./hall setup (npm ci --prefix tests/tools/npm)")
    return AXE.read_text(encoding="utf-8")


#: Runs axe on the whole document with the WCAG 2.x A/AA rules and the best practices; returns the failing
#: violations as [rule, impact, help, [target, …]].
RUN = """async (failing) => {
  const result = await axe.run(document, {
    runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]},
    resultTypes: ["violations"],
  });
  return result.violations.filter((v) => failing.includes(v.impact))
    .map((v) => [v.id, v.impact, v.help, v.nodes.map((n) => {
      const check = [...n.any, ...n.all, ...n.none][0];
      return n.target.join(" ") + (check ? ": " + check.message.replace(/\\s+/g, " ").slice(0, 180) : "");
    })]);
}"""


def audit(page: Any, name: str) -> list[str]:
    """The serious and critical violations axe finds in ``page`` as it is now, one line per rule and element:
    ``name: rule (impact) help — target``."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    found = []
    for rule, impact, help_text, nodes in page.evaluate(RUN, list(FAILING)):
        found += [f"{name}: {rule} ({impact}, {help_text}) at {node}" for node in nodes]
    return found


#: Every visible button, link, input, select and element a finger taps (role=button), with its box.
TARGETS = """(touch) => {
  const out = [];
  const items = document.querySelectorAll(
    "button, a[href], input:not([type=hidden]), select, textarea, [role=button], [role=link], [tabindex]:not([tabindex='-1'])");
  for (const e of items) {
    const box = e.getBoundingClientRect(), style = getComputedStyle(e);
    if (!box.width || !box.height || style.visibility === "hidden") continue;
    if (e.closest(".sr-only")) continue;
    if (box.width < touch - 0.5 || box.height < touch - 0.5) {
      const id = e.id ? "#" + e.id : e.tagName.toLowerCase() + (e.className ? "." + [...e.classList].join(".") : "");
      out.push(`${id} ${Math.round(box.width)}×${Math.round(box.height)}`);
    }
  }
  return out;
}"""


def small_targets(page: Any, name: str, *, inside: str = "body") -> list[str]:
    """The tap targets of ``page`` smaller than 44 × 44 CSS px (the board's squares are not counted: 15 of them
    share a tablet's width, and a square is a shortcut — the coordinates are typed too)."""
    return [f"{name}: touch target {found} < {TOUCH}×{TOUCH}" for found in page.evaluate(TARGETS, TOUCH)
            if "#board" not in found]


#: The landmarks (main, banner, navigation) and the levels of the headings, in document order.
OUTLINE = """() => {
  const visible = (e) => !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length);
  const landmarks = [];
  for (const e of document.querySelectorAll("main, [role=main], header, [role=banner], nav, [role=navigation]")) {
    const role = e.getAttribute("role") || {main: "main", header: "banner", nav: "navigation"}[e.tagName.toLowerCase()];
    if (role === "banner" && e.tagName === "HEADER" && e.closest("main, article, aside, nav, section")) continue;
    landmarks.push(role);
  }
  const headings = [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")].filter(visible).map((h) => +h.tagName[1]);
  return {landmarks, headings};
}"""


def outline(page: Any) -> dict[str, list]:
    return page.evaluate(OUTLINE)


def heading_jumps(levels: list[int]) -> list[str]:
    """Where the headings skip a level going down (h1 → h3): the order a screen reader's list of headings reads."""
    return [f"h{a} → h{b}" for a, b in zip(levels, levels[1:], strict=False) if b > a + 1]
