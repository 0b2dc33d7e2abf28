"""A designer-laid face: each region of `[templates.front.by_type.<Type>]` drawn in its box.

Boxes are percent of the card and sizes points at true size, so the face is the same on the
table (120 scene units wide) and on paper (the module's card size). Text shrinks to fit its box
before anything is cut.
"""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter

from table.games.card_faces import Region

from . import theme
from .catalog import CardFace
from .face_text import draw_text, face_image, fit_text

_ALIGN = {"left": Qt.AlignmentFlag.AlignLeft, "centre": Qt.AlignmentFlag.AlignHCenter,
          "right": Qt.AlignmentFlag.AlignRight}
_VALIGN = {"top": Qt.AlignmentFlag.AlignTop, "middle": Qt.AlignmentFlag.AlignVCenter,
           "bottom": Qt.AlignmentFlag.AlignBottom}
POKER_W_MM = 63.0  # the table draws every card 120 units wide: read sizes against a poker card
_PT_MM = 25.4 / 72


def units_per_point(card_w_mm: float = POKER_W_MM) -> float:
    return _PT_MM * theme.CARD_W / card_w_mm


def paint_regions(p: QPainter, rect: QRectF, inner: QRectF, face: CardFace,
                  colour: QColor) -> None:
    p.drawRoundedRect(inner, 4, 4)  # the paper, in the faction's frame
    for region in face.layout:
        x, y, w, h = region.at
        box = QRectF(rect.left() + rect.width() * x / 100, rect.top() + rect.height() * y / 100,
                     rect.width() * w / 100, rect.height() * h / 100)
        fill = colour if region.fill == "faction" else QColor(region.fill) if region.fill \
            else None
        if fill is not None:
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(fill)
            if region.shape == "circle":
                p.drawEllipse(box.center(), min(box.width(), box.height()) / 2,
                              min(box.width(), box.height()) / 2)
            elif region.shape == "pill":
                p.drawRoundedRect(box, box.height() / 2, box.height() / 2)
            else:
                p.drawRect(box)
        if region.show == "art":
            _art(p, box, face)
            continue
        text = region_text(region, face)
        if text:
            ink = QColor(region.colour) if region.colour else \
                theme.readable_on(fill) if fill is not None else theme.TEXT_DARK
            _text(p, box.adjusted(1.5, 0.5, -1.5, -0.5), region, text, ink)


def region_text(region: Region, face: CardFace) -> str:
    """What a region says: one field (with its label if asked), or the stats, subtitle, flags."""
    if region.show == "stats":
        return "   ".join(f"{label} {value}" for label, value in face.stats)
    if region.show == "subtitle":
        return face.subtitle or face.type
    if region.show == "flags":
        return " · ".join(face.flags)
    value = face.value(region.show)
    if value and region.label:
        return f"{face.label(region.show)} {value}"
    return value


def _text(p: QPainter, box: QRectF, region: Region, text: str, ink: QColor) -> None:
    per_pt = units_per_point()
    steps, size = [], region.size
    while size >= region.min_size - 1e-6:
        steps.append(round(size * per_pt, 2))
        size -= 0.5
    flags = int(_ALIGN[region.align]) | int(_VALIGN[region.valign]) | int(
        Qt.TextFlag.TextWordWrap)
    chosen = fit_text(text, box.width(), box.height(), tuple(steps or [region.min_size * per_pt]),
                      region.bold, flags)
    font = theme.font(chosen, bold=region.bold, italic=region.italic)
    font.setPixelSize(max(1, round(chosen)))
    p.setFont(font)
    p.setPen(ink)
    p.save()
    p.setClipRect(box)  # the last resort: a text that cannot shrink enough stays in its box
    if QFontMetricsF(font).boundingRect(box, flags, text).height() > box.height():
        flags = (flags & ~int(Qt.AlignmentFlag.AlignVCenter) & ~int(Qt.AlignmentFlag.AlignBottom)) \
            | int(Qt.AlignmentFlag.AlignTop)
    draw_text(p, box, flags, text)
    p.restore()


def _art(p: QPainter, box: QRectF, face: CardFace) -> None:
    img = face_image(face.image) if face.image else None
    if img is None:
        return
    p.save()
    p.setClipRect(box)
    p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
    scale = max(box.width() / img.width(), box.height() / img.height())  # fill, keep its shape
    w, h = img.width() * scale, img.height() * scale
    p.drawImage(QRectF(box.center().x() - w / 2, box.center().y() - h / 2, w, h), img)
    p.restore()
