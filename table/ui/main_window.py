"""The table window: the table view, a seat bar for hot-seat, side panels, toolbar, shortcuts."""
from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QDockWidget, QInputDialog, QLabel, QMainWindow, QMenu, QTabBar, QToolBar, QToolButton,
    QVBoxLayout, QWidget,
)

from table.core.replica import Replica
from table.core.timeline import Change

from . import layout as lay
from . import theme
from .catalog import Catalog
from .controller import TableController
from .help_overlay import HelpOverlay
from .items.card_item import CardItem
from .menus import Menus
from .panels.assist_panel import AssistPanel
from .panels.chat_panel import ChatPanel
from .panels.log_panel import LogPanel
from .panels.seats_panel import SeatsPanel
from .panels.turn_panel import TurnPanel
from .preview import CardPreview
from .scene import TableScene
from .settings import Settings
from .view import TableView

log = logging.getLogger(__name__)


class TableWindow(QMainWindow):
    closed = Signal()

    def __init__(self, replica: Replica, catalog: Catalog, *, settings: Settings | None = None,
                 read_only: bool = False, title: str = "", peers: QWidget | None = None,
                 on_leave: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.replica = replica
        self.settings = settings
        # A LAN table: its peers panel, and what leaving does (say bye, then close the log).
        self.peers_panel = peers
        self.on_leave = on_leave
        self.ctl = TableController(replica, catalog, read_only=read_only)
        self.assist_runner = make_assist_runner(replica, catalog)
        self.scene = TableScene(self.ctl)
        self.view = TableView(self.scene)
        self.menus = Menus(self.scene, self)
        self.setWindowTitle(title or f"{catalog.game_name} — Sandtable"
                            + (" (read-only)" if read_only else ""))
        self._build_central()
        self._build_docks()
        self._build_actions()
        self.statusBar().showMessage("F1 shows the keyboard shortcuts", 6000)
        self.ctl.status.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.ctl.seatChanged.connect(self._seat_changed)
        self.scene.cardHovered.connect(self.preview.show_card)
        self.scene.menuRequested.connect(self._menu)
        self._pending_first: int | None = None
        self._chat_dirty = False
        self._panel_timer = QTimer(self)
        self._panel_timer.setSingleShot(True)
        self._panel_timer.setInterval(0)
        self._panel_timer.timeout.connect(self.refresh_panels)
        replica.listeners.append(self._on_change)
        replica.report_listeners.append(lambda m: self.statusBar().showMessage(m, 10000))
        self.resize(1500, 950)
        self._restore_geometry()
        QTimer.singleShot(0, self.view.fit_table)

    # --- construction ----------------------------------------------------------------------
    def _build_central(self) -> None:
        central = QWidget()
        box = QVBoxLayout(central)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(0)
        self.seat_bar = QTabBar()
        self.seat_bar.setExpanding(False)
        self.seat_bar.setDocumentMode(True)
        for seat in self.ctl.seats:
            self.seat_bar.addTab(f"{self.ctl.seat_name(seat)}  (Ctrl+{seat})")
            self.seat_bar.setTabTextColor(self.seat_bar.count() - 1,
                                          theme.seat_colour(seat, self.ctl.seat_colour(seat)))
        self.seat_bar.setCurrentIndex(self.ctl.seats.index(self.ctl.seat)
                                      if self.ctl.seat in self.ctl.seats else 0)
        self.seat_bar.currentChanged.connect(self._tab_changed)
        self.seat_bar.setVisible(len(self.ctl.playable_seats) > 1)
        self.seat_bar.setToolTip("Hot-seat: you play every seat. Pick whose view to show.")
        box.addWidget(self.seat_bar)
        box.addWidget(self.view, 1)
        self.setCentralWidget(central)
        self.help = HelpOverlay(self.view)

    def _dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock-{title}")
        dock.setWidget(widget)
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable |
                         QDockWidget.DockWidgetFeature.DockWidgetFloatable |
                         QDockWidget.DockWidgetFeature.DockWidgetClosable)
        self.addDockWidget(area, dock)
        return dock

    def _build_docks(self) -> None:
        left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        self.turn = TurnPanel(self.ctl)
        self.seats = SeatsPanel(self.ctl)
        self.chat = ChatPanel(self.ctl)
        self.preview = CardPreview(self.ctl)
        self.log_panel = LogPanel(self.ctl)
        self.assist = AssistPanel(self.ctl, self.assist_runner)
        self.docks = {
            "turn": self._dock("Turn", self.turn, left),
            "seats": self._dock("Seats", self.seats, left),
            "preview": self._dock("Card", self.preview, right),
            "log": self._dock("Log", self.log_panel, right),
            "chat": self._dock("Chat", self.chat, right),
            "assist": self._dock("Rules assist", self.assist, right),
        }
        if self.peers_panel is not None:
            self.docks["peers"] = self._dock("Peers", self.peers_panel, left)
        self.tabifyDockWidget(self.docks["log"], self.docks["chat"])
        self.tabifyDockWidget(self.docks["log"], self.docks["assist"])
        self.docks["log"].raise_()
        self.resizeDocks([self.docks["turn"], self.docks["preview"]], [230, 300],
                         Qt.Orientation.Horizontal)
        self.resizeDocks([self.docks["turn"], self.docks["seats"]], [150, 600],
                         Qt.Orientation.Vertical)
        self.resizeDocks([self.docks["preview"], self.docks["log"]], [430, 400],
                         Qt.Orientation.Vertical)

    def _action(self, text: str, keys: list[str], fn: Callable[[], object], *,
                on_table: bool = False, tip: str = "") -> QAction:
        act = QAction(text, self)
        act.setShortcuts([QKeySequence(k) for k in keys])
        act.setToolTip(f"{tip or text} ({', '.join(keys)})" if keys else tip or text)
        act.triggered.connect(lambda _=False: fn())
        if on_table:  # plain letters act only while the table has focus, never while typing
            act.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            self.view.addAction(act)
        else:
            self.addAction(act)
        return act

    def _build_actions(self) -> None:
        a = self._action
        self.act_undo = a("Undo", ["Ctrl+Z"], self.ctl.undo, tip="Undo your last action")
        self.act_flip = a("Flip", ["F"], self.flip_selection, on_table=True)
        self.act_rotate = a("Engage", ["R"], self.rotate_selection, on_table=True,
                            tip="Engage / ready")
        self.act_draw = a("Draw", ["D"], self.draw_one, on_table=True,
                          tip="Draw a card from your deck")
        a("Next phase", ["N"], self.turn.advance_phase, on_table=True)
        self.act_end = a("End turn", ["Ctrl+Return", "Ctrl+Enter"], self.turn.pass_turn)
        a("Clear selection", ["Esc"], self.scene.clearSelection, on_table=True)
        self.act_note = a("Note", ["Ctrl+Shift+N"], self.add_note,
                          tip="Add a designer note at this moment (\"rule unclear here\")")
        self.act_end_game = a("End the game…", ["Ctrl+Shift+E"], self.end_game,
                              tip="Record who won and how the game ended (for the report)")
        self.act_fit = a("Fit", ["Ctrl+0"], self.view.fit_table, tip="Fit the table")
        a("Zoom in", ["Ctrl+=", "Ctrl++"], lambda: self.view.set_zoom(self.view.zoom * 1.25))
        a("Zoom out", ["Ctrl+-"], lambda: self.view.set_zoom(self.view.zoom / 1.25))
        self.act_help = a("Help", ["F1", "?"], self.help.toggle, tip="Keyboard shortcuts")
        for seat in self.ctl.playable_seats[:9]:
            a(f"Play seat {seat}", [f"Ctrl+{seat}"], lambda s=seat: self.ctl.set_seat(s))
        bar = QToolBar("Table")
        bar.setObjectName("toolbar-table")
        bar.setMovable(False)
        for act in (self.act_undo, self.act_flip, self.act_rotate, self.act_draw, self.act_end,
                    self.act_note, self.act_end_game, self.act_fit, self.act_help):
            bar.addAction(act)
        self.zoom_label = QLabel()
        self.view.zoomChanged.connect(lambda z: self.zoom_label.setText(f"  {z * 100:.0f}%  "))
        bar.addSeparator()
        bar.addWidget(self.zoom_label)
        self.declare_menu = self._build_declare_menu(bar)
        self.game_menu = self._build_game_menu(bar)
        self.addToolBar(bar)
        back = QAction("Start screen", self)
        back.setToolTip("Leave this table (it stays saved) and return to the start screen")
        back.triggered.connect(self.close)
        bar.addSeparator()
        bar.addAction(back)

    # --- commands ----------------------------------------------------------------------------
    def _targets(self) -> list[str]:
        ids = self.scene.selected_ids()
        if not ids:  # nothing selected: act on the card under the cursor
            item = self.view.itemAt(self.view.mapFromGlobal(self.cursor().pos()))
            if isinstance(item, CardItem):
                ids = [item.obj_id]
        return ids

    def flip_selection(self) -> None:
        ids = [i for i in self._targets() if i in self.scene.cards]
        self.scene.flip_items([self.scene.cards[i] for i in ids])

    def rotate_selection(self) -> None:
        self.scene.rotate_items([i for i in self._targets() if i in self.scene.cards])

    def draw_one(self) -> None:
        deck = self.scene.own_deck()
        if deck is None:
            self.ctl.status.emit("You have no deck to draw from")
            return
        self.scene.draw_from(deck, 1)

    def end_game(self) -> None:
        """The End the game dialog; OK issues an `end` op (winners, how, condition, scores)."""
        from table.core import actions as core_actions

        from .end_game import ask_end_game

        seats = {n: s.name or f"Seat {n}" for n, s in self.ctl.replica.state.seats.items()}
        self.end_dialog = ask_end_game(
            self, seats, self.ctl.catalog.module,
            lambda args: self.ctl.act(core_actions.end_game, **args))

    def add_note(self, text: str | None = None) -> None:
        """A designer note at the current moment: a `note` op, in the log, replay and report."""
        if text is None:
            from PySide6.QtWidgets import QInputDialog

            text, ok = QInputDialog.getText(self, "Designer note",
                                            "Note for the designers (logged at this moment):")
            if not ok:
                return
        if text.strip():
            self.ctl.say("note", text)
            self.ctl.status.emit("Note added to the log")

    def _menu(self, obj_id: str, where: QPoint) -> None:
        menu = self.menus.build(obj_id)
        if menu is not None:
            menu.popup(where)

    # --- positions -----------------------------------------------------------------------------
    def _build_game_menu(self, bar: QToolBar) -> QMenu:
        menu = QMenu("Game", self)
        self.act_save_position = menu.addAction("Save position…")
        self.act_save_position.triggered.connect(lambda _=False: self.save_position())
        button = QToolButton()
        button.setObjectName("game-menu")
        button.setText("Game")
        button.setToolTip("Save this table's situation as a position file (docs/positions.md)")
        button.setMenu(menu)
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        bar.addSeparator()
        bar.addWidget(button)
        return menu

    def save_position(self) -> None:
        """Write the table as a position file: what this peer knows (others' hidden cards "?")."""
        from PySide6.QtWidgets import QFileDialog, QMessageBox

        from table.games import find_module
        from table.games.position_writer import replica_position

        try:
            module = find_module(self.replica.game)
        except (LookupError, ValueError) as err:
            QMessageBox.warning(self, "Cannot save the position", str(err))
            return
        path, _ = QFileDialog.getSaveFileName(self, "Save position", "position.toml",
                                              "Positions (*.toml)")
        if not path:
            return
        text = replica_position(self.replica, module)
        try:
            Path(path).write_text(text, encoding="utf-8")
        except OSError as err:
            QMessageBox.warning(self, "Cannot save the position", str(err))
            return
        unknown = text.count('"?"')
        self.ctl.status.emit(f"Position saved to {path}" + (
            f" ({unknown} hidden card(s) you cannot see are written \"?\")" if unknown else ""))

    # --- rules assist declarations ------------------------------------------------------------
    def _build_declare_menu(self, bar: QToolBar) -> QMenu | None:
        runner = self.assist_runner
        if runner is None:
            return None
        menu = QMenu("Declare", self)
        for spec in runner.declarations:
            act = menu.addAction(spec.label)
            act.triggered.connect(lambda _=False, sp=spec: self.declare(sp))
        button = QToolButton()
        button.setText("Declare")
        button.setToolTip("Declare an attack, a Pact, a card effect... (logged for the assist)")
        button.setMenu(menu)
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        bar.addSeparator()
        bar.addWidget(button)
        return menu

    def declare(self, spec: Any, fields: dict[str, Any] | None = None) -> None:
        """Issue a declaration; fields come from `fields`, then the selection, then a prompt."""
        from .panels.assist_panel import declare

        values = dict(fields or {})
        chosen = list(self.scene.selected_ids())
        for name in spec.fields:
            if name in values:
                continue
            if chosen:
                values[name] = chosen.pop(0)
                continue
            text, ok = QInputDialog.getText(self, spec.label, f"{name}:")
            if not ok:
                return
            values[name] = text.strip()
        self.ctl.act(declare, spec.name, values)

    # --- following the table -----------------------------------------------------------------
    def _on_change(self, change: Change) -> None:
        self.ctl.follow_turn(change.records)
        # panels refresh once per burst of ops, after the table itself (which updates at once)
        first = change.first if self._pending_first is None else min(change.first,
                                                                     self._pending_first)
        self._pending_first = first
        self._chat_dirty = self._chat_dirty or any(r.op.kind in ("chat", "note")
                                                   for r in change.records)
        if not self._panel_timer.isActive():
            self._panel_timer.start()

    def refresh_panels(self) -> None:
        runner = self.assist_runner
        if runner is not None:
            self.log_panel.flags_at = runner.flags_at
            self.scene.show_flags(runner.flags_by_object())
            if self._pending_first is not None and any(
                    r.op.kind == "ack" for r in self.replica.records()[self._pending_first:]):
                self._pending_first = 0  # an acknowledgement hides a flag on an older line
        if self._pending_first is not None:
            self.log_panel.refresh_from(self._pending_first)
        if self._chat_dirty:
            self.chat.rebuild()
        self._pending_first, self._chat_dirty = None, False
        self.seats.refresh()
        self.turn.refresh()
        self.assist.refresh()
        if self.peers_panel is not None and hasattr(self.peers_panel, "schedule_refresh"):
            self.peers_panel.schedule_refresh()  # names and seats come from the ops

    def _tab_changed(self, index: int) -> None:
        seats = self.ctl.seats
        if 0 <= index < len(seats):
            self.ctl.set_seat(seats[index])

    def _seat_changed(self, seat: int) -> None:
        if seat in self.ctl.seats and self.seat_bar.currentIndex() != self.ctl.seats.index(seat):
            self.seat_bar.setCurrentIndex(self.ctl.seats.index(seat))
        self.scene.clearSelection()
        self.log_panel.rebuild()
        self.chat.rebuild()
        self.seats.refresh()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.help.isVisible():
            self.help.setGeometry(self.view.rect())

    # --- geometry and closing ----------------------------------------------------------------
    def _restore_geometry(self) -> None:
        if self.settings is None:
            return
        try:
            if self.settings.geometry:
                self.restoreGeometry(QByteArray.fromHex(self.settings.geometry.encode()))
            if self.settings.window_state:
                self.restoreState(QByteArray.fromHex(self.settings.window_state.encode()))
        except (ValueError, TypeError):
            log.warning("ignoring saved window geometry")

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.settings is not None:
            self.settings.geometry = bytes(self.saveGeometry().toHex()).decode()
            self.settings.window_state = bytes(self.saveState().toHex()).decode()
            self.settings.save()
        self.shutdown()
        super().closeEvent(event)
        self.closed.emit()

    def shutdown(self) -> None:
        """Stop following the replica and close its log (everything is already on disk)."""
        if self._on_change in self.replica.listeners:
            self.replica.listeners.remove(self._on_change)
        if self.assist_runner is not None:
            self.assist_runner.detach()
        self.scene.detach()
        if self.on_leave is not None:  # LAN: leave the table (bye), then close the log
            leave, self.on_leave = self.on_leave, None
            leave()
        else:
            self.replica.close()


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


def seat_summary(ctl: TableController, seat: int) -> str:
    """'5 in hand' for status lines and tests."""
    state = ctl.replica.state
    n = 0
    for obj in state.objs.values():
        if obj.alive and obj.kind in lay.CONTAINERS and lay.role(obj) == "hand" \
                and lay.seat_of(obj) == seat:
            n += sum(1 for c in obj.children if state.objs[c].kind == "card")
    return f"{n} in hand"
