"""The replay's timeline: a slider over every op, with turns, flags and notes marked under it."""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

TURN = QColor("#90a4ae")
FLAG = QColor("#e53935")
NOTE = QColor("#ffb300")
CURSOR = QColor("#3f7cac")


class TimelineStrip(QWidget):
    """Paints the whole log as a bar; click or drag anywhere to seek (both ways)."""

    seekRequested = Signal(int)  # a cursor position: ops applied, 0..total

    def __init__(self, total: int) -> None:
        super().__init__()
        self.total = max(0, total)
        self.position = self.total
        self.turns: list[int] = []
        self.flags: list[int] = []
        self.notes: list[int] = []
        self.setMinimumHeight(34)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setToolTip("The whole log: grey ticks start turns, red marks flags, amber marks "
                        "notes. Click or drag to go to any moment.")
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def set_marks(self, turns: list[int], flags: list[int], notes: list[int]) -> None:
        self.turns, self.flags, self.notes = turns, flags, notes
        self.update()

    def set_position(self, position: int) -> None:
        if position != self.position:
            self.position = position
            self.update()

    def _x(self, position: float) -> float:
        w = self.width() - 12
        return 6 + (w * position / self.total if self.total else 0)

    def _position_at(self, x: float) -> int:
        w = self.width() - 12
        if w <= 0 or not self.total:
            return 0
        return max(0, min(self.total, round((x - 6) / w * self.total)))

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        h = self.height()
        bar = QRectF(6, 8, self.width() - 12, 10)
        p.fillRect(bar, QColor("#37474f"))
        done = QRectF(bar.left(), bar.top(), self._x(self.position) - bar.left(), bar.height())
        p.fillRect(done, QColor("#546e7a"))
        p.setPen(QPen(TURN, 1))
        for i in self.turns:  # a turn starts with op i: the table after it is position i + 1
            x = self._x(i + 1)
            p.drawLine(int(x), 6, int(x), 20)
        for colour, marks, y in ((NOTE, self.notes, 24), (FLAG, self.flags, 24)):
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(colour)
            for i in marks:
                p.drawEllipse(QRectF(self._x(i + 1) - 3, y, 6, 6))
        x = self._x(self.position)
        p.setPen(QPen(CURSOR, 3))
        p.drawLine(int(x), 2, int(x), h - 2)
        p.end()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.seekRequested.emit(self._position_at(event.position().x()))

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if event.buttons() & Qt.MouseButton.LeftButton:
            self.seekRequested.emit(self._position_at(event.position().x()))
