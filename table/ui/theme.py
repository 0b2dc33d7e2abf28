"""Sizes, colours and fonts shared by every item, so the table looks like one program."""
from __future__ import annotations

from PySide6.QtGui import QColor, QFont, QPainter

from . import palettes

# Scene units: a card is 5:7 like a poker card; everything else is sized from it.
CARD_W = 120.0
CARD_H = 168.0
GAP = 14.0
TOKEN = 44.0

# The colours below come from the palette in use (palettes.py; use_palette sets them): items
# read them as theme.NAME when they paint, so a new palette shows on the next repaint.
TABLE_BG: QColor                    # the felt
TABLE_BG_DARK: QColor
ZONE_FILL: QColor
ZONE_EDGE: QColor
ZONE_LABEL: QColor
HILITE: QColor                      # a drop would land here
SELECT: QColor
PRIVATE: QColor
FOCUS: QColor                       # the keyboard's ring, over FOCUS_EDGE
FOCUS_EDGE: QColor
FLAG_ERROR: QColor
FLAG_WARNING: QColor
SEAT_COLOURS: list[str]
SEVERITY_COLOURS: dict[str, str] = {}  # "#rrggbb" by severity; one dict, updated in place
PALETTE: palettes.Palette
TEXT_DARK = QColor("#1b1b1b")
CARD_PAPER = QColor("#f7f3e8")


def use_palette(palette_id: str | None) -> palettes.Palette:
    """Paint the table in this palette from now on (palettes.py)."""
    global TABLE_BG, TABLE_BG_DARK, ZONE_FILL, ZONE_EDGE, ZONE_LABEL, HILITE, SELECT, PRIVATE
    global FOCUS, FOCUS_EDGE, FLAG_ERROR, FLAG_WARNING, SEAT_COLOURS, PALETTE
    p = PALETTE = palettes.palette(palette_id)
    TABLE_BG, TABLE_BG_DARK = QColor(p.felt), QColor(p.felt_dark)
    ZONE_FILL, ZONE_EDGE, ZONE_LABEL = (QColor(*p.zone_fill), QColor(*p.zone_edge),
                                        QColor(*p.zone_label))
    HILITE, SELECT = QColor(p.highlights["drop"]), QColor(p.highlights["select"])
    PRIVATE, FOCUS = QColor(p.highlights["private"]), QColor(p.highlights["focus"])
    FOCUS_EDGE = QColor(p.focus_edge)
    FLAG_ERROR, FLAG_WARNING = QColor(p.severities["error"]), QColor(p.severities["warning"])
    SEVERITY_COLOURS.clear()
    SEVERITY_COLOURS.update(p.severities)
    SEAT_COLOURS = list(p.seats)
    return p


def severity_colour(severity: str) -> QColor:
    """A rules-assist flag's severity in the palette's colour (its word is always beside it)."""
    return QColor(SEVERITY_COLOURS.get(severity, "#cccccc"))


def seat_colour(seat: int | None, given: str = "") -> QColor:
    """A seat's colour: the palette's (by seat number), or the game's own where the palette
    keeps them (`given`: the seat's colour in the game module)."""
    if PALETTE.game_seats and given and QColor(given).isValid():
        return QColor(given)
    if seat is None or seat < 1:
        return QColor("#9e9e9e")
    return QColor(SEAT_COLOURS[(seat - 1) % len(SEAT_COLOURS)])


use_palette(palettes.DEFAULT)


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
