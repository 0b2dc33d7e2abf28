"""The runner's book of verdicts given later than the op they judge.

A plugin may hold a verdict open (`Pending`: a payment still open, a timing window not yet
closed) and settle it at a later op (a `Flag` naming the judged op first, or `Settled`). The book
keeps the open ones by key, files each settled flag under the op it judges (not the op that
settled it), and journals every change with the index of the op that made it, so that a
rollback to index i takes back exactly what the ops from i on did: a flag they settled leaves
its op again, a verdict they opened is gone, one they settled is open again. The end of the
input settles at a virtual index just past the last op; the next op takes that back first.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .api import Flag, OpRef, Pending, Settled, Verdict, flag_key


@dataclass(frozen=True, slots=True)
class PendingEntry:
    """An open verdict at its place in the log."""

    index: int  # the judged op's position in canonical order
    ref: OpRef
    pending: Pending

    @property
    def number(self) -> int:
        """1-based op number, as `sandtable log show` numbers ops."""
        return self.index + 1


# journal entries: (at, judged index, flag) for a flag filed under an earlier op, and
# (at, key, the entry it replaced or None) for a verdict opened, replaced or closed
_Filed = tuple[int, int, Flag]
_Changed = tuple[int, str, "PendingEntry | None"]


class VerdictBook:
    __slots__ = ("_journal", "entries", "low", "open")

    def __init__(self) -> None:
        self.open: dict[str, Pending] = {}  # what the plugin reads as ctx.pending
        self.entries: dict[str, PendingEntry] = {}  # the same, with where each one stands
        self._journal: list[_Filed | _Changed] = []
        self.low: int | None = None  # the earliest op whose flags changed (for the log panel)

    def _touch(self, index: int) -> None:
        self.low = index if self.low is None else min(self.low, index)

    def reset(self) -> None:
        self.open.clear()
        self.entries.clear()
        self._journal.clear()
        self.low = None

    @property
    def last_at(self) -> int:
        """The index of the latest op that changed the book (-1: none)."""
        return self._journal[-1][0] if self._journal else -1

    def take(self, at: int, ref: OpRef | None, found: Sequence[Verdict],
             per_op: list[tuple[Flag, ...]], refs: Sequence[OpRef]) -> tuple[tuple[Flag, ...], bool]:
        """File what the op at index `at` (`ref`) gave: returns (the flags judging that op
        itself, whether anything shown changed). `per_op`/`refs`: the runner's flags and refs
        by index, up to the op before `at`. At the end of the input `ref` is None and `at` is
        one past the last op: a flag naming no op then judges the last one."""
        own: list[Flag] = []
        changed = False
        for v in found:
            if isinstance(v, Flag):
                judged = v.ops[0] if v.ops else ref if ref is not None else refs[-1]
                flag = v if v.ops else Flag(v.rule, v.severity, v.message, v.section,
                                            (judged,), v.objects)
                changed |= self._close(at, flag_key(flag.rule, judged))
                index = None if judged == ref else _find(refs, judged)
                if index is None and ref is None:
                    index = len(refs) - 1  # an op no longer held: under the last one
                if index is None:
                    own.append(flag)  # the op itself (or one no longer held)
                    continue
                per_op[index] = (*per_op[index], flag)
                self._journal.append((at, index, flag))
                self._touch(index)
                changed = True
            elif isinstance(v, Pending):
                index = at if v.on == ref else _find(refs, v.on)
                if index is None:
                    continue
                old = self.entries.get(v.key)
                if old is not None and old.pending == v and old.pending.data == v.data:
                    continue
                self._journal.append((at, v.key, old))
                self.open[v.key] = v
                self.entries[v.key] = PendingEntry(index, v.on, v)
                changed |= v.shown or (old is not None and old.pending.shown)
            elif isinstance(v, Settled):
                changed |= self._close(at, v.key)
        return tuple(own), changed

    def _close(self, at: int, key: str) -> bool:
        old = self.entries.pop(key, None)
        if old is None:
            return False
        del self.open[key]
        self._journal.append((at, key, old))
        return old.pending.shown

    def drop_on(self, at: int, ref: OpRef) -> bool:
        """Close the verdicts that judge the op `ref` (its player took it back: there is no
        move left to judge). True if one was shown."""
        shown = False
        for key in [k for k, e in self.entries.items() if e.ref == ref]:
            shown |= self._close(at, key)
        return shown

    def mark_end(self, at: int) -> None:
        """The input ended before index `at` (journaled, so the next op takes it back)."""
        self._journal.append((at, "", None))

    def drop_open(self, at: int) -> None:
        """Close whatever is still open (the end of the input left it unsettled)."""
        for key in list(self.entries):
            self._close(at, key)

    def undo_from(self, index: int, per_op: list[tuple[Flag, ...]]) -> bool:
        """Take back what the ops from `index` on did. True if anything shown changed."""
        changed = False
        journal = self._journal
        while journal and journal[-1][0] >= index:
            entry = journal.pop()
            if isinstance(entry[1], int):
                _at, judged, flag = entry
                if judged < len(per_op):
                    kept = list(per_op[judged])
                    kept.remove(flag)
                    per_op[judged] = tuple(kept)
                    self._touch(judged)
                changed = True
                continue
            _at, key, old = entry
            now = self.entries.pop(key, None)
            self.open.pop(key, None)
            if old is not None and old.index < index:
                self.entries[key] = old
                self.open[key] = old.pending
            changed |= (now is not None and now.pending.shown) or (
                old is not None and old.pending.shown)
        return changed

    def shown(self) -> Iterator[PendingEntry]:
        """The open verdicts there is something to show for, in log order."""
        return iter(sorted((e for e in self.entries.values() if e.pending.shown),
                           key=lambda e: e.index))


def _find(refs: Sequence[OpRef], ref: OpRef) -> int | None:
    """The index of `ref`, searching back from the latest (a verdict judges a recent op)."""
    for i in range(len(refs) - 1, -1, -1):
        if refs[i] == ref:
            return i
    return None
