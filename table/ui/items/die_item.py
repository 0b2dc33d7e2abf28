"""A die that rolls on click (the roll is an op with its values, like every other action)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import (
    QGraphicsItem, QGraphicsSceneMouseEvent, QStyleOptionGraphicsItem, QWidget,
)

from .. import theme

if TYPE_CHECKING:
    from ..scene import TableScene

_PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
         4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
         6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


class DieItem(QGraphicsItem):
    def __init__(self, obj_id: str) -> None:
        super().__init__()
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)  # repaints blit
        self.obj_id = obj_id
        self.rect = QRectF(0, 0, 56, 56)
        self.sides = 6
        self.value = 0
        self.name = "Die"
        self.accent = QColor("#eeeeee")
        self.setZValue(20)
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def configure(self, rect: QRectF, sides: int, value: int, name: str, accent: QColor) -> None:
        if rect != self.rect:
            self.prepareGeometryChange()
        self.rect, self.sides, self.value, self.name, self.accent = rect, sides, value, name, accent
        self.setToolTip(f"{name} (d{sides}): click to roll")
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

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        event.accept()

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self.rect.contains(event.pos()):
            scene: TableScene = self.scene()  # type: ignore[assignment]
            scene.roll_die(self.obj_id)
