"""A rules-assist badge on a card or token: a "!" in its corner, on a red octagon (error) or an
amber triangle (warning): the shape tells them apart without the colour (palettes.py).

The badge is drawn by the item itself, so it moves, rotates and scales with it; its tooltip
carries the flags' messages, the rule ids and rulebook sections.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF

from .. import theme


def severity_of(flags: list[Any]) -> str | None:
    """The worst severity among an object's flags ("error" beats "warning")."""
    if not flags:
        return None
    return "error" if any(f.severity == "error" for f in flags) else "warning"


def tooltip_of(flags: list[Any], message: Callable[[Any], str] | None = None) -> str:
    """The flags' lines; `message` words each for the viewing seat (privacy.flag_message).
    Plain words for the severity: no symbol the table's font may lack."""
    return "\n".join(f"{'Error' if f.severity == 'error' else 'Warning'}: {f.rule} "
                     f"({f.section}): {message(f) if message else f.message}" for f in flags)


def paint_badge(p: QPainter, corner: QRectF, severity: str) -> None:
    """Draw the badge at the top-left of `corner` (the item's rect)."""
    size = 36.0
    rect = QRectF(corner.left() - size / 3, corner.top() - size / 3, size, size)
    p.setPen(QPen(QColor("#1b1b1b"), 1.5))
    error = severity == "error"
    p.setBrush(theme.FLAG_ERROR if error else theme.FLAG_WARNING)
    c, r = rect.center(), size / 2
    if error:  # an octagon, a stop sign
        corners = [c + QPointF(r * math.cos(math.radians(22.5 + 45 * i)),
                               r * math.sin(math.radians(22.5 + 45 * i))) for i in range(8)]
        text_box = rect
    else:  # a triangle, point up
        corners = [QPointF(c.x(), rect.top()), QPointF(rect.right(), rect.bottom() - 3),
                   QPointF(rect.left(), rect.bottom() - 3)]
        text_box = rect.adjusted(0, 6, 0, 0)
    p.drawPolygon(QPolygonF(corners))
    p.setPen(QColor("white") if error else QColor("#1b1b1b"))
    p.setFont(theme.font(22, bold=True))
    p.drawText(text_box, Qt.AlignmentFlag.AlignCenter, "!")
