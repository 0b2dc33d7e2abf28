"""Which logs make which session: logs found in files and folders, each known by its content
hash, grouped by the table they record (several peers' logs of one table are one session).

`find_logs` reads only each log's header (and hashes its bytes); `sessions_from` groups and
folds: one merged replica per table, built in memory with the core's merge
(`table.core.merge.merge_records`, what `sandtable log merge` writes), so a table counts once
however many of its peers' logs are given.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from table.core.errors import LogError
from table.core.logfile import LogReader

LOG_SUFFIX = ".sandlog"


@dataclass(frozen=True, slots=True)
class LogFile:
    path: Path
    digest: str  # BLAKE2b of the file's bytes: a changed log is a new input
    table: str  # the table id its header names
    game: str


@dataclass(slots=True)
class SessionLogs:
    """The logs of one table: what one session row is read from."""
    table: str
    logs: list[LogFile] = field(default_factory=list)

    @property
    def paths(self) -> list[Path]:
        return [log.path for log in self.logs]

    @property
    def fingerprint(self) -> str:
        """The session's inputs by content: equal fingerprints, equal rows."""
        return hashlib.blake2b("\n".join(sorted(log.digest for log in self.logs)).encode(),
                               digest_size=16).hexdigest()


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def find_logs(inputs: Iterable[str | Path]) -> tuple[list[LogFile], list[tuple[str, str]]]:
    """Every log named or found in folders (recursively, `*.sandlog`), with the ones that are
    not logs (or not readable) as (path, why): a file named on the command line is tried
    whatever its name; in a folder only `.sandlog` files are looked at."""
    paths: list[Path] = []
    skipped: list[tuple[str, str]] = []
    for item in inputs:
        path = Path(item)
        if path.is_dir():
            found = sorted(p for p in path.rglob(f"*{LOG_SUFFIX}") if p.is_file())
            if not found:
                skipped.append((str(path), f"a folder with no {LOG_SUFFIX} file"))
            paths.extend(found)
        elif path.is_file():
            paths.append(path)
        else:
            skipped.append((str(path), "no such file or folder"))
    logs: list[LogFile] = []
    seen: set[Path] = set()
    for path in paths:
        key = path.resolve()
        if key in seen:
            continue
        seen.add(key)
        try:
            logs.append(read_log_file(path))
        except LogError as err:
            skipped.append((str(path), str(err).removeprefix(f"{path}: ")))
    return logs, skipped


def read_log_file(path: Path) -> LogFile:
    """A log's identity (hash, table, game) from its bytes and header; LogError if foreign."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise LogError(f"{path}: cannot read: {err.strerror}") from None
    head = LogReader(path).header
    table = str(head.get("table") or "")
    if not table:
        raise LogError(f"{path}: the log names no table")
    return LogFile(path, content_hash(data), table, str(head.get("game") or ""))


def group_logs(logs: Iterable[LogFile]) -> list[SessionLogs]:
    """One SessionLogs per table id, tables in id order, each table's logs by path."""
    tables: dict[str, SessionLogs] = {}
    for log in logs:
        tables.setdefault(log.table, SessionLogs(log.table)).logs.append(log)
    for session in tables.values():
        session.logs.sort(key=lambda log: str(log.path))
    return [tables[t] for t in sorted(tables)]


def shard_of(table: str, shards: int) -> int:
    """The 1-based shard a table belongs to (stable across machines and runs)."""
    return int(hashlib.blake2b(table.encode(), digest_size=8).hexdigest(), 16) % shards + 1


@dataclass(slots=True)
class Folded:
    """A session's logs read and folded into one replica (merged when there are several)."""
    header: dict[str, Any]
    records_in: list[Any]  # the records as read (or merged), before the fold
    problems: list[str]  # what the reader(s) could not read
    replica: Any = None  # table.core.replica.Replica, None when the fold itself failed
    fold_error: str = ""


def read_records(session: SessionLogs) -> tuple[dict[str, Any], list[Any], list[str]]:
    """(header, records, problems) of a session: one log as it is, several merged in memory."""
    if len(session.logs) == 1:
        reader = LogReader(session.logs[0].path)
        records = list(reader.records())
        return reader.header, records, list(reader.problems)
    from table.core.merge import merge_records

    merged = merge_records(session.paths)
    return merged.header, merged.records, list(merged.problems)


def fold_session(session: SessionLogs,
                 prepare: Callable[[Any, dict[str, Any], list[Any]], None] | None = None
                 ) -> Folded:
    """Read a session's logs and fold them into one replica; `prepare(replica, header,
    records)` runs before the fold (to attach the rules assist, which judges ops as they are
    folded). A log that breaks the fold gives a Folded with `fold_error` set."""
    from table.core.replica import Replica

    header, records, problems = read_records(session)
    folded = Folded(header, records, problems)
    replica = Replica(str(header.get("table", "")), str(header.get("peer", "")),
                      game=str(header.get("game", "")),
                      game_hash=str(header.get("game_hash", "")))
    try:
        if prepare is not None:
            prepare(replica, header, records)
        replica.load_records(records, str(session.paths[0]), salvage=True)
        folded.replica = replica
    except Exception as err:  # noqa: BLE001 - one broken log never stops the others
        folded.fold_error = f"{type(err).__name__}: {err}"
    return folded


def sessions_from(paths: Sequence[str | Path]) -> Iterator[tuple[str, list[Path], Folded]]:
    """(table id, its logs, the folded session) per table among `paths` (files or folders;
    foreign files are left out: `find_logs` names them)."""
    logs, _skipped = find_logs(paths)
    for session in group_logs(logs):
        yield session.table, session.paths, fold_session(session)
