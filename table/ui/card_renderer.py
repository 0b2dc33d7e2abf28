"""Paints card faces and backs from card data with QPainter: vector, so crisp at any zoom.

Level of detail keeps a zoomed-out table of hundreds of cards cheap: below a threshold only
the frame, colour band and title are drawn.
"""
from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QImage, QLinearGradient, QPainter, QPainterPath, QPen

from . import theme
from .catalog import BackStyle, CardFace

RADIUS = 8.0
_FAR_FLAGS = int(Qt.AlignmentFlag.AlignCenter) | int(Qt.TextFlag.TextWordWrap)


@lru_cache(maxsize=1)
def _far_font() -> QFont:
    return theme.font(22, bold=True)


@lru_cache(maxsize=256)
def _image(path: str) -> QImage | None:
    img = QImage(path)
    return None if img.isNull() else img


def _frame(p: QPainter, rect: QRectF, edge: QColor, fill: QColor | QBrush) -> None:
    p.setPen(QPen(edge.darker(160), 1.2))
    p.setBrush(fill)
    p.drawRoundedRect(rect, RADIUS, RADIUS)


def paint_face(p: QPainter, rect: QRectF, face: CardFace, lod: float = 1.0) -> None:
    colour = QColor(face.colour) if QColor(face.colour).isValid() else QColor("#777777")
    ink = theme.readable_on(colour)
    _frame(p, rect, colour, colour)
    inner = rect.adjusted(5, 5, -5, -5)
    w, h = inner.width(), inner.height()
    if lod < 0.3:  # far away: colour, and the name big enough to read at this zoom
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(theme.CARD_PAPER)
        p.drawRect(inner.adjusted(0, h * 0.12, 0, 0))
        p.setPen(theme.TEXT_DARK)
        p.setFont(_far_font())
        p.drawText(inner.adjusted(2, h * 0.12, -2, 0), _FAR_FLAGS, face.name)
        return
    # title band
    band = QRectF(inner.left(), inner.top(), w, 24)
    p.setPen(ink)
    corner_w = 28 if face.corner else 0
    room = int(w - 8 - corner_w)
    for size in (12.5, 11.0, 9.5):  # shrink a long title before cutting it
        p.setFont(theme.font(size, bold=True))
        if p.fontMetrics().horizontalAdvance(face.name) <= room:
            break
    title = p.fontMetrics().elidedText(face.name, Qt.TextElideMode.ElideRight, room)
    p.drawText(band.adjusted(4, 0, -corner_w, 0),
               Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, title)
    # paper body
    body = QRectF(inner.left(), band.bottom(), w, h - band.height())
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(theme.CARD_PAPER)
    p.drawRoundedRect(body, 3, 3)
    if face.corner:
        c = QPointF(inner.right() - 13, inner.top() + 12)
        p.setPen(QPen(colour.darker(170), 1.5))
        p.setBrush(QColor("#fffdf6"))
        p.drawEllipse(c, 13, 13)
        p.setPen(theme.TEXT_DARK)
        p.setFont(theme.font(14 if len(face.corner) < 3 else 10, bold=True))
        p.drawText(QRectF(c.x() - 13, c.y() - 13, 26, 26), Qt.AlignmentFlag.AlignCenter,
                   face.corner)
    # subtitle (type, faction)
    p.setPen(QColor("#5b5346"))
    p.setFont(theme.font(9, italic=True))
    sub = p.fontMetrics().elidedText(face.subtitle or face.type, Qt.TextElideMode.ElideRight,
                                     int(w - 8))
    p.drawText(QRectF(body.left() + 4, body.top() + 1, w - 8, 14),
               Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, sub)
    # art: the image when the data has one, else a tinted panel with the type's initial
    art = QRectF(body.left() + 4, body.top() + 16, w - 8, h * 0.30)
    img = _image(face.image) if face.image else None
    if img is not None:
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        p.drawImage(art, img)
    else:
        grad = QLinearGradient(art.topLeft(), art.bottomRight())
        grad.setColorAt(0, colour.lighter(150))
        grad.setColorAt(1, colour.lighter(115))
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QBrush(grad))
        p.drawRoundedRect(art, 3, 3)
        p.setPen(QColor(255, 255, 255, 150))
        p.setFont(theme.font(art.height() * 0.7, bold=True))
        p.drawText(art, Qt.AlignmentFlag.AlignCenter, (face.type or face.name or "?")[:1].upper())
    x = art.left() + 2
    p.setFont(theme.font(8, bold=True))
    for flag in face.flags[:3]:  # badges over the art
        fw = p.fontMetrics().horizontalAdvance(flag) + 8
        badge = QRectF(x, art.top() + 2, fw, 13)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(20, 20, 20, 170))
        p.drawRoundedRect(badge, 6, 6)
        p.setPen(QColor("#ffe082"))
        p.drawText(badge, Qt.AlignmentFlag.AlignCenter, flag)
        x += fw + 3
    if lod < 0.55:
        return
    # rules text, shrunk to fit
    stats_h = 18 if face.stats else 0
    text_box = QRectF(body.left() + 5, art.bottom() + 4, w - 10,
                      body.bottom() - art.bottom() - 8 - stats_h)
    if face.text:
        p.setPen(theme.TEXT_DARK)
        flags = int(Qt.TextFlag.TextWordWrap) | int(Qt.AlignmentFlag.AlignTop)
        for size in (9.0, 8.0, 7.0, 6.0):
            p.setFont(theme.font(size))
            need = p.fontMetrics().boundingRect(text_box.toRect(), flags, face.text)
            if need.height() <= text_box.height():
                break
        p.drawText(text_box, flags, face.text)
    # stats as pills along the bottom
    if face.stats:
        p.setFont(theme.font(9, bold=True))
        x = body.left() + 4
        y = body.bottom() - stats_h - 1
        for label, value in face.stats[:4]:
            t = f"{label} {value}" if len(face.stats) > 2 or len(label) < 8 else value
            sw = p.fontMetrics().horizontalAdvance(t) + 10
            if x + sw > body.right() - 2:
                break
            pill = QRectF(x, y, sw, stats_h - 2)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(colour.darker(130))
            p.drawRoundedRect(pill, 7, 7)
            p.setPen(theme.readable_on(colour.darker(130)))
            p.drawText(pill, Qt.AlignmentFlag.AlignCenter, t)
            x += sw + 3


def paint_back(p: QPainter, rect: QRectF, back: BackStyle, lod: float = 1.0,
               owner_colour: QColor | None = None) -> None:
    colour = QColor(back.colour) if QColor(back.colour).isValid() else QColor("#2b3a67")
    _frame(p, rect, colour, colour)
    inner = rect.adjusted(7, 7, -7, -7)
    if lod < 0.3:
        return
    p.setPen(QPen(colour.lighter(170), 1.5))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawRoundedRect(inner, 5, 5)
    # a diamond lattice reads as "card back" at a glance
    p.setPen(QPen(colour.lighter(135), 1))
    path = QPainterPath()
    step = 16.0
    x = inner.left() - inner.height()
    while x < inner.right():
        path.moveTo(x, inner.top())
        path.lineTo(x + inner.height(), inner.bottom())
        path.moveTo(x + inner.height(), inner.top())
        path.lineTo(x, inner.bottom())
        x += step
    p.save()
    p.setClipRect(inner.adjusted(3, 3, -3, -3))
    p.drawPath(path)
    p.restore()
    if back.label:
        p.setFont(theme.font(14, bold=True))
        fm = p.fontMetrics()
        label = fm.elidedText(back.label, Qt.TextElideMode.ElideRight, int(inner.width() - 12))
        tw = fm.horizontalAdvance(label) + 14
        plate = QRectF(rect.center().x() - tw / 2, rect.center().y() - 13, tw, 26)
        p.setPen(QPen(colour.lighter(170), 1.2))
        p.setBrush(colour.darker(140))
        p.drawRoundedRect(plate, 6, 6)
        p.setPen(QColor("#f5f0e1"))
        p.drawText(plate, Qt.AlignmentFlag.AlignCenter, label)
    if owner_colour is not None:  # a small seat stripe tells whose card it is
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(owner_colour)
        p.drawRoundedRect(QRectF(rect.left() + 12, rect.bottom() - 13, rect.width() - 24, 5), 2, 2)
