"""The replay view: a log's table as it was at any op, with a timeline that seeks both ways.

The table scene follows a `table.core.seek.ReplayReplica` exactly as it follows a live replica:
every seek announces a Change (ops applied, journals reverted), so only what moved is redrawn.
The log panel lists every op (as the chosen seat may read it), the current one selected and the
ones still to come greyed; flags (from the rules assist, when installed) and designer notes are
marked on the timeline and listed; "Fork from here" starts a new hot-seat table from that point.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from table.core.replica import Replica
from table.core.seek import Landmarks, ReplayReplica, fork_table, note_indices, turn_indices
from table.core.views import ALL

from ..catalog import Catalog
from ..controller import TableController
from ..logtext import LogRenderer
from ..privacy import flag_message
from ..scene import TableScene
from ..view import TableView
from ..window_fit import fit_window
from .log_model import LogModel, TurnsAndPhases, log_view
from .strip import TimelineStrip

log = logging.getLogger(__name__)

def load_flags(source: Replica, module: Any) -> Any:
    """Flags per op from the rules assist, or None when it is not available."""
    if module is None:
        return None
    try:
        from table.report.flags import run_assist

        run = run_assist(source, module)
    except Exception as err:
        log.warning("no flags for the replay: %s", err)
        return None
    return run


class ReplayWindow(QMainWindow):
    closed = Signal()
    positionChanged = Signal(int)

    def __init__(self, source: Replica, catalog: Catalog, *, path: str | Path = "",
                 at: int | None = None, seat: int | None = None, flags: Any = "load",
                 fork_path: Callable[[], Path] | None = None,
                 on_fork: Callable[[Replica, Catalog], Any] | None = None,
                 take_fold: bool = False) -> None:
        super().__init__()
        self.source, self.catalog = source, catalog
        self.path = Path(path) if path else None
        self.fork_path, self.on_fork = fork_path, on_fork
        self.forks: list[Any] = []  # windows of tables forked from here (kept alive)
        # the replica the scene follows: the log at the cursor, with the log's knowledge (with
        # `take_fold`, a source read only for this window hands its fold over: one fold)
        self.replica = ReplayReplica(source, at, take_fold=take_fold)
        records = source.records()
        self.seeker = self.replica.seeker
        mine = source.my_seats
        self.all_seeing = source.peer_id == "merged" or len(mine) > 1
        start_seat = seat if seat is not None else ALL if self.all_seeing or not mine \
            else min(mine)
        self.ctl = TableController(self.replica, catalog, seat=start_seat, read_only=True)
        self.scene = TableScene(self.ctl)
        self.view = TableView(self.scene)
        self.flag_run = load_flags(source, catalog.module) if flags == "load" else flags
        by_index = getattr(self.flag_run, "by_index", {}) or {}
        self.turns = Landmarks(turn_indices(records))
        self.notes = Landmarks(note_indices(records))
        self.flags = Landmarks(by_index)
        self._flag_entries = [(i, f) for i in sorted(by_index) for f in by_index[i]]
        self._where = TurnsAndPhases(records)
        self.renderer = LogRenderer(source.state, source.knowledge, catalog, self._seat_name)
        module = catalog.module  # the module the log was played under (read from the log)
        played = f" — {module.name} {module.version} ({module.content_hash[:12]})" \
            if module is not None and hasattr(module, "content_hash") else ""
        self.setWindowTitle(f"{self.path.name if self.path else 'Log'}{played} — replay — "
                            "Sandtable")
        self._build()
        # the status bar from the start: made by the first message, it would push the controls
        # up under the pointer (the next click would miss them)
        self.statusBar().showMessage("")
        self._shown = -1
        self._refresh_controls(self.seeker.position)
        self.fit = fit_window(self, "replay", 1500, 950)  # inside the screen, frame and all
        QTimer.singleShot(0, self.view.fit_table)

    # --- reading the log ------------------------------------------------------------------
    def _seat_name(self, seat: int | None) -> str:
        if seat is None:
            return "Table"
        if seat == ALL:
            return "Everyone"
        held = self.source.state.seats.get(seat)
        return held.name if held is not None and held.name else \
            self.catalog.seat_names.get(seat, f"Seat {seat}")

    # --- construction ---------------------------------------------------------------------
    def _build(self) -> None:
        total = len(self.seeker)
        self.strip = TimelineStrip(total)
        self.strip.set_marks(self.turns.indices, self.flags.indices, self.notes.indices)
        self.strip.seekRequested.connect(self.seek)
        self.where = QLabel()
        self.where.setObjectName("replay-where")
        self.where.setTextFormat(Qt.TextFormat.RichText)
        self.seat_pick = QComboBox()
        self.seat_pick.setToolTip("Whose view of the table and the log to show")
        if self.all_seeing or self.source.peer_id == "merged":
            self.seat_pick.addItem("Everyone (all that the log knows)", ALL)
        for number in sorted(self.source.state.seats):
            self.seat_pick.addItem(f"{self._seat_name(number)} (seat {number})", number)
        index = self.seat_pick.findData(self.ctl.seat)
        self.seat_pick.setCurrentIndex(max(0, index))
        self.seat_pick.currentIndexChanged.connect(self._seat_picked)
        self.fork = QPushButton("Fork from here…")
        self.fork.setToolTip("Start a new hot-seat table from this moment (a new log whose ops "
                             "are the ones up to here)")
        # clicked(bool) would pass its `checked` False as the path: call with no argument
        self.fork.clicked.connect(lambda _checked=False: self.fork_here())

        buttons = self._build_buttons()

        bar = QWidget()
        bar.setObjectName("replay-bar")
        box = QVBoxLayout(bar)
        box.setContentsMargins(8, 4, 8, 6)
        self.damage = QLabel(self._damage_text())
        self.damage.setObjectName("replay-damage")
        self.damage.setWordWrap(True)
        self.damage.setStyleSheet("background:#ffebee;color:#b71c1c;border-left:4px solid "
                                  "#e53935;padding:4px 8px")
        self.damage.setVisible(bool(self.damage.text()))
        box.addWidget(self.damage)
        box.addWidget(self.strip)
        box.addWidget(self.where)
        box.addLayout(buttons)
        central = QWidget()
        outer = QVBoxLayout(central)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        outer.addWidget(self.view, 1)
        outer.addWidget(bar)
        self.setCentralWidget(central)

        self._build_docks()

    def _build_buttons(self) -> QHBoxLayout:
        """The seek buttons (each with its keys), the seat to view as, Fork."""
        buttons = QHBoxLayout()
        self.seek_actions: dict[str, QAction] = {}  # (QWidget.actions() is a method)
        specs = [
            ("start", "|◀", "Go to the start", ["Home"], lambda: self.seek(0)),
            ("prev_turn", "◀◀ Turn", "Previous turn", ["PgUp", "Ctrl+Left"],
             lambda: self._jump(self.turns, -1)),
            ("back", "◀", "Step back one op", ["Left"], lambda: self.step(-1)),
            ("forward", "▶", "Step forward one op", ["Right"], lambda: self.step(1)),
            ("next_turn", "Turn ▶▶", "Next turn", ["PgDown", "Ctrl+Right"],
             lambda: self._jump(self.turns, 1)),
            ("end", "▶|", "Go to the end", ["End"], lambda: self.seek(len(self.seeker))),
            ("prev_flag", "◀ Flag", "Previous flag", ["Shift+F"], lambda: self._jump(self.flags, -1)),
            ("next_flag", "Flag ▶", "Next flag", ["F"], lambda: self._jump(self.flags, 1)),
            ("prev_note", "◀ Note", "Previous note", ["Shift+N"], lambda: self._jump(self.notes, -1)),
            ("next_note", "Note ▶", "Next note", ["N"], lambda: self._jump(self.notes, 1)),
        ]
        for key, text, tip, keys, fn in specs:
            act = QAction(text, self)
            act.setShortcuts([QKeySequence(k) for k in keys])
            act.setToolTip(f"{tip} ({', '.join(keys)})")
            act.triggered.connect(lambda _=False, f=fn: f())
            self.addAction(act)
            self.seek_actions[key] = act
            button = QToolButton()
            button.setDefaultAction(act)
            buttons.addWidget(button)
            if key in ("end", "next_flag"):
                buttons.addSpacing(12)
        buttons.addSpacing(12)
        buttons.addWidget(QLabel("View as"))
        buttons.addWidget(self.seat_pick)
        buttons.addStretch(1)
        buttons.addWidget(self.fork)
        return buttons

    def _build_docks(self) -> None:
        """The log panel (a line written only when shown) and the flags, tabbed."""
        by_index = getattr(self.flag_run, "by_index", {}) or {}
        self.log_model = LogModel(self.source.records(), lambda r: self.renderer.line(r, self.ctl.seat),
                                  by_index, self.source.salvaged, self.seeker.position)
        self.log_list = log_view(self.log_model)
        self.log_list.clicked.connect(lambda index: self.seek(index.row() + 1))
        self.flag_list = QListWidget()
        self.flag_list.setWordWrap(True)
        for index, flag in self._flag_entries:  # worded as the live panel words them
            item = QListWidgetItem(f"#{index + 1}  {flag.rule} ({flag.severity}): "
                                   f"{flag_message(self.ctl, flag)}  [{flag.section}]")
            item.setData(Qt.ItemDataRole.UserRole, index)
            self.flag_list.addItem(item)
        if not self._flag_entries:
            why = getattr(self.flag_run, "why", "") or "the rules assist is not available"
            self.flag_list.addItem(QListWidgetItem(
                "No flags in this log." if self.flag_run is not None and not why
                else f"No flags: {why}"))
        self.flag_list.itemClicked.connect(self._flag_clicked)
        self.log_dock = self._dock("Log", self.log_list)
        self.flag_dock = self._dock(f"Flags ({len(self._flag_entries)})", self.flag_list)
        self.tabifyDockWidget(self.log_dock, self.flag_dock)
        self.log_dock.raise_()
        self.resizeDocks([self.log_dock], [470], Qt.Orientation.Horizontal)

    def _damage_text(self) -> str:
        """What the log lost (record and byte) and which ops were applied in salvage mode."""
        source = self.source
        parts = [f"record {d.record} at byte {d.start} ({d.what}, {d.lost_bytes} bytes)"
                 for d in source.damage[:4]]
        if len(source.damage) > 4:
            parts.append(f"… {len(source.damage) - 4} more")
        lines = []
        if parts:
            lines.append("Damaged log — lost: " + "; ".join(parts) + ".")
        if source.salvaged:
            lost = ", ".join(f"#{seq}" for _a, seq in source.lost[:6])
            lines.append(f"Salvage mode: op(s) {lost} lost; the {len(source.salvaged)} op(s) "
                         f"after them are applied without them and marked ⚠ in the log.")
        waiting = sum(len(p) for p in source.store.pending.values()) - len(source.salvaged)
        if waiting > 0:
            lines.append(f"{waiting} op(s) wait for ops this log lacks and are not shown.")
        return " ".join(lines)

    def _dock(self, title: str, widget: QWidget) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"replay-dock-{title}")
        dock.setWidget(widget)
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable |
                         QDockWidget.DockWidgetFeature.DockWidgetFloatable)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        return dock

    # --- seeking --------------------------------------------------------------------------
    @property
    def position(self) -> int:
        return self.seeker.position

    def seek(self, position: int) -> None:
        before = self.seeker.position
        self.replica.seek(position)
        if self.seeker.position == before:
            return
        self._refresh_controls(before)
        self.positionChanged.emit(self.seeker.position)

    def step(self, delta: int) -> None:
        self.seek(self.seeker.position + delta)

    def _jump(self, marks: Landmarks, direction: int) -> None:
        here = self.seeker.position
        target = marks.next_after(here) if direction > 0 else marks.previous_before(here)
        if target is None:
            self.statusBar().showMessage("No more of those in this direction", 3000)
            return
        self.seek(target)

    def _refresh_controls(self, before: int) -> None:
        position, total = self.seeker.position, len(self.seeker)
        self.log_model.set_position(position)
        current = self.log_model.index(position - 1) if position else QModelIndex()
        self.log_list.setCurrentIndex(current)
        if position:
            self.log_list.scrollTo(current, QAbstractItemView.ScrollHint.PositionAtCenter)
        self.strip.set_position(position)
        turn, active, phase = self._where.after(position)
        parts = [f"<b>Op {position}</b> of {total}"]
        if self.source.salvaged and position and \
                self.source.records()[position - 1].op.ref in self.source.salvaged:
            parts.append("<b style='color:#c62828'>salvaged</b>")
        if turn:
            parts.append(f"turn {turn}: <b>{self._seat_name(active)}</b>")
        if phase:
            parts.append(f"{phase} phase")
        if position:
            record = self.source.records()[position - 1]
            parts.append(f"<span style='color:#78909c'>"
                         f"{self.renderer.line(record, self.ctl.seat)[:90]}</span>")
        self.where.setText("  ·  ".join(parts))
        self.seek_actions["back"].setEnabled(position > 0)
        self.seek_actions["start"].setEnabled(position > 0)
        self.seek_actions["forward"].setEnabled(position < total)
        self.seek_actions["end"].setEnabled(position < total)

    def _flag_clicked(self, item: QListWidgetItem) -> None:
        index = item.data(Qt.ItemDataRole.UserRole)
        if isinstance(index, int):
            self.seek(index + 1)

    def _seat_picked(self, index: int) -> None:
        seat = self.seat_pick.itemData(index)
        if seat is None or seat == self.ctl.seat:
            return
        self.ctl.seat = int(seat)
        self.ctl.seatChanged.emit(self.ctl.seat)
        self.log_model.refresh()
        self._refresh_controls(self.seeker.position)

    # --- fork -------------------------------------------------------------------------------
    def fork_here(self, path: str | Path | None = None) -> Replica | None:
        """A new hot-seat table whose log holds the ops up to here; opens it in a window."""
        if path is None:
            if self.fork_path is not None:
                path = self.fork_path()
            else:
                from ..settings import new_log_path

                path = new_log_path(self.source.game)
        try:
            replica = fork_table(self.source, self.seeker.position, path)
        except Exception as err:
            log.warning("cannot fork: %s", err)
            QMessageBox.warning(self, "Cannot fork the game", str(err))
            return None
        self.statusBar().showMessage(f"Forked at op {self.seeker.position}: {Path(path).name}",
                                     8000)
        if self.on_fork is not None:
            self.forks.append(self.on_fork(replica, self.catalog))
        return replica

    # --- closing ----------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)
        self.closed.emit()

    def shutdown(self) -> None:
        self.scene.detach()
