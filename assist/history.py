"""The records a plugin reads: `History`, the ops applied so far in canonical order, with the
marker lookups (turns, phases, timing windows) the rules ask for. Part of the plugin API;
plugins import it from `assist.api`."""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from typing import Any, Protocol, overload

from table.core.state import State
from table.core.timeline import Record


class _Prefix(Sequence[Record]):
    """records[:stop] without copying."""

    __slots__ = ("_records", "_stop")

    def __init__(self, records: Sequence[Record], stop: int) -> None:
        self._records, self._stop = records, stop

    def __len__(self) -> int:
        return self._stop

    @overload
    def __getitem__(self, i: int) -> Record: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Record]: ...

    def __getitem__(self, i: int | slice) -> Record | Sequence[Record]:
        if type(i) is int and 0 <= i < self._stop:  # the common case first
            return self._records[i]
        if isinstance(i, slice):
            return list(self._records[:self._stop])[i]
        if i < 0:
            i += self._stop
        if not 0 <= i < self._stop:
            raise IndexError(i)
        return self._records[i]

    def __iter__(self) -> Iterator[Record]:
        records = self._records
        for i in range(self._stop):
            yield records[i]


_MARKER_KINDS = frozenset({"mark", "end"})
# the markers that open a timing window (a card effect declared in one excuses E* rules)
WINDOW_MARKS = frozenset({"turn", "phase", "step"})


class KeptMarks(Protocol):
    """What the runner keeps of the markers as ops land (assist.marks.MarkIndex): the same
    answers `History` would find by scanning them, for the op just applied."""

    turn: int  # the latest turn marker (0: none yet)
    window: int  # the latest turn, phase or step marker (0: none yet)
    firsts: dict[tuple[str, str | None], tuple[int, int | None]]  # first_mark's answers


class History:
    """The records applied so far, in canonical order, up to and including the current one.

    `marks` (optional) lists the indices of every `mark` (and `end`) record so far, ascending:
    the runner keeps it so marker lookups don't scan the whole log. An `end` op (the game's
    recorded result) counts as a "winner" marker: the game is over either way. `kept`
    (optional, with `marks`): what the runner keeps of those markers, valid for the latest op.
    """

    __slots__ = ("_kept", "_marks", "_prefix", "_records", "_seats", "index")

    def __init__(self, records: Sequence[Record], index: int,
                 marks: Sequence[int] | None = None, state: State | None = None, *,
                 kept: KeptMarks | None = None) -> None:
        self._records = records
        self.index = index
        if marks is None:
            marks, kept = [i for i in range(index + 1)
                           if records[i].op.kind in _MARKER_KINDS], None
        elif kept is not None and marks and marks[-1] > index:
            kept = None  # kept for a later op than this one
        self._marks = marks
        self._kept = kept
        self._seats = state
        self._prefix: Sequence[Record] | None = None

    @property
    def records(self) -> Sequence[Record]:
        if self._prefix is None:  # asked many times per op: made once
            records = self._records
            # the op judged is the last one held (every op of a fold): the list is the prefix
            self._prefix = records if len(records) == self.index + 1 \
                else _Prefix(records, self.index + 1)
        return self._prefix

    @property
    def current(self) -> Record:
        return self._records[self.index]

    def mark_indices(self) -> Iterator[int]:
        """Indices of mark records up to the current one, newest first."""
        marks, index = self._marks, self.index
        if marks and marks[-1] > index:  # marks past this op (a history kept for an older op)
            marks = marks[:bisect_right(marks, index)]
        return reversed(marks)

    def _marks_of(self, what: str) -> Iterator[int]:
        for i in self.mark_indices():
            rec = self._records[i]
            if rec.void is None and (rec.op.args.get("what") == what or (
                    what == "winner" and rec.op.kind == "end")):
                yield i

    def current_turn_start(self) -> int:
        """Index of the latest turn marker (0 when no turn has started)."""
        if self._kept is not None:
            return self._kept.turn
        return next(self._marks_of("turn"), 0)

    def window_start(self) -> int:
        """Index of the latest turn, phase or step marker: the current timing window."""
        if self._kept is not None:
            return self._kept.window
        for i in self.mark_indices():
            rec = self._records[i]
            if rec.void is None and rec.op.args.get("what") in WINDOW_MARKS:
                return i
        return 0

    def ops_this_turn(self) -> list[Record]:
        start = self.current_turn_start()
        return [self._records[i] for i in range(start, self.index + 1)]

    def declarations(self, name: str | None = None, since: int | None = None) -> list[Record]:
        """Declaration marks (oldest first) that took effect, by name, from index `since` on."""
        out = []
        for i in self.mark_indices():
            if since is not None and i < since:
                break
            rec = self._records[i]
            a = rec.op.args
            if rec.void is None and a.get("what") == "declare" and (
                    name is None or a.get("value") == name):
                out.append(rec)
        out.reverse()
        return out

    def first_mark(self, what: str, value: Any = None) -> Record | None:
        """The earliest effective mark of a kind (and value), e.g. ("setup", "complete")."""
        kept = self._kept
        if kept is None or not (value is None or type(value) is str):
            found = self._first_from(0, what, value)[1]
        else:  # the runner's marks only grow until a rollback: go on from the last answer
            scanned, found = kept.firsts.get((what, value), (0, None))
            if found is None:
                scanned, found = self._first_from(scanned, what, value)
                kept.firsts[(what, value)] = (scanned, found)
        return None if found is None or found > self.index else self._records[found]

    def _first_from(self, start: int, what: str, value: Any) -> tuple[int, int | None]:
        """(markers looked at, index of the first match) scanning the markers from `start`."""
        marks, n = self._marks, start
        while n < len(marks):
            i = marks[n]
            if i > self.index:
                break
            rec = self._records[i]
            a = rec.op.args
            if rec.void is None and a.get("what") == what and (value is None
                                                                 or a.get("value") == value):
                return n, i
            n += 1
        return n, None

    def setup_end(self) -> int | None:
        """The index of the setup-complete marker (None: the setup is not complete up to this
        op). Up to it is the module's setup: no rule about play judges it."""
        if self.first_mark("setup", "complete") is None:
            return None
        kept = self._kept
        return kept.firsts[("setup", "complete")][1] if kept is not None \
            else self._first_from(0, "setup", "complete")[1]

    def play_start(self) -> int | None:
        """The index of the first turn, phase or step marker after the setup-complete marker
        (None: none yet, up to this op): the first marker of play. A first-turn marker there,
        naming the seat the setup gave the turn to, is the start of play, not a second turn."""
        kept = self._kept
        if kept is not None:
            found = kept.firsts.get(("play-start", None), (0, None))[1]
            if found is not None:  # once found it stays (until a rollback clears the cache)
                return found if found <= self.index else None
        setup = self.setup_end()
        if setup is None:
            return None
        marks, records = self._marks, self._records
        found = None
        for n in range(bisect_right(marks, setup), len(marks)):
            i = marks[n]
            if i > self.index:
                break
            rec = records[i]
            if rec.void is None and rec.op.args.get("what") in WINDOW_MARKS:
                found = i
                break
        if found is not None and kept is not None:
            kept.firsts[("play-start", None)] = (0, found)
        return found

    def starts_play(self) -> bool:
        """Whether the current op is a first-turn marker: the first marker of play, a turn
        marker naming the seat that already holds the turn (the setup gave it). It opens play;
        it neither passes a turn nor closes a window."""
        rec = self.current
        if rec.void is not None or rec.op.kind != "mark" or rec.op.args.get("what") != "turn" \
                or self.play_start() != self.index:
            return False
        records = self._records
        for i in self.mark_indices():  # newest first
            if i >= self.index:
                continue
            prior = records[i]
            if prior.void is None and prior.op.args.get("what") == "turn":
                return bool(prior.op.args.get("seat") == rec.op.args.get("seat"))
        return False

    def last_mark(self, what: str) -> Record | None:
        i = next(self._marks_of(what), None)
        return None if i is None else self._records[i]

    def index_of(self, record: Record) -> int | None:
        for i in range(self.index, -1, -1):
            if self._records[i] is record:
                return i
        return None

    def seat_of(self, record: Record) -> int | None:
        """The seat the op's author acted as: its declared seat, else its only seat."""
        op = record.op
        if op.seat is not None:
            return op.seat
        if self._seats is not None:
            seats = self._seats.seats_of(op.author)
            if len(seats) == 1:
                return next(iter(seats))
        return None
