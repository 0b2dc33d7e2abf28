"""A position's source while it is read: its tables, the line of each path, the problems."""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .problems import ProblemSink
from .spelling import suggest
from .toml_reader import LineIndex, parse_toml


class _OneLine:
    """Line numbers of a position given inline (one JSON line): every path is that line."""

    def __init__(self, line: int) -> None:
        self.line = line

    def line_of(self, path: Iterable[str | int]) -> int:
        return self.line


class PositionSource:
    """A position's tables being read: its data, where each path is in the file, and the
    problems found so far (read_position and the part readers of position_parts share it)."""

    def __init__(self, source: str, text: str | None, base: Path | None,
                 data: dict[str, Any] | None = None, line: int = 0) -> None:
        self.sink = ProblemSink(source)
        self.source, self.base = source, base
        self.index: LineIndex | _OneLine = LineIndex(text) if text is not None else _OneLine(line)
        self.data = data if data is not None else (parse_toml(text or "", self.sink) or {})

    def line(self, *path: str | int) -> int:
        return self.index.line_of(path)

    def bad(self, path: tuple[str | int, ...], message: str) -> None:
        self.sink.add(self.index.line_of(path), message)

    def table(self, key: str) -> dict[str, Any]:
        value = self.data.get(key, {})
        if not isinstance(value, dict):
            self.bad((key,), f"[{key}] must be a table")
            return {}
        return value

    def only(self, path: tuple[str | int, ...], value: dict[str, Any], allowed: set[str]) -> None:
        for key in value:
            if key not in allowed:
                self.bad((*path, key), f"unknown key '{key}'{suggest(key, allowed)}; "
                         f"allowed: {', '.join(sorted(allowed))}")
