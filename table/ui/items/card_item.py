"""A card on the table, drawn from what the viewing seat may know of it."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import (
    QGraphicsItem, QGraphicsRectItem, QGraphicsSceneHoverEvent, QGraphicsSceneMouseEvent, QStyleOptionGraphicsItem,
    QWidget,
)

from .. import theme
from ..card_renderer import paint_back, paint_face
from ..catalog import BackStyle, CardFace
from .flag_badge import paint_badge, severity_of, tooltip_of

if TYPE_CHECKING:
    from ..scene import TableScene

CARD_RECT = QRectF(-theme.CARD_W / 2, -theme.CARD_H / 2, theme.CARD_W, theme.CARD_H)


class CardItem(QGraphicsRectItem):
    """Centred on its position, so rotation (engaged, fanned) turns it about its middle.

    A rect item so Qt answers bounding-rect and hit queries in C++ (a full-table repaint asks
    thousands of them); painting is ours, and cached per zoom level.
    """

    def __init__(self, obj_id: str) -> None:
        super().__init__(CARD_RECT.adjusted(-3, -3, 3, 3))
        self.setPen(Qt.PenStyle.NoPen)
        self.obj_id = obj_id
        self.face: CardFace | None = None   # None: this seat sees the back
        self.back = BackStyle()
        self.owner_colour: QColor | None = None
        self.counters: dict[str, int] = {}
        self.private = False                # face visible to this seat only (own hand, peek)
        self.container_role = ""
        self.base_rotation = 0.0            # the card's own rotation; fanning adds to it
        self.flag_severity: str | None = None  # a rules-assist badge, if flagged
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsMovable, True)
        self.setAcceptHoverEvents(True)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def set_look(self, face: CardFace | None, back: BackStyle, owner_colour: QColor | None,
                 counters: dict[str, int], private: bool) -> None:
        if (face, back, counters, private) == (self.face, self.back, self.counters,
                                                self.private) and owner_colour == self.owner_colour:
            return
        self.face, self.back, self.owner_colour = face, back, owner_colour
        self.counters, self.private = counters, private
        self.update()

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        lod = option.levelOfDetailFromTransform(p.worldTransform())  # type: ignore[attr-defined]
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        if self.face is not None:
            paint_face(p, CARD_RECT, self.face, lod)
        else:
            paint_back(p, CARD_RECT, self.back, lod, self.owner_colour)
        if self.private and self.face is not None:  # a reminder that others see a back
            p.setPen(QPen(theme.PRIVATE, 2.0, Qt.PenStyle.DashLine))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRoundedRect(CARD_RECT.adjusted(-1, -1, 1, 1), 9, 9)
        if self.counters and lod >= 0.3:
            self._paint_counters(p)
        if self.isSelected():
            p.setPen(QPen(theme.SELECT, 4.0))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRoundedRect(CARD_RECT.adjusted(-1, -1, 1, 1), 9, 9)
        if self.flag_severity is not None:
            paint_badge(p, CARD_RECT, self.flag_severity)

    def set_flags(self, flags: list[Any], message: Callable[[Any], str] | None = None) -> None:
        """Show (or clear) the rules-assist badge for these flags (`message` words them for the
        viewing seat)."""
        severity = severity_of(flags)
        self.setToolTip(tooltip_of(flags, message) if flags else "")
        if severity != self.flag_severity:
            self.flag_severity = severity
            self.update()

    def _paint_counters(self, p: QPainter) -> None:
        y = CARD_RECT.top() + 40
        p.setFont(theme.font(13, bold=True))
        for key, value in sorted(self.counters.items()):
            if not value:
                continue
            label = f"{value}" if key == "value" else f"{key[:3].title()} {value}"
            w = p.fontMetrics().horizontalAdvance(label) + 14
            rect = QRectF(CARD_RECT.right() - w + 4, y, w, 22)
            p.setPen(QPen(QColor("#3e0b0b"), 1.2))
            p.setBrush(QColor("#c62828") if value > 0 else QColor("#455a64"))
            p.drawRoundedRect(rect, 11, 11)
            p.setPen(QColor("white"))
            p.drawText(rect, Qt.AlignmentFlag.AlignCenter, label)
            y += 26

    # --- interaction: the scene decides what a gesture means --------------------------------
    def _scene(self) -> "TableScene":
        return self.scene()  # type: ignore[return-value]

    def hoverEnterEvent(self, event: QGraphicsSceneHoverEvent) -> None:
        self._scene().hovered(self)
        super().hoverEnterEvent(event)

    def hoverLeaveEvent(self, event: QGraphicsSceneHoverEvent) -> None:
        self._scene().hovered(None)
        super().hoverLeaveEvent(event)

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        self._scene().drag_started(self, event)
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        self._scene().drag_finished(self, event)

    def mouseDoubleClickEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        self._scene().card_double_clicked(self)
