"""The keyboard shortcuts, shown over the table (F1 or ?); any key or click closes it."""
from __future__ import annotations

from PySide6.QtCore import QEvent, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QKeyEvent, QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QWidget

from . import theme

SHORTCUTS: list[tuple[str, str]] = [
    ("Tab · Shift+Tab", "the next (previous) zone: your hand first, your places, the shared "
     "ones, the others'"),
    ("Arrows · Home · End", "the pieces of the zone (a ring shows where the keys are)"),
    ("Enter", "the piece's usual action: play a hand card, draw from a pile, flip a card, "
     "roll a die, +1 on a counter; on a zone: its menu"),
    ("Space", "select or unselect the piece · Ctrl+A: select the zone's pieces"),
    ("Menu key, Shift+F10", "the menu of the piece the keys are on (every action: flip, "
     "engage, counters, draw N, shuffle, peek, send to a zone, roll...); in a menu: arrows, "
     "Enter, Esc"),
    ("T, then P or Enter", "take the piece (or the selection), move to a zone, put it down: "
     "the move a drag makes · over a grid the arrows choose the cell · Esc: put back"),
    ("+ · -", "a counter: the tracker's value, or the card's first counter"),
    ("F6 · Shift+F6", "the next pane: the table outline (zones and pieces in words; the same "
     "keys work there), the chat's field, the table · Esc: back to the table"),
    ("Alt+V · Alt+G · Alt+D", "the View menu (outline, colours, announcements) · the Game "
     "menu · the Declare menu"),
    ("Drag", "move cards, tokens, dice and stacks between zones (Shift: face down)"),
    ("Drag on the table", "select several pieces (rubber band)"),
    ("Double-click a card", "flip it · in your hand: play it"),
    ("Double-click a pile", "draw a card into your hand"),
    ("Right-click", "the menu of what is under the cursor: card, pile, die, tracker, token, "
     "or the table (add a die, a token, a counter)"),
    ("Hold Alt or Z", "a large view of the card under the cursor"),
    ("F", "flip the selected cards (none selected: the one the keys are on)"),
    ("R", "engage / ready (turn sideways) the selected cards"),
    ("D", "draw a card from your deck"),
    ("N", "next phase"),
    ("Ctrl+Enter", "end the turn"),
    ("Ctrl+Z", "undo the last action; again: the one before (hot-seat: whoever made it)"),
    ("Ctrl+Shift+Z · Ctrl+Y", "redo what Undo took back"),
    ("Ctrl+Shift+N · Ctrl+Shift+E", "a designer note · end the game"),
    ("Ctrl+1 … Ctrl+6", "play as seat 1 … 6 (hot-seat: through the curtain)"),
    ("Ctrl+= or Ctrl++ · Ctrl+-", "larger / smaller text: the table is laid out again for it"),
    ("Alt+1 … Alt+6, or click a name plate", "read that seat's area large (again: back) · "
     "Alt+0: the middle"),
    ("Mouse wheel", "zoom about the cursor · on a tracker: change it"),
    ("Middle drag / Space+drag", "pan the table"),
    ("Ctrl+0 · Ctrl+9", "fit the whole table, your area readable · show the whole table"),
    ("Esc", "clear the selection · in the chat or any text field: back to the table"),
    ("F1 or ?", "this help (any key closes it)"),
]
_WRAP = int(Qt.TextFlag.TextWordWrap) | int(Qt.AlignmentFlag.AlignLeft) | \
    int(Qt.AlignmentFlag.AlignTop)


class HelpOverlay(QWidget):
    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setProperty("keeps_focus", True)  # it reads keys itself (any key closes it)
        self.setAccessibleName("Keys and mouse")
        self.setAccessibleDescription("; ".join(f"{key}: {what}" for key, what in SHORTCUTS))
        self.hide()

    def toggle(self) -> None:
        if self.isVisible():
            self.close_help()
        else:
            parent = self.parentWidget()
            if parent is not None:
                self.setGeometry(parent.rect())
            self.show()
            self.raise_()
            self.setFocus()

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor(0, 0, 0, 150))
        w = min(760.0, self.width() - 20.0)
        for size in (14.0, 13.0, 12.0, 11.0, 10.0):  # the largest text that fits the window
            rows, h = self._rows(w, size)
            if h <= self.height() - 20:
                break
        box = QRectF((self.width() - w) / 2, max(10.0, (self.height() - h) / 2), w, h)
        p.setPen(QColor("#555"))
        p.setBrush(QColor(30, 34, 32, 245))
        p.drawRoundedRect(box, 14, 14)
        p.setPen(QColor("white"))
        p.setFont(theme.font(size + 6, bold=True))
        p.drawText(box.adjusted(24, 14, -24, 0), Qt.AlignmentFlag.AlignTop, "Keyboard and mouse")
        y = box.top() + 24 + size * 2
        key_w = w * 0.36
        for (key, what), row_h in zip(SHORTCUTS, rows, strict=False):
            p.setFont(theme.font(size, bold=True))
            p.setPen(theme.HILITE)
            p.drawText(QRectF(box.left() + 24, y, key_w - 12, row_h), _WRAP, key)
            p.setFont(theme.font(size))
            p.setPen(QColor("#e0e0e0"))
            p.drawText(QRectF(box.left() + 24 + key_w, y, w - key_w - 48, row_h), _WRAP, what)
            y += row_h
        p.end()

    def _rows(self, w: float, size: float) -> tuple[list[float], float]:
        """Each row's height with its text wrapped at `size`, and the whole box's height."""
        key_w = w * 0.36
        bold, plain = QFontMetricsF(theme.font(size, bold=True)), QFontMetricsF(theme.font(size))
        rows = []
        for key, what in SHORTCUTS:
            k = bold.boundingRect(QRectF(0, 0, key_w - 12, 1000), _WRAP, key).height()
            d = plain.boundingRect(QRectF(0, 0, w - key_w - 48, 1000), _WRAP, what).height()
            rows.append(max(k, d) + size * 0.55)
        return rows, sum(rows) + 24 + size * 2 + 20

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride:  # keys close the help, not run actions
            event.accept()
            return True
        return super().event(event)

    def close_help(self) -> None:
        """Hide, and give the keyboard back to the table beneath (not the next widget)."""
        self.hide()
        parent = self.parentWidget()
        if parent is not None:
            parent.setFocus()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        self.close_help()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.close_help()
