"""The view onto the table: wheel zoom about the cursor, pan, rubber-band selection, context
menus (right-click; the menu key and Shift+F10 are the table's keys, key_routes.py), hover zoom
(hold Alt or Z), and a fit that follows the window's size until the player zooms by hand."""
from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QContextMenuEvent,
    QCursor,
    QFocusEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import QGraphicsView, QWidget

from .hover_zoom import HoverZoom
from .items.card_item import CardItem
from .items.die_item import DieItem
from .items.tracker_item import TrackerItem
from .layout import CELL
from .scene import TableScene

MIN_ZOOM, MAX_ZOOM = 0.08, 4.0
ZOOM_KEYS = (Qt.Key.Key_Alt, Qt.Key.Key_Z)
SETTLE_MS = 120
# The player's own area is drawn at this zoom (at the default text size): the table face's
# texts (face_table.TEXT) are 12.5 px there, a cap height of 9 px. A multiple of 1/32, the step
# card pictures are rendered at, as are the others' sizes times it (OTHERS_SCALES).
OWN_ZOOM = 20 / 32
LEGIBLE_ZOOM = OWN_ZOOM
MOST_GROWTH = 1.2  # a larger screen gains room; the own area grows at most this much
MIN_CELL_PX = 24.0  # a grid's cells (Mantle's arena) at least this large where they can be


class TableView(QGraphicsView):
    zoomChanged = Signal(float)
    menuWanted = Signal(QPointF, QPoint)  # scene position, screen position

    def __init__(self, scene: TableScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        # no SmoothPixmapTransform: it makes every cached card blit 2.5x slower, and the
        # caches are rendered at device resolution anyway (items set their own hints)
        # no Antialiasing either: cached card pictures blit faster without it, and every item
        # that draws shapes turns it on for itself
        self.setRenderHints(QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
        self.setRubberBandSelectionMode(Qt.ItemSelectionMode.IntersectsItemShape)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState, True)
        # items keep a few units of margin in their bounds, so no per-item AA padding needed
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontAdjustForAntialiasing, True)
        self.setMouseTracking(True)
        self._pan_from: QPoint | None = None
        self._space = False
        self.fitting = True  # follow the window's size until the player zooms by hand
        self.legible = False  # fit_legible rather than fit_table
        self.text_scale = 1.0  # the text-size setting: the own area's zoom follows it
        self.reading: int | None = None  # the seat whose area is read large (read_seat)
        scene.sceneRectChanged.connect(lambda _r: self.refit() if self.fitting else None)
        self.hover_zoom = HoverZoom(self.viewport())
        self._zoom_held = False
        # cards are re-rendered at the new scale once zooming pauses; until then the frames
        # scale the pictures they have (fast, slightly soft)
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(SETTLE_MS)
        self._settle.timeout.connect(self.settle_zoom)
        self.zoomChanged.connect(lambda _z: self._settle.start())
        for bar in (self.horizontalScrollBar(), self.verticalScrollBar()):
            bar.sliderMoved.connect(lambda _v: setattr(self, "fitting", False))

    def settle_zoom(self) -> None:
        """Render the cards crisp at the current scale (zooming has paused)."""
        self._settle.stop()
        scene = self.scene()
        if isinstance(scene, TableScene):
            scene.set_card_resolution(self.zoom * self.devicePixelRatioF())

    @property
    def zoom(self) -> float:
        return self.transform().m11()

    def set_zoom(self, factor: float) -> None:
        factor = max(MIN_ZOOM, min(MAX_ZOOM, factor))
        self.fitting = False
        scene = self.scene()
        if isinstance(scene, TableScene):
            scene.zoom_started()
        self.scale(factor / self.zoom, factor / self.zoom)
        self.zoomChanged.emit(self.zoom)

    def fit_table(self) -> None:
        """Show the whole table as large as the window allows."""
        self.fitting, self.legible = True, False
        self.fitInView(self.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)
        self._fitted()

    @property
    def own_zoom(self) -> float:
        """The zoom the player's own area is drawn at (the text size's), in 1/32 steps."""
        return max(4, round(OWN_ZOOM * self.text_scale * 32)) / 32

    def fit_legible(self) -> None:
        """The whole table, with the viewer's own area at the zoom it reads at (own_zoom): the
        table is laid out for the room the view has there (the others' areas and the middle
        as large as fit), and shown at that zoom, a little more where the table leaves room
        (at most MOST_GROWTH). Where even the smallest sizes do not fit, the own area at the
        bottom, the rest a scroll away."""
        self.fitting, self.legible, self.reading = True, True, None
        scene = self.scene()
        if not isinstance(scene, TableScene):
            self.fit_table()
            return
        zoom, room = self.own_zoom, self.viewport().rect()
        scene.set_room((room.width() / zoom, room.height() / zoom), MIN_CELL_PX / (CELL * zoom))
        table = self.sceneRect()
        fit = min(room.width() / table.width(), room.height() / table.height())
        shown = max(zoom, min(fit, zoom * MOST_GROWTH))
        self.resetTransform()
        self.scale(shown, shown)
        if fit < zoom:
            own = scene.layout.seat_areas.get(scene.ctl.seat, table)
            seen_h = room.height() / zoom
            self.centerOn(QPointF(own.center().x(), max(table.top() + seen_h / 2,
                                                        table.bottom() - seen_h / 2)))
        else:
            self.centerOn(table.center())
        self._fitted()

    def read_seat(self, seat: int) -> bool:
        """Show a seat's area large (seat 0: the middle of the table): at the zoom its texts
        read as the player's own do (the layout drew it smaller), centred; again, or Ctrl+0,
        goes back to the whole table."""
        scene = self.scene()
        if not isinstance(scene, TableScene) or (seat and seat not in scene.layout.seat_areas):
            return False
        if self.reading == seat:
            self.fit_legible()
            return True
        lay = scene.layout
        area = lay.seat_areas[seat] if seat else lay.middle
        k = lay.seat_scale.get(seat, 1.0) if seat else lay.middle_scale
        self.set_zoom(max(self.zoom, self.own_zoom / k))
        self.centerOn(area.center())
        self.reading = seat
        return True

    def refit(self) -> None:
        (self.fit_legible if self.legible else self.fit_table)()

    def _fitted(self) -> None:
        self.zoomChanged.emit(self.zoom)
        scene = self.scene()
        scale = self.zoom * self.devicePixelRatioF()
        if isinstance(scene, TableScene) and not 0.8 < scale / scene.card_resolution < 1.25:
            self.settle_zoom()  # far from the pictures' scale (first fit): crisp at once

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.fitting:  # the window or a dock changed size: use the room there is now
            self.refit()

    # --- context menus: right-click (the menu key and Shift+F10: key_routes.py) ----------------
    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        at = event.pos() if event.reason() == QContextMenuEvent.Reason.Mouse else \
            self.keyboard_menu_point()
        self.menuWanted.emit(self.mapToScene(at), self.viewport().mapToGlobal(at))
        event.accept()

    def keyboard_menu_point(self) -> QPoint:
        """The selection's topmost piece, else the piece under the cursor, else the middle."""
        selected = sorted(self.scene().selectedItems(), key=lambda i: -i.zValue())
        if selected:
            return self.mapFromScene(selected[0].sceneBoundingRect().center())
        cursor = self.viewport().mapFromGlobal(QCursor.pos())
        if self.viewport().rect().contains(cursor):
            return cursor
        return self.viewport().rect().center()

    # --- hover zoom: hold Alt or Z over a card --------------------------------------------------
    def card_under_cursor(self) -> CardItem | None:
        cursor = self.viewport().mapFromGlobal(QCursor.pos())
        if not self.viewport().rect().contains(cursor):
            return None
        scene: TableScene = self.scene()  # type: ignore[assignment]
        item = scene.piece_at(self.mapToScene(cursor))
        return item if isinstance(item, CardItem) else None

    def _show_zoom(self) -> None:
        item = self.card_under_cursor()
        if item is None:
            self.hover_zoom.hide()
        else:
            self.hover_zoom.show_for(item, self.viewport().mapFromGlobal(QCursor.pos()))

    def hide_zoom(self) -> None:
        self._zoom_held = False
        self.hover_zoom.hide()

    def focusOutEvent(self, event: QFocusEvent) -> None:
        self.hide_zoom()
        super().focusOutEvent(event)

    def wheelEvent(self, event: QWheelEvent) -> None:
        # trackers and dice take the wheel themselves; elsewhere it zooms
        if isinstance(self.itemAt(event.position().toPoint()), (TrackerItem, DieItem)):
            super().wheelEvent(event)
            return
        steps = event.angleDelta().y() / 120.0
        if steps:
            self.set_zoom(self.zoom * (1.15 ** steps))
        event.accept()

    # --- panning: middle button, or space + left button -------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.MiddleButton or (
                self._space and event.button() == Qt.MouseButton.LeftButton):
            self._pan_from = event.position().toPoint()
            self.setCursor(Qt.CursorShape.ClosedHandCursor)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._zoom_held:
            self._show_zoom()
        elif event.buttons() == Qt.MouseButton.NoButton:
            scene: TableScene = self.scene()  # type: ignore[assignment]
            item = scene.piece_at(self.mapToScene(event.position().toPoint()))
            if isinstance(item, CardItem):
                self.hover_zoom.prepare(item)
        if self._pan_from is not None:
            delta = event.position().toPoint() - self._pan_from
            self._pan_from = event.position().toPoint()
            self.fitting = False  # the player chose what to look at: keep it
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - delta.x())
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - delta.y())
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._pan_from is not None:
            self._pan_from = None
            self.unsetCursor()
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key, mods = event.key(), event.modifiers()
        if key == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            self.setCursor(Qt.CursorShape.OpenHandCursor)
        if key in ZOOM_KEYS and (key == Qt.Key.Key_Alt or mods == Qt.KeyboardModifier.NoModifier):
            if not event.isAutoRepeat():
                self._zoom_held = True
                self._show_zoom()
            event.accept()
            return
        super().keyPressEvent(event)  # the table's own keys (menu key...): key_routes.py

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            self.unsetCursor()
        if event.key() in ZOOM_KEYS and not event.isAutoRepeat():
            self.hide_zoom()
        super().keyReleaseEvent(event)
