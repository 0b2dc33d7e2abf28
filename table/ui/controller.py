"""The bridge between widgets and the core: who is acting, and running their actions.

Widgets never change state: they call `act`, which runs a `table.core.actions` function as the
active seat. A refused action (ActionError, or a void op) becomes a status-bar message, never a
crash. The scene and panels then update from the replica's Change, like for a remote op.

Draws, moves and shuffles are written in the JSON op form (table/core/jsonform.py, docs/ops.md)
and run through `perform`. At a LAN table only the owner's peer handles a seat's hidden pile or
card: the composition root may set `ask_owner(entry, seat)`, and an entry that needs another
peer's hidden pile or card is handed to it as is (it asks that seat's peer and reports in the
status bar). The UI never talks to the network itself.

Both return an `Acted`: what happened (the op, why it was void, the Change it made, or the seat
asked instead), so no widget asks the timeline again.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, Signal

from table.core import actions, jsonform, undoing
from table.core.errors import CoreError
from table.core.objects import PUBLIC
from table.core.ops import Op
from table.core.replica import Replica
from table.core.timeline import Change
from table.core.watchers import is_watcher

from .catalog import Catalog

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Acted:
    """What one action did. `op`: the (last) op issued, None when refused, asked of the owner's
    peer or drawn jointly (still under way); `void`: why that op changed nothing; `changes`:
    what it changed on the table (the scene has shown them already); `asked`: the seat whose
    peer was asked to do it; `refused`: the refusal, in words."""
    op: Op | None = None
    void: str | None = None
    changes: tuple[Change, ...] = ()
    asked: int | None = None
    refused: str | None = None
    pending: bool = False  # a joint draw: its op comes in a few ms

    @property
    def done(self) -> bool:
        """An op was issued here and it did something."""
        return self.op is not None and self.void is None

    @property
    def touched(self) -> set[str]:
        """Every object this action changed."""
        out: set[str] = set()
        for change in self.changes:
            out |= change.touched
        return out


class TableController(QObject):
    seatChanged = Signal(int)
    status = Signal(str)

    def __init__(self, replica: Replica, catalog: Catalog, seat: int | None = None, *,
                 read_only: bool = False) -> None:
        super().__init__()
        self.replica = replica
        self.catalog = catalog
        self.read_only = read_only
        self.joint_pending = False  # the last action is a joint draw still under way
        mine = sorted(replica.my_seats) or sorted(replica.state.seats) or [1]
        active = replica.state.turn.get("seat")
        if seat is None and self.hot_seat_for(replica) and active in mine:
            seat = active  # hot-seat: the screen belongs to whoever's turn it is
        self.seat: int = seat if seat is not None else mine[0]
        # set for LAN tables: ask the peer of `seat` to perform `entry` (table/app/owner_requests.py)
        self.ask_owner: Callable[[dict[str, Any], int], None] | None = None
        self._heard: list[Change] | None = None  # the changes of the action under way
        # actions whose undo (redo) was said to stay: the next Ctrl+Z (redo) goes past them
        self._passed_undos: set[tuple[str, int]] = set()
        self._passed_redos: set[tuple[str, int]] = set()
        # seats a bot plays here (table/ui/seat_bots.py): no one looks from them, and undo
        # takes back only the person's own moves
        self.hands_off: set[int] = set()
        self._stop_hearing = replica.subscribe(self._hear)

    def detach(self) -> None:
        """Stop following the replica (the window closes)."""
        self._stop_hearing()

    def _hear(self, change: Change) -> None:
        if self._heard is not None:
            self._heard.append(change)

    @contextmanager
    def _hearing(self) -> Iterator[list[Change]]:
        outer, self._heard = self._heard, []
        try:
            yield self._heard
        finally:
            self._heard = outer

    # --- seats -----------------------------------------------------------------------------
    @staticmethod
    def hot_seat_for(replica: Replica) -> bool:
        """One peer plays every seat of the table."""
        return len(replica.my_seats) > 1 and replica.my_seats >= set(replica.state.seats)

    def follow_turn(self, records: Any) -> None:
        """Hot-seat: when a turn passes, the view passes to the seat whose turn it is."""
        if self.read_only or not self.hot_seat_for(self.replica):
            return
        for record in reversed(records):
            op = record.op
            if op.kind == "mark" and op.args.get("what") == "turn" and record.void is None:
                seat = op.args.get("seat")
                if isinstance(seat, int) and seat != self.seat and seat in self.playable_seats:
                    self.set_seat(seat)
                return
    @property
    def seats(self) -> list[int]:
        return sorted(self.replica.state.seats) or [self.seat]

    @property
    def playable_seats(self) -> list[int]:
        """The seats this peer plays (every seat, in hot-seat); a watcher may look from any
        seat's place (it holds no secret: public information only; its table refuses moves)."""
        if is_watcher(self.replica.state, self.replica.peer_id):
            return sorted(self.replica.state.seats)
        return sorted(self.replica.my_seats - self.hands_off)

    def viewer_mark(self, seat: int | None) -> str:
        """How the seat being looked from is marked: "you" where this peer plays it, "watching"
        for a watcher looking from a seat's place, nothing for any other seat."""
        if seat != self.seat:
            return ""
        if seat in self.replica.my_seats:
            return "you"
        return "watching" if is_watcher(self.replica.state, self.replica.peer_id) else ""

    def seat_name(self, seat: int | None) -> str:
        if seat is None:
            return "Table"
        held = self.replica.state.seats.get(seat)
        if held is not None and held.name:
            return held.name
        return self.catalog.seat_names.get(seat, f"Seat {seat}")

    def seat_colour(self, seat: int | None) -> str:
        held = self.replica.state.seats.get(seat) if seat is not None else None
        if held is not None and held.colour:
            return held.colour
        return self.catalog.seat_colours.get(seat or 0, "")

    def set_seat(self, seat: int) -> None:
        if seat in self.hands_off:
            self.status.emit(f"{self.seat_name(seat)} is played by a bot")
            return
        if seat == self.seat or seat not in self.playable_seats:
            return
        self.seat = seat
        self.seatChanged.emit(seat)
        self.status.emit(f"Now playing as {self.seat_name(seat)}")

    # --- acting ----------------------------------------------------------------------------
    def act(self, fn: Callable[..., Op | None], *args: Any, **kwargs: Any) -> Acted:
        """Run an action as the active seat; report refusals (and void ops) in the status
        bar. A joint draw's op comes later (`pending`; `joint_pending` is then True)."""
        self.joint_pending = False
        if self.read_only:
            return self._refuse("This table is read-only")
        with self._hearing() as heard:
            try:
                op = fn(self.replica, *args, seat=self.seat, **kwargs)
            except CoreError as err:  # ActionError, BadOp: a message for the player
                return self._refuse(str(err))
        if op is None:  # drawn jointly with the other peers: the op comes in a few ms
            self.joint_pending = True
            return Acted(changes=tuple(heard), pending=True)
        record = self.replica.timeline.record_of(op.ref)
        void = record.void if record is not None and record.void else None
        if void:
            self.status.emit(f"Nothing happened: {void}")
        return Acted(op, void, tuple(heard))

    def perform(self, entry: dict[str, Any]) -> Acted:
        """Run one op in the JSON form (`{"op": "move", "id": ..., "to": ...}`) as the active
        seat; at a LAN table one that needs another seat's hidden pile or card is asked of
        that seat's peer instead."""
        owner = self.owner_request(entry) if self.ask_owner is not None else None
        if owner is not None and not self.read_only and self.ask_owner is not None:
            self.ask_owner(entry, owner)
            return Acted(asked=owner)

        def run(r: Replica, *, seat: int) -> Op | None:  # JsonOpError is a CoreError: refused
            return jsonform.perform(r, {**entry, "seat": seat})
        return self.act(run)

    def owner_request(self, entry: dict[str, Any]) -> int | None:
        """The seat whose peer alone may do this JSON-form draw, move or shuffle (it needs a
        hidden pile or card of a seat another peer plays); None: act here."""
        kind = entry.get("op")
        if kind not in jsonform.REQUESTABLE:
            return None
        r = self.replica
        source = jsonform.source_of(r, entry)
        if kind != "move":
            return actions.foreign_owner(r, source)
        # a face-down card of theirs may be moved about the table, not looked at
        dest = r.state.live(str(entry.get("to")))
        looks = entry.get("face_up") or (dest is not None and dest.visibility != PUBLIC)
        return actions.foreign_owner(r, source, secret=bool(looks))

    def _refuse(self, message: str) -> Acted:
        self.status.emit(message)
        return Acted(refused=message)

    def undo(self) -> None:
        """Undo the last action (Ctrl+Z; again and again walks further back). Hot-seat: the
        table's last action, whichever seat made it; an End turn (the turn mark and the phase
        reset after it) goes back as one, and the view returns to the seat whose turn it is;
        with a bot in a seat, only the seat looked from's own actions (never a bot's).
        What cannot be taken back is said first, and the next Ctrl+Z goes on past it."""
        self._step(undoing.undo_last, "Undone", self._passed_undos, "Ctrl+Z again undoes")

    def redo(self) -> None:
        """Redo what the last undo took back (Ctrl+Shift+Z, Ctrl+Y)."""
        self._step(undoing.redo_last, "Redone", self._passed_redos, "Redo again brings back")

    def _step(self, fn: Callable[..., Op], done: str, passed: set[tuple[str, int]],
              again: str) -> None:
        hot = self.hot_seat_for(self.replica) and not self.read_only and not self.hands_off

        def step(r: Replica, *, seat: int, **kwargs: Any) -> Op:
            try:
                return fn(r, seat=seat, passing=passed, namer=self.catalog.name_of, **kwargs)
            except undoing.CannotTakeBack as stays:  # said now; the next press goes past it
                passed.add(stays.passed)
                then = f" {again} {stays.then}." if stays.then else " Nothing before it."
                raise actions.ActionError(stays.message.rstrip(".") + "." + then) from None

        op = (self.act(step, any_seat=True) if hot else self.act(step)).op
        if op is None:
            return
        if hot and self._turn_pass_half(op):
            self.act(step, any_seat=True)  # the other op of the same End turn
        self.status.emit(f"{done}: {undoing.describe(self.replica, op, self.catalog.name_of)}")
        seat = self.replica.state.turn.get("seat")
        if hot and isinstance(seat, int) and seat in self.playable_seats:
            self.set_seat(seat)

    def _turn_pass_half(self, op: Op) -> bool:
        """The undo (redo) took back (brought back) half of an End turn: its phase reset (its
        turn mark), so the other half goes with it."""
        target = self._op_at(op.args["target"])
        if op.kind == "undo":
            return target is not None and self._ends_a_turn(target)
        redone = self._op_at(target.args["target"]) if target is not None else None
        if redone is None or redone.kind != "mark" or redone.args.get("what") != "turn":
            return False
        undone = undoing.stack_of(self.replica, any_seat=True).undone
        nxt = self._op_at(undone[-1].op.args["target"]) if undone else None
        return nxt is not None and self._ends_a_turn(nxt)

    def _op_at(self, ref: Any) -> Op | None:
        record = self.replica.timeline.record_of((str(ref[0]), int(ref[1])))
        return None if record is None else record.op

    def _ends_a_turn(self, op: Op) -> bool:
        """A phase reset issued right after a turn mark (End turn's second op)."""
        if op.kind != "mark" or op.args.get("what") != "phase":
            return False
        records = self.replica.records()
        for rec in reversed(records):
            if rec.op.ref == op.ref:
                break
        else:
            return False
        i = records.index(rec)
        before = records[i - 1].op if i > 0 else None
        return before is not None and before.kind == "mark" and \
            before.args.get("what") == "turn" and before.author == op.author

    def say(self, kind: str, text: str) -> None:
        text = text.strip()
        if text and not self.read_only:
            try:
                self.replica.issue(kind, {"text": text}, seat=self.seat)
            except CoreError as err:
                self.status.emit(str(err))
