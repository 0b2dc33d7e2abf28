"""A session's logs read and folded into one replica (merged when there are several), under
the game module it was played with, the rules assist watching the fold."""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from table.core.errors import LogError
from table.games.registry import ModuleNotFound
from table.games.store import module_for_recorded, recorded_module

from .sources import SessionLogs, Source, find_logs, group_logs, read_source

# (game, module hash) -> (module, note, judged by), in this process
_RESOLVED: dict[tuple[str, str] | None, tuple[Any, str, str]] = {}

HEADER_KEYS = ("format", "version", "table", "peer", "game", "game_hash", "created")


@dataclass(slots=True)
class Module:
    """The module a session is judged by, and what the log recorded of its own."""
    module: Any = None  # None: not installed (then `missing` says why)
    recorded: dict[str, Any] = field(default_factory=dict)  # the log's module op args
    note: str = ""  # the store's one-line note on where it came from
    judged_by: str = ""  # the module judged by when the log's own was not available
    missing: str = ""


def resolve_module(game: str, records: list[Any], modules: dict[str, Any] | None = None
                   ) -> Module:
    """The module a session was played under (a caller's own for `game`, in tests)."""
    setup_module, blobs = recorded_module(records)
    found = Module(recorded=setup_module or {})
    if modules is not None and game in modules:
        found.module = modules[game]
        return found
    digest = found.recorded.get("hash")
    key = (game, digest) if isinstance(digest, str) and digest else None
    if key in _RESOLVED:  # a season is played under few drafts: each is looked up once
        found.module, found.note, found.judged_by = _RESOLVED[key]
        return found
    try:
        resolved = module_for_recorded(game, setup_module, blobs)
    except (ModuleNotFound, ValueError) as err:
        found.missing = str(err)
        return found
    found.module, found.note = resolved.module, resolved.note
    if resolved.source == "installed (fallback)" and setup_module:
        found.judged_by = resolved.label
    if key is not None and resolved.source != "installed (fallback)":
        _RESOLVED[key] = (found.module, found.note, found.judged_by)
    return found


@dataclass(slots=True)
class Folded:
    """A session's logs read and folded into one replica."""
    source: Source
    replica: Any = None  # table.core.replica.Replica, None when the fold itself failed
    fold_error: str = ""

    @property
    def header(self) -> dict[str, Any]:
        return self.source.header


def fold_session(session: SessionLogs,
                 prepare: Callable[[Any, dict[str, Any], list[Any]], None] | None = None
                 ) -> Folded:
    """Read a session's logs and fold them into one replica; `prepare(replica, header,
    records)` runs before the fold (to attach the rules assist, which judges ops as they are
    folded). A log that breaks the fold gives a Folded with `fold_error` set."""
    from table.core.replica import Replica

    try:
        source = read_source(session)
    except LogError as err:
        path = session.paths[0]
        return Folded(Source(path, {}, [], logs=session.paths,
                             unreadable=[(path, str(err).removeprefix(f"{path}: "))]),
                      fold_error=str(err))
    header = source.header
    folded = Folded(source)
    replica = Replica(str(header.get("table", "")), str(header.get("peer", "")),
                      game=str(header.get("game", "")),
                      game_hash=str(header.get("game_hash", "")))
    replica.header_extra = {k: v for k, v in header.items() if k not in HEADER_KEYS}
    try:
        if prepare is not None:
            prepare(replica, header, source.records)
        replica.load_records(source.records, str(source.path), salvage=True)
        folded.replica = replica
    except Exception as err:  # one broken log never stops the others
        folded.fold_error = f"{type(err).__name__}: {err}"
    for problem in source.problems:
        replica.reports.append(problem)
    return folded


def sessions_from(paths: Sequence[str | Path]) -> Iterator[tuple[str, list[Path], Folded]]:
    """(table id, its logs, the folded session) per table among `paths` (files or folders;
    foreign files are left out: `find_logs` names them)."""
    logs, _skipped = find_logs(paths)
    for session in group_logs(logs):
        yield session.table, session.paths, fold_session(session)
