"""Which logs are one session: one table, one session.

A designer collects every peer's log of a LAN evening; each holds the whole table (a peer that
crashed early holds less), so counting logs would count a table once per peer. Logs that name
one table id and hold ops in common are read as one session: merged in memory exactly as
`sandtable log merge` merges them (every op once, every secret any of them holds). A fork (a
table played on from a point) has a table id of its own, so it stays a session of its own.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from table.core.errors import LogError
from table.core.logfile import _FRAME, MAGIC, MAX_RECORD, LogContents, LogReader, read_log
from table.core.merge import merge_contents

import msgpack

_PEEK = 64 * 1024  # a header frame is a few hundred bytes


@dataclass(slots=True)
class Source:
    """What one session is read from: one log, or several peers' logs merged."""
    path: Path  # the log the session is named after (the first of its table)
    header: dict[str, Any]
    records: list[Any]
    problems: list[str] = field(default_factory=list)
    damage: list[str] = field(default_factory=list)  # each damaged stretch, one line
    logs: list[Path] = field(default_factory=list)
    missing: dict[Path, int] = field(default_factory=dict)  # a log -> ops it lacks
    recovered: list[str] = field(default_factory=list)  # a damaged header's fields


def _first_bytes(path: Path) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read(_PEEK)
    except OSError:
        return b""


def _frames(data: bytes, most: int = 1 << 30) -> list[Any]:
    """The first `most` whole, decodable frames at the start of `data` (a peek: no resync)."""
    out: list[Any] = []
    offset = len(MAGIC)
    while offset + _FRAME.size <= len(data) and len(out) < most:
        length, _crc = _FRAME.unpack_from(data, offset)
        start = offset + _FRAME.size
        if length > min(MAX_RECORD, len(data) - start):
            break
        try:
            out.append(msgpack.unpackb(data[start:start + length]))
        except Exception:  # noqa: BLE001 - damage: the peek stops here
            break
        offset = start + length
    return out


def peek_table(path: Path) -> str | None:
    """The table id in a log's header, read from its first bytes (None: no readable header)."""
    data = _first_bytes(path)
    if not data.startswith(MAGIC):
        return None
    frames = _frames(data, 1)
    header = frames[0] if frames else None
    table = header.get("table") if isinstance(header, dict) else None
    return table if isinstance(table, str) and table else None


def _early_ops(path: Path) -> set[tuple[Any, ...]]:
    """(author, seq, lamport) of the ops at the start of a log: a table's first ops are in
    every peer's log, near its start."""
    return {(w[0], w[1], w[2]) for w in map(_wire, _frames(_first_bytes(path))) if w}


def _wire(record: Any) -> list[Any] | None:
    wire = record.get("op") if type(record) is dict else record
    return wire if type(wire) is list and len(wire) == 9 else None


def tables(paths: list[Path]) -> list[list[Path]]:
    """The logs grouped by the table they name, in the order first seen. A log whose header
    cannot be read joins the table whose first ops it holds, else is a group of its own."""
    groups: dict[str, list[Path]] = {}
    headless: list[Path] = []
    order: list[list[Path]] = []
    for path in paths:
        table = peek_table(path)
        if table is None:
            headless.append(path)
        elif table in groups:
            groups[table].append(path)
        else:
            groups[table] = [path]
            order.append(groups[table])
    if headless:  # rare: only then is every log's start read
        early = [(group, _early_ops(group[0])) for group in order]
        for path in headless:
            held = _all_ops(path)
            group = next((g for g, ops in early if ops and not ops.isdisjoint(held)), None)
            if group is not None:
                group.append(path)
            else:
                order.append([path])
    return order


def _all_ops(path: Path) -> set[tuple[Any, ...]]:
    try:
        reader = LogReader(path)
    except LogError:
        return set()
    return {(w[0], w[1], w[2]) for w in map(_wire, reader.records()) if w}


def one_log(path: Path) -> Source:
    """A log read on its own (raises LogError when it is not a log at all)."""
    reader = LogReader(path)
    records = list(reader.records())
    return Source(path, reader.header, records, list(reader.problems),
                  [d.describe() for d in reader.damage], [path], {}, list(reader.recovered))


def read_group(paths: list[Path]) -> list[Source | tuple[Path, str]]:
    """The sessions a table's logs make: usually one; a log that cannot be read is
    (path, why)."""
    if len(paths) == 1:
        try:
            return [one_log(paths[0])]
        except LogError as err:
            return [(paths[0], str(err).removeprefix(f"{paths[0]}: "))]
    out: list[Source | tuple[Path, str]] = []
    read: list[LogContents] = []
    for path in paths:
        try:
            read.append(read_log(path))
        except LogError as err:
            out.append((path, str(err).removeprefix(f"{path}: ")))
    for cluster in _clusters(read):
        out.append(_source(cluster))
    return out


def _ops_of(contents: LogContents) -> dict[tuple[str, int], Any]:
    return {(w[0], w[1]): w for w in map(_wire, contents.records) if w}


def _clusters(read: list[LogContents]) -> list[list[LogContents]]:
    """Logs that are copies of one table's log: a log joins the first cluster it shares an op
    with (an author that signed two versions of one op gives two logs that differ there; they
    are still one table, and the merge keeps one version)."""
    clusters: list[tuple[list[LogContents], set[tuple[str, int]]]] = []
    for contents in read:
        ops = set(_ops_of(contents))
        for members, their_ops in clusters:
            if not ops.isdisjoint(their_ops):
                members.append(contents)
                their_ops.update(ops)
                break
        else:
            clusters.append(([contents], ops))
    return [members for members, _ops in clusters]


def _source(cluster: list[LogContents]) -> Source:
    if len(cluster) == 1:
        c = cluster[0]
        return Source(c.path, c.header, c.records, list(c.problems),
                      [d.describe() for d in c.damage], [c.path], {}, list(c.recovered))
    merged = merge_contents(cluster)
    damage = [f"{c.path.name}: {d.describe()}" for c in cluster for d in c.damage]
    recovered = [f"{c.path.name}: {r}" for c in cluster for r in c.recovered]
    # named after the most complete of its logs (a damaged or short copy may sort first)
    name = min(cluster, key=lambda c: (merged.missing.get(c.path, 0), bool(c.damage))).path
    logs = [name] + [c.path for c in cluster if c.path != name]
    return Source(name, merged.header, merged.records, list(merged.problems), damage, logs,
                  dict(merged.missing), recovered)


__all__ = ["Source", "peek_table", "read_group", "tables", "one_log"]
