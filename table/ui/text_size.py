"""The text-size setting (Ctrl+= and Ctrl+-): larger or smaller text everywhere, and the table
laid out again for it rather than zoomed.

The program's font (every panel and dialog) is its starting size times the setting; a table
window then lays its table out for the new size (view.own_zoom follows the setting: the
player's own cards keep their text at the setting's size and the rest of the table takes the
room that is left). The setting is remembered (settings.text_scale).
"""
from __future__ import annotations

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication

from .settings import TEXT_SCALES, set_text_scale, text_scale

_BASE = "sandtable_base_font"  # the application's font before any setting, kept on it


def apply_text_scale(app: QApplication | None = None, scale: float | None = None) -> float:
    """Set the program's font to its starting size times `scale` (the remembered setting when
    None); returns the scale applied."""
    app = app or QApplication.instance()  # type: ignore[assignment]
    scale = text_scale() if scale is None else scale
    if app is None:
        return scale
    base = app.property(_BASE)
    if not isinstance(base, QFont):
        base = QFont(app.font())
        app.setProperty(_BASE, base)
    font = QFont(base)
    if base.pixelSize() > 0:
        font.setPixelSize(max(6, round(base.pixelSize() * scale)))
    else:
        font.setPointSizeF(max(5.0, base.pointSizeF() * scale))
    if font != app.font():
        app.setFont(font)
    return scale


def step_text_scale(steps: int) -> float:
    """One step larger (1) or smaller (-1) than now; remembered and applied."""
    now = text_scale()
    i = min(range(len(TEXT_SCALES)), key=lambda j: abs(TEXT_SCALES[j] - now))
    scale = set_text_scale(TEXT_SCALES[max(0, min(len(TEXT_SCALES) - 1, i + steps))])
    apply_text_scale(scale=scale)
    return scale
