"""A card on the table, drawn from what the viewing seat may know of it."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, cast

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QTransform
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPixmapItem,
    QGraphicsRectItem,
    QGraphicsSceneHoverEvent,
    QGraphicsSceneMouseEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from ..card_pixmaps import MARGIN, STEPS, look_id, picture
from ..catalog import BackStyle, CardFace
from .card_marks import CARD_RECT, CardMarks, counter_rects
from .flag_badge import severity_of, tooltip_of

# the card and its outlines (selection, private): what a click or a rubber band finds
BOUNDS = CARD_RECT.adjusted(-3, -3, 3, 3)
BADGE_BOUNDS = CARD_RECT.adjusted(-14, -3, 3, 3)  # the flag badge stands out on the left
# counters hang below the card's foot, so they never cover its stat line or its name
COUNTER_BOUNDS = CARD_RECT.adjusted(-3, -3, 3, 46)
_NO_CONTENTS = QGraphicsItem.GraphicsItemFlag.ItemHasNoContents


class CardHost(Protocol):
    """What a card asks of the scene it lies in (the scene decides what a gesture means)."""
    def hovered(self, item: CardItem | None) -> None: ...
    def drag_started(self, item: QGraphicsItem, event: QGraphicsSceneMouseEvent) -> None: ...
    def drag_finished(self, item: QGraphicsItem, event: QGraphicsSceneMouseEvent) -> None: ...
    def card_double_clicked(self, item: CardItem) -> None: ...


class CardItem(QGraphicsRectItem):
    """Centred on its position, so rotation (engaged, fanned) turns it about its middle.

    A rect item so Qt answers bounding-rect and hit queries in C++ (a full-table repaint asks
    thousands of them). It paints nothing itself: its child `picture` shows the card's picture,
    shared by every card that looks the same (card_pixmaps), at device size, so a repaint is
    Qt blitting pixmaps with no Python per card; `marks` shows what lies on it, when anything
    does. The card paints (once) only when its picture is due: a new look or scale picks the
    picture then, so cards never seen never have theirs rendered.
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
        self.res = 1.0  # device pixels per scene unit at the view's settled zoom
        self._shown: tuple[int, float] | None = None  # the look and scale `picture` shows
        self.picture = QGraphicsPixmapItem(self)
        self.picture.setShapeMode(QGraphicsPixmapItem.ShapeMode.BoundingRectShape)
        self.picture.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.marks = CardMarks(self, self)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsMovable, True)
        self.setAcceptHoverEvents(True)

    def set_resolution(self, scale: float) -> None:
        """Show the card's picture at `scale` device pixels per scene unit (the view's zoom
        once zooming pauses; between two zoom levels Qt scales the pictures the cards have)."""
        scale = max(0.05, scale)
        if scale != self.res:
            self.res = scale
            self._picture_due()

    def spot_changed(self) -> None:
        """Its rotation or size on the table changed (placed, fanned, in a smaller area)."""
        turned = self.rotation() % 360 != 0
        self.picture.setTransformationMode(Qt.TransformationMode.SmoothTransformation if turned
                                           else Qt.TransformationMode.FastTransformation)
        if self._shown is not None and self._shown[1] != self._device_scale():
            self._picture_due()

    def _device_scale(self) -> float:
        return self.res * self.scale()

    def _picture_due(self) -> None:
        """Paint once (when next in sight) to pick the picture: see paint."""
        if self.flags() & _NO_CONTENTS:
            self.setFlag(_NO_CONTENTS, False)
            self.update()

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        """Give `picture` the card's picture at this scale (its children, drawn next in this
        same frame, show it); then paint nothing more until the picture is due again."""
        self.show_picture()

    def show_picture(self) -> None:
        scale = self._device_scale()
        if self._shown != (self.look, scale):
            pix = picture(self.look, max(1, round(scale * STEPS)))
            self.picture.setPixmap(pix)
            self.picture.setTransform(QTransform.fromScale(1 / scale, 1 / scale))
            self.picture.setOffset(CARD_RECT.left() * scale - MARGIN,
                                   CARD_RECT.top() * scale - MARGIN)
            self._shown = (self.look, scale)
        self.setFlag(_NO_CONTENTS, True)

    def _fit_rect(self) -> None:
        bounds = COUNTER_BOUNDS if any(self.counters.values()) else BOUNDS
        if self.flag_severity is not None:
            bounds = bounds.united(BADGE_BOUNDS)
        self.setRect(bounds)
        self.marks.refresh()

    def set_look(self, face: CardFace | None, back: BackStyle, owner_colour: QColor | None,
                 counters: dict[str, int], private: bool) -> None:
        if (face, back, counters, private) == (self.face, self.back, self.counters,
                                                self.private) and owner_colour == self.owner_colour:
            return
        self.face, self.back, self.owner_colour = face, back, owner_colour
        self.counters, self.private = counters, private
        look = look_id(face, back, owner_colour)
        if look != self.look:
            self.look = look
            self._picture_due()
        self._fit_rect()

    def selection_changed(self) -> None:
        self.marks.refresh()

    def set_flags(self, flags: list[Any], message: Callable[[Any], str] | None = None) -> None:
        """Show (or clear) the rules-assist badge for these flags (`message` words them for the
        viewing seat)."""
        severity = severity_of(flags)
        self.setToolTip(tooltip_of(flags, message) if flags else "")
        if severity != self.flag_severity:
            self.flag_severity = severity
            self._fit_rect()

    def counter_rects(self, lod: float) -> list[tuple[str, int, QRectF]]:
        """Counter badges hanging below the card's foot (card_marks.counter_rects)."""
        return counter_rects(self.counters, lod)

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
