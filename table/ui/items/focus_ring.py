"""The ring around what the keyboard is on (a piece, a zone, a grid cell): a bright line over a
dark one, drawn the same width on screen at every zoom (cosmetic pens), above every piece, so it
shows on the felt, on a card's face and on a pale zone alike. A double line, not a colour: the
selection's outline is one line, a drop target is a fill."""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from .. import theme

OUTER_PX, INNER_PX, GAP_PX = 7.0, 3.0, 4.0  # on screen, whatever the zoom
RING_Z = 5000.0


class FocusRing(QGraphicsItem):
    def __init__(self) -> None:
        super().__init__()
        self.setZValue(RING_Z)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setAcceptHoverEvents(False)
        self.target = QRectF()
        self.zoom = 1.0
        self.hide()

    def set_zoom(self, zoom: float) -> None:
        """The view's scale: the ring's margin is kept in screen pixels."""
        if zoom > 0 and abs(zoom - self.zoom) > 1e-6:
            self.prepareGeometryChange()
            self.zoom = zoom

    def surround(self, rect: QRectF | None) -> None:
        """Ring `rect` (scene units); None hides the ring."""
        if rect is None or rect.isEmpty():
            self.hide()
            return
        if rect != self.target:
            self.prepareGeometryChange()
            self.target = QRectF(rect)
        self.show()
        self.update()

    def _margin(self) -> float:
        return (GAP_PX + OUTER_PX) / self.zoom

    def boundingRect(self) -> QRectF:
        m = self._margin() + 2.0 / self.zoom
        return self.target.adjusted(-m, -m, m, m)

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        gap = (GAP_PX + OUTER_PX / 2) / self.zoom
        ring = self.target.adjusted(-gap, -gap, gap, gap)
        radius = 10.0 / self.zoom
        p.setBrush(Qt.BrushStyle.NoBrush)
        for colour, width in ((theme.FOCUS_EDGE, OUTER_PX), (theme.FOCUS, INNER_PX)):
            pen = QPen(colour, width)
            pen.setCosmetic(True)
            pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            p.setPen(pen)
            p.drawRoundedRect(ring, radius, radius)
