"""Reading ``game.toml``: line numbers for keys, and typed access that reports problems.

``tomllib`` gives values but no positions, so :class:`LineIndex` scans the text once and
records the line of every key, table header and array element, addressed by the same path
the parsed data uses (array-of-tables and array elements are addressed by their index).
"""
from __future__ import annotations

import builtins
import contextlib
import re
import tomllib
from collections.abc import Iterable, Iterator
from typing import Any

from .problems import ProblemSink

Path = tuple[str | int, ...]

_BARE = re.compile(r"[A-Za-z0-9_-]+")


def _split_key(text: str) -> tuple[str, ...]:
    """Split a (possibly dotted, possibly quoted) TOML key into its parts."""
    parts: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t.":
            i += 1
        elif c in "\"'":
            j = text.find(c, i + 1)
            j = n if j < 0 else j
            parts.append(text[i + 1 : j])
            i = j + 1
        else:
            m = _BARE.match(text, i)
            if not m:
                parts.append(text[i:].strip())
                break
            parts.append(m.group(0))
            i = m.end()
    return tuple(parts)


class LineIndex:
    """Maps paths such as ``("zones", 3, "visibility")`` to 1-based line numbers."""

    def __init__(self, text: str) -> None:
        self.lines: dict[Path, int] = {}
        self._text = text
        self._line = 1
        with contextlib.suppress(IndexError):  # malformed text: keep what was indexed so far
            self._scan()

    def line_of(self, path: Iterable[str | int]) -> int:
        """The line of ``path``, or of its nearest recorded ancestor (0 if none)."""
        p = tuple(path)
        while p:
            if p in self.lines:
                return self.lines[p]
            p = p[:-1]
        return 0

    # -- scanner ---------------------------------------------------------------------------
    def _skip_ws(self, i: int, newlines: bool) -> int:
        t = self._text
        while i < len(t):
            c = t[i]
            if c in " \t\r":
                i += 1
            elif c == "\n" and newlines:
                self._line += 1
                i += 1
            elif c == "#" and newlines:
                while i < len(t) and t[i] != "\n":
                    i += 1
            else:
                break
        return i

    def _scan(self) -> None:
        t = self._text
        current: Path = ()
        aot: dict[Path, int] = {}
        i = 0
        while i < len(t):
            i = self._skip_ws(i, newlines=True)
            if i >= len(t):
                break
            if t[i] == "[":
                is_aot = t.startswith("[[", i)
                j = t.find("\n", i)
                j = len(t) if j < 0 else j
                header = t[i:j].split("#", 1)[0].strip()
                inner = header[2:-2] if is_aot else header[1:-1]
                keys = _split_key(inner)
                resolved: list[str | int] = []
                for k in keys[:-1] if is_aot else keys:
                    resolved.append(k)
                    if tuple(resolved) in aot:
                        resolved.append(aot[tuple(resolved)])
                if is_aot:
                    base = (*tuple(resolved), keys[-1] if keys else "")
                    aot[base] = aot.get(base, -1) + 1
                    current = (*base, aot[base])
                    self.lines.setdefault(base, self._line)
                else:
                    current = tuple(resolved)
                self.lines[current] = self._line
                i = j
                continue
            eq = t.find("=", i)
            nl = t.find("\n", i)
            if eq < 0 or (0 <= nl < eq):
                i = len(t) if nl < 0 else nl
                continue
            path = current + _split_key(t[i:eq])
            self.lines[path] = self._line
            i = self._value(eq + 1, path)
            nl = t.find("\n", i)
            i = len(t) if nl < 0 else nl

    def _value(self, i: int, path: Path) -> int:
        t = self._text
        i = self._skip_ws(i, newlines=False)
        if i >= len(t):
            return i
        for quote in ('"""', "'''"):
            if t.startswith(quote, i):
                j = t.find(quote, i + 3)
                j = len(t) if j < 0 else j + 3
                self._line += t.count("\n", i, j)
                return j
        c = t[i]
        if c == '"':
            j = i + 1
            while j < len(t) and t[j] != '"' and t[j] != "\n":
                j += 2 if t[j] == "\\" else 1
            return j + 1
        if c == "'":
            j = t.find("'", i + 1)
            return len(t) if j < 0 else j + 1
        if c == "[":
            i += 1
            idx = 0
            while True:
                i = self._skip_ws(i, newlines=True)
                if i >= len(t) or t[i] == "]":
                    return i + 1
                if t[i] == ",":
                    idx += 1
                    i += 1
                    continue
                self.lines[(*path, idx)] = self._line
                i = self._value(i, (*path, idx))
        if c == "{":
            i += 1
            while True:
                i = self._skip_ws(i, newlines=True)
                if i >= len(t) or t[i] == "}":
                    return i + 1
                if t[i] == ",":
                    i += 1
                    continue
                eq = t.find("=", i)
                if eq < 0:
                    return len(t)
                sub = path + _split_key(t[i:eq])
                self.lines[sub] = self._line
                i = self._value(eq + 1, sub)
        j = i
        while j < len(t) and t[j] not in ",]}\n#":
            j += 1
        return j


_TOML_POS = re.compile(r"\(at line (\d+), column \d+\)")


def parse_toml(text: str, sink: ProblemSink) -> dict[builtins.str, Any] | None:
    """Parse TOML text; on a syntax error report it (with its line) and return None."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        m = _TOML_POS.search(msg)
        line = int(m.group(1)) if m else 0
        sink.add(line, f"TOML syntax error: {_TOML_POS.sub('', msg).strip()}")
        return None


_TYPE_NAMES = {bool: "a boolean", int: "an integer", str: "a string", list: "an array",
               dict: "a table", float: "a number"}


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "table"
    return type(value).__name__


class Table:
    """A TOML table with typed getters; every problem is reported with its line."""

    def __init__(self, sink: ProblemSink, index: LineIndex, path: Path, data: dict[builtins.str, Any],
                 label: builtins.str) -> None:
        self.sink = sink
        self.index = index
        self.path = path
        self.data = data
        self.label = label  # how the table is named in messages, e.g. "[[zones]] #3"

    def line(self, key: builtins.str | builtins.int | None = None) -> builtins.int:
        return self.index.line_of(self.path + ((key,) if key is not None else ()))

    def problem(self, key: builtins.str | builtins.int | None, message: builtins.str) -> None:
        self.sink.add(self.line(key), message)

    def check_keys(self, allowed: Iterable[str]) -> None:
        allowed = set(allowed)
        for key in self.data:
            if key not in allowed:
                self.problem(key, f"unknown key '{key}' in {self.label}"
                             f" (expected one of: {', '.join(sorted(allowed))})")

    def has(self, key: builtins.str) -> builtins.bool:
        return key in self.data

    def _typed(self, key: builtins.str, typ: type, required: builtins.bool, what: builtins.str) -> Any:
        if key not in self.data:
            if required:
                self.problem(None, f"missing required key '{key}' in {self.label}")
            return None
        value = self.data[key]
        ok = isinstance(value, typ) and not (typ is int and isinstance(value, builtins.bool))
        if not ok:
            self.problem(key, f"'{key}' in {self.label} must be {what}, not {_kind(value)}")
            return None
        return value

    def str(self, key: builtins.str, required: builtins.bool = False, default: builtins.str | None = None,
            choices: Iterable[str] | None = None) -> builtins.str | None:
        value = self._typed(key, builtins.str, required, "a string")
        if value is None:
            return default
        if choices is not None:
            opts = list(choices)
            if value not in opts:
                self.problem(key, f"'{key}' in {self.label} must be one of "
                             f"{', '.join(opts)}, not '{value}'")
                return default
        return str(value)

    def int(self, key: builtins.str, required: builtins.bool = False,
            default: builtins.int | None = None) -> builtins.int | None:
        value = self._typed(key, builtins.int, required, "an integer")
        return default if value is None else int(value)

    def bool(self, key: builtins.str, default: builtins.bool = False) -> builtins.bool:
        value = self._typed(key, builtins.bool, False, "true or false")
        return default if value is None else bool(value)

    def str_list(self, key: builtins.str, required: builtins.bool = False) -> list[builtins.str] | None:
        value = self._typed(key, list, required, "an array of strings")
        if value is None:
            return None
        out: list[str] = []
        for i, item in enumerate(value):
            if not isinstance(item, builtins.str):
                self.sink.add(self.index.line_of((*self.path, key, i)),
                              f"'{key}' in {self.label}: item {i + 1} must be a string, "
                              f"not {_kind(item)}")
            else:
                out.append(item)
        return out

    def int_list(self, key: builtins.str, required: builtins.bool = False) -> list[builtins.int] | None:
        value = self._typed(key, list, required, "an array of integers")
        if value is None:
            return None
        out: list[int] = []
        for i, item in enumerate(value):
            if not isinstance(item, builtins.int) or isinstance(item, builtins.bool):
                self.sink.add(self.index.line_of((*self.path, key, i)),
                              f"'{key}' in {self.label}: item {i + 1} must be an integer, "
                              f"not {_kind(item)}")
                return None
            out.append(item)
        return out

    def table(self, key: builtins.str, required: builtins.bool = False,
              label: builtins.str | None = None) -> Table | None:
        value = self._typed(key, dict, required, "a table")
        if value is None:
            return None
        return Table(self.sink, self.index, (*self.path, key), value,
                     label or f"[{'.'.join(str(p) for p in (*self.path, key))}]")

    def tables(self, key: builtins.str, label: builtins.str) -> Iterator[Table]:
        """The elements of an array of tables (``[[key]]``), each labelled ``label #n``."""
        value = self._typed(key, list, False, "an array of tables")
        for i, item in enumerate(value or []):
            if not isinstance(item, dict):
                self.sink.add(self.index.line_of((*self.path, key, i)),
                              f"{label} #{i + 1} must be a table, not {_kind(item)}")
                continue
            name = item.get("id") if isinstance(item.get("id"), builtins.str) else f"#{i + 1}"
            yield Table(self.sink, self.index, (*self.path, key, i), item, f"{label} '{name}'")

    def sub(self, key: builtins.str | builtins.int, value: dict[builtins.str, Any],
            label: builtins.str) -> Table:
        return Table(self.sink, self.index, (*self.path, key), value, label)
