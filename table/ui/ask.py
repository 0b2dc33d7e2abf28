"""Small questions (how many, what value, what name) that hand the keyboard back to the table
when answered or cancelled, so the next single-key shortcut works without a click."""
from __future__ import annotations

from PySide6.QtWidgets import QInputDialog, QWidget


def back_to_table(parent: QWidget) -> None:
    parent.activateWindow()
    view = getattr(parent, "view", None)
    if isinstance(view, QWidget):
        view.setFocus()


def ask_int(parent: QWidget, title: str, label: str, value: int, lo: int, hi: int
            ) -> tuple[int, bool]:
    answer, ok = QInputDialog.getInt(parent, title, label, value, lo, hi)
    back_to_table(parent)
    return answer, ok


def ask_text(parent: QWidget, title: str, label: str, text: str = "") -> tuple[str, bool]:
    answer, ok = QInputDialog.getText(parent, title, label, text=text)
    back_to_table(parent)
    return answer, ok
