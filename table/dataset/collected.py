"""What the dataset's pass collects: `Rows`, the column lists of every table for the sessions
read so far, and `Walk`, what the pass over one session's ops found beyond its per-op rows. Their
own module because both the op pass (rows.py) and the session and seat rows
(sessions_table.py) fill them."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .schema import OPS, SESSION_TABLES


@dataclass(slots=True)
class Rows:
    """Column lists per table for one or more sessions, and the module versions they used.
    The ops table, a row per op (most of the rows), is kept as one tuple per row in OPS's
    column order (`add_op`): one call per op instead of one per value; `columns` turns it."""
    tables: dict[str, dict[str, list[Any]]] = field(default_factory=lambda: {
        name: {column: [] for column in schema.names} for name, schema in SESSION_TABLES.items()})
    # module hash -> (game, version, the folder its cards.csv is in)
    modules: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    ops: list[tuple[Any, ...]] = field(default_factory=list)

    def add(self, table: str, **values: Any) -> None:
        get = values.get
        for column, items in self.tables[table].items():
            items.append(get(column))

    def add_op(self, row: tuple[Any, ...]) -> None:
        """One row of the ops table: every column of OPS, in order."""
        self.ops.append(row)

    def columns(self, table: str) -> dict[str, Sequence[Any]]:
        """A table's values, column by column (what pyarrow's from_pydict takes)."""
        if table != "ops" or not self.ops:
            return dict(self.tables[table])
        return dict(zip(OPS.names, zip(*self.ops, strict=True), strict=True))


@dataclass(slots=True)
class Walk:
    """What the pass over a session's ops found beyond the per-op rows."""
    turn_times: list[float] = field(default_factory=list)
    order: list[int] = field(default_factory=list)  # seats in the order they first had a turn
    play_start: float | None = None
    last_time: float = 0.0
    legacy_winner: Any = None  # a `winner` mark's value (logs from before end ops)
    audited: str = "none"  # table.core.audit's status of the session's dice and shuffles
    # the result (sessions_table.settle): winners, how it ended, the condition, scores
    winners: set[int] = field(default_factory=set)
    how: str = ""
    condition: str = ""
    scores: dict[int, float] = field(default_factory=dict)
    seats: list[tuple[int, str, str, str, dict[str, str], str | None]] = field(
        default_factory=list)  # (seat, name, deck, deck hash, fields, group)

    @property
    def turn_seconds(self) -> list[float]:
        """How long each turn lasted (the last one until the last op of the play)."""
        ends = [*self.turn_times[1:], self.last_time]
        return [max(0.0, b - a) for a, b in zip(self.turn_times, ends, strict=False)]
