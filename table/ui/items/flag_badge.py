"""A rules-assist badge on a card or token: a red (error) or amber (warning) "!" in its corner.

The badge is drawn by the item itself, so it moves, rotates and scales with it; its tooltip
carries the flags' messages, the rule ids and rulebook sections.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen

from .. import theme

ERROR = QColor("#d32f2f")
WARNING = QColor("#f9a825")


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
    p.setBrush(ERROR if severity == "error" else WARNING)
    p.drawEllipse(rect)
    p.setPen(QColor("white") if severity == "error" else QColor("#1b1b1b"))
    p.setFont(theme.font(22, bold=True))
    p.drawText(rect, Qt.AlignmentFlag.AlignCenter, "!")
