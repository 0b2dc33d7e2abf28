"""The checklist: the module's setup prompts still to do (Mulligan...) and the turn's phases,
what is done and what comes next, in one place instead of lines scrolling away in the log.

Ticking a setup prompt is a `mark` op (what="setup", value="done", with the prompt's text and
seat), so every peer's checklist agrees and the log records who did it when.
"""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from table.core import actions

from ..controller import TableController
from .turn_panel import phases_for

DONE, NOW, LATER = "✓", "▶", "○"
_KEY = Qt.ItemDataRole.UserRole


def setup_prompts(ctl: TableController) -> list[tuple[str, int | None, bool]]:
    """(text, seat, done) for every setup prompt in the log, in order."""
    prompts: list[tuple[str, int | None]] = []
    done: set[tuple[str, int | None]] = set()
    for rec in ctl.replica.records():
        op = rec.op
        if op.kind != "mark" or op.args.get("what") != "setup" or rec.void is not None:
            continue
        fields = op.args.get("fields") or {}
        key = (str(fields.get("text", "")), fields.get("for_seat"))
        if op.args.get("value") == "prompt" and key not in prompts:
            prompts.append(key)
        elif op.args.get("value") == "done":
            done.add(key)
        elif op.args.get("value") == "undone":
            done.discard(key)
    return [(text, seat, (text, seat) in done) for text, seat in prompts]


class ChecklistPanel(QWidget):
    def __init__(self, ctl: TableController) -> None:
        super().__init__()
        self.ctl = ctl
        self.phases = phases_for(ctl)
        self.list = QListWidget()
        self.list.setWordWrap(True)
        self.list.setMinimumWidth(120)  # long prompts wrap; the table keeps the width
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.itemClicked.connect(self._clicked)
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 4, 4, 4)
        box.addWidget(self.list)
        self._shown: list[tuple[str, Any]] = []
        self.refresh()

    def rows(self) -> list[tuple[str, Any]]:
        """(text, key) per line; key is (prompt text, seat) for a setup prompt, else None."""
        out: list[tuple[str, Any]] = []
        prompts = setup_prompts(self.ctl)
        if prompts:
            out.append(("Setup", None))
            for text, seat, done in prompts:
                who = f"{self.ctl.seat_name(seat)}: " if seat is not None else ""
                out.append((f"{DONE if done else LATER}  {who}{text}", (text, seat, done)))
        state = self.ctl.replica.state
        seat = state.turn.get("seat")
        if seat is not None:
            out.append((f"Turn {state.turn.get('number', 0)} · {self.ctl.seat_name(seat)}", None))
            now = self.phases.index(state.phase) if state.phase in self.phases else -1
            for i, phase in enumerate(self.phases):
                mark = DONE if i < now else NOW if i == now else LATER
                nxt = "   ← next (N)" if i == now + 1 else ""
                out.append((f"{mark}  {phase}{nxt}", None))
        return out

    def refresh(self) -> None:
        rows = self.rows()
        if rows == self._shown:
            return
        self._shown = rows
        self.list.clear()
        for text, key in rows:
            item = QListWidgetItem(text)
            item.setData(_KEY, key)
            if key is None and text[:1] not in (DONE, NOW, LATER):
                font = item.font()
                font.setBold(True)
                item.setFont(font)
            elif key is not None:
                item.setToolTip("Click when done (or to take it back)")
                if key[2]:
                    item.setForeground(QBrush(QColor("#8fbf8f")))
            elif text.startswith(NOW):
                item.setForeground(QBrush(QColor("#ffd54a")))
            self.list.addItem(item)

    def _clicked(self, item: QListWidgetItem) -> None:
        key = item.data(_KEY)
        if not key:
            return
        text, seat, done = key
        fields: dict[str, Any] = {"text": text}
        if seat is not None:
            fields["for_seat"] = seat
        self.ctl.act(actions.mark, "setup", value="undone" if done else "done", fields=fields)
