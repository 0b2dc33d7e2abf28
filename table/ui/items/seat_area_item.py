"""The background of one seat's area: a tinted mat with the seat's name plate. A click on the
plate reads the area large (view.read_seat), again goes back."""
from __future__ import annotations

from typing import Protocol, cast

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsSceneMouseEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from .. import theme
from .zoom_still import ZoomStill


class PlateHost(Protocol):
    """What a seat's area asks of the scene it lies in."""
    def plate_clicked(self, seat: int) -> None: ...


class SeatAreaItem(QGraphicsItem):
    def __init__(self, seat: int) -> None:
        super().__init__()
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)  # repaints blit
        self.still = ZoomStill(self, self._paint_live)  # while the view zooms
        self.seat = seat
        self.rect = QRectF()
        self.name = ""
        self.colour = QColor("#999")
        self.active = False
        self.flipped = False
        self.summary = ""
        self.mark = ""  # "you", "watching" or nothing, after the name
        self.setZValue(-40)

    def configure(self, rect: QRectF, name: str, colour: QColor, active: bool, flipped: bool,
                  summary: str, mark: str = "") -> None:
        if rect != self.rect:
            self.prepareGeometryChange()
        self.rect, self.name, self.colour = QRectF(rect), name, colour
        self.active, self.flipped, self.summary, self.mark = active, flipped, summary, mark
        self.still.changed()
        self.update()

    def plate(self) -> QRectF:
        """The name plate, on the table-edge side of the area."""
        from PySide6.QtGui import QFontMetricsF

        text = self.name + (f"  ({self.mark})" if self.mark else "")
        w = QFontMetricsF(theme.font(16, bold=True)).horizontalAdvance(text) + 28
        y = self.rect.top() + 4 if self.flipped else self.rect.bottom() - 30
        return QRectF(self.rect.left() + 14, y, w, 26)

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self.plate().contains(event.pos()):
            event.accept()  # a click on the plate, not a rubber band from it
            return
        event.ignore()

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self.plate().contains(event.pos()):
            cast(PlateHost, self.scene()).plate_clicked(self.seat)

    def boundingRect(self) -> QRectF:
        return self.rect.adjusted(-6, -6, 6, 6)

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        self.still.paint(p)

    def _paint_live(self, p: QPainter) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        tint = QColor(self.colour)
        tint.setAlpha(40 if self.active else 22)
        edge = QColor(self.colour)
        edge.setAlpha(230 if self.active else 110)
        p.setPen(QPen(edge, 4 if self.active else 2))
        p.setBrush(tint)
        p.drawRoundedRect(self.rect, 16, 16)
        # name plate on the table-edge side of the area
        p.setFont(theme.font(16, bold=True))
        text = self.name + (f"  ({self.mark})" if self.mark else "")
        plate = self.plate()
        w, y = plate.width(), plate.top()
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(self.colour)
        p.drawRoundedRect(plate, 13, 13)
        p.setPen(theme.readable_on(self.colour))
        p.drawText(plate, Qt.AlignmentFlag.AlignCenter, text)
        if self.summary:
            p.setFont(theme.legible_font(p, 13))
            p.setPen(QColor(255, 255, 255, 170))
            p.drawText(QRectF(plate.right() + 12, y, self.rect.width() - w - 40, 26),
                       Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, self.summary)
