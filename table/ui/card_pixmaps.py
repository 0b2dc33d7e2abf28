"""Card pictures kept per look and per device scale, shared by every card that looks the same.

A table of 1,000 cards has a few dozen distinct looks (faces, backs per owner); once zooming
pauses each look in sight is painted once at the new scale, and every card showing it blits it
at device size (items/card_item.py): an upright card is copied pixel for pixel.
"""
from __future__ import annotations

import math

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPixmap

from . import theme
from .card_renderer import paint_back, paint_face
from .catalog import BackStyle, CardFace

STEPS = 32          # device scales are rounded to 1/32: a zoom step re-renders only looks
MAX_PICTURES = 600  # looks x scales kept (a few MB); the oldest go first
MARGIN = 2          # pixels around the card, for its anti-aliased edge

_looks: dict[tuple[object, ...], int] = {}
_pictures: dict[tuple[int, int], QPixmap] = {}


def look_id(face: CardFace | None, back: BackStyle, owner: QColor | None) -> int:
    """A small number standing for how a card looks (hashing the face once, not per paint)."""
    key = (face, back, owner.rgba() if owner is not None and face is None else None)
    found = _looks.get(key)
    if found is None:
        found = _looks[key] = len(_looks)
        _specs[found] = (face, back, owner)
    return found


_specs: dict[int, tuple[CardFace | None, BackStyle, QColor | None]] = {}


def picture(look: int, step: int) -> QPixmap:
    pix = _pictures.get((look, step))
    if pix is None:
        if len(_pictures) >= MAX_PICTURES:
            for key in list(_pictures)[:MAX_PICTURES // 4]:
                del _pictures[key]
        pix = _pictures[(look, step)] = _render(look, step / STEPS)
    return pix


def _render(look: int, scale: float) -> QPixmap:
    face, back, owner = _specs[look]
    w = math.ceil(theme.CARD_W * scale) + 2 * MARGIN
    h = math.ceil(theme.CARD_H * scale) + 2 * MARGIN
    pix = QPixmap(w, h)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    p.translate(MARGIN, MARGIN)
    p.scale(scale, scale)
    rect = QRectF(0, 0, theme.CARD_W, theme.CARD_H)
    if face is not None:
        paint_face(p, rect, face, scale)
    else:
        paint_back(p, rect, back, scale, owner)
    p.end()
    return pix
