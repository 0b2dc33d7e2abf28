"""The model and the protocol stay readable: no module over 400 lines, no function over 60, in
table/core and netplay (docs/architecture.md). A module that grows past this splits a concern
out into a module of its own."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("table/core", "netplay")
MAX_MODULE_LINES, MAX_FUNCTION_LINES = 400, 60


def _modules() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_module_and_function_sizes(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    assert source.count("\n") <= MAX_MODULE_LINES, f"{path.name}: {source.count(chr(10))} lines"
    long = [f"{node.name} ({node.end_lineno - node.lineno + 1} lines, line {node.lineno})"
            for node in ast.walk(ast.parse(source))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno is not None
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]
    assert not long, f"{path.name}: " + ", ".join(long)
