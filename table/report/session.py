"""One logged session, summarised for the report: `read_session(path)`.

The log is read and folded once, by the dataset's pass (table.dataset.rows: the same rows
`sandtable dataset` writes), and the `Session` is read out of those rows by the report's own
queries (from_dataset), exactly as `sandtable report` reads a whole dataset. Raises `Skip`
with a reason when a log cannot be used (not a log, damaged beyond reading, a game module
that is not installed); the report lists those.
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from table.core.errors import LogError
from table.games.registry import ModuleNotFound

from .model import SeatInfo, Session, Skip

__all__ = ["SeatInfo", "Session", "Skip", "installed_module", "read_session"]

_MODULES: dict[str, Any] = {}  # game id -> installed module (None: not installed)


def installed_module(game: str) -> Any:
    """The installed module of a game (cached), or None."""
    if game not in _MODULES:
        from table.games import ModuleError, find_module

        try:
            _MODULES[game] = find_module(game)
        except (ModuleNotFound, ModuleError):  # not installed, or broken
            _MODULES[game] = None
    return _MODULES[game]


def read_session(path: str | Path, *, plugins: dict[str, Any] | None = None,
                 modules: dict[str, Any] | None = None, assist: bool = True) -> Session:
    """One session from one log; raises Skip."""
    import pyarrow as pa

    from table.dataset.assist_flags import quiet_assist
    from table.dataset.collected import Rows
    from table.dataset.rows import session_rows
    from table.dataset.schema import SESSION_TABLES
    from table.dataset.sources import group_logs, read_log_file

    from .from_dataset import load_sessions, memory_connection

    path = Path(path)
    try:
        [logs] = group_logs([read_log_file(path)])
    except LogError as err:
        raise Skip(str(err).removeprefix(f"{path}: ")) from None
    level = quiet_assist()
    rows = Rows()
    try:
        session_rows(logs, rows, modules=modules, plugins=plugins, assist=assist)
    finally:
        logging.getLogger("assist").setLevel(level)
    con = memory_connection({name: pa.Table.from_pydict(rows.columns(name), schema=schema)
                             for name, schema in SESSION_TABLES.items()})
    sessions, skipped = load_sessions(con)
    if not sessions:
        raise Skip(skipped[0][1] if skipped else "the log holds no session")
    return sessions[0]
