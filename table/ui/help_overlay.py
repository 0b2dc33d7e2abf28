"""The keyboard shortcuts, shown over the table (F1 or ?); any key or click closes it."""
from __future__ import annotations

from PySide6.QtCore import QEvent, QRectF, Qt
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QWidget

from . import theme

SHORTCUTS: list[tuple[str, str]] = [
    ("Drag", "move cards, tokens and stacks between zones (Shift: face down)"),
    ("Drag on the table", "select several pieces (rubber band)"),
    ("Double-click a card", "flip it"),
    ("Double-click a pile", "draw a card into your hand"),
    ("Right-click", "pile: draw N, shuffle, search, peek, reveal · card: counters, show"),
    ("F", "flip the selected cards"),
    ("R", "engage / ready (turn sideways) the selected cards"),
    ("D", "draw a card from your deck"),
    ("N", "next phase"),
    ("Ctrl+Enter", "end the turn"),
    ("Ctrl+Z", "undo your last action"),
    ("Ctrl+1 … Ctrl+6", "play as seat 1 … 6 (hot-seat)"),
    ("Mouse wheel", "zoom about the cursor · on a tracker: change it"),
    ("Middle drag / Space+drag", "pan the table"),
    ("Ctrl+0", "fit the table in the window"),
    ("Esc", "clear the selection"),
    ("F1 or ?", "this help"),
]


class HelpOverlay(QWidget):
    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setProperty("keeps_focus", True)  # it reads keys itself (any key closes it)
        self.hide()

    def toggle(self) -> None:
        if self.isVisible():
            self.close_help()
        else:
            self.setGeometry(self.parentWidget().rect())
            self.show()
            self.raise_()
            self.setFocus()

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor(0, 0, 0, 150))
        w, h = 640.0, 64.0 + 30 * len(SHORTCUTS)
        box = QRectF((self.width() - w) / 2, max(10.0, (self.height() - h) / 2), w, h)
        p.setPen(QColor("#555"))
        p.setBrush(QColor(30, 34, 32, 245))
        p.drawRoundedRect(box, 14, 14)
        p.setPen(QColor("white"))
        p.setFont(theme.font(20, bold=True))
        p.drawText(box.adjusted(24, 14, -24, 0), Qt.AlignmentFlag.AlignTop, "Keyboard and mouse")
        y = box.top() + 56
        for key, what in SHORTCUTS:
            p.setFont(theme.font(14, bold=True))
            p.setPen(theme.HILITE)
            p.drawText(QRectF(box.left() + 24, y, 210, 26), Qt.AlignmentFlag.AlignVCenter, key)
            p.setFont(theme.font(14))
            p.setPen(QColor("#e0e0e0"))
            p.drawText(QRectF(box.left() + 240, y, w - 260, 26), Qt.AlignmentFlag.AlignVCenter,
                       what)
            y += 30
        p.end()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride:  # keys close the help, not run actions
            event.accept()
            return True
        return super().event(event)

    def close_help(self) -> None:
        """Hide, and give the keyboard back to the table beneath (not the next widget)."""
        self.hide()
        self.parentWidget().setFocus()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        self.close_help()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.close_help()
