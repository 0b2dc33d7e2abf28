"""The fold a replica keeps once it handed its own to a replay (table.core.seek): read-only.

A module of its own so that it compiles with the Timeline it extends (packaging/compile_core.py:
a Python class cannot extend a compiled one) while the replay's Python classes read it.
"""
from __future__ import annotations

from .errors import CoreError
from .ops import Op
from .state import State
from .timeline import Change, Record, Timeline


class FrozenFold(Timeline):
    """What a replica that handed its fold to a replay keeps: every record it had and the
    state at the end, to read (its log panel, its seats, a fork), never to fold into again."""

    def __init__(self, records: list[Record], state: State) -> None:
        super().__init__(state)
        self.records = records
        self._refs: dict[tuple[str, int], Record] | None = None

    def has(self, ref: tuple[str, int]) -> bool:
        return self.record_of(ref) is not None

    def record_of(self, ref: tuple[str, int]) -> Record | None:
        if self._refs is None:  # built on first use: a replay window never asks
            self._refs = {(r.op.author, r.op.seq): r for r in self.records}
        return self._refs.get(ref)

    def insert(self, op: Op) -> Change:
        raise CoreError("this log's fold was handed to its replay: it takes no more ops")

    def append(self, op: Op) -> Record | None:
        raise CoreError("this log's fold was handed to its replay: it takes no more ops")

    def insert_many(self, ops: list[Op]) -> Change:
        raise CoreError("this log's fold was handed to its replay: it takes no more ops")

    def rebuild(self, ops: list[Op]) -> Change:
        raise CoreError("this log's fold was handed to its replay: it takes no more ops")
