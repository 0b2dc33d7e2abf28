"""What the log says about the current turn, read fresh for every op (no state between calls).

`Facts` wraps one OpContext and computes, lazily and at most once per call: whether play has
started (a turn or phase marker after the setup-complete marker), where the current turn's
window starts, the active seat and phase, and a walk over the turn's records. Only the current
turn (and, to find its start, the marks of the previous one) is ever scanned.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from table.core.timeline import Record

from .board import Board, cell_of, read_board

if TYPE_CHECKING:
    from assist.api import OpContext

INCOME, ACTION, END = "income", "action", "end"
# Declarations that do not open a new window: they belong to the one before them.
INNER_DECLARATIONS = frozenset({"defense", "no-defense", "card-effect"})


def norm_phase(value: Any, phases: list[str] | None = None) -> str | None:
    """'Income' -> income, 'Action' -> action, 'End of turn' / 'End-of-Turn' -> end."""
    if not isinstance(value, str):
        return None
    key = re.sub(r"[^a-z]", "", value.casefold())
    if key.startswith("income"):
        return INCOME
    if key.startswith("action"):
        return ACTION
    if key.startswith("end"):
        return END
    return key or None


def phase_index(phase: str | None) -> int:
    return {INCOME: 0, ACTION: 1, END: 2}.get(phase or "", -1)


def what(rec: Record) -> str | None:
    if rec.op.kind != "mark" or rec.void is not None:
        return None
    return rec.op.args.get("what")


def declared(rec: Record) -> str | None:
    if what(rec) != "declare":
        return None
    value = rec.op.args.get("value")
    return value if isinstance(value, str) else None


def fields(rec: Record) -> dict[str, Any]:
    f = rec.op.args.get("fields")
    return f if isinstance(f, dict) else {}


def counter_delta(rec: Record, obj_id: str) -> int:
    """How much an applied counter op changed obj_id's value (0 for other ops)."""
    op = rec.op
    if op.kind != "counter" or rec.void is not None or op.args.get("id") != obj_id:
        return 0
    if (op.args.get("key") or "value") != "value":
        return 0
    for entry in rec.journal.entries:
        if entry[0] == "c" and entry[1].id == obj_id:
            old = entry[3] if isinstance(entry[3], int) else 0
            if op.args.get("value") is not None:
                return int(op.args["value"]) - old
            return int(op.args.get("add") or 0)
    return 0


def drawn(rec: Record, seat: int) -> int:
    """Cards drawn from seat's Draw Pile into its hand by this op."""
    op = rec.op
    if op.kind != "consume" or rec.void is not None or op.args.get("to") != f"p{seat}.hand":
        return 0
    deck = f"p{seat}.deck"
    return sum(1 for where in op.args.get("expect") or () if where == deck)


def moved(rec: Record) -> tuple[str, str | None, str] | None:
    """(object, from container, to container) of an applied move op."""
    op = rec.op
    if op.kind != "move" or rec.void is not None:
        return None
    old = None
    for entry in rec.journal.entries:
        if entry[0] == "rm":
            old = entry[1].id
            break
    return op.args["id"], old, op.args["to"]


_SAME = object()


def _before(rec: Record, obj_id: str) -> tuple[Any, Any] | None:
    """(container, pos) of obj_id before this op, if the op moved it; _SAME where unchanged."""
    if rec.void is not None or rec.op.kind not in ("move", "set", "undo", "delete", "create"):
        return None
    container: Any = _SAME
    pos: Any = _SAME
    hit = False
    for entry in rec.journal.entries:
        tag = entry[0]
        if tag == "rm" and entry[3] == obj_id:
            hit = True
            if container is _SAME:
                container = entry[1].id
        elif tag == "f" and entry[1].id == obj_id:
            if entry[2] == "pos" and pos is _SAME:
                hit, pos = True, entry[3]
            elif entry[2] == "container" and container is _SAME:
                hit, container = True, entry[3]
            elif entry[2] == "alive":
                hit = True
        elif tag == "new" and entry[1] == obj_id:
            return (None, None)
    return (container, pos) if hit else None


@dataclass(slots=True)
class Hop:
    """One relocation of an object: where it was before and after the op at `index`."""

    index: int
    rec: Record
    before: tuple[int, int] | None  # cell on the arena, None when off the arena
    after: tuple[int, int] | None


_RELOCATING = frozenset({"move", "set", "undo", "delete", "create"})


def relocated(records: Any, start: int, stop: int) -> set[str]:
    """Every object some record in records[start..stop] relocated: exactly the objects for
    which `_before` finds something there (so `trail` is empty for any other object)."""
    found: set[str] = set()
    for i in range(start, stop + 1):
        rec = records[i]
        if rec.void is not None or rec.op.kind not in _RELOCATING:
            continue
        for entry in rec.journal.entries:
            tag = entry[0]
            if tag == "rm":
                found.add(entry[3])
            elif tag == "f":
                if entry[2] in ("pos", "container", "alive"):
                    found.add(entry[1].id)
            elif tag == "new":
                found.add(entry[1])
    return found


def trail(records: Any, start: int, stop: int, obj_id: str, now: tuple[Any, Any]) -> list[Hop]:
    """Relocations of obj_id in records[start..stop], oldest first. `now` = (container, pos)
    after record `stop` (the current state when stop is the current op)."""
    found: list[tuple[int, Record, tuple[Any, Any]]] = []
    for i in range(start, stop + 1):
        rec = records[i]
        b = _before(rec, obj_id)
        if b is not None:
            found.append((i, rec, b))
    hops: list[Hop] = []
    after = now
    for i, rec, (container, pos) in reversed(found):
        if container is _SAME:
            container = after[0]
        if pos is _SAME:
            pos = after[1]
        before = (container, pos)
        hops.append(Hop(i, rec, _arena_cell(before), _arena_cell(after)))
        after = before
    hops.reverse()
    return hops


def _arena_cell(loc: tuple[Any, Any]) -> tuple[int, int] | None:
    return cell_of(loc[1]) if loc[0] == "arena" else None


@dataclass(slots=True)
class Step:
    """One record of the current turn, with the phase it happened in."""

    index: int
    rec: Record
    phase: str | None


class Facts:
    """Lazily computed facts about the current op's turn."""

    def __init__(self, ctx: OpContext, *, at_end: bool = False) -> None:
        self.ctx = ctx
        self.h = ctx.history
        # the index of the op that closes a window now: the marker being checked, or one past
        # the last op when the input ends after it (the windows then close after it)
        self.now = ctx.history.index + 1 if at_end else ctx.history.index
        self.game = ctx.game
        self.view = ctx.view
        self._scanned = False
        self._play_start: int | None = None
        self._turn_start = 0
        self._board: Board | None = None
        self._board_read = False

    # -- where are we ----------------------------------------------------------------------
    def _scan(self) -> None:
        """Find the start of play and of the current turn's window from the marks."""
        if self._scanned:
            return
        self._scanned = True
        records = self.h.records
        latest_turn: int | None = None
        oldest_window: int | None = None  # oldest turn/phase mark seen since the newest
        for i in self.h.mark_indices():
            rec = records[i]
            w = what(rec)
            if w is None:
                continue
            if w in ("turn", "phase", "step"):
                if w == "turn" and latest_turn is not None:
                    # a second turn marker with no setup-complete after it: play is on
                    self._play_start = i
                    self._turn_start = latest_turn
                    return
                if w == "turn":
                    latest_turn = i
                oldest_window = i
            elif w == "setup" and rec.op.args.get("value") == "complete":
                if oldest_window is None:
                    self._play_start = None  # setup done, play not started yet
                    self._turn_start = i
                    return
                self._play_start = oldest_window
                self._turn_start = max(oldest_window, latest_turn or 0)
                return
        self._play_start = None

    @property
    def play_start(self) -> int | None:
        """The index of the first marker of play (None: play has not started)."""
        self._scan()
        return self._play_start

    @property
    def in_play(self) -> bool:
        self._scan()
        return self._play_start is not None

    @property
    def turn_start(self) -> int:
        self._scan()
        return self._turn_start

    @property
    def active(self) -> int | None:
        return self.view.turn[0]

    @property
    def phase(self) -> str | None:
        return norm_phase(self.view.phase)

    def board(self) -> Board | None:
        if not self._board_read:
            self._board = read_board(self.view, self.game)
            self._board_read = True
        return self._board

    # -- the turn's records ------------------------------------------------------------------
    def steps(self, start: int | None = None, stop: int | None = None,
              phase: str | bool | None = False) -> Iterator[Step]:
        """Records of the current turn (from `start`, to `stop` inclusive), with their phase
        (`phase`: the phase in force at `start`, when the caller knows it)."""
        records = self.h.records
        begin = self.turn_start if start is None else start
        end = self.h.index if stop is None else stop
        if phase is False or phase is True:
            phase = self.phase_at(begin) if begin > self.turn_start else None
        for i in range(begin, end + 1):
            rec = records[i]
            w = what(rec)
            if w == "turn":
                phase = None
            elif w in ("phase", "step"):
                phase = norm_phase(rec.op.args.get("value"))
            yield Step(i, rec, phase)

    def phase_at(self, index: int) -> str | None:
        """The phase in force at record `index` (of the current turn)."""
        records = self.h.records
        for i in self.h.mark_indices():
            if i > index:
                continue
            if i < self.turn_start:
                return None
            rec = records[i]
            w = what(rec)
            if w == "turn":
                return None
            if w in ("phase", "step"):
                return norm_phase(rec.op.args.get("value"))
        return None

    def previous_opener(self) -> int | None:
        """Index of the mark that opened the window the current op closes: the newest turn,
        phase or (non-inner) declaration mark before this op, within the turn."""
        records = self.h.records
        for i in self.h.mark_indices():
            if i >= self.now:
                continue
            if i < self.turn_start:
                return None
            rec = records[i]
            w = what(rec)
            if w in ("turn", "phase", "step"):
                return i
            if w == "declare" and declared(rec) not in INNER_DECLARATIONS:
                return i
        return None

    def previous_phase_mark(self) -> int | None:
        """The newest turn/phase mark before this op (start of the span this marker closes)."""
        records = self.h.records
        for i in self.h.mark_indices():
            if i >= self.now:
                continue
            if i < self.turn_start:
                return self.turn_start if self.in_play else None
            if what(records[i]) in ("turn", "phase", "step"):
                return i
        return None

    # -- helpers --------------------------------------------------------------------------------
    def seat_of(self, rec: Record) -> int | None:
        return self.h.seat_of(rec)

    def hops(self, obj_id: str, start: int, stop: int | None = None) -> list[Hop]:
        """The relocations of `obj_id` in records start..stop (inclusive; up to this op)."""
        stop = self.h.index if stop is None else stop
        now = self.view.place(obj_id) or (None, None)
        if stop != self.h.index:
            later = trail(self.h.records, stop + 1, self.h.index, obj_id, now)
            if later:
                first = later[0]
                now = ("arena", first.before) if first.before is not None else (None, None)
        return trail(self.h.records, start, stop, obj_id, now)

    def closed_turn(self) -> tuple[int, int, int | None] | None:
        """At a turn marker: (start, stop, seat) of the turn it ends, or None at the start of
        play (no turn was played before it)."""
        records = self.h.records
        setup_at: int | None = None
        oldest: int | None = None
        for i in self.h.mark_indices():
            if i >= self.now:
                continue
            rec = records[i]
            w = what(rec)
            if w == "setup" and rec.op.args.get("value") == "complete":
                setup_at = i
                break
            if w == "turn":
                return i, self.now - 1, rec.op.args.get("seat")
            if w in ("phase", "step"):
                oldest = i
        if setup_at is None or oldest is None:
            return None
        for i in self.h.mark_indices():  # the turn marker before the setup-complete marker
            if i < setup_at and what(records[i]) == "turn":
                return oldest, self.now - 1, records[i].op.args.get("seat")
        return None

    def cell(self, obj_id: str) -> tuple[int, int] | None:
        obj = self.view.obj(obj_id)
        if obj is None or obj.container != "arena":
            return None
        return cell_of(obj.pos)
