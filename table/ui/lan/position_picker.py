"""A position file field for the LAN dialogs: a path and a "Choose…" button."""
from __future__ import annotations

from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QWidget,
)


class PositionPicker(QWidget):
    def __init__(self, parent: QWidget, hint: str) -> None:
        super().__init__(parent)
        self.edit = QLineEdit()
        self.edit.setPlaceholderText(hint)
        self.edit.setAccessibleName("Position file")  # the form's label names the row
        self.choose = QPushButton("Choose…")
        self.choose.clicked.connect(self._choose)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.edit, 1)
        row.addWidget(self.choose)
        # a form squeezing its rows never squashes the button below its text
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setMinimumHeight(self.sizeHint().height())

    def path(self) -> str:
        return self.edit.text().strip()

    def _choose(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Start from a position", "",
                                              "Positions (*.toml);;All files (*)")
        if path:
            self.edit.setText(path)


def position_picker(parent: QWidget, hint: str) -> PositionPicker:
    return PositionPicker(parent, hint)
