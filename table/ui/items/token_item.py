"""A token: a player marker, standee, hazard or cube; dragged like a card, snaps to grid cells.
On a board's grid it wears a name tag (whose standee, which hazard) at the size of the panels'
text whatever the zoom, so an arena drawn small still reads."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, cast

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import (
    QApplication,
    QGraphicsItem,
    QGraphicsSceneMouseEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from .. import theme
from .flag_badge import paint_badge, severity_of, tooltip_of

R = theme.TOKEN / 2


class TagItem(QGraphicsItem):
    """A token's name tag under it, in screen pixels (it ignores the view's zoom)."""

    def __init__(self, parent: QGraphicsItem) -> None:
        super().__init__(parent)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.text = ""
        self._rect = QRectF()

    def set_text(self, text: str) -> None:
        font = self.font()
        w = QFontMetricsF(font).horizontalAdvance(text) + 10
        h = QFontMetricsF(font).height() + 2
        self.prepareGeometryChange()
        self.text, self._rect = text, QRectF(-w / 2, 1, w, h)
        self.setVisible(bool(text))

    @staticmethod
    def font() -> QFont:
        font = QFont(QApplication.font())  # the panels' size: the text-size setting's
        font.setBold(True)
        return font

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(15, 20, 18, 215))
        p.drawRoundedRect(self._rect, 6, 6)
        p.setPen(QColor("#f4f4f4"))
        p.setFont(self.font())
        p.drawText(self._rect, int(Qt.AlignmentFlag.AlignCenter), self.text)


class TokenHost(Protocol):
    """What a token asks of the scene it lies in."""
    def drag_started(self, item: QGraphicsItem, event: QGraphicsSceneMouseEvent) -> None: ...
    def drag_finished(self, item: QGraphicsItem, event: QGraphicsSceneMouseEvent) -> None: ...


class TokenItem(QGraphicsItem):
    def __init__(self, obj_id: str) -> None:
        super().__init__()
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)  # repaints blit
        self.obj_id = obj_id
        self.colour = QColor("#9e9e9e")
        self.form = "disc"
        self.label = ""
        self.name = ""
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsMovable, True)
        self.setZValue(50)
        self.setToolTip("")
        self.flag_severity: str | None = None  # a rules-assist badge, if flagged
        self.counters: dict[str, int] = {}
        self.tag = TagItem(self)
        self.tag.setPos(0, R + 2)
        self.tag.set_text("")

    def set_look(self, colour: QColor, shape: str, label: str, name: str,
                 counters: dict[str, int] | None = None, tag: str = "") -> None:
        """`tag`: a name worn under it (on a grid), none when empty."""
        if tag != self.tag.text:
            self.tag.set_text(tag)
        self.colour, self.form, self.label, self.name = colour, shape, label, name
        self.counters = dict(counters or {})
        self.setToolTip(name + "".join(f"\n{k}: {v}" for k, v in sorted(self.counters.items())
                                       if v))
        self.update()

    def boundingRect(self) -> QRectF:
        return QRectF(-R - 4, -R - 4, 2 * R + 8, 2 * R + 8)

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        rect = QRectF(-R, -R, 2 * R, 2 * R)
        # a soft shadow lifts the piece off the table
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(0, 0, 0, 90))
        self._shape(p, rect.translated(2, 3))
        p.setPen(QPen(self.colour.darker(170), 2.0))
        p.setBrush(self.colour)
        self._shape(p, rect)
        if self.isSelected():
            p.setPen(QPen(theme.SELECT, 3.0))
            p.setBrush(Qt.BrushStyle.NoBrush)
            self._shape(p, rect.adjusted(-2, -2, 2, 2))
        text = self.label or self.name[:2]
        if text:
            p.setPen(theme.readable_on(self.colour))
            p.setFont(theme.font(14 if len(text) <= 2 else 10, bold=True))
            p.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
        total = sum(v for v in self.counters.values())
        if total:  # counters on a token: their sum in a small disc at its corner
            badge = QRectF(R - 16, -R - 4, 20, 20)
            p.setPen(QPen(QColor("#3e0b0b"), 1.2))
            p.setBrush(QColor("#c62828") if total > 0 else QColor("#455a64"))
            p.drawEllipse(badge)
            p.setPen(QColor("white"))
            p.setFont(theme.legible_font(p, 12, bold=True))
            p.drawText(badge, Qt.AlignmentFlag.AlignCenter, str(total))
        if self.flag_severity is not None:
            paint_badge(p, rect.adjusted(6, 6, 0, 0), self.flag_severity)

    def set_flags(self, flags: list[Any], message: Callable[[Any], str] | None = None) -> None:
        """Show (or clear) the rules-assist badge for these flags (`message` words them for the
        viewing seat)."""
        severity = severity_of(flags)
        self.setToolTip("\n".join(x for x in (self.name, tooltip_of(flags, message)) if x))
        if severity != self.flag_severity:
            self.flag_severity = severity
            self.update()

    def _shape(self, p: QPainter, rect: QRectF) -> None:
        if self.form in ("square", "cube"):
            p.drawRoundedRect(rect.adjusted(4, 4, -4, -4), 5, 5)
        elif self.form in ("triangle", "hazard"):
            poly = QPolygonF([QPointF(rect.center().x(), rect.top()), rect.bottomRight(),
                              rect.bottomLeft()])
            p.drawPolygon(poly)
        elif self.form in ("hex", "turret"):
            c, r = rect.center(), rect.width() / 2
            pts = [QPointF(c.x() + r * dx, c.y() + r * dy) for dx, dy in
                   ((1, 0), (0.5, 0.87), (-0.5, 0.87), (-1, 0), (-0.5, -0.87), (0.5, -0.87))]
            p.drawPolygon(QPolygonF(pts))
        else:
            p.drawEllipse(rect)

    def _scene(self) -> TokenHost:
        return cast(TokenHost, self.scene())  # a token lies only in the table scene

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        self._scene().drag_started(self, event)
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        self._scene().drag_finished(self, event)
