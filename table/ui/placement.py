"""Where a piece sits inside its container: fanned in a hand, on top of a pile, free in a zone.

Pure geometry (no items), so the scene can place one card without rearranging its neighbours
when the container allows it (free zones, grids), and the rules are testable on their own.
"""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF

from . import theme
from .layout import CELL, LABEL, PAD
from .layout_units import BACKS_STEP, FAN_STEP

PILE_SHOWN = 2  # a pile shows its top two cards, so lifting the top reveals the next back


@dataclass(slots=True)
class Spot:
    pos: QPointF
    rotation: float = 0.0
    z: float = 0.0
    visible: bool = True
    scale: float = 1.0


def pile_spot(rect: QRectF, index: int, count: int) -> Spot:
    c = QPointF(rect.center().x(), rect.top() + LABEL + PAD + theme.CARD_H / 2)
    return Spot(c, 0.0, index * 0.001, index >= count - PILE_SHOWN)


def slot_spot(rect: QRectF, index: int, count: int) -> Spot:
    """Cards in a slot overlap downward (a Territory with Overlays), newest on top."""
    c = QPointF(rect.center().x(), rect.top() + LABEL + PAD + theme.CARD_H / 2)
    step = min(22.0, 60.0 / max(1, count - 1)) if count > 1 else 0.0
    return Spot(QPointF(c.x(), c.y() + index * step - (count - 1) * step / 2), 0.0, index * 0.01)


def hand_spot(rect: QRectF, index: int, count: int, fan: bool) -> Spot:
    """The viewing seat's own hand side by side, upright (each card's name and stats read
    whole, as a player holds them); the others' a tight row of backs. Cards overlap only when
    more than the hand's room holds."""
    usable = max(0.0, rect.width() - 2 * PAD - theme.CARD_W)
    natural = FAN_STEP if fan else BACKS_STEP
    step = min(natural, usable / max(1, count - 1)) if count > 1 else 0.0
    width = step * (count - 1)
    x = rect.left() + PAD + theme.CARD_W / 2 + (usable - width) / 2 + index * step
    y = rect.top() + LABEL + PAD + theme.CARD_H / 2
    return Spot(QPointF(x, y), 0.0, index * 0.01)


def free_spot(rect: QRectF, pos: tuple[float, ...] | None, index: int, auto_index: int,
              auto_count: int = 0) -> Spot:
    """A stated position (centre, relative to the zone) or, without one, the next free place:
    side by side while the zone has room for them all (each card's name whole), else in rows
    overlapping as little as the room allows."""
    if pos is not None and len(pos) >= 2:
        return Spot(QPointF(rect.left() + pos[0], rect.top() + pos[1]), 0.0, index * 0.01)
    room = rect.width() - 2 * PAD - theme.CARD_W
    side_by_side = int(room // FAN_STEP) + 1
    count = max(auto_count, auto_index + 1)
    step = FAN_STEP if count <= side_by_side else max(theme.CARD_W * 0.25,
                                                      room / max(1, count - 1))
    per_row = max(1, int(room // step) + 1)
    col, row = auto_index % per_row, auto_index // per_row
    x = rect.left() + PAD + theme.CARD_W / 2 + col * step
    y = rect.top() + LABEL + PAD + theme.CARD_H / 2 + row * 36
    return Spot(QPointF(x, min(y, rect.bottom() - theme.CARD_H / 2)), 0.0, index * 0.01)


def token_spot(rect: QRectF, index: int) -> Spot:
    """A token with no place of its own in a zone: in a row along the zone's foot from its
    right end, clear of the zone's name and of the cards laid from its left."""
    x = rect.right() - PAD - theme.TOKEN / 2 - index * (theme.TOKEN + 4)
    y = rect.bottom() - PAD - theme.TOKEN / 2
    return Spot(QPointF(max(rect.left() + PAD + theme.TOKEN / 2, x),
                        max(rect.top() + LABEL + theme.TOKEN / 2, y)), 0.0, 1.0 + index * 0.01)


def grid_spot(rect: QRectF, pos: tuple[float, ...] | None, index: int, is_card: bool) -> Spot:
    col, row = (pos[0], pos[1]) if pos is not None and len(pos) >= 2 else (index, 0)
    c = QPointF(rect.left() + PAD + (col + 0.5) * CELL, rect.top() + LABEL + PAD + (row + 0.5) * CELL)
    if is_card:  # a card on a cell shrinks to fit it
        return Spot(c, 0.0, index * 0.01, True, min(1.0, (CELL - 6) / theme.CARD_H))
    # a standee or hazard fills most of its cell, so the arena reads at a glance
    return Spot(c, 0.0, index * 0.01, True, (CELL - 24) / theme.TOKEN)


def clear_of(rect: QRectF, pos: list[float], size: float,
             taken: list[QRectF]) -> list[float]:
    """`pos` (where a new or sent piece of `size` would lie, stored relative to its zone
    `rect`), or the nearest place to its right, then below, where it covers none of the pieces
    already lying there (`taken`, in the same units): a die added where a counter lies is not
    hidden under it, nor the counter under it."""
    step = size + 4

    def clear(x: float, y: float) -> bool:
        box = QRectF(x - size / 2, y - size / 2, size, size)
        return not any(box.intersects(other) for other in taken)

    for row in range(8):
        y = min(pos[1] + row * step, rect.height() - size / 2)
        for col in range(16):
            x = pos[0] + col * step
            if x > rect.width() - size / 2:
                break
            if clear(x, y):
                return [round(x, 1), round(y, 1)]
    return pos


def free_pos(rect: QRectF, centre: QPointF) -> list[float]:
    """The stored position of a piece dropped with its centre at `centre`."""
    return [round(centre.x() - rect.left(), 1), round(centre.y() - rect.top(), 1)]
