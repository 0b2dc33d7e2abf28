"""Reading the flags a runner keeps: `FlagEntry`, a flag at its place in the log, and the
runner's queries over them (the live views hide acknowledged, taken-back and resolved flags;
a designer's review of a log may ask for them)."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from table.core.state import State

from .api import Flag, OpRef
from .conditions import Conditions, Which, which
from .verdict_book import PendingEntry, VerdictBook


@dataclass(frozen=True, slots=True)
class FlagEntry:
    """A flag at its place in the log."""

    index: int  # position of the triggering op in canonical order (0-based)
    ref: OpRef  # the triggering op
    flag: Flag

    @property
    def key(self) -> str:
        return self.flag.key

    @property
    def number(self) -> int:
        """1-based op number, as `sandtable log show` numbers ops."""
        return self.index + 1


class FlagReading:
    """The reading half of assist.runner.AssistRunner (which keeps these as ops land)."""

    _per_op: list[tuple[Flag, ...]]  # flags of the op at each index
    _refs: list[OpRef]
    _undos: list[tuple[int, str, OpRef, OpRef]]  # (index, kind, target, ref), in log order
    _conditions: Conditions
    _book: VerdictBook
    _state: State | None

    def entries(self, *, include_acked: bool = False, since: int = 0,
                include_undone: bool = False, include_resolved: bool = False) -> list[FlagEntry]:
        """Every current flag, in log order. Acknowledged flags only if asked; flags of a move
        its player took back (undo) only if asked, and flags about how the table was that it
        no longer shows (`resolved`) only if asked (the live views hide them; a designer's
        review of a log may want them)."""
        acks = self._state.acks if self._state is not None else {}
        undone = set() if include_undone else self.undone()
        resolved = {} if include_resolved else self._conditions.resolved
        out = []
        for i in range(since, len(self._per_op)):
            if self._per_op[i] and self._refs[i] in undone:
                continue  # the move was taken back: its flags no longer describe the table
            for flag in self._per_op[i]:
                if resolved and which(flag) in resolved:
                    continue
                if include_acked or flag.key not in acks:
                    out.append(FlagEntry(i, self._refs[i], flag))
        return out

    def pending(self) -> list[PendingEntry]:
        """The verdicts still open that have something to show (an entry unpaid so far), in
        log order; never those of a move its player took back. The live panel shows them
        muted; the log, `check`, the dataset and reports record only settled flags."""
        shown = list(self._book.shown())
        if not shown:
            return shown
        undone = self.undone()
        return [e for e in shown if e.ref not in undone] if undone else shown

    def older_lines_changed(self) -> int | None:
        """The earliest op whose flags changed since this was last asked, when a verdict given
        later landed on (or left) an older op's line; None when none did. The log panel
        redraws from there."""
        low, self._book.low = self._book.low, None
        return low

    def resolved(self) -> dict[Which, int]:
        """Condition flags the table no longer shows (`conditions.which`) -> the op index
        they cleared at."""
        return dict(self._conditions.resolved)

    def cleared_at(self, flag: Flag) -> int | None:
        """The op index since which the table no longer shows a condition flag, else None."""
        return self._conditions.resolved.get(which(flag))

    def resolved_lines(self, flags: Iterable[Which]) -> list[int]:
        """The op indices the resolved `flags` were raised at."""
        found = (self._conditions.raised_at(k) for k in flags)
        return [i for i in found if i is not None]

    def undone(self) -> set[tuple[str, int]]:
        """Refs of ops a later undo took back (and no redo brought back)."""
        undone: set[OpRef] = set()
        took: dict[OpRef, OpRef] = {}  # undo -> the op it took back
        for _index, kind, target, ref in self._undos:
            if kind == "undo":
                undone.add(target)
                took[ref] = target
            elif target in took:
                undone.discard(took[target])
        return undone

    def flags(self, *, include_acked: bool = False, since: int = 0,
              include_undone: bool = False) -> list[Flag]:
        return [e.flag for e in self.entries(include_acked=include_acked, since=since,
                                             include_undone=include_undone)]

    def flags_at(self, index: int) -> tuple[Flag, ...]:
        if 0 <= index < len(self._per_op) and self._per_op[index]:
            if self._refs[index] in self.undone():
                return ()
            acks = self._state.acks if self._state is not None else {}
            resolved = self._conditions.resolved
            return tuple(f for f in self._per_op[index]
                         if f.key not in acks and which(f) not in resolved)
        return ()

    def flags_by_object(self) -> dict[str, list[Flag]]:
        out: dict[str, list[Flag]] = {}
        for entry in self.entries():
            for obj in entry.flag.objects:
                out.setdefault(obj, []).append(entry.flag)
        return out

    def acknowledged(self) -> dict[str, str]:
        return dict(self._state.acks) if self._state is not None else {}

    def __len__(self) -> int:
        return len(self._per_op)
