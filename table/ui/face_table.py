"""A card's face as it lies on the table: what a player scanning the table reads, large.

The type and the cost along the top, the name in the middle (broken into lines, a word too long
for a line hyphenated), and every stat along the foot, each with its short name before its
value ("Pow 2"). The texts are sized for the zoom the player's own area is drawn at
(view.OWN_ZOOM: TEXT units are 12.5 px there, a cap height of 9 px), so the face carries no
rules text: the reading panel beside the table shows that (preview.py).
"""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPen

from . import theme
from .catalog import CardFace
from .face_text import break_lines, draw_text, fit_lines, fit_text

TEXT = 20.0          # the name, the cost, each stat's name and value
SMALLEST = 16.0      # a long name or stat shrinks no further (then it is reported)
TYPE_SIZES = (15.0, 14.0, 13.0, 12.0, 11.0)
SIZES = tuple(float(s) for s in range(int(TEXT), int(SMALLEST) - 1, -1))
COST_R = 14.0
ROW = 23.5           # a stat row's height
GAP = 7.0            # between two stats on a row
LEFT = int(Qt.AlignmentFlag.AlignLeft) | int(Qt.AlignmentFlag.AlignVCenter)
CENTRE = int(Qt.AlignmentFlag.AlignCenter)
INK = QColor("#5b5346")


def short_label(face: CardFace, index: int) -> str:
    """The name over a stat's value on the small stat line: the module's short form
    ([templates.front.labels]), else one made from its full name ("Guard" -> "Grd")."""
    from table.games.model import abbreviate

    if index < len(face.stat_shorts):
        return face.stat_shorts[index]
    return abbreviate(face.stats[index][0])


def paint_table_face(p: QPainter, rect: QRectF, face: CardFace, colour: QColor) -> None:
    inner = rect.adjusted(4, 4, -4, -4)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(theme.CARD_PAPER)
    p.drawRoundedRect(inner, 4, 4)
    top = inner.top() + (2 * COST_R + 3 if face.corner else 24)
    if face.corner:
        _cost(p, QPointF(inner.right() - COST_R - 1, inner.top() + COST_R + 1), face.corner,
              colour)
    _type_line(p, QRectF(inner.left() + 4, inner.top() + 2,
                         inner.width() - (2 * COST_R + 10 if face.corner else 8),
                         top - inner.top() - 4), face.type)
    rows = _stat_rows(face, inner.width() - 8)
    foot = sum(row.h for row in rows) + (4 if rows else 0)
    name_box = QRectF(inner.left() + 1, top, inner.width() - 2, inner.bottom() - foot - top - 2)
    size, lines = fit_lines(face.name, name_box.width(), name_box.height(), SIZES, True)
    p.setPen(theme.TEXT_DARK)
    p.setFont(theme.font(size, bold=True))
    draw_text(p, name_box, CENTRE, "\n".join(lines), "name")
    if rows:
        band = QRectF(inner.left(), inner.bottom() - foot, inner.width(), foot)
        _paint_stats(p, band, rows, colour)


def _cost(p: QPainter, centre: QPointF, text: str, colour: QColor) -> None:
    p.setPen(QPen(colour.darker(170), 2.0))
    p.setBrush(QColor("#fffdf6"))
    p.drawEllipse(centre, COST_R, COST_R)
    box = QRectF(centre.x() - COST_R, centre.y() - COST_R, 2 * COST_R, 2 * COST_R)
    size = fit_text(text, box.width() - 4, box.height(), SIZES, True)
    p.setPen(theme.TEXT_DARK)
    p.setFont(theme.font(size, bold=True))
    draw_text(p, box, CENTRE, text, "cost")


def _type_line(p: QPainter, box: QRectF, text: str) -> None:
    if not text:
        return
    size = fit_text(text, box.width(), box.height(), TYPE_SIZES, False, LEFT)
    p.setPen(INK)
    p.setFont(theme.font(size, italic=True))
    draw_text(p, box, LEFT, text, "type")


# --- the stats along the foot ------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class StatRow:
    """Short stats side by side (`pairs`), or a stat whose value is a sentence or a list
    (Gauntlet's Orders): its name (`label`), then its value in `lines` of their own."""
    h: float
    pairs: tuple[tuple[str, str], ...] = ()
    label: str = ""
    size: float = TEXT
    lines: tuple[str, ...] = ()


def _pair_w(label: str, value: str) -> float:
    return QFontMetricsF(theme.font(TEXT, bold=True)).horizontalAdvance(f"{label} {value}")


def _stat_rows(face: CardFace, width: float) -> list[StatRow]:
    rows: list[StatRow] = []
    line: list[tuple[str, str]] = []
    used = 0.0
    for i, (name, value) in enumerate(face.stats):
        label = short_label(face, i)
        w = _pair_w(label, value)
        if w > width:  # a long value: its full name, then the value in lines under it
            if line:
                rows.append(StatRow(ROW, tuple(line)))
                line, used = [], 0.0
            size, lines = _list_lines(value, width)
            need = QFontMetricsF(theme.font(size)).boundingRect(
                QRectF(0, 0, width, 10_000), LEFT, "\n".join(lines)).height()
            rows.append(StatRow(ROW + need + 1, label=name, size=size, lines=lines))
            continue
        if line and used + GAP + w > width:
            rows.append(StatRow(ROW, tuple(line)))
            line, used = [], 0.0
        line.append((label, value))
        used += (GAP if used else 0.0) + w
    if line:
        rows.append(StatRow(ROW, tuple(line)))
    return rows


def _list_lines(value: str, width: float) -> tuple[float, tuple[str, ...]]:
    """A list value ("Onward (1), Rally (1), Rout (2)") one item a line, at the largest size
    at which no item wraps (else the smallest, items wrapped)."""
    items = value.split(", ")
    for size in SIZES:
        fm = QFontMetricsF(theme.font(size))
        if all(fm.horizontalAdvance(item) <= width for item in items):
            return size, tuple(items)
    fm = QFontMetricsF(theme.font(SMALLEST))
    return SMALLEST, tuple(break_lines("\n".join(items), fm, width))


def _tint(colour: QColor) -> QColor:
    """The stats' ground: the card's paper, a little of its colour in it."""
    paper = theme.CARD_PAPER
    return QColor(round(paper.red() * 0.82 + colour.red() * 0.18),
                  round(paper.green() * 0.82 + colour.green() * 0.18),
                  round(paper.blue() * 0.82 + colour.blue() * 0.18))


def _label_ink(colour: QColor) -> QColor:
    """A stat's name in the card's colour, dark enough to read on the paper."""
    ink = QColor(colour)
    while ink.lightness() > 70:
        ink = ink.darker(130)
    return ink


def _paint_stats(p: QPainter, band: QRectF, rows: list[StatRow], colour: QColor) -> None:
    """Dark letters on a light ground (the most contrast there is), each stat's name in the
    card's colour and its value in black, all bold: thin strokes fade at small sizes."""
    p.setPen(QPen(colour, 1.5))
    p.setBrush(_tint(colour))
    p.drawRoundedRect(band, 4, 4)
    ink = _label_ink(colour)
    y = band.top() + 2
    for row in rows:
        if row.pairs:
            _pairs(p, QRectF(band.left() + 4, y, band.width() - 8, ROW), row.pairs, ink)
        else:
            p.setPen(ink)
            p.setFont(theme.font(TEXT, bold=True))
            draw_text(p, QRectF(band.left() + 4, y, band.width() - 8, ROW), LEFT, row.label,
                      "stat-label")
            p.setPen(theme.TEXT_DARK)
            p.setFont(theme.font(row.size))
            draw_text(p, QRectF(band.left() + 4, y + ROW, band.width() - 8, row.h - ROW),
                      int(Qt.AlignmentFlag.AlignLeft) | int(Qt.AlignmentFlag.AlignTop),
                      "\n".join(row.lines), "stat-text")
        y += row.h


def _pairs(p: QPainter, row: QRectF, pairs: tuple[tuple[str, str], ...], ink: QColor) -> None:
    """Short stats side by side, spread over the row: "Pow 2   Grd 1"."""
    widths = [_pair_w(label, value) for label, value in pairs]
    spare = (row.width() - sum(widths)) / (len(pairs) + 1) if len(pairs) > 1 else 0.0
    x = row.left() + max(0.0, spare)
    fm = QFontMetricsF(theme.font(TEXT, bold=True))
    p.setFont(theme.font(TEXT, bold=True))
    for (label, value), w in zip(pairs, widths, strict=True):
        lw = fm.horizontalAdvance(label + " ")
        p.setPen(ink)
        draw_text(p, QRectF(x, row.top(), lw, row.height()), LEFT, label, "stat-label")
        p.setPen(theme.TEXT_DARK)
        draw_text(p, QRectF(x + lw, row.top(), w - lw + 1, row.height()), LEFT, value,
                  "stat-value")
        x += w + max(GAP, spare)
