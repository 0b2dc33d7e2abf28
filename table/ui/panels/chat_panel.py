"""Chat and table notes: what players say, logged like every other op."""
from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from table.core.timeline import Change

from ..controller import TableController


class ChatPanel(QWidget):
    def __init__(self, ctl: TableController) -> None:
        super().__init__()
        self.ctl = ctl
        self.view = QPlainTextEdit()
        self.view.setReadOnly(True)
        self.kind = QComboBox()
        self.kind.addItems(["chat", "note"])
        self.kind.setToolTip("chat: talk to the table · note: a remark for the designers' log")
        self.entry = QLineEdit()
        self.entry.setPlaceholderText("Say something to the table…")
        self.entry.returnPressed.connect(self._send)
        row = QHBoxLayout()
        row.addWidget(self.kind)
        row.addWidget(self.entry, 1)
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 4, 4, 4)
        box.addWidget(self.view, 1)
        box.addLayout(row)
        self._shown = 0
        self.rebuild()

    def _send(self) -> None:
        self.ctl.say(self.kind.currentText(), self.entry.text())
        self.entry.clear()

    def rebuild(self) -> None:
        lines = []
        for rec in self.ctl.replica.records():
            op = rec.op
            if op.kind not in ("chat", "note"):
                continue
            to = op.args.get("to")
            if to is not None and to != self.ctl.seat and op.seat != self.ctl.seat:
                continue  # a private message for another seat
            who = self.ctl.seat_name(op.seat) if op.seat is not None else "?"
            prefix = "[note] " if op.kind == "note" else ""
            lines.append(f"{prefix}{who}: {op.args['text']}")
        self.view.setPlainText("\n".join(lines))
        self.view.verticalScrollBar().setValue(self.view.verticalScrollBar().maximum())

    def on_change(self, change: Change) -> None:
        if any(r.op.kind in ("chat", "note") for r in change.records):
            self.rebuild()
