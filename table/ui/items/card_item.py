"""A card on the table, drawn from what the viewing seat may know of it."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, cast

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPen, QTransform
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsRectItem,
    QGraphicsSceneHoverEvent,
    QGraphicsSceneMouseEvent,
    QStyle,
    QStyleOptionGraphicsItem,
    QWidget,
)

from .. import theme
from ..card_pixmaps import draw_card, look_id
from ..catalog import BackStyle, CardFace
from .flag_badge import paint_badge, severity_of, tooltip_of

CARD_RECT = QRectF(-theme.CARD_W / 2, -theme.CARD_H / 2, theme.CARD_W, theme.CARD_H)
# the card and its outlines (selection, private): every card's cached picture is this size,
# and a repaint blits every pixel of it, so nothing more than the marks it wears
BOUNDS = CARD_RECT.adjusted(-3, -3, 3, 3)
BADGE_BOUNDS = CARD_RECT.adjusted(-14, -3, 3, 3)  # the flag badge stands out on the left
# counters hang below the card's foot, so they never cover its stat line or its name
COUNTER_BOUNDS = CARD_RECT.adjusted(-3, -3, 3, 46)


class CardHost(Protocol):
    """What a card asks of the scene it lies in (the scene decides what a gesture means)."""
    def hovered(self, item: CardItem | None) -> None: ...
    def drag_started(self, item: QGraphicsItem, event: QGraphicsSceneMouseEvent) -> None: ...
    def drag_finished(self, item: QGraphicsItem, event: QGraphicsSceneMouseEvent) -> None: ...
    def card_double_clicked(self, item: CardItem) -> None: ...


class CardItem(QGraphicsRectItem):
    """Centred on its position, so rotation (engaged, fanned) turns it about its middle.

    A rect item so Qt answers bounding-rect and hit queries in C++ (a full-table repaint asks
    thousands of them); the card itself is a picture shared by every card that looks the same
    (card_pixmaps), and each item keeps its own blit per zoom level.
    """

    def __init__(self, obj_id: str) -> None:
        super().__init__(BOUNDS)
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
        self.look = look_id(None, self.back, None)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsMovable, True)
        self.setAcceptHoverEvents(True)
        self.res = 1.0
        self.setCacheMode(QGraphicsItem.CacheMode.ItemCoordinateCache)

    def set_resolution(self, scale: float) -> None:
        """Keep the card's picture at `scale` device pixels per scene unit.

        The item works in units `scale` times a scene unit (its transform shrinks them back),
        so its item-coordinate cache is a picture at that resolution; between two zoom levels
        the view scales that picture instead of painting a thousand cards again.
        """
        scale = max(0.05, scale)
        if scale == self.res:
            return
        self.res = scale
        self._fit_rect()
        self.setTransform(QTransform.fromScale(1 / scale, 1 / scale))

    def _fit_rect(self) -> None:
        bounds = COUNTER_BOUNDS if any(self.counters.values()) else BOUNDS
        if self.flag_severity is not None:
            bounds = bounds.united(BADGE_BOUNDS)
        self.setRect(QRectF(bounds.topLeft() * self.res, bounds.size() * self.res))

    def set_look(self, face: CardFace | None, back: BackStyle, owner_colour: QColor | None,
                 counters: dict[str, int], private: bool) -> None:
        if (face, back, counters, private) == (self.face, self.back, self.counters,
                                                self.private) and owner_colour == self.owner_colour:
            return
        self.face, self.back, self.owner_colour = face, back, owner_colour
        had = any(self.counters.values())
        self.counters, self.private = counters, private
        if had != any(counters.values()):
            self.prepareGeometryChange()
            self._fit_rect()
        self.look = look_id(face, back, owner_colour)
        self.update()

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        world = p.worldTransform()
        if self.res != 1.0:
            p.scale(self.res, self.res)  # draw in scene units
        lod = draw_card(p, CARD_RECT, self.look)
        if self.private or self.counters or self.flag_severity or \
                option.state & QStyle.StateFlag.State_Selected:
            self._paint_marks(p, lod)
        p.setWorldTransform(world)

    def _paint_marks(self, p: QPainter, lod: float) -> None:
        """What lies on the card: private outline, counters, selection, the assist's badge."""
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        if self.private and self.face is not None:  # a reminder that others see a back
            p.setPen(QPen(theme.PRIVATE, 2.0, Qt.PenStyle.DashLine))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRoundedRect(CARD_RECT.adjusted(-1, -1, 1, 1), 9, 9)
        if self.counters:
            self._paint_counters(p, lod)
        if self.isSelected():
            p.setPen(QPen(theme.SELECT, 4.0))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRoundedRect(CARD_RECT.adjusted(-1, -1, 1, 1), 9, 9)
        if self.flag_severity is not None:  # at the foot: the name stays readable
            # on the left edge, below the name: a fanned or overlapped card keeps that edge
            paint_badge(p, QRectF(CARD_RECT.left(), CARD_RECT.center().y() - 12, 10, 10),
                        self.flag_severity)

    def set_flags(self, flags: list[Any], message: Callable[[Any], str] | None = None) -> None:
        """Show (or clear) the rules-assist badge for these flags (`message` words them for the
        viewing seat)."""
        severity = severity_of(flags)
        self.setToolTip(tooltip_of(flags, message) if flags else "")
        if severity != self.flag_severity:
            if (severity is None) != (self.flag_severity is None):
                self.prepareGeometryChange()
            self.flag_severity = severity
            self._fit_rect()
            self.update()

    def counter_rects(self, lod: float) -> list[tuple[str, int, QRectF]]:
        """Counter badges hanging below the card's foot, from the left (the edge a fan or a row
        of overlapping cards leaves in sight): they never cover its name or its stat line, and
        grow when zoomed out so they still read (about 13 px on screen at least)."""
        h = max(22.0, min(44.0, 15.0 / max(lod, 0.05)))
        fm = QFontMetricsF(theme.font(h * 0.62, bold=True))
        x, y = CARD_RECT.left() + 2, CARD_RECT.bottom() + 1
        out = []
        for key, value in sorted(self.counters.items()):
            if not value:
                continue
            label = f"{value}" if key == "value" else f"{key[:3].title()} {value}"
            w = fm.horizontalAdvance(label) + h * 0.6
            out.append((label, value, QRectF(x, y, w, h)))
            x += w + 2
        return out

    def _paint_counters(self, p: QPainter, lod: float) -> None:
        rects = self.counter_rects(lod)
        if not rects:
            return
        h = rects[0][2].height()
        p.setFont(theme.font(h * 0.62, bold=True))
        for label, value, rect in rects:
            p.setPen(QPen(QColor("#3e0b0b"), 1.2))
            p.setBrush(QColor("#c62828") if value > 0 else QColor("#455a64"))
            p.drawRoundedRect(rect, h / 2, h / 2)
            p.setPen(QColor("white"))
            p.drawText(rect, Qt.AlignmentFlag.AlignCenter, label)

    # --- interaction: the scene decides what a gesture means --------------------------------
    def _scene(self) -> CardHost:
        return cast(CardHost, self.scene())  # a card lies only in the table scene

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
