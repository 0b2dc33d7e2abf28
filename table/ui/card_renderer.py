"""Paints card faces and backs from card data with QPainter: vector, so crisp at any zoom.

Two levels of detail. Far (a card under ~70 px on screen): the name, as large as it fits,
wrapped over up to three lines, with the cost and the type's stats - what a player scanning
the table reads. Near: name (wrapped, never cut while it can shrink), cost, type line, the
rules text given the body's space, stats along the bottom. Where a text goes is worked out
once per card and size (in scene units) and kept, so repainting at a new zoom is only drawing.
"""
from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen

from table.games.model import abbreviate

from . import theme
from .catalog import BackStyle, CardFace
from .face_text import (
    CENTRE_WRAP,
    TOP_WRAP,
    WRAP,
    draw_text,
    face_image,
    fit_text,
    recording_texts,
)

__all__ = ["DETAIL_LOD", "NEAR_LOD", "RADIUS", "fit_text", "paint_back", "paint_face",
           "recording_texts", "short_label"]

RADIUS = 8.0
NEAR_LOD = 0.7  # from this scale on, the rules text is drawn
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


def short_label(face: CardFace, index: int) -> str:
    """The name over a stat's value on the small stat line: the module's short form
    ([templates.front.labels]), else one made from its full name ("Guard" -> "Grd")."""
    if index < len(face.stat_shorts):
        return face.stat_shorts[index]
    return abbreviate(face.stats[index][0])


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
        _paint_far(p, inner, face, colour)
    else:
        _paint_near(p, inner, face, colour, lod >= DETAIL_LOD)


def _paint_far(p: QPainter, inner: QRectF, face: CardFace, colour: QColor) -> None:
    """Name first: as big as three lines allow. Cost in its corner, stats at the foot."""
    p.drawRoundedRect(inner, 4, 4)
    top = 30.0 if face.corner else 6.0
    foot = 32.0 if face.stats else 6.0
    if face.corner:
        _cost(p, QPointF(inner.right() - 15, inner.top() + 15), 15, face.corner, colour)
        p.setPen(QColor("#5b5346"))
        p.setFont(_font(13, bold=True))
        draw_text(p, QRectF(inner.left() + 4, inner.top() + 2, inner.width() - 38, 26),
                  int(Qt.AlignmentFlag.AlignVCenter) | int(Qt.AlignmentFlag.AlignLeft),
                  QFontMetricsF(_font(13, bold=True)).elidedText(
                       face.type, Qt.TextElideMode.ElideRight, inner.width() - 38), "type",
                  face.type)
    box = QRectF(inner.left() + 3, inner.top() + top, inner.width() - 6,
                 inner.height() - top - foot)
    # whole words only: a long name shrinks rather than losing letters ("Cartogr")
    size = fit_text(face.name, box.width(), box.height(),
                    (30.0, 27.0, 24.0, 21.0, 18.0, 16.0, 14.0, 12.0, 11.0, 10.0), True)
    p.setPen(theme.TEXT_DARK)
    p.setFont(_font(size, bold=True))
    draw_text(p, box, CENTRE_WRAP, face.name, "name")
    if face.stats:
        _stat_cells(p, QRectF(inner.left(), inner.bottom() - foot, inner.width(), foot), face,
                    colour)


def _stat_cells(p: QPainter, band: QRectF, face: CardFace, colour: QColor) -> None:
    """The far stat line: one cell per stat, its short name over its value ("Pow" / "3")."""
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(colour.darker(120))
    p.drawRoundedRect(band, 4, 4)
    p.setPen(theme.readable_on(colour.darker(120)))
    stats = face.stats[:4]
    cell_w = band.width() / len(stats)
    for i, (_, value) in enumerate(stats):
        cell = QRectF(band.left() + i * cell_w, band.top(), cell_w, band.height())
        p.setFont(_font(9.5, bold=True))
        draw_text(p, QRectF(cell.left(), cell.top(), cell_w, 11),
                  int(Qt.AlignmentFlag.AlignCenter), short_label(face, i), "stat-label")
        p.setFont(_font(17, bold=True))
        draw_text(p, QRectF(cell.left(), cell.top() + 9, cell_w, cell.height() - 9),
                  int(Qt.AlignmentFlag.AlignCenter), value, "stat-value")


def _paint_near(p: QPainter, inner: QRectF, face: CardFace, colour: QColor,
                detail: bool = False) -> None:
    w = inner.width()
    corner_w = 30.0 if face.corner else 0.0
    # name band: up to two lines, shrunk before it is cut
    name_w = w - 8 - corner_w
    size = fit_text(face.name, name_w, 30.0, (14.0, 13.0, 12.0, 11.0, 10.0, 9.0, 8.0, 7.0), True,
                    TOP_WRAP)
    fm = QFontMetricsF(_font(size, bold=True))
    lines = 1 if fm.horizontalAdvance(face.name) <= name_w else 2
    band = QRectF(inner.left(), inner.top(), w, max(24.0, lines * fm.lineSpacing() + 6))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(colour)
    p.drawRect(band)
    p.setPen(theme.readable_on(colour))
    p.setFont(_font(size, bold=True))
    draw_text(p, band.adjusted(4, 2, -corner_w - 2, -2),
              int(Qt.AlignmentFlag.AlignVCenter) | int(Qt.AlignmentFlag.AlignLeft) | WRAP,
              face.name, "name")
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
    pills = _pill_rows(_pill_texts(face, detail), w - 8)
    stats_h = 17.0 * len(pills)
    text_box = QRectF(body.left() + 5, y + 2, w - 10, body.bottom() - y - 6 - stats_h)
    if face.text and text_box.height() > 6:
        size = fit_text(face.text, text_box.width(), text_box.height(),
                        (11.0, 10.0, 9.0, 8.0, 7.0, 6.0, 5.0), False, TOP_WRAP)
        p.setPen(theme.TEXT_DARK)
        p.setFont(_font(size))
        draw_text(p, text_box, TOP_WRAP, face.text, "rules")
    _stat_pills(p, body, pills, colour)


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


def _pill_texts(face: CardFace, detail: bool) -> list[str]:
    """"Power 3", "Guard 2"...: the template's stats, or (read large) every field the module
    gives the card but its flags, which are badges already."""
    if not detail or not face.fields:
        return [f"{label} {value}" for label, value in face.stats]
    flags = {f.casefold() for f in face.flags}
    return [f"{label} {value}" for _, label, value in face.fields
            if not (value == "yes" and label.casefold() in flags)]


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
