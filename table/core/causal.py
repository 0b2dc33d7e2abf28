"""Causal delivery and catch-up.

Every op carries its author's version vector at issue time. An op is delivered (handed to the
timeline) only once the author's previous op and everything in that vector are delivered; until
then it waits here. The store keeps every delivered op, so any peer can bring any other up to date:
`missing_for(their_vector)` lists what they lack, in canonical order (a linear extension of
causality, because a stamp is always 1 + the highest stamp it depends on).
"""
from __future__ import annotations

from .errors import CausalityError
from .ops import Op

MAX_PENDING = 200_000  # ops waiting for their dependencies; beyond this a sender is misbehaving


class CausalStore:
    def __init__(self) -> None:
        self.by_author: dict[str, list[Op]] = {}  # delivered ops, index = seq - 1
        self.pending: dict[str, dict[int, Op]] = {}
        self.max_lamport = 0
        self._pending_count = 0

    def version_vector(self) -> dict[str, int]:
        return {author: len(ops) for author, ops in self.by_author.items()}

    def delivered(self, author: str) -> int:
        ops = self.by_author.get(author)
        return len(ops) if ops is not None else 0

    def get(self, author: str, seq: int) -> Op | None:
        ops = self.by_author.get(author)
        if ops is None or not 1 <= seq <= len(ops):
            return None
        return ops[seq - 1]

    def has(self, op: Op) -> bool:
        return self.get(op.author, op.seq) is not None or op.seq in self.pending.get(op.author, {})

    def offer(self, op: Op) -> list[Op]:
        """Accept an op; return the ops that became deliverable, in causal order.

        Duplicates are ignored. Raises CausalityError for an op that reuses a delivered sequence
        number with different content, or whose stamp is not 1 + the highest stamp it depends on.
        """
        mine = self.by_author.get(op.author)
        count = len(mine) if mine is not None else 0
        if op.seq == count + 1 and not self._pending_count:
            highest = self._ready_stamp(op, mine)
            if highest is not None:  # the common case: next in line, nothing waiting
                if op.lamport != highest + 1:
                    raise CausalityError(f"op {op.author}#{op.seq} has stamp {op.lamport}, "
                                         f"expected {highest + 1}")
                if mine is None:
                    self.by_author[op.author] = mine = []
                mine.append(op)
                if op.lamport > self.max_lamport:
                    self.max_lamport = op.lamport
                return [op]
        known = self.get(op.author, op.seq)
        if known is not None:
            if known.signing_bytes() != op.signing_bytes():
                raise CausalityError(f"peer {op.author} sent two different ops as #{op.seq}")
            return []
        waiting = self.pending.setdefault(op.author, {})
        if op.seq in waiting:
            return []
        if self._pending_count >= MAX_PENDING:
            raise CausalityError("too many ops waiting for their dependencies")
        waiting[op.seq] = op
        self._pending_count += 1
        return self._drain(op.author)

    def _ready(self, op: Op) -> bool:
        by_author = self.by_author
        for author, count in op.vv.items():
            if count and author != op.author:
                ops = by_author.get(author)
                if ops is None or len(ops) < count:
                    return False
        return True

    def _ready_stamp(self, op: Op, mine: list[Op] | None) -> int | None:
        """The highest stamp `op` depends on, or None while a dependency is missing."""
        author, by_author = op.author, self.by_author
        highest = mine[op.seq - 2].lamport if op.seq > 1 and mine else 0
        for other, count in op.vv.items():
            if other == author:
                if count != op.seq - 1:
                    raise CausalityError(f"op {author}#{op.seq} has a wrong own count in its "
                                         f"vector")
            elif count:
                ops = by_author.get(other)
                if ops is None or len(ops) < count:
                    return None
                lamport = ops[count - 1].lamport
                if lamport > highest:
                    highest = lamport
        return highest

    def _check_stamp(self, op: Op) -> None:
        """A stamp must be 1 + the highest stamp the op depends on (no skipping ahead)."""
        author, by_author = op.author, self.by_author
        if op.vv.get(author, op.seq - 1) != op.seq - 1:
            raise CausalityError(f"op {author}#{op.seq} has a wrong own count in its vector")
        highest = by_author[author][op.seq - 2].lamport if op.seq > 1 else 0
        for other, count in op.vv.items():
            if count > 0 and other != author:
                lamport = by_author[other][count - 1].lamport
                if lamport > highest:
                    highest = lamport
        if op.lamport != highest + 1:
            raise CausalityError(
                f"op {author}#{op.seq} has stamp {op.lamport}, expected {highest + 1}")

    def _drain(self, author: str) -> list[Op]:
        out: list[Op] = []
        progress = True
        candidates = [author]
        while progress:
            progress = False
            for who in candidates or list(self.pending):
                waiting = self.pending.get(who)
                while waiting:
                    nxt = waiting.get(self.delivered(who) + 1)
                    if nxt is None or not self._ready(nxt):
                        break
                    del waiting[nxt.seq]
                    self._pending_count -= 1
                    try:
                        self._check_stamp(nxt)
                    except CausalityError:
                        self._drop_author_pending(who)
                        raise
                    self.by_author.setdefault(who, []).append(nxt)
                    self.max_lamport = max(self.max_lamport, nxt.lamport)
                    out.append(nxt)
                    progress = True
            candidates = []  # after the first pass, anyone's waiting op may have been unblocked
        return out

    def _drop_author_pending(self, author: str) -> None:
        self._pending_count -= len(self.pending.pop(author, {}))

    def retract(self, ops: list[Op]) -> None:
        """Take back ops `offer` just delivered (newest last) that the caller refused, e.g. for
        a bad signature, so that the genuine op under the same number can still come."""
        for op in reversed(ops):
            mine = self.by_author.get(op.author)
            if mine and mine[-1] is op:
                mine.pop()
                if not mine:
                    del self.by_author[op.author]
        self.max_lamport = max((ops_[-1].lamport for ops_ in self.by_author.values() if ops_),
                               default=0)

    def add_local(self, op: Op) -> None:
        """Record an op this peer just issued (its dependencies are delivered by construction)."""
        self.by_author.setdefault(op.author, []).append(op)
        self.max_lamport = max(self.max_lamport, op.lamport)

    def missing_for(self, vector: dict[str, int]) -> list[Op]:
        """Every delivered op the holder of `vector` lacks, in canonical order."""
        out: list[Op] = []
        for author, ops in self.by_author.items():
            out.extend(ops[vector.get(author, 0):])
        out.sort(key=lambda o: o.key)
        return out

    def all_ops(self) -> list[Op]:
        return self.missing_for({})
