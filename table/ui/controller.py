"""The bridge between widgets and the core: who is acting, and running their actions.

Widgets never change state: they call `act`, which runs a `table.core.actions` function as the
active seat. A refused action (ActionError, or a void op) becomes a status-bar message, never a
crash. The scene and panels then update from the replica's Change, like for a remote op.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from table.core import actions
from table.core.errors import CoreError
from table.core.ops import Op
from table.core.replica import Replica

from .catalog import Catalog

log = logging.getLogger(__name__)


class TableController(QObject):
    seatChanged = Signal(int)
    status = Signal(str)

    def __init__(self, replica: Replica, catalog: Catalog, seat: int | None = None, *,
                 read_only: bool = False) -> None:
        super().__init__()
        self.replica = replica
        self.catalog = catalog
        self.read_only = read_only
        mine = sorted(replica.my_seats) or sorted(replica.state.seats) or [1]
        self.seat: int = seat if seat is not None else mine[0]

    # --- seats -----------------------------------------------------------------------------
    @property
    def seats(self) -> list[int]:
        return sorted(self.replica.state.seats) or [self.seat]

    @property
    def playable_seats(self) -> list[int]:
        """The seats this peer plays (every seat, in hot-seat)."""
        return sorted(self.replica.my_seats)

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
        if seat == self.seat or seat not in self.playable_seats:
            return
        self.seat = seat
        self.seatChanged.emit(seat)
        self.status.emit(f"Now playing as {self.seat_name(seat)}")

    # --- acting ----------------------------------------------------------------------------
    def act(self, fn: Callable[..., Op], *args: Any, **kwargs: Any) -> Op | None:
        """Run an action as the active seat; report refusals in the status bar."""
        if self.read_only:
            self.status.emit("This table is read-only")
            return None
        try:
            op = fn(self.replica, *args, seat=self.seat, **kwargs)
        except CoreError as err:  # ActionError, BadOp: a message for the player
            self.status.emit(str(err))
            return None
        record = self.replica.timeline.record_of(op.ref)
        if record is not None and record.void:
            self.status.emit(f"Nothing happened: {record.void}")
        return op

    def undo(self) -> None:
        if self.act(actions.undo_last) is not None:
            self.status.emit("Undone")

    def say(self, kind: str, text: str) -> None:
        text = text.strip()
        if text and not self.read_only:
            try:
                self.replica.issue(kind, {"text": text}, seat=self.seat)
            except CoreError as err:
                self.status.emit(str(err))
