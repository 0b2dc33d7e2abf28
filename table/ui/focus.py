"""Keyboard focus follows the player: the table holds it, so single-key shortcuts (D, F, N, R)
work from the first moment and after every dialog, overlay or click on a panel.

Only places one types into keep the focus (chat, the log filter, spin boxes); a click on a
button, a combo box, a tab or a list hands it straight back to the table, so a letter never
changes a combo box's choice behind the player's back. Overlays that read keys themselves
(help, the hot-seat curtain) set the `keeps_focus` property.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import (
    QAbstractSpinBox, QApplication, QComboBox, QLineEdit, QPlainTextEdit, QTextEdit, QWidget,
)

if TYPE_CHECKING:
    from .main_window import TableWindow


def takes_typing(widget: QWidget) -> bool:
    """A widget the player types text into."""
    if isinstance(widget, QComboBox):
        return widget.isEditable()
    if isinstance(widget, (QTextEdit, QPlainTextEdit)):
        return not widget.isReadOnly()
    return isinstance(widget, (QLineEdit, QAbstractSpinBox))


class TableFocus(QObject):
    def __init__(self, window: "TableWindow") -> None:
        super().__init__(window)
        self.window = window
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._changed)

    def _changed(self, old: QWidget | None, new: QWidget | None) -> None:
        view = self.window.view
        if new is None or new is view or new is view.viewport():
            return
        if new.window() is not self.window or not self.window.isVisible():
            return  # dialogs, menus, other windows keep their own focus
        widget: QWidget | None = new
        while widget is not None and widget is not self.window:
            if widget.property("keeps_focus"):
                return
            widget = widget.parentWidget()
        if takes_typing(new):
            return
        view.setFocus()
