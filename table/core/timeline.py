"""The state as the fold of all ops in canonical order, with rollback for late arrivals.

Ops may arrive in any causal order. The timeline keeps every applied op in canonical order
(lamport, author) with its journal; when an op arrives whose key sorts before ops already applied,
it reverts those ops (newest first), applies the newcomer, and re-applies the rest, each checked
again at its place (an op may turn void, or stop being void). That is rollback netcode: rollbacks
are short because concurrency windows are milliseconds.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field

from .apply import apply_op
from .ops import Op
from .state import Journal, State


@dataclass(slots=True)
class Record:
    op: Op
    journal: Journal
    void: str | None  # why the op did nothing at its place, or None when it took effect


@dataclass(slots=True)
class Change:
    """What one insertion did: the UI and the assist refresh from this."""
    first: int  # index of the first record (re)applied; everything from there on is new
    records: list[Record] = field(default_factory=list)
    touched: set[str] = field(default_factory=set)
    rolled_back: int = 0  # how many already-applied ops were reverted and re-applied


class Timeline:
    def __init__(self, state: State | None = None) -> None:
        self.state = state or State()
        self.records: list[Record] = []
        self._keys: list[tuple[int, str]] = []
        self._by_ref: dict[tuple[str, int], Record] = {}

    def __len__(self) -> int:
        return len(self.records)

    def has(self, ref: tuple[str, int]) -> bool:
        return ref in self._by_ref

    def record_of(self, ref: tuple[str, int]) -> Record | None:
        return self._by_ref.get(ref)

    def insert(self, op: Op) -> Change:
        return self.insert_many([op])

    def insert_many(self, ops: list[Op]) -> Change:
        fresh = sorted({op.ref: op for op in ops if op.ref not in self._by_ref}.values(),
                       key=lambda o: o.key)
        if not fresh:
            return Change(first=len(self.records))
        first = bisect_left(self._keys, fresh[0].key)
        tail = self._rollback(first)
        change = Change(first=first, rolled_back=len(tail))
        merged = _merge(tail, fresh)
        for op in merged:
            record = self._apply(op)
            change.records.append(record)
            change.touched |= record.journal.touched
        return change

    def _rollback(self, index: int) -> list[Op]:
        tail = self.records[index:]
        for record in reversed(tail):
            self.state.revert(record.journal)
        del self.records[index:]
        del self._keys[index:]
        return [record.op for record in tail]

    def _apply(self, op: Op) -> Record:
        journal, void = apply_op(self.state, op, self._lookup)
        record = Record(op, journal, void)
        self.records.append(record)
        self._keys.append(op.key)
        self._by_ref[op.ref] = record
        return record

    def _lookup(self, ref: tuple[str, int]) -> tuple[Op, Journal | None] | None:
        """An op applied before the current one (undo targets only reach backwards)."""
        record = self._by_ref.get(ref)
        if record is None:
            return None
        index = bisect_left(self._keys, record.op.key)
        if index >= len(self.records) or self.records[index] is not record:
            return None  # not applied (yet) at this point of the fold
        return record.op, (None if record.void else record.journal)


def _merge(a: list[Op], b: list[Op]) -> list[Op]:
    """Merge two lists already sorted by canonical key."""
    if not a:
        return b
    out: list[Op] = []
    i = j = 0
    while i < len(a) and j < len(b):
        if a[i].key <= b[j].key:
            out.append(a[i])
            i += 1
        else:
            out.append(b[j])
            j += 1
    out.extend(a[i:])
    out.extend(b[j:])
    return out
