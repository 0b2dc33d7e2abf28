"""Paints card faces and backs from card data with QPainter: vector, so crisp at any zoom.

Three levels of detail. On the table (a card under 120 px wide on screen): the face a player
scanning the table reads, large (face_table.py). Near (printed, or zoomed in): name, cost, type
line, the rules text given the body's space, stats along the bottom. Read large (hover zoom,
the reading panel): every field the module gives the card. Every text fits its box or is
reported (face_text.draw_text).
"""
from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen

from . import theme
from .catalog import BackStyle, CardFace
from .face_table import paint_table_face, short_label
from .face_text import (
    CENTRE_WRAP,
    TOP_WRAP,
    draw_text,
    face_image,
    fit_lines,
    fit_text,
    recording_texts,
)

__all__ = ["DETAIL_LOD", "NEAR_LOD", "RADIUS", "fit_text", "paint_back", "paint_face",
           "recording_texts", "short_label"]

RADIUS = 8.0
NEAR_LOD = 1.0  # from this scale on (a card 120 px wide and more), the rules text is drawn
DETAIL_LOD = 2.0  # hover zoom and the card panel: every field the module gives the card


@lru_cache(maxsize=64)
def _font(size: float, bold: bool = False, italic: bool = False) -> QFont:
    return theme.font(size, bold=bold, italic=italic)


def _frame(p: QPainter, rect: QRectF, edge: QColor, fill: QColor) -> None:
    p.setPen(QPen(edge.darker(160), 1.2))
    p.setBrush(fill)
    p.drawRoundedRect(rect, RADIUS, RADIUS)


def _cost(p: QPainter, centre: QPointF, radius: float, text: str, colour: QColor) -> None:
    p.setPen(QPen(colour.darker(170), 1.5))
    p.setBrush(QColor("#fffdf6"))
    p.drawEllipse(centre, radius, radius)
    p.setPen(theme.TEXT_DARK)
    p.setFont(_font(radius * (1.15 if len(text) < 3 else 0.8), bold=True))
    draw_text(p, QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius),
              int(Qt.AlignmentFlag.AlignCenter), text, "cost")


def paint_face(p: QPainter, rect: QRectF, face: CardFace, lod: float = 1.0) -> None:
    """Draw `face` in `rect` (scene units: 120 wide; any height, for true-size print)."""
    colour = QColor(face.colour) if QColor(face.colour).isValid() else QColor("#777777")
    _frame(p, rect, colour, colour)
    inner = rect.adjusted(5, 5, -5, -5)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(theme.CARD_PAPER)
    if face.layout:
        from .face_regions import paint_regions  # the designer's layout

        paint_regions(p, rect, inner, face, colour)
    elif lod < NEAR_LOD:
        paint_table_face(p, rect, face, colour)
    else:
        _paint_near(p, inner, face, colour, lod >= DETAIL_LOD)


def _paint_near(p: QPainter, inner: QRectF, face: CardFace, colour: QColor,
                detail: bool = False) -> None:
    w = inner.width()
    corner_w = 30.0 if face.corner else 0.0
    # name band: up to two lines, shrunk before it is cut
    name_w = w - 8 - corner_w
    sizes = (14.0, 13.0, 12.0, 11.0, 10.0, 9.0, 8.0)  # read near: shrunk before hyphenated
    size, lines = fit_lines(face.name, name_w, 34.0, sizes, True, len(sizes))
    fm = QFontMetricsF(_font(size, bold=True))
    band = QRectF(inner.left(), inner.top(), w, max(24.0, len(lines) * fm.lineSpacing() + 6))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(colour)
    p.drawRect(band)
    p.setPen(theme.readable_on(colour))
    p.setFont(_font(size, bold=True))
    draw_text(p, band.adjusted(4, 2, -corner_w - 2, -2),
              int(Qt.AlignmentFlag.AlignVCenter) | int(Qt.AlignmentFlag.AlignLeft),
              "\n".join(lines), "name")
    if face.corner:
        _cost(p, QPointF(inner.right() - 14, inner.top() + 14), 13, face.corner, colour)
    body = QRectF(inner.left(), band.bottom(), w, inner.bottom() - band.bottom())
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(theme.CARD_PAPER)
    p.drawRoundedRect(body, 3, 3)
    # type line, then the keyword badges (Unique...) on its right
    p.setPen(QColor("#5b5346"))
    p.setFont(_font(9.5, italic=True))
    sub = QFontMetricsF(_font(9.5, italic=True)).elidedText(
        face.subtitle or face.type, Qt.TextElideMode.ElideRight, w - 8)
    draw_text(p, QRectF(body.left() + 4, body.top() + 1, w - 8, 14),
              int(Qt.AlignmentFlag.AlignVCenter) | int(Qt.AlignmentFlag.AlignLeft), sub, "type",
              face.subtitle or face.type)
    y = body.top() + 16
    if face.flags:
        _flag_badges(p, QPointF(body.left() + 4, y), face.flags[:3])
        y += 14
    img = face_image(face.image) if face.image else None
    if img is not None:  # art only when the data has some: no placeholder eats the text's room
        art = QRectF(body.left() + 4, y, w - 8, body.height() * 0.32)
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        p.drawImage(art, img)
        y = art.bottom() + 2
    pills, notes = _pills_and_notes(face, detail, w - 8)
    rows = _pill_rows(pills, w - 8)
    stats_h = 17.0 * len(rows)
    text = "\n".join(x for x in (face.text, *notes) if x)
    text_box = QRectF(body.left() + 5, y + 2, w - 10, body.bottom() - y - 6 - stats_h)
    if text and text_box.height() > 6:
        size = fit_text(text, text_box.width(), text_box.height(),
                        (11.0, 10.0, 9.0, 8.0, 7.0, 6.0, 5.0, 4.5, 4.0), False, TOP_WRAP)
        p.setPen(theme.TEXT_DARK)
        p.setFont(_font(size))
        draw_text(p, text_box, TOP_WRAP, text, "rules")
    _stat_pills(p, body, rows, colour)


def _flag_badges(p: QPainter, at: QPointF, flags: tuple[str, ...]) -> None:
    """The keyword badges (Unique...) in a row from `at`."""
    x = at.x()
    p.setFont(_font(8, bold=True))
    for flag in flags:
        fw = QFontMetricsF(_font(8, bold=True)).horizontalAdvance(flag) + 8
        badge = QRectF(x, at.y(), fw, 12)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(20, 20, 20, 170))
        p.drawRoundedRect(badge, 6, 6)
        p.setPen(QColor("#ffe082"))
        draw_text(p, badge, int(Qt.AlignmentFlag.AlignCenter), flag, "flag")
        x += fw + 3


def _pill_texts(face: CardFace, detail: bool) -> list[tuple[str, str]]:
    """("Power", "3"), ("Guard", "2")...: the template's stats, or (read large) every field the
    module gives the card but its flags, which are badges already."""
    if not detail or not face.fields:
        return list(face.stats)
    flags = {f.casefold() for f in face.flags}
    return [(label, value) for _, label, value in face.fields
            if not (value == "yes" and label.casefold() in flags)]


def _pills_and_notes(face: CardFace, detail: bool, width: float) -> tuple[list[str], list[str]]:
    """The stats short enough for a pill ("Power 3"), and the others as lines of text under
    the rules ("Orders: Onward (1), ..."), unless the rules text says them already."""
    fm = QFontMetricsF(_font(9, bold=True))
    pills: list[str] = []
    notes: list[str] = []
    said = face.text.casefold()
    for label, value in _pill_texts(face, detail):
        pill = f"{label} {value}"
        if fm.horizontalAdvance(pill) + 10 <= width:
            pills.append(pill)
        elif value.casefold() not in said:
            notes.append(f"{label}: {value}")
    return pills, notes


def _pill_rows(texts: list[str], width: float) -> list[list[tuple[str, float]]]:
    """Pills wrapped into rows of `width`: every stat shows, none is dropped for want of room."""
    fm = QFontMetricsF(_font(9, bold=True))
    rows: list[list[tuple[str, float]]] = []
    x = width + 1
    for t in texts:
        sw = min(width, fm.horizontalAdvance(t) + 10)
        if x + sw > width:
            rows.append([])
            x = 0.0
        rows[-1].append((t, sw))
        x += sw + 3
    return rows


def _stat_pills(p: QPainter, body: QRectF, rows: list[list[tuple[str, float]]],
                colour: QColor) -> None:
    p.setFont(_font(9, bold=True))
    fill = colour.darker(130)
    for r, row in enumerate(rows):
        x, y = body.left() + 4, body.bottom() - 17.0 * (len(rows) - r) - 1
        for t, sw in row:
            pill = QRectF(x, y, sw, 15)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(fill)
            p.drawRoundedRect(pill, 7, 7)
            p.setPen(theme.readable_on(fill))
            draw_text(p, pill, int(Qt.AlignmentFlag.AlignCenter), t, "stat")
            x += sw + 3


def paint_back(p: QPainter, rect: QRectF, back: BackStyle, lod: float = 1.0,
               owner_colour: QColor | None = None) -> None:
    colour = QColor(back.colour) if QColor(back.colour).isValid() else QColor("#2b3a67")
    _frame(p, rect, colour, colour)
    inner = rect.adjusted(7, 7, -7, -7)
    if lod >= 0.3:
        p.setPen(QPen(colour.lighter(170), 1.5))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRoundedRect(inner, 5, 5)
        p.setPen(QPen(colour.lighter(135), 1))
        p.save()
        p.setClipRect(inner.adjusted(3, 3, -3, -3))
        p.drawPath(_lattice(inner.width(), inner.height()).translated(inner.topLeft()))
        p.restore()
    if back.label:  # the whole label, wrapped: "DEAD TO RITES", never "DEAD TO ..."
        plate_w = inner.width() - 8
        size = fit_text(back.label, plate_w - 8, 70.0, (17.0, 15.0, 13.0, 11.0), True)
        fm = QFontMetricsF(_font(size, bold=True))
        need = fm.boundingRect(QRectF(0, 0, plate_w - 8, 200), CENTRE_WRAP, back.label)
        plate = QRectF(rect.center().x() - plate_w / 2, rect.center().y() - need.height() / 2 - 6,
                       plate_w, need.height() + 12)
        p.setPen(QPen(colour.lighter(170), 1.2))
        p.setBrush(colour.darker(140))
        p.drawRoundedRect(plate, 6, 6)
        p.setPen(QColor("#f5f0e1"))
        p.setFont(_font(size, bold=True))
        draw_text(p, plate.adjusted(4, 0, -4, 0), CENTRE_WRAP, back.label, "back")
    if owner_colour is not None:  # a seat stripe tells whose card it is
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(owner_colour)
        p.drawRoundedRect(QRectF(rect.left() + 12, rect.bottom() - 15, rect.width() - 24, 7), 3, 3)


@lru_cache(maxsize=8)
def _lattice(w: float, h: float) -> QPainterPath:
    """A diamond lattice: reads as "card back" at a glance."""
    path = QPainterPath()
    x = -h
    while x < w:
        path.moveTo(x, 0)
        path.lineTo(x + h, h)
        path.moveTo(x + h, 0)
        path.lineTo(x, h)
        x += 16.0
    return path
