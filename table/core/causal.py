"""Causal delivery and catch-up.

Every op carries its author's version vector at issue time. An op is delivered (handed to the
timeline) only once the author's previous op and everything in that vector are delivered; until
then it waits here. The store keeps every delivered op, so any peer can bring any other up to date:
`missing_for(their_vector)` lists what they lack, in canonical order (a linear extension of
causality, because a stamp is always 1 + the highest stamp it depends on).

`admit` (set by the owner, e.g. to check signatures) sees every op just before it is delivered;
an op it refuses is never stored, so the store, and the version vector it gives, hold only
admitted ops.
"""
from __future__ import annotations

from collections.abc import Callable

from .errors import CausalityError
from .ops import Op

MAX_PENDING = 200_000  # ops waiting for their dependencies; beyond this a sender is misbehaving


class RefusedOp(CausalityError):
    """An op was refused on delivery. ``delivered`` holds the ops the same ``offer`` call
    delivered before it (they are stored: the caller must still log and apply them)."""

    def __init__(self, message: str, author: str, seq: int, delivered: list[Op]) -> None:
        super().__init__(message)
        self.author, self.seq, self.delivered = author, seq, delivered


class Equivocation(CausalityError):
    """Two different ops under one (author, seq): the second is never applied."""

    def __init__(self, author: str, seq: int) -> None:
        super().__init__(f"peer {author} sent two different ops as #{seq}")
        self.author, self.seq = author, seq


class CausalStore:
    def __init__(self) -> None:
        self.by_author: dict[str, list[Op]] = {}  # delivered ops, index = seq - 1
        self.pending: dict[str, dict[int, Op]] = {}
        self.max_lamport = 0
        self._pending_count = 0
        # called with each op about to be delivered; raises CausalityError to refuse it
        self.admit: Callable[[Op], None] | None = None

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

    def announced_key(self, author: str) -> str | None:
        """The signing key `author`'s first op (its ``hello``) announced, if held here."""
        return _hello_key(self.get(author, 1))

    def key_for(self, op: Op) -> str | None:
        """The key `op` is checked with: the one its author's ``hello`` announced (for a
        ``hello``, its own)."""
        return _hello_key(op if op.seq == 1 else self.get(op.author, 1))

    def has(self, op: Op) -> bool:
        return self.get(op.author, op.seq) is not None or op.seq in self.pending.get(op.author, {})

    def offer(self, op: Op) -> list[Op]:
        """Accept an op; return the ops that became deliverable, in causal order.

        Duplicates are ignored. Raises Equivocation for an op that reuses a delivered sequence
        number with different content (or another signature), CausalityError for one whose stamp
        is not 1 + the highest stamp it depends on, and RefusedOp when `admit` refuses an op.
        """
        author = op.author
        mine = self.by_author.get(author)
        if mine and op.seq == len(mine) + 1 and not self._pending_count:
            # the common case: next in line, nothing waiting, dependencies met (the checks of
            # `_ready_stamp`, written out: the call would cost more than they do;
            # tests/core/test_fast_paths.py compares the two ways)
            highest = mine[-1].lamport
            by_author = self.by_author
            for other, count in op.vv.items():
                if other == author:
                    if count != op.seq - 1:
                        raise CausalityError(f"op {author}#{op.seq} has a wrong own count in "
                                             f"its vector")
                elif count:
                    ops = by_author.get(other)
                    if ops is None or len(ops) < count:
                        break  # a dependency is missing: it waits (`_offer_waiting`)
                    lamport = ops[count - 1].lamport
                    if lamport > highest:
                        highest = lamport
            else:
                return self._deliver_next(op, mine, highest)
        elif not mine and op.seq == 1 and not self._pending_count:
            first = self._ready_stamp(op, mine)
            if first is not None:
                return self._deliver_next(op, mine, first)
        return self._offer_waiting(op)

    def _offer_waiting(self, op: Op) -> list[Op]:
        """`offer` for an op that is not next in line with its dependencies met: a duplicate,
        an equivocation, or one to keep until what it depends on arrives."""
        known = self.get(op.author, op.seq)
        if known is not None:
            if not same_op(known, op):
                raise Equivocation(op.author, op.seq)
            return []
        waiting = self.pending.setdefault(op.author, {})
        if op.seq in waiting:
            # Not yet verified either: keep the first; a forgery among them is refused on
            # delivery and the genuine op comes again with the next catch-up.
            return []
        if self._pending_count >= MAX_PENDING:
            raise CausalityError("too many ops waiting for their dependencies")
        waiting[op.seq] = op
        self._pending_count += 1
        return self._drain(op.author)

    def _deliver_next(self, op: Op, mine: list[Op] | None, highest: int) -> list[Op]:
        """Deliver `op`, next in its author's line with its dependencies met (the highest
        stamp among them: `highest`)."""
        if op.lamport != highest + 1:
            raise CausalityError(f"op {op.author}#{op.seq} has stamp {op.lamport}, "
                                 f"expected {highest + 1}")
        if self.admit is not None:
            self._admit(op, [])
        if mine is None:
            self.by_author[op.author] = mine = []
        mine.append(op)
        if op.lamport > self.max_lamport:
            self.max_lamport = op.lamport
        return [op]

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
                    except CausalityError as err:
                        self._drop_author_pending(who)
                        raise RefusedOp(str(err), nxt.author, nxt.seq, out) from None
                    if self.admit is not None:
                        self._admit(nxt, out)
                    self.by_author.setdefault(who, []).append(nxt)
                    self.max_lamport = max(self.max_lamport, nxt.lamport)
                    out.append(nxt)
                    progress = True
            candidates = []  # after the first pass, anyone's waiting op may have been unblocked
        return out

    def _admit(self, op: Op, delivered: list[Op]) -> None:
        assert self.admit is not None
        try:
            self.admit(op)
        except CausalityError as err:
            raise RefusedOp(str(err), op.author, op.seq, delivered) from None

    def _drop_author_pending(self, author: str) -> None:
        self._pending_count -= len(self.pending.pop(author, {}))

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


def same_op(a: Op, b: Op) -> bool:
    """True if `a` and `b` are one op: same signing bytes and same signature."""
    return a.sig == b.sig and a.signing_bytes() == b.signing_bytes()


def _hello_key(hello: Op | None) -> str | None:
    key = hello.args.get("key") if hello is not None and hello.kind == "hello" else None
    return key if isinstance(key, str) else None
