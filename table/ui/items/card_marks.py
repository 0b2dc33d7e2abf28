"""What lies on a card: the private outline, counters, the selection, the assist's badge.

A child of the card, shown only while the card wears one of them: a plain card is then a
picture Qt blits on its own, with no Python in its repaint.
"""
from __future__ import annotations

import math
from typing import Any, Protocol

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from .. import theme
from .flag_badge import paint_badge

CARD_RECT = QRectF(-theme.CARD_W / 2, -theme.CARD_H / 2, theme.CARD_W, theme.CARD_H)


class Marked(Protocol):
    """What the marks read of their card (items/card_item.py)."""
    private: bool
    face: Any
    counters: dict[str, int]
    flag_severity: str | None

    def isSelected(self) -> bool: ...
    def rect(self) -> QRectF: ...


def wears_marks(card: Marked) -> bool:
    return (card.private and card.face is not None) or any(card.counters.values()) or \
        card.flag_severity is not None or card.isSelected()


class CardMarks(QGraphicsItem):
    def __init__(self, card: Marked, parent: QGraphicsItem) -> None:
        super().__init__(parent)  # the card itself
        self.card = card
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)  # the card takes every gesture
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)  # repaints blit
        self.setVisible(False)

    def refresh(self) -> None:
        """The card's marks or bounds changed: shown (painted anew) or hidden."""
        self.prepareGeometryChange()
        self.setVisible(wears_marks(self.card))
        self.update()

    def boundingRect(self) -> QRectF:
        return self.card.rect()

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        t = p.deviceTransform()  # counters grow when zoomed out, so they still read
        lod = math.hypot(t.m11(), t.m12())
        card = self.card
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        if card.private and card.face is not None:  # a reminder that others see a back
            p.setPen(QPen(theme.PRIVATE, 2.0, Qt.PenStyle.DashLine))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRoundedRect(CARD_RECT.adjusted(-1, -1, 1, 1), 9, 9)
        if card.counters:
            paint_counters(p, counter_rects(card.counters, lod))
        if card.isSelected():
            p.setPen(QPen(theme.SELECT, 4.0))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRoundedRect(CARD_RECT.adjusted(-1, -1, 1, 1), 9, 9)
        if card.flag_severity is not None:
            # on the left edge, below the name: a fanned or overlapped card keeps that edge
            paint_badge(p, QRectF(CARD_RECT.left(), CARD_RECT.center().y() - 12, 10, 10),
                        card.flag_severity)


def counter_rects(counters: dict[str, int], lod: float) -> list[tuple[str, int, QRectF]]:
    """Counter badges hanging below the card's foot, from the left (the edge a fan or a row
    of overlapping cards leaves in sight): they never cover its name or its stat line, and
    grow when zoomed out so they still read (about 13 px on screen at least)."""
    h = max(22.0, min(44.0, 15.0 / max(lod, 0.05)))
    fm = QFontMetricsF(theme.font(h * 0.62, bold=True))
    x, y = CARD_RECT.left() + 2, CARD_RECT.bottom() + 1
    out = []
    for key, value in sorted(counters.items()):
        if not value:
            continue
        label = f"{value}" if key == "value" else f"{key[:3].title()} {value}"
        w = fm.horizontalAdvance(label) + h * 0.6
        out.append((label, value, QRectF(x, y, w, h)))
        x += w + 2
    return out


def paint_counters(p: QPainter, rects: list[tuple[str, int, QRectF]]) -> None:
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
