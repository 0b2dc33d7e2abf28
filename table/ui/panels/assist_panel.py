"""Rules assist flags. The assist is not wired in yet, so this says so plainly."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget


class AssistPanel(QWidget):
    def __init__(self) -> None:
        super().__init__()
        label = QLabel("<b>Rules assist is off for now.</b><br><br>"
                       "When it arrives, moves that look illegal are flagged here with the "
                       "rulebook section. Flags never block anything.")
        label.setWordWrap(True)
        label.setAlignment(Qt.AlignmentFlag.AlignTop)
        label.setStyleSheet("color: #bbbbbb; padding: 8px;")
        box = QVBoxLayout(self)
        box.addWidget(label)
        box.addStretch(1)
