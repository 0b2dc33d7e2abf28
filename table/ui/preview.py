"""The reading panel: the card under the pointer (or the last one), as the viewing seat may see
it, with everything it says in the panel's own text (its rules text readable with no key held:
the table's faces carry none).

A small picture of the card beside its name, type and cost; every stat and field the module
gives it; then its rules text; then what lies on it and who may see it. It follows the card:
when the card moves (played from the hand, turned face down, taken by another seat) the
panel says so at once.
"""
from __future__ import annotations

import html

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from table.core.views import view_object

from . import theme
from .card_renderer import paint_back, paint_face
from .catalog import CardFace
from .controller import TableController

PICTURE_W = 96  # px: the card as on the table, a little larger
EMPTY = "Hover over a card to read it here."
RULES_GROWTH = 1.25  # the rules text a little larger than the panel's own


class _CardCanvas(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.face: CardFace | None = None
        self.show_back = False
        self.ctl: TableController | None = None
        self.setFixedSize(QSize(PICTURE_W, round(PICTURE_W * theme.CARD_H / theme.CARD_W)))

    def paintEvent(self, event: QPaintEvent) -> None:
        if self.face is None and not self.show_back:
            return
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        scale = self.width() / theme.CARD_W
        p.scale(scale, scale)  # in card units: the same vector painting as on the table
        rect = QRectF(0, 0, theme.CARD_W, theme.CARD_H)
        if self.face is not None:
            paint_face(p, rect, self.face, scale)
        elif self.ctl is not None:
            paint_back(p, rect, self.ctl.catalog.back, scale)
        p.end()


def _label(object_name: str) -> QLabel:
    label = QLabel()
    label.setObjectName(object_name)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
    return label


class CardPreview(QScrollArea):
    def __init__(self, ctl: TableController) -> None:
        super().__init__()
        self.ctl = ctl
        self.current = ""
        self.canvas = _CardCanvas()
        self.canvas.ctl = ctl
        self.caption = _label("card-caption")  # name, type, cost, stats, fields
        self.rules = _label("card-rules")      # the rules text
        self.notes = _label("card-notes")      # counters, and who may see it
        self.notes.setStyleSheet("color: #b8c4bc;")
        top = QHBoxLayout()
        top.setSpacing(8)
        top.addWidget(self.canvas, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.caption, 1)
        body = QWidget()
        box = QVBoxLayout(body)
        box.setContentsMargins(6, 6, 6, 6)
        box.setSpacing(6)
        box.addLayout(top)
        box.addWidget(self.rules)
        box.addWidget(self.notes)
        box.addStretch(1)
        self.setWidget(body)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self._fonts()
        self.clear()

    def _fonts(self) -> None:
        """The rules text a little larger than the panel's text (the text-size setting sets
        the panel's; the panel follows it). A style sheet, since the program's style sheet
        would override a font set on the label."""
        base = self.font()
        px = base.pixelSize() if base.pixelSize() > 0 else \
            base.pointSizeF() * self.logicalDpiY() / 72
        self.rules.setStyleSheet(f"font-size: {round(px * RULES_GROWTH)}px;")

    def changeEvent(self, event: object) -> None:
        from PySide6.QtCore import QEvent

        super().changeEvent(event)  # type: ignore[arg-type]
        if getattr(event, "type", lambda: None)() == QEvent.Type.FontChange:
            self._fonts()

    def clear(self) -> None:
        """Forget the card shown (the seat changed: it was the last seat's to see)."""
        self.current = ""
        self.canvas.face, self.canvas.show_back = None, False
        self.canvas.hide()
        self.caption.setText(EMPTY)
        self.rules.setText("")
        self.rules.hide()
        self.notes.setText("")
        self.canvas.update()

    def refresh(self) -> None:
        """The table changed: say again what the card shown is now, and where."""
        if self.current:
            obj = self.ctl.replica.state.objs.get(self.current)
            if obj is None or not obj.alive:
                self.clear()
            else:
                self.show_card(self.current)

    def show_card(self, obj_id: str) -> None:
        if not obj_id:
            return  # keep the last card: moving to the panel to read it must not clear it
        obj = self.ctl.replica.state.objs.get(obj_id)
        if obj is None or obj.kind != "card":
            return
        self.current = obj_id
        view = view_object(self.ctl.replica.state, self.ctl.replica.knowledge, obj, self.ctl.seat)
        self.canvas.show()
        if view.card is None:
            self.canvas.face, self.canvas.show_back = None, True
            self.caption.setText("<b>A face-down card</b>")
            self.rules.hide()
            self.notes.setText("You may not see it.")
        else:
            face = self.ctl.catalog.face(view.card)
            self.canvas.face, self.canvas.show_back = face, False
            self.caption.setText(caption_html(face))
            self.rules.setText(html.escape(face.text).replace("\n", "<br>"))
            self.rules.setVisible(bool(face.text))
            self.notes.setText(self._notes(obj, view.shows_face))
        self.canvas.update()

    def _notes(self, obj: object, shows_face: bool) -> str:
        """What lies on the card, and who may see it where it is now."""
        counters = ", ".join(f"{html.escape(k)} {v}"
                             for k, v in sorted(getattr(obj, "counters", {}).items()) if v)
        lines = [f"Counters: {counters}"] if counters else []
        if not shows_face:
            parent = self.ctl.replica.state.objs.get(getattr(obj, "container", None) or "")
            in_hand = parent is not None and parent.visibility == "owner"
            lines.append("<i>In your hand: only you can see it.</i>" if in_hand else
                         "<i>Face down: only you can see it.</i>")
        return "<br>".join(lines)


def caption_html(face: CardFace) -> str:
    """The card's name (large), its type line, then every field the module gives it."""
    head = (f"<div style='font-size:large; font-weight:bold'>{html.escape(face.name)}</div>"
            f"<div><i>{html.escape(face.subtitle or face.type)}</i></div>")
    return head + (f"<div>{fields_line(face)}</div>" if face.fields else "")


def fields_line(face: CardFace) -> str:
    """Every field the module gives the card, named as the module names it: "Power 3 · ..."."""
    said = face.text.casefold()
    return "<br>".join(f"{html.escape(label)} <b>{html.escape(value)}</b>"
                       for _, label, value in face.fields
                       if len(value) < 40 or value.casefold() not in said)
