"""A large preview of the card under the cursor, as the viewing seat may see it."""
from __future__ import annotations

import html

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from table.core.views import view_object

from . import theme
from .card_renderer import paint_back, paint_face
from .catalog import CardFace
from .controller import TableController


class _CardCanvas(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.face: CardFace | None = None
        self.show_back = False
        self.ctl: TableController | None = None
        self.setMinimumSize(QSize(180, 252))
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def paintEvent(self, event: QPaintEvent) -> None:
        if self.face is None and not self.show_back:
            return
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        scale = min(self.width() / (theme.CARD_W + 8), self.height() / (theme.CARD_H + 8))
        p.translate(self.width() / 2, self.height() / 2)
        p.scale(scale, scale)  # draw in card units: the same vector painting as on the table
        rect = QRectF(-theme.CARD_W / 2, -theme.CARD_H / 2, theme.CARD_W, theme.CARD_H)
        if self.face is not None:
            paint_face(p, rect, self.face, 4.0)
        elif self.ctl is not None:
            paint_back(p, rect, self.ctl.catalog.back, 4.0)
        p.end()


class CardPreview(QWidget):
    def __init__(self, ctl: TableController) -> None:
        super().__init__()
        self.ctl = ctl
        self.canvas = _CardCanvas()
        self.canvas.ctl = ctl
        self.caption = QLabel("Hover over a card to see it here.")
        self.caption.setWordWrap(True)
        self.caption.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.caption.setStyleSheet("color: #cccccc; padding: 4px;")
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 4, 4, 4)
        box.addWidget(self.canvas, 1)
        box.addWidget(self.caption)
        self.current = ""

    def clear(self) -> None:
        """Forget the card shown (the seat changed: it was the last seat's to see)."""
        self.current = ""
        self.canvas.face, self.canvas.show_back = None, False
        self.caption.setText("Hover over a card to see it here.")
        self.canvas.update()

    def show_card(self, obj_id: str) -> None:
        if not obj_id:
            return  # keep the last card: moving to the panel to read it must not clear it
        obj = self.ctl.replica.state.objs.get(obj_id)
        if obj is None or obj.kind != "card":
            return
        self.current = obj_id
        view = view_object(self.ctl.replica.state, self.ctl.replica.knowledge, obj, self.ctl.seat)
        if view.card is None:
            self.canvas.face, self.canvas.show_back = None, True
            self.caption.setText("A face-down card: you may not see it.")
        else:
            face = self.ctl.catalog.face(view.card)
            self.canvas.face, self.canvas.show_back = face, False
            parent = self.ctl.replica.state.objs.get(obj.container or "")
            in_hand = parent is not None and parent.visibility == "owner"
            note = "" if view.shows_face else \
                "<br><i>In your hand: only you can see it.</i>" if in_hand else \
                "<br><i>Face down: only you can see it.</i>"
            counters = ", ".join(f"{k} {v}" for k, v in sorted(obj.counters.items()) if v)
            self.caption.setText(f"<b>{html.escape(face.name)}</b> — "
                                 f"{html.escape(face.subtitle or face.type)}"
                                 + (f"<br>{fields_line(face)}" if face.fields else "")
                                 + (f"<br>Counters: {counters}" if counters else "") + note)
        self.canvas.update()


def fields_line(face: CardFace) -> str:
    """Every field the module gives the card, named as the module names it: "Power 3 · ..."."""
    return " · ".join(f"{html.escape(label)} <b>{html.escape(value)}</b>"
                      for _, label, value in face.fields)
