"""The rules of the house, checked on the source: who may import whom, no cycles, small modules and functions.

The map (docs/en/developer/index.md): the engine (``scoring``) and the word graph know nothing of Django; the domain
(models, errors, labels, game state, services, live state) knows nothing of the pages; the rooms by audience
(console, tablet, display, api, printing) do not import one another.
"""

from __future__ import annotations

import re

import pytest

from tests.tools import codebase as cb

MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80

#: The word graph's modules: plain Python and C, usable without Django.
GRAPH_LAYER = ("lexicon.graph", "lexicon.graph_file", "lexicon.bench_graph", "lexicon.memory", "lexicon.skips", "lexicon.sources", "lexicon._graph",
               "lexicon.morphdict", "lexicon._dawgdic", "lexicon.packedlists")
ROOMS = ("tournament.console", "tournament.tablet", "tournament.display", "tournament.api", "tournament.printing",
         "tournament.training")
#: The domain: what the rooms build on, and never the other way round.
DOMAIN = ("tournament.models", "tournament.errors", "tournament.labels", "tournament.coordinates", "tournament.gamestate",
          "tournament.services", "tournament.live")
#: Where each room's pages and endpoints are wired together (allowed to see every room).
WIRING = ("tournament.urls", "tournament.wsgi", "tournament.tasks", "tournament.apps", "tournament.management")


def third_party_imports(prefixes: tuple[str, ...]) -> list[tuple[str, str, int]]:
    known = cb.modules()
    out = []
    for name, module in known.items():
        if not name.startswith(prefixes):
            continue
        for imp in cb.imports(module, known):
            out.append((name, imp.target, imp.line))
    return out


def within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return cb.first_party_graph()


def test_no_import_cycle_anywhere(graph):
    found = cb.cycles(graph)
    assert not found, "import cycles (imports inside functions count too): " + "; ".join(
        " ↔ ".join(c) for c in found)


def test_the_engine_knows_nothing_of_django_or_the_tournament():
    bad = [(m, t, line) for m, t, line in third_party_imports(("scoring",))
           if t.split(".")[0] in ("django", "rest_framework", "celery", "tournament", "tests")
           or (t.startswith("lexicon") and not within(t, GRAPH_LAYER))]
    assert not bad, f"scoring may import the word graph only, not Django nor the tournament: {bad}"


def test_the_word_graph_knows_nothing_of_django():
    bad = [(m, t, line) for m, t, line in third_party_imports(GRAPH_LAYER)
           if t.split(".")[0] in ("django", "rest_framework", "celery", "tournament")
           or (t.startswith("lexicon") and not within(t, GRAPH_LAYER))]
    assert not bad, f"the word graph layer imports Django or the lexicon's Django part: {bad}"


def test_the_rooms_do_not_import_each_other(graph):
    bad = []
    for source, targets in graph.items():
        room = next((r for r in ROOMS if within(source, (r,))), None)
        if room is None:
            continue
        bad += [(source, t) for t in targets if within(t, ROOMS) and not within(t, (room,))]
    assert not bad, f"a room imports another room (share through the domain or tournament.web instead): {bad}"


def test_the_domain_does_not_import_the_pages(graph):
    pages = (*ROOMS, "tournament.web", "tournament.templatetags", *WIRING)
    bad = [(s, t) for s, targets in graph.items() if within(s, DOMAIN) for t in targets if within(t, pages)]
    assert not bad, f"the domain imports a page, an endpoint or the wiring: {bad}"


def test_services_do_not_import_the_live_state(graph):
    bad = [(s, t) for s, targets in graph.items() if within(s, ("tournament.services",))
           for t in targets if within(t, ("tournament.live",))]
    assert not bad, f"the services sit below the live state: {bad}"


def test_the_product_does_not_import_the_tests(graph):
    bad = [(s, t) for s, targets in graph.items() if within(s, cb.PRODUCT) for t in targets if within(t, ("tests",))]
    assert not bad, f"test tools belong in tests/: {bad}"


def test_imports_inside_functions_say_why():
    """An import inside a function hides a dependency (and hid cycles before): allowed only with a reason on
    its line (``# noqa: PLC0415 (why)`` or a comment), e.g. a heavy optional library or Django's app loading."""
    known = cb.modules(cb.PRODUCT)
    bad = []
    for name, module in known.items():
        lines = module.path.read_text(encoding="utf-8").splitlines()
        for imp in cb.imports(module, known):
            if imp.nested and "#" not in lines[imp.line - 1]:
                bad.append(f"{name}:{imp.line} {imp.target}")
    assert not bad, "imports inside functions without a reason: " + ", ".join(bad)


def test_no_module_over_600_lines():
    big = {name: n for name, m in cb.modules().items()
           if (n := len(m.path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert not big, f"modules over {MAX_MODULE_LINES} lines: {big}"


def test_no_function_over_80_lines():
    long = [f"{name}.{fn} ({n} lines)" for name, m in cb.modules().items()
            for fn, _start, n in cb.function_lengths(m) if n > MAX_FUNCTION_LINES]
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines: {long}"


def test_the_checks_see_the_code():
    """The checks above would pass on an empty code base: make sure they read the real one."""
    graph = cb.first_party_graph()
    assert "tournament.services.rounds" in graph and "scoring.game" in graph
    assert "tournament.services.audit" in graph["tournament.services.rounds"]
    assert cb.cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert any(n > 50 for name, m in cb.modules().items() if name == "scoring.judge"
               for _fn, _s, n in cb.function_lengths(m))


def test_templates_hold_no_inline_script():
    """Scripts are static files (data goes in ``json_script`` blocks): what a strict Content-Security-Policy needs."""
    inline = []
    for path in sorted((cb.ROOT / "templates").rglob("*.html")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for tag in re.findall(r"<script\b[^>]*>", line):
                if "src=" not in tag:
                    inline.append(f"{path.relative_to(cb.ROOT)}:{number}")
            if re.search(r"\son[a-z]+=\"", line):
                inline.append(f"{path.relative_to(cb.ROOT)}:{number} (event handler attribute)")
    assert not inline, f"inline scripts in templates: {inline}"
