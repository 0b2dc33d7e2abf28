"""No import circles: walk every import of the packages in scope (at module level, inside
functions and under ``TYPE_CHECKING`` alike: a type-only back-reference is still a circle a
reader has to hold in mind) and find the strongly connected groups of modules.

A helper split from a class takes a small Protocol of what it uses, not the class, so it never
imports its owner back. The scope is netplay and LAN play; widen ``SCOPE`` as other packages
lose their circles (the whole project is the aim: ``("netplay", "table", "assist")``).
"""
from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# the packages whose modules may not import each other in a circle (dotted prefixes)
SCOPE = ("netplay", "table.lan")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for prefix in SCOPE:
        for path in (ROOT / prefix.replace(".", "/")).rglob("*.py"):
            found[_module_name(path)] = path
    return found


def _imported(name: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # `from pkg import mod` names a module; `from mod import name` names the module
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            # a module's own packages are already importing when it runs: not a circle
            if target in known and target != name and not name.startswith(target + "."):
                yield target


def _graph() -> dict[str, set[str]]:
    known = _modules()
    return {name: set(_imported(name, path, known)) for name, path in known.items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph[node]):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_walk_sees_the_imports() -> None:
    graph = _graph()
    assert "netplay.mesh.mesh" in graph["netplay.session.lan_session"]
    assert "netplay.protocol.wire" in graph["netplay.link.link"]
    assert "netplay.session.lan_session" in graph["table.lan.hosting"]


def test_a_circle_is_found() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles() -> None:
    circles = _circles(_graph())
    assert not circles, "import circles: " + "; ".join(" <-> ".join(c) for c in circles)
