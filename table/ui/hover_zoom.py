"""Hover zoom: a large card at the cursor while Alt (or Z) is held, as in TTS and Cockatrice.

It shows exactly what the card item shows the viewing seat (face or back), so it never tells
more than the table. The picture is rendered once per look and kept, so showing it again is a
blit.
"""
from __future__ import annotations

from PySide6.QtCore import QPoint, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPixmap
from PySide6.QtWidgets import QWidget

from . import theme
from .card_renderer import paint_back, paint_face
from .items.card_item import CardItem

ZOOM_W = 330  # pixels: a card this wide reads like a card held in the hand


def card_picture(item: CardItem, width: int, ratio: float = 1.0) -> QPixmap:
    """The card as `item` shows it, `width` pixels wide."""
    height = round(width * theme.CARD_H / theme.CARD_W)
    pix = QPixmap(QSize(round(width * ratio), round(height * ratio)))
    pix.setDevicePixelRatio(ratio)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    scale = width / theme.CARD_W
    p.scale(scale, scale)
    rect = QRectF(0, 0, theme.CARD_W, theme.CARD_H)
    if item.face is not None:
        paint_face(p, rect, item.face, 4.0)
    else:
        paint_back(p, rect, item.back, 4.0, item.owner_colour)
    p.end()
    return pix


class HoverZoom(QWidget):
    """A child of the view's viewport (no window of its own: it shows at once)."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self._cache: dict[tuple[object, ...], QPixmap] = {}
        self.pixmap: QPixmap | None = None
        self.obj_id = ""
        self.hide()

    def show_for(self, item: CardItem, cursor: QPoint) -> None:
        ratio = self.devicePixelRatioF()
        key = (item.face, item.back, item.owner_colour.name() if item.owner_colour else "", ratio)
        pix = self._cache.get(key)
        if pix is None:
            if len(self._cache) > 64:
                self._cache.clear()
            pix = self._cache[key] = card_picture(item, ZOOM_W, ratio)
        self.pixmap, self.obj_id = pix, item.obj_id
        size = QSize(ZOOM_W, round(ZOOM_W * theme.CARD_H / theme.CARD_W)) + QSize(8, 8)
        self.resize(size)
        self.move(self._place(cursor, size))
        self.show()
        self.raise_()
        self.update()

    def _place(self, cursor: QPoint, size: QSize) -> QPoint:
        """Beside the cursor, on the side with room, always inside the viewport."""
        area = self.parentWidget().rect()
        x = cursor.x() + 24
        if x + size.width() > area.right():
            x = cursor.x() - 24 - size.width()
        y = cursor.y() - size.height() // 2
        x = max(0, min(x, area.right() - size.width()))
        y = max(0, min(y, area.bottom() - size.height()))
        return QPoint(x, y)

    def paintEvent(self, event: QPaintEvent) -> None:
        if self.pixmap is None:
            return
        p = QPainter(self)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(0, 0, 0, 110))
        p.drawRoundedRect(QRectF(self.rect()).adjusted(4, 6, 0, 0), 12, 12)
        p.drawPixmap(0, 0, self.pixmap)
        p.end()
