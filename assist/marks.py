"""The runner's index of marker records: where each `mark` (and `end`) record is, and where the
current timing window began and whether a card effect was declared in it. Kept up to date as
ops are applied (and cut back on a rollback), so judging an op never scans the log for them.

It also keeps the latest turn marker and what `History.first_mark` found (History reads
them instead of scanning when the runner hands them over).

The timing window is what `judging` has always called it: since the latest effective turn,
phase or step marker (from the start of the log before the first one); a card-effect
declaration in it excuses E* rules.
"""
from __future__ import annotations

from collections.abc import Sequence

from table.core.timeline import Record

from .api import CARD_EFFECT
from .history import WINDOW_MARKS


class MarkIndex:
    """Indices of the marker records applied so far (ascending), and the window state."""

    __slots__ = ("excused", "firsts", "indices", "turn", "window")

    def __init__(self) -> None:
        self.indices: list[int] = []
        self.window = 0  # index of the marker that opened the current window (0: none yet)
        self.turn = 0  # index of the latest turn marker (0: none yet)
        self.excused = False  # a card effect was declared in the current window
        # History.first_mark's answers so far: (what, value) -> (markers scanned, found at)
        self.firsts: dict[tuple[str, str | None], tuple[int, int | None]] = {}

    def reset(self) -> None:
        self.indices.clear()
        self.window, self.turn, self.excused = 0, 0, False
        self.firsts.clear()

    def add(self, index: int, record: Record) -> None:
        """The record at `index`, a mark or an end op, was applied."""
        self.indices.append(index)
        self._see(index, record)

    def _see(self, index: int, record: Record) -> None:
        if record.void is not None:
            return
        what = record.op.args.get("what")
        if what in WINDOW_MARKS:
            self.window, self.excused = index, False
            if what == "turn":
                self.turn = index
        elif what == "declare" and record.op.args.get("value") == CARD_EFFECT:
            self.excused = True

    def cut(self, index: int, records: Sequence[Record]) -> None:
        """Forget the markers from `index` on (a rollback); the window is found again from
        the markers that stay."""
        marks = self.indices
        while marks and marks[-1] >= index:
            marks.pop()
        self.window, self.turn, self.excused = 0, 0, False
        self.firsts.clear()  # a marker found first may be gone
        for i in marks:
            self._see(i, records[i])
