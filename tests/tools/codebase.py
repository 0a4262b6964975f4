"""The code base as data for the architecture tests: modules, their imports, their sizes.

Imports are read from the source (``ast``), wherever they are written — at the top of a module or inside a
function — except under ``if TYPE_CHECKING:``. ``from package import name`` counts as an import of the
submodule when ``name`` is one, else of the package.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.paths import ROOT

PRODUCT = ("scoring", "lexicon", "tournament")
#: The compiled cores (C sources built into extension modules).
EXTENSIONS = frozenset({"lexicon._graph", "lexicon._dawgdic", "scoring._solver"})
FIRST_PARTY = (*PRODUCT, "tests")


@dataclass(frozen=True)
class Module:
    name: str
    path: Path

    @property
    def is_package(self) -> bool:
        return self.path.name == "__init__.py"

    def tree(self) -> ast.Module:
        return ast.parse(self.path.read_text(encoding="utf-8"), str(self.path))


def modules(roots: tuple[str, ...] = FIRST_PARTY) -> dict[str, Module]:
    out = {}
    for root in roots:
        for path in sorted((ROOT / root).rglob("*.py")):
            rel = path.relative_to(ROOT)
            if "migrations" in rel.parts or any(part.startswith(".") for part in rel.parts):
                continue
            parts = list(rel.with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            name = ".".join(parts)
            out[name] = Module(name, path)
    return out


def _type_checking_only(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If):
            test = node.test
            name = test.attr if isinstance(test, ast.Attribute) else getattr(test, "id", "")
            if name == "TYPE_CHECKING":
                return True
    return False


def _absolute(module: Module, level: int, target: str | None) -> str:
    base = module.name.split(".")
    if not module.is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join([*base, target] if target else base)


@dataclass(frozen=True)
class Import:
    source: str
    target: str
    line: int
    nested: bool  # written inside a function or class body


def imports(module: Module, known: dict[str, Module]) -> Iterator[Import]:
    tree = module.tree()
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Import | ast.ImportFrom) or _type_checking_only(node, parents):
            continue
        nested = any(isinstance(p, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                     for p in _ancestors(node, parents))
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(module.name, alias.name, node.lineno, nested)
            continue
        base = _absolute(module, node.level, node.module) if node.level else (node.module or "")
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            yield Import(module.name, sub if sub in known or sub in EXTENSIONS else base, node.lineno, nested)


def _ancestors(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> Iterator[ast.AST]:
    while node in parents:
        node = parents[node]
        yield node


def first_party_graph(roots: tuple[str, ...] = FIRST_PARTY) -> dict[str, set[str]]:
    """module → the first-party modules it imports (the longest known prefix of each import)."""
    known = modules(roots)
    graph: dict[str, set[str]] = {name: set() for name in known}
    for name, module in known.items():
        for imp in imports(module, known):
            target = imp.target
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def function_lengths(module: Module) -> Iterator[tuple[str, int, int]]:
    """(qualified name, first line, number of lines) of every function and method (decorators included)."""
    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, int, int]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                start = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                yield f"{prefix}{child.name}", start, (child.end_lineno or start) - start + 1
                yield from walk(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, f"{prefix}{child.name}.")
    yield from walk(module.tree(), "")
