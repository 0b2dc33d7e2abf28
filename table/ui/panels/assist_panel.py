"""Rules assist flags: rule, severity, message, section; acknowledging one issues an `ack` op.

The runner (assist.runner.AssistRunner, Qt-free) is wired by the main window; this panel only
reads it. After a rollback the runner has already recomputed, so a refresh shows the result.
A verdict still open (a card played and unpaid so far) shows at once as a muted "pending" row
at the move it judges: no badge, no log mark, nothing to acknowledge; it turns into a flag, or
goes, when its payment or window closes.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from table.core.ops import Op
from table.core.replica import Replica

from .. import theme
from ..catalog import Catalog
from ..controller import TableController
from ..privacy import flag_message

if TYPE_CHECKING:
    from .flag_list import FlagList

COLOURS = theme.SEVERITY_COLOURS  # the palette's, kept up to date in place (palettes.py)
PENDING = "pending"
MUTED = "#8c8c8c"  # a pending row: its headline and message


def acknowledge(r: Replica, key: str, reason: str, *, seat: int | None = None) -> Op:
    return r.issue("ack", {"flag": key, "reason": reason}, seat=seat)


def declare(r: Replica, name: str, fields: dict[str, Any], *, seat: int | None = None) -> Op:
    args: dict[str, Any] = {"what": "declare", "value": name}
    if fields:
        args["fields"] = fields
    return r.issue("mark", args, seat=seat)


class AssistPanel(QWidget):
    flagChosen = Signal(list)  # object ids of the chosen flag (the scene may highlight them)

    def __init__(self, ctl: TableController | None = None, runner: Any = None, *,
                 waiting: bool = False) -> None:
        super().__init__()
        self.ctl, self.runner = ctl, runner
        self.notice = QLabel()
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet("color: #e67e22; padding: 4px;")
        self._tree: FlagList | None = None  # made when first shown or needed (see tree)
        self.waiting = waiting  # the runner is to come (late_assist.py)
        self.ack_effect = QPushButton("OK: card effect")
        self.ack_house = QPushButton("OK: house rule")
        self.ack_effect.setToolTip("Acknowledge the chosen flag: a card's effect allows it")
        self.ack_house.setToolTip("Acknowledge the chosen flag: a house rule allows it")
        self.ack_effect.clicked.connect(lambda: self.acknowledge("card effect"))
        self.ack_house.clicked.connect(lambda: self.acknowledge("house rule"))
        row = QHBoxLayout()
        row.addWidget(self.ack_effect)
        row.addWidget(self.ack_house)
        box = self._box = QVBoxLayout(self)
        box.addWidget(self.notice)
        box.addLayout(row)
        self.entries: list[Any] = []  # the flags shown
        self.rows: list[Any] = []  # every row in order: flags and pending verdicts
        self._seat: int | None = None  # the seat the messages were worded for
        self.refresh()

    @property
    def tree(self) -> FlagList:
        """One row per flag, its message wrapped to the dock's width. Made when first needed:
        its delegate and Qt's style classes load with it, and a table's first frame has the
        panel behind the log's tab (a dock behind a tab still counts as visible to Qt)."""
        if self._tree is None:
            from .flag_list import FlagList

            self._tree = FlagList()
            self._tree.itemSelectionChanged.connect(self._chosen)
            self._box.insertWidget(1, self._tree, 1)
        return self._tree

    @property
    def has_list(self) -> bool:
        return self._tree is not None

    def in_sight(self, shown: bool) -> None:
        """Its dock's tab was chosen (QDockWidget.visibilityChanged): the list is there."""
        if shown:
            _ = self.tree

    def refresh(self) -> None:
        runner = self.runner
        if runner is None:
            self.notice.setText("The rules assist is starting…" if self.waiting else
                                "Rules assist is off for this table (no plugin for this game). "
                                "Flags never block anything.")
            if self._tree is not None:
                self._tree.clear()
            self.entries = []
            self._buttons()
            return
        notes = list(runner.notices)
        if not runner.enabled and runner.disabled is None:
            notes.append("Rules assist is off.")
        self.notice.setText("\n".join(notes))
        self.notice.setVisible(bool(notes))
        entries = runner.entries()
        pending = runner.pending() if hasattr(runner, "pending") else []
        rows = sorted([*entries, *pending], key=lambda e: e.index)
        seat = self.ctl.seat if self.ctl is not None else None
        if [(e.index, _verdict(e)) for e in rows] == [(e.index, _verdict(e)) for e in self.rows] \
                and seat == self._seat:
            return
        self.entries, self.rows, self._seat = entries, rows, seat
        if self._tree is None and not rows:
            self._buttons()
            return
        self.tree.clear()
        for e in rows:
            f = _verdict(e)
            message = flag_message(self.ctl, f) if self.ctl is not None else f.message
            if hasattr(e, "pending"):
                self.tree.add_flag([str(e.number), PENDING, f.rule, message, f.section],
                                   QColor(MUTED), muted=True)
            else:
                self.tree.add_flag([str(e.number), f.severity, f.rule, message, f.section],
                                   QColor(COLOURS.get(f.severity, "#cccccc")))
        self._buttons()

    def _selected(self) -> Any:
        """The flag chosen in the list (a pending row has nothing to acknowledge: None)."""
        item = self._tree.currentItem() if self._tree is not None else None
        row = self.tree.indexOfTopLevelItem(item) if item is not None else -1
        chosen = self.rows[row] if 0 <= row < len(self.rows) else None
        return None if chosen is None or hasattr(chosen, "pending") else chosen

    def _buttons(self) -> None:
        on = self._selected() is not None and self.ctl is not None and not self.ctl.read_only
        self.ack_effect.setEnabled(on)
        self.ack_house.setEnabled(on)

    def _chosen(self) -> None:
        self._buttons()
        item = self._tree.currentItem() if self._tree is not None else None
        row = self.tree.indexOfTopLevelItem(item) if item is not None else -1
        if 0 <= row < len(self.rows):
            self.flagChosen.emit(list(_verdict(self.rows[row]).objects))

    def acknowledge(self, reason: str, entry: Any = None) -> None:
        entry = entry or self._selected()
        if entry is None or self.ctl is None:
            return
        self.ctl.act(acknowledge, entry.flag.key, reason)


def _verdict(row: Any) -> Any:
    """A row's flag, or its pending verdict (both have rule, message, section, objects)."""
    return row.pending if hasattr(row, "pending") else row.flag


def flags_by_op(runner: Any) -> dict[int, list[Any]]:
    """Flags under each op index (for the log panel)."""
    out: dict[int, list[Any]] = {}
    if runner is not None:
        for e in runner.entries():
            out.setdefault(e.index, []).append(e.flag)
    return out


__all__ = ["AssistPanel", "acknowledge", "declare", "flags_by_op"]
_ = Qt



def make_assist_runner(replica: Replica, catalog: Catalog) -> Any:
    """The game's rules assist attached to the replica, or None (no module or no plugin)."""
    if catalog.module is None or not hasattr(catalog.module, "players"):
        return None
    from assist.runner import AssistRunner, load_plugin

    notices: list[str] = []
    plugin = load_plugin(catalog.module.id, notices)
    if plugin is None and not notices:
        return None
    runner = AssistRunner.for_replica(replica, catalog.module, plugin)
    runner.notices[:0] = notices
    return runner
