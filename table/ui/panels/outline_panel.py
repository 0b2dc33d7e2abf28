"""The table as an outline: every zone with its count, every piece with its name and state, as
the viewing seat may know them (seat_outline.py), in the order the keys go through them.

It is the table's face for screen readers (an item view is what Qt's accessibility exposes, on
Linux through AT-SPI): the piece the keyboard is on is the outline's current row, and each move
of the keys on the table makes that row the accessible focus. Sighted keyboard players get the
same outline as a panel (F6 goes to it, Esc back); its keys are the table's (key_routes.py).
"""
from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt
from PySide6.QtGui import (
    QAccessible,
    QAccessibleEvent,
    QContextMenuEvent,
    QKeyEvent,
    QMouseEvent,
    QStandardItem,
    QStandardItemModel,
)
from PySide6.QtWidgets import QAbstractItemView, QApplication, QTreeView, QWidget

from ..key_focus import KeyFocus
from ..seat_outline import PieceLine, ZoneLine

ID = Qt.ItemDataRole.UserRole
DESCRIPTION = Qt.ItemDataRole.AccessibleDescriptionRole


class OutlineKeys(Protocol):
    """What the outline needs of the table's keys."""
    focus: KeyFocus

    def key(self, event: QKeyEvent) -> bool: ...
    def open_menu(self) -> None: ...
    def toggle_selected(self) -> None: ...
    def show_table(self) -> None: ...


class OutlinePanel(QTreeView):
    def __init__(self, keys: OutlineKeys, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.keys, self.focus = keys, keys.focus
        self.setObjectName("table-outline")
        self.setAccessibleName("Table outline")
        self.setAccessibleDescription("Zones and pieces as you may see them; the table's keys "
                                      "work here (Tab, arrows, Enter, Space, T, P); F6 or Esc: "
                                      "back to the table")
        self.setProperty("keeps_focus", True)  # read with the keys: focus.py leaves it here
        self.model_ = QStandardItemModel(self)
        self.setModel(self.model_)
        self.setHeaderHidden(True)
        self.setUniformRowHeights(True)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.rows: dict[str, QStandardItem] = {}  # object id (a zone's, a piece's) -> its row
        self._shape: list[tuple[str, tuple[str, ...]]] = []
        self.focus.outlineChanged.connect(self.refresh)
        self.focus.moved.connect(self.follow)
        self.installEventFilter(self)
        self.refresh()

    # --- the rows ------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Read the outline again: texts change in place, rows come and go where pieces did."""
        zones = self.focus.zones
        shape = [(z.id, tuple(p.id for p in z.pieces)) for z in zones]
        if [z for z, _ in shape] != [z for z, _ in self._shape]:
            self._rebuild(zones)
        else:
            moved = [(zone, before) for zone, (_, before) in zip(zones, self._shape, strict=True)
                     if tuple(p.id for p in zone.pieces) != before]
            for _zone, before in moved:  # first every row that left (it may be in another now)
                for pid in before:
                    self.rows.pop(pid, None)
            for zone, (_, before) in zip(zones, self._shape, strict=True):
                self._update_zone(zone, before)
        self._shape = shape
        self.follow()

    def _rebuild(self, zones: list[ZoneLine]) -> None:
        self.model_.clear()
        self.rows = {}
        for zone in zones:
            row = self._row(zone.id, zone.text, "")
            self.model_.appendRow(row)
            for piece in zone.pieces:
                row.appendRow(self._piece_row(piece))
        self.expandAll()

    def _update_zone(self, zone: ZoneLine, before: tuple[str, ...]) -> None:
        row = self.rows[zone.id]
        if row.text() != zone.text:
            row.setText(zone.text)
        if tuple(p.id for p in zone.pieces) != before:
            row.removeRows(0, row.rowCount())
            for piece in zone.pieces:
                row.appendRow(self._piece_row(piece))
            self.expand(row.index())
            return
        for piece in zone.pieces:
            item = self.rows[piece.id]
            if item.text() != piece.text:
                item.setText(piece.text)
                item.setData(piece.detail, DESCRIPTION)
                item.setToolTip(piece.detail)
                if item.index() == self.currentIndex():  # the focused piece changed: read it
                    self._tell(item.index(), QAccessible.Event.NameChanged)

    def _piece_row(self, piece: PieceLine) -> QStandardItem:
        return self._row(piece.id, piece.text, piece.detail)

    def _row(self, obj_id: str, text: str, detail: str) -> QStandardItem:
        item = QStandardItem(text)
        item.setData(obj_id, ID)
        item.setEditable(False)
        if detail:
            item.setData(detail, DESCRIPTION)
            item.setToolTip(detail)
        self.rows[obj_id] = item
        return item

    # --- following the keys --------------------------------------------------------------------
    def follow(self) -> None:
        """The keys moved: their piece is the current row, and the accessible focus."""
        row = self.rows.get(self.focus.piece_id or "") or self.rows.get(self.focus.zone_id or "")
        if row is None:
            return
        index = row.index()
        if self.currentIndex() != index:
            self.setCurrentIndex(index)
            self.scrollTo(index)
        if not self.hasFocus() and self.focus.shown:
            self.announce_focus(index)

    def announce_focus(self, index: QModelIndex) -> None:
        """Make the row the accessible focus while the keys are on the table itself (Qt does
        this on its own while the outline has the keyboard)."""
        self._tell(index, QAccessible.Event.Focus)

    def _tell(self, index: QModelIndex, what: QAccessible.Event) -> None:
        """An accessibility event about the row (its cell, as AT-SPI clients see it)."""
        if not QAccessible.isActive():
            return
        tree = QAccessible.queryAccessibleInterface(self)
        child = self._visual_row(index)
        if tree is None or child < 0:
            return
        cell = tree.child((child + 1) * max(1, self.model_.columnCount()))  # after the header
        if cell is not None and cell.text(QAccessible.Text.Name) == index.data():
            QAccessible.updateAccessibility(QAccessibleEvent(cell, what))

    def _visual_row(self, index: QModelIndex) -> int:
        """The row's place among the rows shown (zones expanded, as the outline keeps them)."""
        n = 0
        for r in range(self.model_.rowCount()):
            zone = self.model_.index(r, 0)
            if zone == index:
                return n
            n += 1
            if self.isExpanded(zone):
                for c in range(self.model_.rowCount(zone)):
                    if self.model_.index(c, 0, zone) == index:
                        return n
                    n += 1
        return -1

    # --- the keys and the mouse here -----------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self and isinstance(event, QContextMenuEvent) and \
                event.reason() != QContextMenuEvent.Reason.Mouse:
            if QApplication.activePopupWidget() is None:  # the menu key, sent this way too
                self.keys.open_menu()
            event.accept()
            return True
        if watched is self and isinstance(event, QKeyEvent):
            if event.type() == QEvent.Type.ShortcutOverride and event.key() == Qt.Key.Key_Escape:
                event.accept()
                return True
            if event.type() == QEvent.Type.KeyPress:
                if event.key() == Qt.Key.Key_Escape and not getattr(self.keys, "carried", None):
                    self.keys.show_table()
                    return True
                self.focus.shown = True
                if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
                    self.keys.toggle_selected()  # on the table it waits for the release (pan)
                    return True
                return self.keys.key(event)
        return False

    def mousePressEvent(self, event: QMouseEvent) -> None:
        super().mousePressEvent(event)
        index = self.indexAt(event.position().toPoint())
        obj_id = index.data(ID) if index.isValid() else None
        if isinstance(obj_id, str):
            self.focus.shown = True
            self.focus.go_to_object(obj_id)
