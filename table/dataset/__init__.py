"""The designer's dataset: every session as Parquet tables (sessions, seats, ops, flags, cards,
draws, notes, hands) that DuckDB, Polars, pandas or any bigger engine can query.
docs/dataset.md."""
from __future__ import annotations

from .fold import fold_session, sessions_from
from .sources import SessionLogs, find_logs, group_logs

__all__ = ["SessionLogs", "find_logs", "fold_session", "group_logs", "sessions_from"]
