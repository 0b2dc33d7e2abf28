"""The table by keys: every gesture of the mouse has a key, and each key names the same action
the mouse's gesture names (the scene's gestures, the menus, the drop handler), never a second
implementation of it.

Tab / Shift+Tab: the next zone (own hand first, then one's own places, the shared ones, the
others'); the arrows, Home, End: the pieces of a zone; Enter: the piece's usual action (the
double-click's: play a hand card, draw from a pile, flip a card on the table; roll a die, +1 on a
counter); Space: select or unselect; the menu key, Shift+F10: the focused piece's menu; T: take
the piece (or the selection), then P or Enter where it goes: put it down (the move a drop there
makes; over a grid the arrows choose the cell), Esc: keep it where it was; + and -: a counter;
Ctrl+A: select the zone's pieces. (F6, the window's: the outline of the table, the chat.)
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QContextMenuEvent, QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QApplication, QGraphicsItem, QStatusBar

from table.core.objects import ROOT

from .controller import TableController
from .items.card_item import CardItem
from .items.die_item import DieItem
from .items.focus_ring import FocusRing
from .items.token_item import TokenItem
from .items.tracker_item import TrackerItem
from .key_focus import KeyFocus
from .menus import Menus
from .pointing import Pointer
from .scene import TableScene
from .view import TableView

K = Qt.Key
NO_MODS = Qt.KeyboardModifier.NoModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
KEYPAD = Qt.KeyboardModifier.KeypadModifier
MOVABLE = QGraphicsItem.GraphicsItemFlag.ItemIsMovable
NEXT = {int(K.Key_Right): 1, int(K.Key_Down): 1, int(K.Key_Left): -1, int(K.Key_Up): -1}
CELL_STEP = {int(K.Key_Right): (1, 0), int(K.Key_Left): (-1, 0), int(K.Key_Down): (0, 1),
             int(K.Key_Up): (0, -1)}


class KeysHost(Protocol):
    """What the keys need of the table window."""
    ctl: TableController
    scene: TableScene
    view: TableView
    menus: Menus
    pointer: Pointer

    def statusBar(self) -> QStatusBar: ...


class KeyRoutes(QObject):
    def __init__(self, host: KeysHost) -> None:
        super().__init__(host.view)
        self.host, self.scene, self.view = host, host.scene, host.view
        self.focus = KeyFocus(self.scene)
        self.ring = FocusRing()
        self.scene.addItem(self.ring)
        self.carried: list[str] = []
        self._target: Any = None  # the zone lit as where the carried pieces would go
        # the outline panel's way back to the table (access_wiring.py sets it)
        self.show_table: Callable[[], None] = self.view.setFocus
        self.focus.moved.connect(self._moved)
        self.scene.changed.connect(lambda _r: self._follow())
        self.view.zoomChanged.connect(self._zoomed)
        self.view.setAccessibleName("Table")
        self._viewport = self.view.viewport()  # compared, never called: it may be going
        self.view.installEventFilter(self)
        self._viewport.installEventFilter(self)

    # --- what the keys act on ------------------------------------------------------------------
    def targets(self) -> list[str] | None:
        """The cards and tokens a table key (F, R) acts on when nothing is selected: the focused
        piece while the keys are in use; None: the keys are not in use (the cursor decides)."""
        if not self.focus.shown:
            return None
        piece = self.focus.piece()
        return [piece.id] if piece is not None and piece.kind in ("card", "token") else []

    # --- events --------------------------------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.ContextMenu and isinstance(event, QContextMenuEvent) \
                and event.reason() != QContextMenuEvent.Reason.Mouse:
            # the menu key, as the window system sends it too (after its key press, or
            # instead of it): one menu, the focused piece's
            if QApplication.activePopupWidget() is None:
                self.open_menu()
            event.accept()
            return True
        if watched is self._viewport:
            if kind == QEvent.Type.MouseButtonPress:
                self._clicked(event)
            return False
        if not isinstance(event, QKeyEvent):
            return False
        if kind == QEvent.Type.ShortcutOverride and self._claims(event):
            event.accept()  # ours, not a window shortcut's (Esc while carrying)
            return True
        if kind == QEvent.Type.KeyPress:
            return self.key(event)
        if kind == QEvent.Type.KeyRelease and event.key() == K.Key_Space \
                and not event.isAutoRepeat() and self.focus.shown:
            self.toggle_selected()
        return False

    def _claims(self, event: QKeyEvent) -> bool:
        return event.key() == K.Key_Escape and bool(self.carried)

    def key(self, event: QKeyEvent) -> bool:
        """Act on a key pressed on the table; False: not a table key (the view's own)."""
        self.focus.settle()  # a change just made: the place as it now is
        key, mods = event.key(), event.modifiers() & ~KEYPAD
        handled = self._moves(key, mods) or self._acts(key, mods, event)
        return bool(handled)

    def _moves(self, key: int, mods: Qt.KeyboardModifier) -> bool:
        focus = self.focus
        if key == K.Key_Backtab or (key == K.Key_Tab and mods == SHIFT):
            if not self._show():
                focus.next_zone(-1)
        elif key == K.Key_Tab and mods == NO_MODS:
            if not self._show():  # the first Tab: one's own hand
                focus.next_zone(1)
        elif key in NEXT and mods == NO_MODS:
            self._show()
            grid = self._grid_size()
            if self.carried and grid is not None:
                focus.move_cell(*CELL_STEP[key], grid)
            else:
                focus.next_piece(NEXT[key])
        elif key in (K.Key_Home, K.Key_End) and mods == NO_MODS:
            self._show()
            focus.end_piece(key == K.Key_End)
        else:
            return False
        return True

    def _acts(self, key: int, mods: Qt.KeyboardModifier, event: QKeyEvent) -> bool:
        if key in (K.Key_Return, K.Key_Enter) and mods == NO_MODS:
            self._show()
            self.enter()
        elif key == K.Key_Menu or (key == K.Key_F10 and mods == SHIFT):
            self.open_menu()
        elif key == K.Key_T and mods == NO_MODS:
            self._show()
            self.take()
        elif key == K.Key_P and mods == NO_MODS:
            self._show()
            self.put_down()
        elif key == K.Key_Escape and self.carried:
            self.cancel_carry()
        elif key in (K.Key_Plus, K.Key_Equal, K.Key_Minus) and mods in (NO_MODS, SHIFT):
            self._show()
            self.bump(-1 if key == K.Key_Minus else 1)
        elif key == K.Key_A and mods == Qt.KeyboardModifier.ControlModifier:
            self._show()
            self.select_zone()
        elif key == K.Key_Space and mods == NO_MODS and not event.isAutoRepeat():
            return False  # the view's pan (Space+drag) sees it; the release selects
        else:
            return False
        return True

    def _clicked(self, event: QEvent) -> None:
        """A click on the table: the ring hides, the keys go on from what was clicked."""
        self.focus.shown = False
        self.ring.surround(None)
        if not isinstance(event, QMouseEvent):
            return
        item = self.scene.piece_at(self.view.mapToScene(event.position().toPoint()))
        obj_id = getattr(item, "obj_id", None)
        if isinstance(obj_id, str):
            self.focus.go_to_object(obj_id)

    # --- showing where the keys are ------------------------------------------------------------
    def _show(self) -> bool:
        """The keys are in use: the ring shows. True: the keys had no place yet, and now
        are on the seat's own hand (the first of its zones)."""
        self.focus.shown = True
        if self.focus.zone() is None:
            self.focus.next_zone(1)
            return True
        return False

    def _moved(self) -> None:
        if not self.focus.shown:
            return
        rect = self.focus.scene_rect()
        self.ring.set_zoom(self.view.zoom)
        self.ring.surround(rect)
        if rect is not None:
            self.view.ensureVisible(rect, 30, 30)
        self._light_target()
        text = self.focus.describe()
        self.view.setAccessibleDescription(text)
        if text:
            self.host.statusBar().showMessage(text + self._carry_note(), 15000)

    def _follow(self) -> None:
        """The table moved under the ring (a piece arranged, a zone laid out again)."""
        if self.focus.shown:
            rect = self.focus.scene_rect()
            if rect is not None and rect != self.ring.target:
                self.ring.surround(rect)

    def _zoomed(self, zoom: float) -> None:
        self.ring.set_zoom(zoom)

    def _carry_note(self) -> str:
        if not self.carried:
            return ""
        n = len(self.carried)
        return f" — carrying {n} piece{'s' if n > 1 else ''}: P puts down here, Esc cancels"

    def _grid_size(self) -> tuple[int, int] | None:
        zone = self.scene.zones.get(self.focus.zone_id or "")
        return zone.grid if zone is not None and zone.role == "grid" else None

    # --- acting --------------------------------------------------------------------------------
    def enter(self) -> None:
        """Enter: put down what is carried; answer a declaration's question; else the piece's
        usual action (the double-click's)."""
        if self.carried:
            self.put_down()
            return
        if self.host.pointer.active:
            self.host.pointer.pick(self.focus.object_id())
            return
        zone, piece = self.focus.zone(), self.focus.piece()
        scene = self.scene
        if piece is None:
            if zone is not None and zone.role == "pile":
                scene.draw_from(zone.id, 1)
            else:
                self.open_menu()
            return
        item = scene.item_for(piece.id)
        if isinstance(item, CardItem):
            scene.card_double_clicked(item)
        elif isinstance(item, DieItem):
            scene.roll_die(piece.id)
        elif isinstance(item, TrackerItem):
            scene.bump_counter(piece.id, 1)
        else:
            self.open_menu()

    def open_menu(self) -> None:
        """The menu of the focused piece or zone (the menu key, Shift+F10). Before the keys are
        in use, a selection keeps its menu (a rubber band, then the menu key)."""
        if not self.focus.shown and self.scene.selectedItems():
            at = self.view.keyboard_menu_point()
            self.host.menus.popup(self.view.mapToScene(at), self.view.viewport().mapToGlobal(at))
            return
        self._show()
        self._moved()
        obj_id = self.focus.object_id()
        rect = self.focus.scene_rect()
        centre = rect.center() if rect is not None else self.view.mapToScene(
            self.view.viewport().rect().center())
        at = self.view.viewport().mapToGlobal(self.view.mapFromScene(centre))
        self.host.menus.popup_for(obj_id or ROOT, at, centre)

    def toggle_selected(self) -> None:
        item = self.scene.item_for(self.focus.piece_id or "")
        if item is not None and item.flags() & QGraphicsItem.GraphicsItemFlag.ItemIsSelectable:
            item.setSelected(not item.isSelected())
            self.host.ctl.status.emit(("Selected: " if item.isSelected() else "Unselected: ")
                                      + self.focus.describe())

    def select_zone(self) -> None:
        zone = self.focus.zone()
        if zone is None:
            return
        self.scene.clearSelection()
        for p in zone.pieces:
            item = self.scene.item_for(p.id)
            if item is not None:
                item.setSelected(True)
        self.host.ctl.status.emit(f"Selected the pieces of {zone.name}")

    def bump(self, delta: int) -> None:
        piece = self.focus.piece()
        if piece is None:
            return
        if piece.kind == "counter":
            self.scene.bump_counter(piece.id, delta)
        elif piece.kind in ("card", "token"):  # the first counter its menu offers
            pieces = self.host.menus.pieces
            pieces.bump_counters(self.targets_or_selection(), pieces.counter_keys()[0][0], delta)

    def targets_or_selection(self) -> list[str]:
        ids = self.scene.selected_ids()
        piece = self.focus.piece_id
        return ids if piece in ids else [piece] if piece is not None else []

    # --- carrying without a drag ---------------------------------------------------------------
    def take(self) -> None:
        """Take the focused piece (the whole selection if it is part of it), to put down
        elsewhere."""
        self.cancel_carry(quiet=True)
        taken = [i for i in self.targets_or_selection() if self._movable(i)]
        if not taken:
            self.host.ctl.status.emit("Nothing here to take: choose a card, a token or a die")
            return
        self.carried = taken
        for oid in taken:
            item = self.scene.item_for(oid)
            if item is not None:
                item.setOpacity(0.55)  # carried: it will leave this place
        self._moved()

    def _movable(self, obj_id: str) -> bool:
        item = self.scene.item_for(obj_id)
        return isinstance(item, (CardItem, TokenItem, DieItem)) and bool(item.flags() & MOVABLE)

    def put_down(self) -> None:
        """Put what is carried where the keys are: the move a drop there makes."""
        zone = self.focus.zone()
        target = self.scene.zones.get(zone.id) if zone is not None else None
        if not self.carried:
            self.host.ctl.status.emit("Nothing carried: T takes the piece the keys are on")
            return
        if target is None:
            self.host.ctl.status.emit("Put pieces down in a zone (Tab to one)")
            return
        carried, cell = list(self.carried), self.focus.cell
        self.cancel_carry(quiet=True)
        self.scene.drops.send(carried, target, cell=cell)
        self.focus.go_to_object(carried[0])

    def cancel_carry(self, quiet: bool = False) -> None:
        for oid in self.carried:
            item = self.scene.item_for(oid)
            if item is not None:
                item.setOpacity(1.0)
        if self.carried and not quiet:
            self.host.ctl.status.emit("Put back: nothing moved")
        self.carried = []
        self.focus.cell = None
        self._light_target()

    def _cell_in(self, grid_id: str) -> tuple[int, int]:
        """Where the cell cursor starts on a grid: the carried piece's cell, if it lies there."""
        for oid in self.carried:
            obj = self.scene.state.live(oid)
            if obj is not None and obj.container == grid_id and obj.pos and len(obj.pos) >= 2:
                return int(obj.pos[0]), int(obj.pos[1])
        return (0, 0)

    def _light_target(self) -> None:
        """While carrying, the zone the keys are on is lit as a drop target is."""
        zone = self.scene.zones.get(self.focus.zone_id or "") if self.carried else None
        if zone is not None and self.focus.cell is None and zone.role == "grid":
            self.focus.cell = self._cell_in(zone.obj_id)
        if zone is not self._target:
            if self._target is not None:
                self._target.set_highlight(False)
            if zone is not None and zone.role != "table":
                zone.set_highlight(True)
            self._target = zone

