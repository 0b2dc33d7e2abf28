"""Seeking through a replayed log both ways: the table as it was after any number of ops.

A `Seeker` holds a log's ops in canonical order and a cursor: a Timeline that has applied the
first `position` of them. Seeking forward applies the next ops; seeking back reverts the journals
of the ops past the target, newest first (the same journaled primitives a rollback uses), so a
step either way costs only the ops crossed, never a replay from the start. Every seek returns a
`Change` shaped like the replica's (records applied, journals reverted), so a scene that follows
a replica follows a seeker the same way.

Landmarks (turn starts, notes, flags) are op indices; jumping to one puts the cursor right after
that op, where the table shows what it did. `fork_log` writes a new log whose ops are the first
k, with the secrets of the hidden cards that exist at k, to continue the game from there.
"""
from __future__ import annotations

import copy
import secrets as _secrets
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from .frozen_fold import FrozenFold
from .journal import Journal
from .knowledge import Knowledge
from .logfile import LogWriter, make_header
from .ops import Op
from .replica import Replica
from .state import State
from .timeline import Change, Record, Timeline


class Seeker:
    def __init__(self, ops: Iterable[Op], cursor: Timeline | None = None) -> None:
        """`cursor`: a timeline that has already folded every one of `ops` (given in canonical
        order), such as the fold a replica did reading the log; the seeker starts at the end
        from there instead of folding the log a second time, and owns that timeline now."""
        self.ops: list[Op] = list(ops) if cursor is not None else \
            sorted(ops, key=lambda op: op.key)
        self.timeline: Timeline = cursor if cursor is not None else Timeline()
        self.applied_count = 0  # ops applied by seeking, for benchmarks and tests

    @classmethod
    def from_records(cls, records: Sequence[Record]) -> Seeker:
        return cls(r.op for r in records)

    def __len__(self) -> int:
        return len(self.ops)

    @property
    def position(self) -> int:
        """How many ops the cursor has applied (0 = the empty table, len = the whole log)."""
        return len(self.timeline.records)

    @property
    def state(self) -> State:
        return self.timeline.state

    def records(self) -> list[Record]:
        return self.timeline.records

    def seek(self, k: int) -> Change:
        """Move the cursor so that exactly the first `k` ops are applied."""
        k = max(0, min(len(self.ops), k))
        here = self.position
        if k > here:
            self.applied_count += k - here
            return self.timeline.insert_many(self.ops[here:k])
        if k < here:
            reverted = self.timeline.truncate(k)
            return Change(first=k, rolled_back=len(reverted), reverted=reverted)
        return Change(first=k)

    def step(self, delta: int) -> Change:
        return self.seek(self.position + delta)


def hand_over_fold(source: Replica) -> Timeline:
    """`source`'s fold, for a replay to seek through: folding a long log once is the cost of
    opening it, twice would be a second replay. `source` keeps a FrozenFold: its records (a
    list of references) and a copy of its state at the end (the table's objects, not its ops),
    so whatever reads it (the log panel, a fork) reads what it did before."""
    fold = source.timeline
    state = copy.deepcopy(fold.state)
    state.journal = Journal()  # the last op's journal is the fold's, not the copy's
    source.timeline = FrozenFold(list(fold.records), state)
    return fold


class ReplayReplica(Replica):
    """A read-only replica of a log at any point: its table is a Seeker's cursor, its knowledge
    the log's. Seeking announces the change to its listeners, as arriving ops do on a live
    replica, so whatever follows a replica (the scene) follows a replay the same way.

    With `take_fold`, the cursor is `source`'s own fold (see `hand_over_fold`): for a source
    read from a log only to be replayed (`sandtable replay`, the start screen's "Open log").
    """

    def __init__(self, source: Replica, at: int | None = None, *, take_fold: bool = False
                 ) -> None:
        super().__init__(source.table_id, source.peer_id, game=source.game,
                         game_hash=source.game_hash)
        if take_fold and not isinstance(source.timeline, FrozenFold):
            records = source.records()
            self.seeker = Seeker([r.op for r in records], cursor=hand_over_fold(source))
        else:
            self.seeker = Seeker.from_records(source.records())
        self.seeker.seek(len(self.seeker) if at is None else at)
        self.timeline = self.seeker.timeline
        self.knowledge = source.knowledge

    def seek(self, position: int) -> Change:
        """Put the cursor after the first `position` ops and tell the listeners what changed."""
        before = self.seeker.position
        change = self.seeker.seek(position)
        if self.seeker.position != before:
            self._announce(change)
        return change


class Landmarks:
    """Sorted op indices of one kind of moment (turns, notes, flags) and jumps between them."""

    def __init__(self, indices: Iterable[int]) -> None:
        self.indices: list[int] = sorted(set(indices))

    def __len__(self) -> int:
        return len(self.indices)

    def next_after(self, position: int) -> int | None:
        """The cursor position just after the first landmark op not yet applied."""
        i = bisect_left(self.indices, position)  # landmark ops at index >= position
        return self.indices[i] + 1 if i < len(self.indices) else None

    def previous_before(self, position: int) -> int | None:
        """The cursor position just after the last landmark op applied before the current one."""
        i = bisect_right(self.indices, position - 2)  # landmark ops at index <= position - 2
        return self.indices[i - 1] + 1 if i > 0 else None


def turn_indices(records: Sequence[Record]) -> list[int]:
    return [i for i, r in enumerate(records) if r.op.kind == "mark" and r.void is None
            and r.op.args.get("what") == "turn"]


def note_indices(records: Sequence[Record]) -> list[int]:
    return [i for i, r in enumerate(records) if r.op.kind == "note"]


# ---------------------------------------------------------------------------------------------
def fork_log(ops: Sequence[Op], k: int, path: str | Path, *, knowledge: Knowledge,
             header: dict[str, Any], live_handles: Iterable[str] = (),
             peer_id: str | None = None,
             blobs: Iterable[tuple[str, str, bytes]] = ()) -> Path:
    """Write a new log holding the first `k` ops (canonical order) and the secrets of the hidden
    cards in `live_handles`. `header`: game, game_hash and extras of the source log.

    The new log gets its own table id; its peer is `peer_id` (the source's hot-seat peer keeps
    playing every seat) or a fresh one. `blobs` (kind, hash, data): the source's module
    archives, so the fork reads under the same draft. Returns the path.
    """
    path = Path(path)
    if path.exists():
        path.unlink()
    extra = {key: value for key, value in header.items()
             if key not in ("format", "version", "table", "peer", "game", "game_hash", "created")}
    extra["forked_from"] = {"table": str(header.get("table", "")), "ops": k}
    writer = LogWriter(path, make_header(_secrets.token_hex(8), peer_id or _secrets.token_hex(8),
                                         str(header.get("game", "")),
                                         str(header.get("game_hash", "")), **extra))
    try:
        for kind, digest, data in blobs:
            writer.append({"blob": {"kind": kind, "hash": digest, "data": data}})
        prefix = sorted(ops, key=lambda op: op.key)[:k]
        for op in prefix:
            writer.append(op.to_wire())
        handles = set(live_handles)
        cards = {h: list(pair) for h, pair in knowledge.cards.items() if h in handles}
        shown = {h: sorted(s) for h, s in knowledge.shown.items() if h in handles}
        decks = knowledge.decks_record()
        if cards or shown or decks:
            writer.append({"secret": {"cards": cards, "shown": shown, "decks": decks}})
    finally:
        writer.close()
    return path


def fork_table(source: Replica, k: int, path: str | Path) -> Replica:
    """A new hot-seat replica (logging to `path`) whose table is `source`'s after its first k ops.

    When one peer played every seat (a hot-seat log) it keeps playing them; otherwise (a LAN
    peer's log, a merged log) a fresh peer says hello and takes every seat over, so one person
    can play on from that point. Hidden cards this log never knew stay unknown to the fork.
    """
    seeker = Seeker.from_records(source.records())
    seeker.seek(k)
    state = seeker.state
    holders = {seat.peer for seat in state.seats.values()}
    keep = holders == {source.peer_id}
    header = {"table": source.table_id, "game": source.game, "game_hash": source.game_hash,
              **source.header_extra}
    fork_log(seeker.ops, k, path, knowledge=source.knowledge, header=header,
             live_handles=[oid for oid, o in state.objs.items() if o.alive],
             peer_id=source.peer_id if keep else None,
             blobs=[(source.blob_kinds.get(h, ""), h, d) for h, d in source.blobs.items()])
    replica = Replica.from_log(path, reopen=True)
    if not keep:
        replica.issue("hello", {"name": "fork"})
        for number, seat in sorted(state.seats.items()):
            replica.issue("seat", {"seat": number, "name": seat.name, "colour": seat.colour,
                                   "force": True})
    return replica
