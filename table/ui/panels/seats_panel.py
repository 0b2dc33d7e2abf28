"""Seats: each player's name, colour, trackers, and hand and deck sizes."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QMenu, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from table.core.objects import HIDDEN

from .. import layout as lay
from .. import theme
from ..controller import TableController


class SeatsPanel(QWidget):
    def __init__(self, ctl: TableController) -> None:
        super().__init__()
        self.ctl = ctl
        self.hint = "Double-click to play this seat"
        self.bots: object | None = None  # who plays bots here (seat_bots.py), when anyone does
        self.menu: QMenu | None = None  # the seat menu while it shows
        self.tree = QTreeWidget()
        self.tree.setHeaderHidden(True)
        self.tree.setRootIsDecorated(False)
        self.tree.setIndentation(12)
        self.tree.itemDoubleClicked.connect(self._pick)
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 4, 4, 4)
        box.addWidget(self.tree)
        self.refresh()

    def _pick(self, item: QTreeWidgetItem) -> None:
        seat = item.data(0, Qt.ItemDataRole.UserRole)
        if isinstance(seat, int):
            self.ctl.set_seat(seat)

    def refresh(self) -> None:
        state = self.ctl.replica.state
        per_seat: dict[int, list[str]] = {s: [] for s in self.ctl.seats}
        sizes: dict[int, list[int]] = {s: [0, 0] for s in self.ctl.seats}
        for obj in state.objs.values():
            if not obj.alive:
                continue
            seat = lay.seat_of(obj)
            if seat not in per_seat:
                continue
            if obj.kind == "counter":
                hi = obj.props.get("max")
                v = obj.counters.get("value", 0)
                per_seat[seat].append(f"{obj.props.get('name', obj.id)}: {v}"
                                      + (f" / {hi}" if isinstance(hi, int) else ""))
            elif obj.kind in lay.CONTAINERS:
                n = len(state.cards_in(obj))
                if lay.role(obj) == "hand":
                    sizes[seat][0] += n
                elif obj.visibility == HIDDEN:
                    sizes[seat][1] += n
        self.tree.clear()
        turn = state.turn.get("seat")
        for seat in self._free_seats():
            self._add_free(seat)
        for seat in self.ctl.seats:
            colour = theme.seat_colour(seat, self.ctl.seat_colour(seat))
            marks = ("▶ " if seat == turn else "") + self.ctl.seat_name(seat)
            mark = self.ctl.viewer_mark(seat)
            if mark:
                marks += f"  ({mark})"
            top = QTreeWidgetItem([marks])
            top.setData(0, Qt.ItemDataRole.UserRole, seat)
            top.setForeground(0, QBrush(colour))
            f = QFont()
            f.setBold(True)
            top.setFont(0, f)
            top.setToolTip(0, self.hint)
            lines = [f"Hand {sizes[seat][0]} · Deck {sizes[seat][1]}"] + per_seat[seat]
            for line in lines:
                child = QTreeWidgetItem([line])
                child.setForeground(0, QBrush(QColor("#dddddd")))
                top.addChild(child)
            self.tree.insertTopLevelItem(self._row_for(seat), top)
            top.setExpanded(True)

    def _free_seats(self) -> list[int]:
        """Seats no one has taken yet, listed where a bot may take them (seat_bots.py)."""
        count = self.ctl.replica.header_extra.get("seats")
        if self.bots is None or not isinstance(count, int):
            return []
        return [s for s in range(1, count + 1) if s not in self.ctl.replica.state.seats]

    def _add_free(self, seat: int) -> None:
        top = QTreeWidgetItem([f"{self.ctl.seat_name(seat)} · free seat"])
        top.setData(0, Qt.ItemDataRole.UserRole, seat)
        top.setForeground(0, QBrush(QColor("#999999")))
        top.setToolTip(0, "No one sits here yet: right-click to give it to a bot")
        self.tree.insertTopLevelItem(self._row_for(seat), top)

    def _row_for(self, seat: int) -> int:
        """Where a seat's row goes: the rows stay in seat order."""
        for i in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(i)
            if item is not None and item.data(0, Qt.ItemDataRole.UserRole) > seat:
                return i
        return self.tree.topLevelItemCount()
