"""No import circles: no module of the program reaches itself again through its imports.

The walk reads every module's source (ast): module-level imports and the imports inside
functions both count (a function-level import that closes a circle is a back-reference put off
until run time, not removed). Imports under `if TYPE_CHECKING:` count too: a helper split from
a class that names the class in its annotations still depends on it, and the fix is a small
Protocol of what the helper uses (docs/architecture.md), not hiding the import from Python.

An edge goes to the module named: `from pkg import mod` (a module) is an edge to pkg.mod,
`from pkg.mod import name` to pkg.mod; the package's own __init__ that Python runs first is not
counted (every submodule would otherwise be in a circle with a package that re-exports it).

One test per package, so each area's circles fail on their own; a circle is named by the
modules it passes through, in order."""
from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ROOTS = ("table", "netplay", "assist")
# The areas, each checked on its own (a module belongs to the longest name that prefixes it).
AREAS = ("assist", "netplay", "table.app", "table.bench", "table.core", "table.dataset",
         "table.games", "table.lan", "table.report", "table.ui")

Graph = dict[str, set[str]]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking_nodes(tree: ast.Module) -> set[int]:
    """ids of the import nodes inside `if TYPE_CHECKING:` (or `typing.TYPE_CHECKING`) blocks."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING",
                                                                    "typing.TYPE_CHECKING"):
            for child in node.body:
                inside.update(id(n) for n in ast.walk(child))
    return inside


def _imported(module: str, is_package: bool, tree: ast.Module, known: set[str],
              skip: set[int]) -> Iterator[str]:
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base[:len(base) - node.level + (1 if is_package else 0)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                yield sub if sub in known else source


def import_graph(with_type_checking: bool = True) -> Graph:
    paths = sorted(p for root in ROOTS for p in (ROOT / root).rglob("*.py"))
    names = {_module_name(p): p for p in paths}
    known = set(names)
    graph: Graph = {}
    for name, path in names.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        skip = set() if with_type_checking else _type_checking_nodes(tree)
        targets = _imported(name, path.name == "__init__.py", tree, known, skip)
        graph[name] = {t for t in targets if t in known and t != name}
    return graph


def circles(graph: Graph) -> list[list[str]]:
    """One circle per strongly connected group of modules (Tarjan), as a shortest path from the
    group's first module back to itself; groups in name order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(v: str) -> None:  # recursion depth is bounded by the module count (a few hundred)
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted((_shortest_circle(graph, g) for g in groups), key=lambda c: c[0])


def _shortest_circle(graph: Graph, group: set[str]) -> list[str]:
    start = min(group)
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        v = queue.popleft()
        for w in sorted(graph[v] & group):
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if w not in came_from:
                came_from[w] = v
                queue.append(w)
    raise AssertionError(f"no circle through {start}")  # a strongly connected group has one


def area_of(module: str) -> str:
    return max((a for a in AREAS if module == a or module.startswith(a + ".")), key=len,
               default=module.split(".")[0])


@pytest.fixture(scope="module")
def all_circles() -> list[list[str]]:
    return circles(import_graph())


@pytest.mark.parametrize("area", AREAS)
def test_no_import_circles(area: str, all_circles: list[list[str]]) -> None:
    mine = [c for c in all_circles if any(area_of(m) == area for m in c)]
    assert not mine, f"{len(mine)} import circle(s) in {area}:\n" + "\n".join(
        " -> ".join(c) for c in mine)


def test_every_module_is_in_an_area() -> None:
    assert {area_of(m) for m in import_graph()} <= set(AREAS) | set(ROOTS)


def test_the_walk_finds_a_circle_and_its_path() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e2"}, "e2": {"e"}}
    assert circles(graph) == [["a", "b", "c", "a"], ["e", "e2", "e"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_walk_reads_relative_function_level_and_type_checking_imports(tmp_path: Path) -> None:
    source = ("from typing import TYPE_CHECKING\nfrom . import sibling\nfrom .pkg.mod import x\n"
              "if TYPE_CHECKING:\n    from table.core.ops import Op\n"
              "def f():\n    import netplay.mesh.mesh\n")
    tree = ast.parse(source)
    known = {"table.games.sibling", "table.games.pkg.mod", "table.core.ops", "netplay.mesh.mesh"}
    every = set(_imported("table.games.here", False, tree, known, set()))
    assert every >= known
    runtime = set(_imported("table.games.here", False, tree, known, _type_checking_nodes(tree)))
    assert "table.core.ops" not in runtime
    assert "netplay.mesh.mesh" in runtime
