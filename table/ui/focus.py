"""Keyboard focus follows the player: the table holds it, so single-key shortcuts (D, F, N, R)
work from the first moment and after every dialog, overlay or click on a panel.

Only places one types into keep the focus (chat, the log filter, spin boxes); a click on a
button, a combo box, a tab or a list hands it straight back to the table, so a letter never
changes a combo box's choice behind the player's back. Overlays that read keys themselves
(help, the hot-seat curtain) set the `keeps_focus` property. Esc in a field one types into
(chat, after sending a message, too) leaves it and gives the table the keys again.
"""
from __future__ import annotations

import contextlib

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)


def takes_typing(widget: QWidget) -> bool:
    """A widget the player types text into."""
    if isinstance(widget, QComboBox):
        return widget.isEditable()
    if isinstance(widget, (QTextEdit, QPlainTextEdit)):
        return not widget.isReadOnly()
    return isinstance(widget, (QLineEdit, QAbstractSpinBox))


class TableFocus(QObject):
    def __init__(self, window: QWidget, table: QAbstractScrollArea) -> None:
        """`window`'s focus goes back to `table` (its view of the table)."""
        super().__init__(window)
        self.window, self.table = window, table
        self._typing: QWidget | None = None  # the field being typed into: Esc leaves it
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._changed)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) \
                and event.key() == Qt.Key.Key_Escape \
                and event.modifiers() == Qt.KeyboardModifier.NoModifier \
                and watched is self._typing:
            self.table.setFocus(Qt.FocusReason.ShortcutFocusReason)
            return True
        return False

    def _watch_typing(self, widget: QWidget | None) -> None:
        if self._typing is not None:
            # the field may be deleted by now (a closed dialog's, a rebuilt panel's)
            with contextlib.suppress(RuntimeError):
                self._typing.removeEventFilter(self)
        self._typing = widget
        if widget is not None:
            widget.installEventFilter(self)

    def _changed(self, old: QWidget | None, new: QWidget | None) -> None:
        view = self.table
        self._watch_typing(None)
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
            self._watch_typing(new)
            return
        view.setFocus()
