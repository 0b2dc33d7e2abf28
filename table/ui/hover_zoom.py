"""Hover zoom: a large card at the cursor while Alt (or Z) is held, as in TTS and Cockatrice.

It shows exactly what the card item shows the viewing seat (face or back), so it never tells
more than the table. The picture is rendered once per look and kept, and rendered as soon as
the cursor comes over a card, so the key shows it with a blit.
"""
from __future__ import annotations

from PySide6.QtCore import QPoint, QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPixmap
from PySide6.QtWidgets import QWidget

from . import theme
from .card_renderer import paint_back, paint_face
from .items.card_item import CardItem

ZOOM_W = 330  # pixels: a card this wide reads like a card held in the hand
FRAME = 6


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
        # opaque: showing it repaints only itself, never the thousand cards beneath
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self._cache: dict[tuple[object, ...], QPixmap] = {}
        self.pixmap: QPixmap | None = None
        self.obj_id = ""
        self._pending: CardItem | None = None
        self.hide()

    def picture_for(self, item: CardItem) -> QPixmap:
        """The large picture of the card, rendered on first use and kept."""
        ratio = self.devicePixelRatioF()
        key = (item.look, ratio)
        pix = self._cache.get(key)
        if pix is None:
            if len(self._cache) > 64:
                self._cache.clear()
            pix = self._cache[key] = card_picture(item, ZOOM_W, ratio)
        return pix

    def clear_cache(self) -> None:
        """Forget the pictures rendered so far: the next zoom of each card renders it afresh."""
        self._cache.clear()

    def prepare(self, item: CardItem) -> None:
        """The cursor came over this card: have its picture ready before a key asks for it."""
        if (item.look, self.devicePixelRatioF()) not in self._cache:
            self._pending = item
            QTimer.singleShot(0, self._render_pending)

    def _render_pending(self) -> None:
        item, self._pending = self._pending, None
        if item is not None and item.scene() is not None:
            self.picture_for(item)

    def show_for(self, item: CardItem, cursor: QPoint) -> None:
        pix = self.picture_for(item)
        self.pixmap, self.obj_id = pix, item.obj_id
        size = QSize(ZOOM_W + 2 * FRAME, round(ZOOM_W * theme.CARD_H / theme.CARD_W) + 2 * FRAME)
        self.resize(size)
        self.move(self._place(cursor, size))
        self.show()
        self.raise_()
        self.update()

    def _place(self, cursor: QPoint, size: QSize) -> QPoint:
        """Beside the cursor, on the side with room, always inside the viewport."""
        parent = self.parentWidget()
        area = parent.rect() if parent is not None else self.rect()
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
        p.fillRect(self.rect(), theme.TABLE_BG_DARK)
        p.setPen(QColor(255, 255, 255, 60))
        p.drawRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5))
        p.drawPixmap(FRAME, FRAME, self.pixmap)
        p.end()
