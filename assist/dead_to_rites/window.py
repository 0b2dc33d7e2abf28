"""The timing window a marker closes, read off the history once per marker.

Every window-end check needs the same facts (where the window began, its phase, the active
seat, whether a result already closed it, the ops in it and what they changed): one backwards
scan of the markers and one pass over the window's ops give them all, where asking each
question on its own re-scanned the markers and the ops several times per marker.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import NamedTuple

from assist.api import WINDOW_MARKS
from table.core.timeline import Record

from .reader import Dtr, z


@dataclass(slots=True)
class Closing:
    """The window that ends at the current op."""

    start: int  # index of the marker that opened it (0: none yet)
    phase: str | None  # its phase (None when it opened with a turn marker)
    active: int | None  # the active seat (the latest turn marker's)
    turn: int | None  # index of the latest turn marker before the current op
    closed: bool  # a winner mark or an `end` op already closed it
    ops: list[tuple[int, Record]] = field(default_factory=list)  # its effective ops
    _changed: set[str] | None = None

    def changed(self) -> set[str]:
        """Every object the ops of the window changed."""
        if self._changed is None:
            changed: set[str] = set()
            for _i, rec in self.ops:
                changed |= rec.journal.touched()
            self._changed = changed
        return self._changed


def closing(d: Dtr) -> Closing:
    """The window that ends at `d.stop` (the marker being checked, or past the last op when
    the input ends): the same answers as Dtr.window_before, the windows' result check and
    mark_before("turn"), in one scan of the markers (newest first)."""
    records = d.records
    index = d.stop
    start: int | None = None
    phase = active = turn = None
    closed = False
    for i in d.history.mark_indices():
        if i >= index:
            continue
        rec = records[i]
        if rec.void is not None:
            continue
        args = rec.op.args
        what = args.get("what")
        if start is None:
            if what in WINDOW_MARKS:
                start = i
                if what != "turn":
                    phase = args.get("value")
                    continue
            elif i > 0 and (rec.op.kind == "end" or what == "winner"):
                closed = True
                continue
            else:
                continue
        if what == "turn":
            turn, active = i, args.get("seat")
            break
    if start is None:  # no window marker yet: the window is the log so far
        start = 0
    setup = d.history.setup_end()
    if setup is not None and start < setup:  # the first window of play opens after the setup
        start = setup
    out = Closing(start, phase, active, turn, closed)
    if not closed:
        out.ops = list(d.range(start, index))
    return out


class SeatZones(NamedTuple):
    play: frozenset[str]  # every seat's play zone
    track: frozenset[str]  # every seat's step marker and Completed pile


@functools.cache
def seat_zones(seats: tuple[int, ...]) -> SeatZones:
    """The seats' zone ids, made once per set of seats rather than at every marker."""
    return SeatZones(frozenset(z(s, "play") for s in seats),
                     frozenset(z(s, k) for s in seats for k in ("step", "completed")))
