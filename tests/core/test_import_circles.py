"""No import circles inside the core: a module's imports, at the top, inside functions or only
for type checking, never lead back to it (a circle is a back-reference a split left behind)."""
from __future__ import annotations

import ast
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "table" / "core"


def _imports(path: Path, siblings: set[str], package: str) -> set[str]:
    """The sibling modules `path` imports anywhere in its text."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                names = [node.module] if node.module else [a.name for a in node.names]
            elif node.module and node.module.startswith(package + "."):
                names = [node.module[len(package) + 1:]]
            elif node.module == package:
                names = [a.name for a in node.names]
            else:
                continue
        elif isinstance(node, ast.Import):
            names = [a.name[len(package) + 1:] for a in node.names
                     if a.name.startswith(package + ".")]
        else:
            continue
        found.update(name.split(".")[0] for name in names)
    return found & siblings


def import_graph(folder: Path, package: str) -> dict[str, set[str]]:
    modules = {p.stem: p for p in folder.glob("*.py")}
    return {name: _imports(path, set(modules), package) for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every module that can reach itself, with the path it takes back."""
    found: list[list[str]] = []
    for start in sorted(graph):
        paths = [[start]]
        seen: set[str] = set()
        while paths:
            path = paths.pop()
            for nxt in sorted(graph[path[-1]]):
                if nxt == start:
                    found.append([*path, start])
                    paths.clear()
                    break
                if nxt not in seen:
                    seen.add(nxt)
                    paths.append([*path, nxt])
    return found


def test_the_core_has_no_import_circles():
    assert circles(import_graph(CORE, "table.core")) == []


def test_the_walker_finds_a_circle_when_there_is_one(tmp_path: Path):
    (tmp_path / "a.py").write_text("from .b import x\n")
    (tmp_path / "b.py").write_text("def f():\n    from .c import y\n")
    (tmp_path / "c.py").write_text("from typing import TYPE_CHECKING\n"
                                   "if TYPE_CHECKING:\n    from pkg.a import z\n")
    (tmp_path / "d.py").write_text("from . import a\n")
    found = circles(import_graph(tmp_path, "pkg"))
    assert ["a", "b", "c", "a"] in found
    assert all(path[0] != "d" for path in found)
