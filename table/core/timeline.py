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
from typing import Protocol

from .errors import Fault, Void
from .journal import Journal
from .opkinds import HANDLERS, apply_op
from .ops import Op
from .state import State
from .statehash import objects_digest
from .watchers import watcher_refusal

NOTHING = "it would change nothing"  # Timeline.trial's answer for an op with no effect


@dataclass(slots=True)
class Record:
    op: Op
    journal: Journal
    void: str | None  # why the op did nothing at its place, or None when it took effect
    fault: Fault | None = None  # a void op no honest peer sends (a bad reveal, a forged roll)


@dataclass(slots=True)
class Change:
    """What one insertion did: the UI and the assist refresh from this."""
    first: int  # index of the first record (re)applied; everything from there on is new
    records: list[Record] = field(default_factory=list)
    rolled_back: int = 0  # how many already-applied ops were reverted and re-applied
    reverted: list[Journal] = field(default_factory=list)  # journals taken back by the rollback

    @property
    def touched(self) -> set[str]:
        """Every object whose state may differ from before this insertion."""
        ids: set[str] = set()
        for journal in self.reverted:
            ids |= journal.touched()
        for record in self.records:
            ids |= record.journal.touched()
        return ids


class Observer(Protocol):
    """Follows the fold as it happens (the rules assist): sees the state right after each op."""

    def applied(self, index: int, record: Record, state: State) -> None: ...

    def rolled_back(self, index: int) -> None:
        """Records from `index` on were taken back; they will be applied again, in order."""


class Timeline:
    def __init__(self, state: State | None = None) -> None:
        self.state = state or State()
        self.observers: list[Observer] = []
        self.records: list[Record] = []
        # each author's records by sequence number (index seq - 1; None where an op is not
        # applied): a list per author costs a slot per op where a map of refs cost a key too
        self._by_author: dict[str, list[Record | None]] = {}

    def __len__(self) -> int:
        return len(self.records)

    def has(self, ref: tuple[str, int]) -> bool:
        return self.record_of(ref) is not None

    def record_of(self, ref: tuple[str, int]) -> Record | None:
        author, seq = ref
        mine = self._by_author.get(author)
        return mine[seq - 1] if mine is not None and 0 < seq <= len(mine) else None

    def insert(self, op: Op) -> Change:
        record = self.append(op)
        if record is None:
            return self.insert_many([op])
        return Change(len(self.records) - 1, [record])

    def append(self, op: Op) -> Record | None:
        """Fold `op` after the last record when it sorts there (the common case: ops arrive in
        order), and return its record; None, with nothing done, when it sorts earlier (then
        `insert` it: that takes the later ops back). No op already here sorts after the last
        record, so no duplicate check is needed (an author's stamps strictly increase)."""
        records = self.records
        if records:
            last = records[-1].op
            lamport = op.lamport
            if lamport < last.lamport or (lamport == last.lamport and op.author <= last.author):
                return None
        return self._apply(op)

    def insert_many(self, ops: list[Op]) -> Change:
        if self._all_after_end(ops):  # a log read back, a catch-up: nothing to roll back
            change = Change(len(self.records))
            records, apply = change.records, self._apply
            for op in ops:
                records.append(apply(op))
            return change
        unique: dict[tuple[str, int], Op] = {}
        for op in ops:
            if self.record_of((op.author, op.seq)) is None:
                unique[(op.author, op.seq)] = op
        if not unique:
            return Change(first=len(self.records))
        # keys are unique: an author's stamps strictly increase
        fresh = sorted(((op.lamport, op.author), op) for op in unique.values())
        first = bisect_left(self.records, fresh[0][0], key=_key)
        reverted = [r.journal for r in self.records[first:]]
        tail = self._rollback(first)
        change = Change(first=first, rolled_back=len(tail), reverted=reverted)
        records = change.records
        for _key_of_op, op in _merge(tail, fresh):
            records.append(self._apply(op))
        return change

    def _all_after_end(self, ops: list[Op]) -> bool:
        """True when `ops` are in canonical order, each sorting after the last record, and each
        author's seqs rise past what the timeline holds of it: then applying them one after
        the other is what the general insertion (dedupe, sort, roll back, merge) would do."""
        records = self.records
        if records:
            last = records[-1].op
            lamport, author = last.lamport, last.author
        else:
            lamport, author = 0, ""
        seen: dict[str, int] = {}
        by_author = self._by_author
        for op in ops:
            if op.lamport < lamport or (op.lamport == lamport and op.author <= author):
                return False
            lamport, author = op.lamport, op.author
            before = seen.get(author)
            if before is None:
                mine = by_author.get(author)
                before = 0 if mine is None else len(mine)
            if op.seq <= before:  # held already, twice in the batch, or a gap to fill
                return False
            seen[author] = op.seq
        return True

    def rebuild(self, ops: list[Op]) -> Change:
        """Take every op back and fold `ops` afresh, in place (observers follow, as in a
        rollback to the start)."""
        reverted = [r.journal for r in self.records]
        self._rollback(0)
        self._by_author.clear()
        change = self.insert_many(ops)
        change.reverted[:0] = reverted
        return change

    def truncate(self, index: int) -> list[Journal]:
        """Take back every record from `index` on, as if those ops had never arrived (a
        replay's cursor seeking back); returns their journals, oldest first."""
        journals = [r.journal for r in self.records[index:]]
        by_author = self._by_author
        for record in self.records[index:]:
            mine = by_author[record.op.author]
            mine[record.op.seq - 1] = None
            while mine and mine[-1] is None:  # an author's ops leave the timeline newest first
                mine.pop()
        self._rollback(index)
        return journals

    def _rollback(self, index: int) -> list[tuple[tuple[int, str], Op]]:
        tail = self.records[index:]
        for record in reversed(tail):
            self.state.revert(record.journal)
        if tail:
            for observer in self.observers:
                observer.rolled_back(index)
        del self.records[index:]
        return [((record.op.lamport, record.op.author), record.op) for record in tail]

    def _apply(self, op: Op) -> Record:
        """Apply `op` at the end and keep its record. `apply_op` inline (the hottest path of
        every fold): the watcher check, the journal's start, the handler, all or nothing."""
        state = self.state
        author = op.author
        info = state.peers.get(author)
        refused = watcher_refusal(state, author, op.kind) \
            if info is not None and info.get("watch") else None
        if refused is None:
            state.journal = journal = Journal()
            try:
                HANDLERS[op.kind](state, op, self.lookup)  # (not bound once and kept: a cycle)
                record = Record(op, journal, None)
            except Void as void:
                state.revert(journal)  # a handler may fail after its first write
                journal.clear()
                record = Record(op, journal, str(void), void.fault)
        else:
            record = Record(op, state.begin(), str(refused), refused.fault)
        self.records.append(record)
        mine = self._by_author.get(author)
        if mine is not None and op.seq == len(mine) + 1:
            mine.append(record)
        else:
            self._file_by_author(op, record)
        if self.observers:
            index = len(self.records) - 1
            for observer in self.observers:
                observer.applied(index, record, state)
        return record

    def _file_by_author(self, op: Op, record: Record) -> None:
        """Keep `record` at its author's seq: the author's first, a re-apply after a rollback,
        or one after missing ops (a salvaged log)."""
        mine = self._by_author.get(op.author)
        if mine is None:
            mine = self._by_author[op.author] = []
        if op.seq <= len(mine):
            mine[op.seq - 1] = record  # re-applied after a rollback
        else:
            if op.seq > len(mine) + 1:  # ops of this author missing before it (a salvaged log)
                mine.extend([None] * (op.seq - 1 - len(mine)))
            mine.append(record)

    def lookup(self, ref: tuple[str, int]
               ) -> tuple[Op, Journal | None, list[tuple[Op, Journal]]] | None:
        """An op applied before the current one (undo targets only reach backwards), with
        every op applied after it and their journals (also asked ahead of issuing:
        table.core.undoing)."""
        record = self.record_of(ref)
        if record is None:
            return None
        index = bisect_left(self.records, (record.op.lamport, record.op.author), key=_key)
        if index >= len(self.records) or self.records[index] is not record:
            return None  # not applied (yet) at this point of the fold
        later = [(r.op, r.journal) for r in self.records[index + 1:]]
        return record.op, (None if record.void else record.journal), later

    def trial(self, op: Op) -> str | None:
        """Why `op` would be void, or change nothing, if it were applied next; None when it
        would take effect. The state is left exactly as it was."""
        journal, void = apply_op(self.state, op, self.lookup)
        if void is not None:
            return str(void)
        touched = journal.touched()
        after = objects_digest(self.state, touched)
        self.state.revert(journal)
        return None if objects_digest(self.state, touched) != after else NOTHING


def _key(record: Record) -> tuple[int, str]:
    """A record's place in canonical order."""
    op = record.op
    return (op.lamport, op.author)


def _merge(a: list[tuple[tuple[int, str], Op]],
           b: list[tuple[tuple[int, str], Op]]) -> list[tuple[tuple[int, str], Op]]:
    """Merge two lists of (key, op) already sorted by canonical key."""
    if not a:
        return b
    out: list[tuple[tuple[int, str], Op]] = []
    i = j = 0
    while i < len(a) and j < len(b):
        if a[i][0] <= b[j][0]:
            out.append(a[i])
            i += 1
        else:
            out.append(b[j])
            j += 1
    out.extend(a[i:])
    out.extend(b[j:])
    return out
