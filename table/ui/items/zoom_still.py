"""The table's backgrounds (zones, seat areas) drawn from a still picture while the view zooms.

Such an item is cached in device pixels, so a repaint blits it; but every zoom step changes
the device pixels and Qt would paint it afresh in every frame of the zoom. So when zooming
starts the item is painted once into a picture at the scale it was shown at, the frames of
the zoom draw that picture scaled (as the cards draw theirs), and once zooming pauses the item
is cached in device pixels again: crisp at the new scale, exactly as before.
"""
from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPainter, QPixmap
from PySide6.QtWidgets import QGraphicsItem

Painter = Callable[[QPainter], None]


class ZoomStill:
    """One item's still picture; the item paints through `paint` and says when it changed."""

    def __init__(self, item: QGraphicsItem, paint_live: Painter) -> None:
        self._item = item
        self._paint_live = paint_live
        self._picture: QPixmap | None = None
        self._holding = False

    def hold(self, scale: float) -> None:
        """Zooming starts: take the picture at `scale` device pixels per unit, stop caching."""
        if self._holding:
            return
        self._holding = True
        bounds = self._item.boundingRect()
        pix = QPixmap(max(1, math.ceil(bounds.width() * scale)),
                      max(1, math.ceil(bounds.height() * scale)))
        pix.fill(Qt.GlobalColor.transparent)
        p = QPainter(pix)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)  # as the view paints
        p.scale(scale, scale)
        p.translate(-bounds.topLeft())
        self._paint_live(p)
        p.end()
        self._picture = pix
        self._item.setCacheMode(QGraphicsItem.CacheMode.NoCache)

    def release(self) -> None:
        """Zooming paused: cached in device pixels again (painted anew at the new scale)."""
        if self._holding:
            self._holding = False
            self._picture = None
            self._item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def changed(self) -> None:
        """The item looks different now: the picture is stale, paint it live until released."""
        self._picture = None

    def paint(self, p: QPainter) -> None:
        if self._picture is None:
            self._paint_live(p)
            return
        bounds = self._item.boundingRect()
        p.drawPixmap(bounds, self._picture, QRectF(self._picture.rect()))

