"""The hot-seat curtain: between two seats' turns the screen shows only "Pass to <name>", so
the next player does not read the last one's hand while the laptop changes hands.

It covers the whole window (table, preview, log) and opens on a click, Space or Enter. It is
on by default wherever one window plays two or more seats: every change of the seat looked
from (End turn, Ctrl+2, a seat tab) then passes through it. While it is up, no shortcut acts
on the table it hides. Turning it off is remembered.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QRectF, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
)
from PySide6.QtWidgets import QWidget

from . import theme

if TYPE_CHECKING:
    from .controller import TableController
    from .settings import Settings

OPEN_KEYS = (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter)


def curtain_wanted(settings: Settings | None, ctl: TableController) -> bool:
    """On when this window plays several seats, unless the player turned it off."""
    saved = settings.extra.get("curtain") if settings is not None else None
    if isinstance(saved, bool):
        return saved
    return len(ctl.replica.my_seats) > 1 and not ctl.read_only


class Curtain(QWidget):
    opened = Signal()

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setProperty("keeps_focus", True)  # the table's keys wait until it opens
        self.name = ""
        self.colour = QColor("white")
        self.why = ""  # what the table waits for from the next player, when it says so
        self.hide()

    def close_over(self, name: str, colour: QColor) -> None:
        self.name, self.colour, self.why = name, colour, ""
        parent = self.parentWidget()
        if parent is not None:
            self.setGeometry(parent.rect())
        self.show()
        self.raise_()
        self.setFocus()

    def say(self, why: str) -> None:
        """What the table waits for from the player it is passed to (a bot's Rite waits for
        their answer): under the title, read before the cards show."""
        self.why = why
        self.setAccessibleDescription(why)
        self.update()

    def open(self) -> None:
        self.hide()
        self.opened.emit()

    def texts(self) -> list[tuple[QRectF, QFont, QColor, str]]:
        """The title and the line under it, each in the box its wrapped text needs, one under
        the other (a gap between), the pair in the middle of the window."""
        r = QRectF(self.rect()).adjusted(24, 24, -24, -24)
        flags = int(Qt.AlignmentFlag.AlignHCenter) | int(Qt.TextFlag.TextWordWrap)
        parts = [(theme.font(40, bold=True), self.colour, f"Pass to {self.name}"),
                 (theme.font(18), QColor("#dddddd"),
                  f"{self.name}: click or press Space when you are ready to see your cards.")]
        if self.why:
            parts.append((theme.font(18), QColor("#f2d56b"), self.why))
        boxes = [QFontMetricsF(font).boundingRect(QRectF(0, 0, r.width(), 10_000), flags, text)
                 for font, _, text in parts]
        gap = 18.0
        y = r.center().y() - (sum(b.height() for b in boxes) + gap) / 2
        out = []
        for (font, colour, text), box in zip(parts, boxes, strict=True):
            out.append((QRectF(r.left(), y, r.width(), box.height()), font, colour, text))
            y += box.height() + gap
        return out

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), theme.TABLE_BG_DARK)
        for box, font, colour, text in self.texts():
            p.setPen(colour)
            p.setFont(font)
            p.drawText(box, int(Qt.AlignmentFlag.AlignHCenter) | int(Qt.TextFlag.TextWordWrap),
                       text)
        p.end()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride:
            event.accept()  # no shortcut (Ctrl+Z, End turn) acts on the table behind it
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        plain = event.modifiers() in (Qt.KeyboardModifier.NoModifier,
                                      Qt.KeyboardModifier.KeypadModifier)
        if event.key() in OPEN_KEYS and plain:  # not Ctrl+Enter (End turn) pressed again
            self.open()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.open()
