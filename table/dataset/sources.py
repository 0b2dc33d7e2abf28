"""Which logs make which session: logs found in files and folders, each known by its content
hash, grouped by the table they record (one table, one session).

A designer collects every peer's log of a LAN evening; each holds the whole table (a peer that
crashed early holds less), so counting logs would count a table once per peer. `find_logs`
reads each log's header (and hashes its bytes); `group_logs` puts the logs of one table id
together (a log whose header lost its table id joins the table whose first ops it holds);
`read_source` reads a session's logs, merged in memory exactly as `sandtable log merge` merges
them (every op once, every secret any of them holds). A fork (a table played on from a point)
has a table id of its own, so it stays a session of its own. `sandtable dataset` and
`sandtable report` both read logs through this module.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack

from table.core.errors import LogError
from table.core.logfile import _FRAME, MAGIC, MAX_RECORD, LogContents, LogReader, read_log

LOG_SUFFIX = ".sandlog"
_PEEK = 64 * 1024  # a table's first ops are in every peer's log, near its start


@dataclass(frozen=True, slots=True)
class LogFile:
    path: Path
    digest: str  # BLAKE2b of the file's bytes: a changed log is a new input
    table: str  # the table id its header names ("" when a damaged header lost it)
    game: str
    early: frozenset[tuple[Any, ...]] = frozenset()  # (author, seq, lamport) of its first ops


@dataclass(slots=True)
class SessionLogs:
    """The logs of one table: what one session row is read from."""
    table: str
    logs: list[LogFile] = field(default_factory=list)
    reader: str = ""  # what reads it into rows (reader.reader_stamp): a new reader, new rows

    @property
    def paths(self) -> list[Path]:
        return [log.path for log in self.logs]

    @property
    def fingerprint(self) -> str:
        """The session's inputs by content, and what read them: equal fingerprints, equal
        rows."""
        text = "\n".join([*sorted(log.digest for log in self.logs), self.reader])
        return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


@dataclass(slots=True)
class Source:
    """A session's logs as read: one log, or several peers' logs merged."""
    path: Path  # the log the session is named after (its most complete one)
    header: dict[str, Any]
    records: list[Any]
    problems: list[str] = field(default_factory=list)  # what the reader(s) could not read
    damage: list[str] = field(default_factory=list)  # each damaged stretch, one line
    logs: list[Path] = field(default_factory=list)  # the named one first
    missing: dict[Path, int] = field(default_factory=dict)  # a log -> ops it lacks
    recovered: list[str] = field(default_factory=list)  # a damaged header's fields
    unreadable: list[tuple[Path, str]] = field(default_factory=list)  # (log, why)


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _logs_in(path: Path) -> tuple[list[Path], str]:
    """The log files an input stands for (itself, or the `.sandlog` files below a folder), and
    why there is none ("" when there are)."""
    if path.is_dir():
        found = sorted(p for p in path.rglob(f"*{LOG_SUFFIX}") if p.is_file())
        return found, "" if found else f"a folder with no {LOG_SUFFIX} file"
    if path.is_file():
        return [path], ""
    return [], "no such file or folder"


def _paths(inputs: Iterable[str | Path]) -> tuple[list[Path], list[tuple[str, str]]]:
    """The files named, and the `.sandlog` files found (recursively) in folders named; each
    once. A folder with no log and a missing input are (path, why)."""
    paths: list[Path] = []
    skipped: list[tuple[str, str]] = []
    for item in inputs:
        found, why = _logs_in(Path(item))
        if why:
            skipped.append((str(item), why))
        paths.extend(found)
    seen: set[Path] = set()
    unique = []
    for path in paths:
        if (key := path.resolve()) not in seen:
            seen.add(key)
            unique.append(path)
    return unique, skipped


def empty_inputs(inputs: Iterable[str | Path]) -> list[tuple[str, str]]:
    """The inputs that hold no log at all (missing, or a folder without one), as (path, why):
    a dataset built from them would drop every session it has from elsewhere."""
    return [(str(item), why) for item in inputs if (why := _logs_in(Path(item))[1])]


def find_logs(inputs: Iterable[str | Path]) -> tuple[list[LogFile], list[tuple[str, str]]]:
    """Every log named or found in folders, with the ones that are not logs (or not readable)
    as (path, why): a file named on the command line is tried whatever its name; in a folder
    only `.sandlog` files are looked at."""
    paths, skipped = _paths(inputs)
    logs: list[LogFile] = []
    for path in paths:
        try:
            logs.append(read_log_file(path))
        except LogError as err:
            skipped.append((str(path), str(err).removeprefix(f"{path}: ")))
    return logs, skipped


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
        except Exception:  # damage: the peek stops here
            break
        offset = start + length
    return out


def _wire(record: Any) -> list[Any] | None:
    wire = record.get("op") if type(record) is dict else record
    return wire if type(wire) is list and len(wire) == 9 else None


def _op_keys(records: Iterable[Any]) -> frozenset[tuple[Any, ...]]:
    return frozenset((w[0], w[1], w[2]) for w in map(_wire, records) if w)


def read_log_file(path: Path) -> LogFile:
    """A log's identity (hash, table, game) from its bytes and header; LogError if foreign."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise LogError(f"{path}: cannot read: {err.strerror}") from None
    frames = _frames(data, 1) if data.startswith(MAGIC) else []
    head = frames[0] if frames and isinstance(frames[0], dict) else None
    if head is None or head.get("format") != "sandtable-log" or not head.get("table"):
        head = LogReader(path).header  # not a log (raises), or a damaged header rebuilt
    table = str(head.get("table") or "")
    # a log whose header lost its table id is placed by its ops (rare: only then read whole)
    early = frozenset() if table else _op_keys(LogReader(path).records())
    return LogFile(path, content_hash(data), table, str(head.get("game") or ""), early)


def _early_ops(path: Path) -> frozenset[tuple[Any, ...]]:
    try:
        with open(path, "rb") as f:
            return _op_keys(_frames(f.read(_PEEK)))
    except OSError:
        return frozenset()


def group_logs(logs: Iterable[LogFile]) -> list[SessionLogs]:
    """One SessionLogs per table id, tables in id order, each table's logs by path. A log whose
    header lost its table id joins the table whose first ops it holds, else is a session of
    its own (named after its content)."""
    tables: dict[str, SessionLogs] = {}
    headless: list[LogFile] = []
    for log in logs:
        if log.table:
            tables.setdefault(log.table, SessionLogs(log.table)).logs.append(log)
        else:
            headless.append(log)
    if headless:
        early = [(s, _early_ops(s.logs[0].path)) for s in tables.values()]
        for log in headless:
            home = next((s for s, ops in early if ops and not ops.isdisjoint(log.early)), None)
            if home is None:
                home = tables.setdefault(f"unnamed-{log.digest[:16]}",
                                         SessionLogs(f"unnamed-{log.digest[:16]}"))
            home.logs.append(log)
    for session in tables.values():
        session.logs.sort(key=lambda log: str(log.path))
    return [tables[t] for t in sorted(tables)]


def shard_of(table: str, shards: int) -> int:
    """The 1-based shard a table belongs to (stable across machines and runs)."""
    return int(hashlib.blake2b(table.encode(), digest_size=8).hexdigest(), 16) % shards + 1


def read_source(session: SessionLogs) -> Source:
    """A session's logs read (several merged in memory); raises LogError when none is a log."""
    if len(session.logs) == 1:
        return _one(read_log(session.logs[0].path))
    read: list[LogContents] = []
    unreadable: list[tuple[Path, str]] = []
    for path in session.paths:
        try:
            read.append(read_log(path))
        except LogError as err:
            unreadable.append((path, str(err).removeprefix(f"{path}: ")))
    if not read:
        raise LogError(f"{session.paths[0]}: {unreadable[0][1]}")
    source = _one(read[0]) if len(read) == 1 else _merged(read)
    source.unreadable = unreadable
    return source


def _one(c: LogContents) -> Source:
    return Source(c.path, c.header, c.records, list(c.problems),
                  [d.describe() for d in c.damage], [c.path], {}, list(c.recovered))


def _merged(read: list[LogContents]) -> Source:
    from table.core.merge import merge_contents

    merged = merge_contents(read)
    damage = [f"{c.path.name}: {d.describe()}" for c in read for d in c.damage]
    recovered = [f"{c.path.name}: {r}" for c in read for r in c.recovered]
    # named after the most complete of its logs (a damaged or short copy may sort first)
    name = min(read, key=lambda c: (merged.missing.get(c.path, 0), bool(c.damage))).path
    logs = [name] + [c.path for c in read if c.path != name]
    return Source(name, merged.header, merged.records, list(merged.problems), damage, logs,
                  dict(merged.missing), recovered)
