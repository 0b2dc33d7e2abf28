"""A tracker (Favor, Health, Command...): name, value, - and + buttons; the wheel steps it."""
from __future__ import annotations

from typing import Protocol, cast

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsSceneMouseEvent,
    QGraphicsSceneWheelEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from .. import theme


class TrackerHost(Protocol):
    """What a tracker asks of the scene it lies in."""
    def bump_counter(self, obj_id: str, delta: int) -> None: ...


class TrackerItem(QGraphicsItem):
    def __init__(self, obj_id: str) -> None:
        super().__init__()
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)  # repaints blit
        self.obj_id = obj_id
        self.rect = QRectF(0, 0, 150, 58)
        self.name = obj_id
        self.value = 0
        self.maximum: int | None = None
        self.minimum: int | None = None
        self.accent = QColor("#9e9e9e")
        self.setZValue(20)
        self.setAcceptHoverEvents(True)

    def configure(self, rect: QRectF, name: str, value: int, lo: int | None, hi: int | None,
                  accent: QColor) -> None:
        if rect != self.rect:
            self.prepareGeometryChange()
        self.rect, self.name, self.value = QRectF(rect), name, value
        self.minimum, self.maximum, self.accent = lo, hi, accent
        tip = f"{name}: {value}" + (f" (max {hi})" if hi is not None else "")
        self.setToolTip(tip + "\nClick - / + or use the mouse wheel")
        self.update()

    def minus_rect(self) -> QRectF:
        return QRectF(self.rect.left() + 4, self.rect.bottom() - 32, 28, 28)

    def plus_rect(self) -> QRectF:
        return QRectF(self.rect.right() - 32, self.rect.bottom() - 32, 28, 28)

    def boundingRect(self) -> QRectF:
        return self.rect.adjusted(-2, -2, 2, 2)

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setPen(QPen(self.accent, 2))
        p.setBrush(QColor(10, 20, 15, 200))
        p.drawRoundedRect(self.rect, 8, 8)
        p.setPen(theme.ZONE_LABEL)
        p.setFont(theme.legible_font(p, 11, bold=True))
        name = p.fontMetrics().elidedText(self.name, Qt.TextElideMode.ElideRight,
                                          int(self.rect.width() - 10))
        p.drawText(QRectF(self.rect.left() + 5, self.rect.top() + 2, self.rect.width() - 10, 18),
                   Qt.AlignmentFlag.AlignCenter, name)
        over = (self.maximum is not None and self.value > self.maximum) or \
            (self.minimum is not None and self.value < self.minimum)
        p.setPen(QColor("#ff8a80") if over else QColor("white"))
        p.setFont(theme.font(24, bold=True))
        value = str(self.value) + (f"/{self.maximum}" if self.maximum is not None else "")
        p.drawText(QRectF(self.rect.left() + 32, self.rect.bottom() - 36,
                          self.rect.width() - 64, 34), Qt.AlignmentFlag.AlignCenter, value)
        for rect, sign in ((self.minus_rect(), "−"), (self.plus_rect(), "+")):
            p.setPen(QPen(self.accent.lighter(130), 1.2))
            p.setBrush(QColor(255, 255, 255, 30))
            p.drawEllipse(rect)
            p.setPen(QColor("white"))
            p.setFont(theme.font(18, bold=True))
            p.drawText(rect, Qt.AlignmentFlag.AlignCenter, sign)

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        scene = cast(TrackerHost, self.scene())  # a tracker lies only in the table scene
        if event.button() != Qt.MouseButton.LeftButton:
            event.ignore()
            return
        if self.minus_rect().contains(event.pos()):
            scene.bump_counter(self.obj_id, -1)
        elif self.plus_rect().contains(event.pos()):
            scene.bump_counter(self.obj_id, +1)
        event.accept()

    def wheelEvent(self, event: QGraphicsSceneWheelEvent) -> None:
        scene = cast(TrackerHost, self.scene())
        scene.bump_counter(self.obj_id, 1 if event.delta() > 0 else -1)
        event.accept()
