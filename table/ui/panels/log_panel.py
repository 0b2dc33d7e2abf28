"""The log as this seat may read it: one line per op, filterable, with the assist's flags."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLineEdit, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from table.core.replica import Replica
from table.core.timeline import Change

from .. import theme
from ..controller import TableController
from ..logtext import LogRenderer
from ..privacy import flag_message


class LogPanel(QWidget):
    def __init__(self, ctl: TableController) -> None:
        super().__init__()
        self.ctl = ctl
        r = ctl.replica
        self.renderer = LogRenderer(r.state, r.knowledge, ctl.catalog, ctl.seat_name)
        # the rules assist's flags under an op index (set by the window when the assist runs)
        self.flags_at: Callable[[int], tuple[Any, ...]] | None = None
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter the log (card, player, action)…")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._apply_filter)
        self.list = QListWidget()
        self.list.setUniformItemSizes(True)
        self.list.setWordWrap(False)
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 4, 4, 4)
        box.addWidget(self.filter)
        box.addWidget(self.list)
        self.rebuild()

    def rebuild(self) -> None:
        self.list.clear()
        self._append(0)

    def on_change(self, change: Change) -> None:
        self.refresh_from(change.first)

    def refresh_from(self, first: int) -> None:
        # records from `first` on were (re)applied: redraw that tail only
        while self.list.count() > first:
            self.list.takeItem(self.list.count() - 1)
        self._append(self.list.count())

    def _append(self, start: int) -> None:
        records = self.ctl.replica.records()
        needle = self.filter.text().strip().lower()
        for i in range(start, len(records)):
            rec = records[i]
            text = f"{i + 1:>4}  {self.renderer.line(rec, self.ctl.seat)}"
            flags = self.flags_at(i) if self.flags_at is not None else ()
            if flags:
                text += "  " + " ".join(f"⚑ {f.rule} ({f.severity})" for f in flags)
            item = QListWidgetItem(text)
            # a laptop's narrow panel cuts long lines short: the pointer reads the whole line,
            # then what the assist flagged there
            item.setToolTip("\n".join([text] + [
                f"{f.rule} ({f.section}): {flag_message(self.ctl, f)}" for f in flags]))
            if flags:
                error = any(f.severity == "error" for f in flags)
                item.setForeground(theme.severity_colour("error" if error else "warning"))
            elif rec.void:
                item.setForeground(QColor("#999999"))
            elif rec.op.kind == "mark" and rec.op.args.get("what") == "setup":
                item.setForeground(QColor("#9e9e9e"))  # setup prompts live in the checklist
            elif rec.op.kind == "mark":
                item.setForeground(QColor("#ffd54a"))
            self.list.addItem(item)
            item.setHidden(bool(needle) and needle not in item.text().lower())
        self.list.scrollToBottom()

    def _apply_filter(self, text: str) -> None:
        needle = text.strip().lower()
        for i in range(self.list.count()):
            item = self.list.item(i)
            item.setHidden(bool(needle) and needle not in item.text().lower())


def undone_from(replica: Replica, change: Change) -> int:
    """The earliest line an undo in `change` took back, or a redo brought back (its flag
    leaves, or returns to, the log); else the change's first line."""
    index = change.first
    records = replica.records()
    targets = {tuple(r.op.args.get("target") or ()) for r in change.records
               if r.op.kind in ("undo", "redo")}
    for ref in list(targets):  # a redo's target is an undo: the line it brings back is older
        undo = replica.timeline.record_of(ref) if len(ref) == 2 else None
        if undo is not None and undo.op.kind == "undo":
            targets.add(tuple(undo.op.args.get("target") or ()))
    for i in range(len(records) - 1, -1, -1):  # undo is rare: a scan back is cheap
        if not targets:
            break
        if records[i].op.ref in targets:
            targets.discard(records[i].op.ref)
            index = min(index, i)
    return index
