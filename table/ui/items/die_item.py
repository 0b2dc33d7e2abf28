"""A die: a click rolls it (the roll is an op with its values, like every other action); a drag
moves it (a `move` op, like a card's). Centred on its position, like cards and tokens."""
from __future__ import annotations

from typing import Protocol, cast

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsSceneMouseEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from .. import theme

_PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
         4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
         6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


class DieHost(Protocol):
    """What a die asks of the scene it lies in."""
    @property
    def carrying(self) -> bool: ...  # a drag is under way (a release ends it, not a roll)
    def drag_started(self, item: QGraphicsItem, event: QGraphicsSceneMouseEvent) -> None: ...
    def drag_finished(self, item: QGraphicsItem, event: QGraphicsSceneMouseEvent) -> None: ...
    def roll_die(self, obj_id: str) -> None: ...


class DieItem(QGraphicsItem):
    def __init__(self, obj_id: str) -> None:
        super().__init__()
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)  # repaints blit
        self.obj_id = obj_id
        self.rect = QRectF(-28, -28, 56, 56)
        self.sides = 6
        self.value = 0
        self.name = "Die"
        self.accent = QColor("#eeeeee")
        self.setZValue(20)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsMovable, True)

    def configure(self, rect: QRectF, sides: int, value: int, name: str, accent: QColor) -> None:
        local = QRectF(-rect.width() / 2, -rect.height() / 2, rect.width(), rect.height())
        if local != self.rect:
            self.prepareGeometryChange()
        if self.pos() != rect.center():
            self.setPos(rect.center())
        self.rect, self.sides, self.value, self.name, self.accent = local, sides, value, name, accent
        self.setToolTip(f"{name} (d{sides}): click to roll, drag to move, right-click for more")
        self.update()

    def boundingRect(self) -> QRectF:
        return self.rect.adjusted(-3, -3, 3, 3)

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        r = self.rect.adjusted(4, 4, -4, -4)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(0, 0, 0, 90))
        p.drawRoundedRect(r.translated(2, 3), 9, 9)
        p.setPen(QPen(self.accent.darker(200), 2))
        p.setBrush(QColor("#fafafa"))
        p.drawRoundedRect(r, 9, 9)
        if self.sides == 6 and self.value in _PIPS:
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor("#212121"))
            step = r.width() / 4
            for dx, dy in _PIPS[self.value]:
                p.drawEllipse(QPointF(r.center().x() + dx * step, r.center().y() + dy * step),
                              4.5, 4.5)
        else:
            p.setPen(QColor("#212121"))
            p.setFont(theme.font(20, bold=True))
            p.drawText(r, Qt.AlignmentFlag.AlignCenter, str(self.value) if self.value else
                       f"d{self.sides}")

    def _scene(self) -> DieHost:
        return cast(DieHost, self.scene())  # a die lies only in the table scene

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        scene = self._scene()
        scene.drag_started(self, event)
        super().mousePressEvent(event)
        event.accept()

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        scene = self._scene()
        carried = scene.carrying
        super().mouseReleaseEvent(event)
        scene.drag_finished(self, event)
        if not carried and event.button() == Qt.MouseButton.LeftButton and \
                self.rect.contains(event.pos()):
            scene.roll_die(self.obj_id)
