"""Sizes, colours and fonts shared by every item, so the table looks like one program."""
from __future__ import annotations

from PySide6.QtGui import QColor, QFont, QPainter

# Scene units: a card is 5:7 like a poker card; everything else is sized from it.
CARD_W = 120.0
CARD_H = 168.0
GAP = 14.0
TOKEN = 44.0

TABLE_BG = QColor("#1f3a2e")        # felt green
TABLE_BG_DARK = QColor("#172c23")
ZONE_FILL = QColor(255, 255, 255, 18)
ZONE_EDGE = QColor(255, 255, 255, 70)
ZONE_LABEL = QColor(235, 240, 235, 200)
HILITE = QColor("#ffd54a")
SELECT = QColor("#4fc3f7")
PRIVATE = QColor("#b39ddb")
TEXT_DARK = QColor("#1b1b1b")
CARD_PAPER = QColor("#f7f3e8")

SEAT_COLOURS = ["#e53935", "#1e88e5", "#43a047", "#fdd835", "#8e24aa", "#fb8c00"]


def seat_colour(seat: int | None, given: str = "") -> QColor:
    if given and QColor(given).isValid():
        return QColor(given)
    if seat is None or seat < 1:
        return QColor("#9e9e9e")
    return QColor(SEAT_COLOURS[(seat - 1) % len(SEAT_COLOURS)])


def font(px: float, bold: bool = False, italic: bool = False) -> QFont:
    """A font sized in scene units (pixel size), so it scales crisply with the view."""
    f = QFont("DejaVu Sans")
    f.setPixelSize(max(1, round(px)))
    f.setBold(bold)
    f.setItalic(italic)
    # no ligatures: a PDF's text then reads "Offering", not "O\ufb00ering", when searched or
    # copied (and a card's name is spelled as the module spells it)
    f.setFeature(QFont.Tag("liga"), 0)
    return f


MIN_TEXT_PX = 9.5  # labels are never drawn smaller than this on screen (a 1366x768 laptop)
MOST_GROWTH = 1.7  # ... unless that would make them this many times their size on the table


def legible_font(p: QPainter, px: float, bold: bool = False, italic: bool = False) -> QFont:
    """`font(px)`, grown (up to MOST_GROWTH times) so it stays MIN_TEXT_PX tall on screen
    when the view is zoomed out (the painter's transform: view zoom and item scale)."""
    m = p.worldTransform()
    scale = (m.m11() ** 2 + m.m12() ** 2) ** 0.5 or 1.0
    return font(min(px * MOST_GROWTH, max(px, MIN_TEXT_PX / scale)), bold, italic)


def readable_on(colour: QColor) -> QColor:
    """Black or white text, whichever reads better on `colour`."""
    lum = 0.299 * colour.red() + 0.587 * colour.green() + 0.114 * colour.blue()
    return QColor("#111111") if lum > 150 else QColor("#ffffff")
