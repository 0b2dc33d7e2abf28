"""Every module stays readable: no module over 400 lines and no function over 60, in every
package of the program (table/, netplay/, assist/; docs/architecture.md). A module that grows
past this splits a concern out into a module of its own.

One test per module, and each failure lists everything over the limit in that module (its
length and every long function), so one run shows the whole list."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("table", "netplay", "assist")
MAX_MODULE_LINES, MAX_FUNCTION_LINES = 400, 60


def _modules() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def oversized(source: str) -> list[str]:
    """What in this module's source is over the limits, in source order."""
    lines = source.count("\n")
    found = [f"{lines} lines (limit {MAX_MODULE_LINES})"] if lines > MAX_MODULE_LINES else []
    functions = [node for node in ast.walk(ast.parse(source))
                 if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and node.end_lineno is not None]
    for node in sorted(functions, key=lambda n: n.lineno):
        length = (node.end_lineno or node.lineno) - node.lineno + 1
        if length > MAX_FUNCTION_LINES:
            found.append(f"{node.name}: {length} lines (line {node.lineno}, "
                         f"limit {MAX_FUNCTION_LINES})")
    return found


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_module_and_function_sizes(path: Path) -> None:
    found = oversized(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(ROOT)} is over the size limits: " + "; ".join(found)


def test_the_check_counts_a_long_module_and_every_long_function() -> None:
    body = "".join(f"    x = {i}\n" for i in range(MAX_FUNCTION_LINES))
    source = f"def long_one():\n{body}\n\ndef short():\n    pass\n\n\nasync def long_two():\n{body}"
    source += "\n" * (MAX_MODULE_LINES + 1 - source.count("\n"))
    found = oversized(source)
    assert found[0] == f"{MAX_MODULE_LINES + 1} lines (limit {MAX_MODULE_LINES})"
    assert [f.split(":")[0] for f in found[1:]] == ["long_one", "long_two"]
    assert oversized("def short():\n    pass\n") == []
