"""The table window: the table view, a seat bar for hot-seat, side panels, toolbar, shortcuts."""
from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QMainWindow,
    QVBoxLayout,
    QWidget,
)

from table.core.replica import Replica
from table.core.timeline import Change

from . import theme
from .access_wiring import install_access
from .ask import ask_text
from .catalog import Catalog
from .controller import TableController
from .curtain import Curtain, curtain_wanted
from .dock_layout import DockLayout
from .first_frame import after_first_frame
from .focus import TableFocus
from .game_menu import save_position
from .help_overlay import HelpOverlay
from .items.card_item import CardItem
from .late_assist import assist_can_wait, start_assist
from .menus import Menus
from .panels.assist_panel import make_assist_runner
from .panels.log_panel import undone_from
from .scene import TableScene
from .seat_tabs import grey_out_moves, make_seat_bar, name_tabs, sync_watcher_tabs
from .settings import Settings, text_scale
from .text_size import apply_text_scale, step_text_scale
from .view import TableView
from .window_docks import build_docks
from .window_fit import fit_window, restore_geometry, save_geometry
from .window_toolbar import build_toolbar

if TYPE_CHECKING:
    from PySide6.QtWidgets import QLabel

    from .announcer import Announcer
    from .declaring import Declaring
    from .key_routes import KeyRoutes
    from .panels.assist_panel import AssistPanel
    from .panels.chat_panel import ChatPanel
    from .panels.checklist_panel import ChecklistPanel
    from .panels.log_panel import LogPanel
    from .panels.outline_panel import OutlinePanel
    from .panels.seats_panel import SeatsPanel
    from .panels.turn_panel import TurnPanel
    from .preview import CardPreview

log = logging.getLogger(__name__)


class TableWindow(QMainWindow):
    closed = Signal()
    act_save_position: QAction  # the Game menu's (game_menu.py)
    # the toolbar's (window_toolbar.py)
    declaring: Declaring
    pointer: Any
    declare_menu: Any
    game_menu: Any
    zoom_label: QLabel
    seat_tabs: QAction
    # the side panels and their docks (window_docks.py)
    turn: TurnPanel
    seats: SeatsPanel
    checklist: ChecklistPanel
    chat: ChatPanel
    preview: CardPreview
    log_panel: LogPanel
    assist: AssistPanel
    docks: dict[str, QDockWidget]
    dock_layout: DockLayout
    # the keyboard's and screen readers' faces (access_wiring.py)
    keys: KeyRoutes
    outline: OutlinePanel
    announcer: Announcer

    def __init__(self, replica: Replica, catalog: Catalog, *, settings: Settings | None = None,
                 read_only: bool = False, title: str = "", peers: QWidget | None = None,
                 on_leave: Callable[[], None] | None = None, assist_later: bool = False) -> None:
        super().__init__()
        self.replica = replica
        self.settings = settings
        # A LAN table: its peers panel, and what leaving does (say bye, then close the log).
        self.peers_panel = peers
        self.on_leave = on_leave
        self.ctl = TableController(replica, catalog, read_only=read_only)
        self.draft_watch: object | None = None  # the draft's folder, when playing one (drafts.py)
        self.shut = False
        waits = assist_later and assist_can_wait(catalog)  # after the first frame: late_assist
        self.assist_runner = None if waits else make_assist_runner(replica, catalog)
        self.start_assist_later = partial(start_assist, self) if waits else None
        self.scene = TableScene(self.ctl)
        self.view = TableView(self.scene)
        self.view.text_scale = apply_text_scale()  # the size the player chose, remembered
        self.menus = Menus(self.scene, self)
        self.setWindowTitle(title or f"{catalog.game_name} — Sandtable"
                            + (" (read-only)" if read_only else ""))
        self._build_central()
        build_docks(self)
        self._build_actions()
        install_access(self)  # the keys on the table, its outline, announcements, View menu
        grey_out_moves(self)  # a watcher's table refuses moves: say so up front
        self.statusBar().showMessage("Right-click anything for its menu · the Card panel reads "
                                     "the card under the pointer · F1: every shortcut", 10000)
        self.ctl.status.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.ctl.seatChanged.connect(self._seat_changed)
        self.scene.cardHovered.connect(self.preview.show_card)
        self.view.menuWanted.connect(self.menus.popup)
        self.scene.readSeat.connect(self.view.read_seat)
        self._pending_first: int | None = None
        self._resolved_seen: set[Any] = set()  # condition flags the table no longer shows
        self._chat_dirty = False
        self._panel_timer = QTimer(self)
        self._panel_timer.setSingleShot(True)
        self._panel_timer.setInterval(0)
        self._panel_timer.timeout.connect(self.refresh_panels)
        self._unsubscribe = [replica.subscribe(self._on_change), replica.subscribe_reports(
            lambda m: self.statusBar().showMessage(m, 10000))]
        self.fit = fit_window(self, "table", 1500, 950)  # inside the screen, frame and all
        if settings is not None:
            restore_geometry(self, settings)
        self.fit.clamp()  # a geometry saved on a larger screen shrinks to this one
        self.focus = TableFocus(self, self.view)
        self.view.setFocus()
        QTimer.singleShot(0, self.view.fit_legible)
        QTimer.singleShot(0, self.refresh_panels)  # a resumed table: its flags, at once
        if self.start_assist_later is not None:
            after_first_frame(self.view.viewport(), self.start_assist_later)

    # --- construction ----------------------------------------------------------------------
    def _build_central(self) -> None:
        central = QWidget()
        box = QVBoxLayout(central)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(0)
        self.seat_bar = make_seat_bar(self.ctl, self._tab_changed)  # on the toolbar's end
        box.addWidget(self.view, 1)
        self.setCentralWidget(central)
        self.help = HelpOverlay(self.view)
        self.curtain = Curtain(self)
        self.curtain.opened.connect(self.view.setFocus)

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
        self.act_undo = a("Undo", ["Ctrl+Z"], self.ctl.undo,
                          tip="Undo your last action (again: the one before)")
        self.act_redo = a("Redo", ["Ctrl+Shift+Z", "Ctrl+Y"], self.ctl.redo,
                          tip="Redo what Undo took back")
        self.act_flip = a("Flip", ["F"], self.flip_selection, on_table=True)
        self.act_rotate = a("Engage", ["R"], self.rotate_selection, on_table=True,
                            tip="Engage / ready")
        self.act_draw = a("Draw", ["D"], self.draw_one, on_table=True,
                          tip="Draw a card from your deck")
        self.act_next_phase = a("Next phase", ["N"], self.turn.advance_phase, on_table=True)
        self.act_end = a("End turn", ["Ctrl+Return", "Ctrl+Enter"], self.turn.pass_turn)
        a("Clear selection", ["Esc"], self.scene.clearSelection, on_table=True)
        self.act_note = a("Note", ["Ctrl+Shift+N"], self.add_note,
                          tip="Add a designer note at this moment (\"rule unclear here\")")
        self.act_end_game = a("End the game…", ["Ctrl+Shift+E"], self.end_game,
                              tip="Record who won and how the game ended (for the report)")
        self.act_fit = a("Fit", ["Ctrl+0"], self.view.fit_legible,
                         tip="Fit the table (readable: your own area first)")
        a("Whole table", ["Ctrl+9"], self.view.fit_table, tip="Show the whole table")
        a("Larger text", ["Ctrl+=", "Ctrl++"], lambda: self.text_size(1),
          tip="Larger text: the table is laid out again for it (remembered)")
        a("Smaller text", ["Ctrl+-"], lambda: self.text_size(-1),
          tip="Smaller text: the table is laid out again for it (remembered)")
        self.act_help = a("Help", ["F1", "?"], self.help.toggle, tip="Keyboard shortcuts")
        self.act_curtain = a("Curtain", [], lambda: None,
                             tip="Hot-seat: cover the screen whenever the view passes to "
                                 "another seat (\"Pass to …\"); on while you play several "
                                 "seats, unless you turn it off")
        self.act_curtain.setCheckable(True)
        self.act_curtain.setChecked(curtain_wanted(self.settings, self.ctl))
        self.act_curtain.toggled.connect(self._curtain_toggled)
        self._seat_actions()
        build_toolbar(self)

    def _seat_actions(self) -> None:
        """Ctrl+N plays seat N (hot-seat); Alt+N reads seat N's area large."""
        for seat in self.ctl.playable_seats[:9]:
            self._action(f"Play seat {seat}", [f"Ctrl+{seat}"], partial(self.ctl.set_seat, seat))
        for seat in [0, *self.ctl.seats[:9]]:  # the layout draws the others' areas smaller
            self._action(f"Read seat {seat}'s area" if seat else "Read the middle", [f"Alt+{seat}"],
                         partial(self.view.read_seat, seat),
                         tip="Show this area large (again, or Ctrl+0: the whole table)")

    # --- commands ----------------------------------------------------------------------------
    def _targets(self) -> list[str]:
        ids = self.scene.selected_ids()
        keyed = self.keys.targets() if not ids else None
        if keyed is not None:  # nothing selected, the keys in use: the piece they are on
            return keyed
        if not ids:  # nothing selected: act on the card under the cursor
            at = self.view.mapToScene(self.view.viewport().mapFromGlobal(self.cursor().pos()))
            item = self.scene.piece_at(at)
            if isinstance(item, CardItem):
                ids = [item.obj_id]
        return ids

    def text_size(self, steps: int) -> None:
        """One text size larger or smaller, for every window (see text_size.py)."""
        scale = step_text_scale(steps)
        self.ctl.status.emit(f"Text size {scale * 100:.0f}% (Ctrl+= larger, Ctrl+- smaller)")

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ApplicationFontChange and hasattr(self, "view"):
            self.view.text_scale = text_scale()  # the text size changed: lay the table out
            if self.view.legible or self.view.fitting:
                self.view.fit_legible()
        return super().event(event)

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

        seats = {n: self.ctl.seat_name(n) for n in self.ctl.replica.state.seats}
        self.end_dialog = ask_end_game(
            self, seats, self.ctl.catalog.module,
            lambda args: self.ctl.act(core_actions.end_game, **args))

    def add_note(self, text: str | None = None) -> None:
        """A designer note at the current moment: a `note` op, in the log, replay and report."""
        if text is None:
            text, ok = ask_text(self, "Designer note",
                                "Note for the designers (logged at this moment):")
            if not ok:
                return
        if text.strip():
            self.ctl.say("note", text)
            self.ctl.status.emit("Note added to the log")

    # --- positions -----------------------------------------------------------------------------
    def save_position(self) -> None:
        """Write the table as a position file (see game_menu.save_position)."""
        save_position(self)

    # --- rules assist declarations ------------------------------------------------------------
    def declare(self, spec: Any, fields: dict[str, Any] | None = None) -> None:
        """Issue a declaration (see Declaring.declare)."""
        self.declaring.declare(spec, fields)

    # --- following the table -----------------------------------------------------------------
    def _curtain_toggled(self, on: bool) -> None:
        if self.settings is not None:
            self.settings.extra["curtain"] = on
            self.settings.save()

    def _on_change(self, change: Change) -> None:
        if any(r.op.kind == "module" for r in change.records):
            from .drafts import follow_module  # only a draft's table needs it

            follow_module(self)  # a draft changed during play: the cards' new faces
        self.ctl.follow_turn(change.records)  # hot-seat: the view passes (behind the curtain)
        if any(r.op.kind == "seat" for r in change.records):
            name_tabs(self)  # a seat's new name on its tab
        if any(r.op.kind in ("undo", "redo") for r in change.records):
            first = 0 if self._pending_first is None else self._pending_first
            self._pending_first = min(first, undone_from(self.replica, change))
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
            self.announcer.flags(e.flag for e in runner.entries())
            self.scene.show_flags(runner.flags_by_object())
            resolved = set(runner.resolved())
            lines = runner.resolved_lines(resolved - self._resolved_seen)
            self._resolved_seen = resolved
            older = runner.older_lines_changed()  # a verdict laid at the move it judges
            if older is not None:
                lines.append(older)
            if lines:  # a flag the table no longer shows leaves its (older) line in the log
                pending = self._pending_first
                self._pending_first = min(lines) if pending is None else min(pending, *lines)
            if self._pending_first is not None and any(
                    r.op.kind == "ack" for r in self.replica.records()[self._pending_first:]):
                self._pending_first = 0  # an acknowledgement hides a flag on an older line
        if self._pending_first is not None:
            self.log_panel.refresh_from(self._pending_first)
        if self._chat_dirty:
            self.chat.rebuild()
        self._pending_first, self._chat_dirty = None, False
        self.seats.refresh()
        self.preview.refresh()  # the card read there may have moved, or turned
        sync_watcher_tabs(self)  # a watcher's tabs: the seats taken since it opened
        self.turn.refresh()
        self.checklist.refresh()
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
        if self.act_curtain.isChecked() and len(self.ctl.replica.my_seats) > 1:
            # whoever is looking now must not read the next seat's hand: End turn, Ctrl+2 or
            # a seat tab alike pass the laptop first
            self.curtain.close_over(self.ctl.seat_name(seat),
                                    theme.seat_colour(seat, self.ctl.seat_colour(seat)))
        self.scene.clearSelection()
        self.view.hide_zoom()
        self.preview.clear()  # the last seat's card is not the next seat's to read
        self.log_panel.rebuild()
        self.chat.rebuild()
        self.seats.refresh()
        self.assist.refresh()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.help.isVisible():
            self.help.setGeometry(self.view.rect())
        if self.curtain.isVisible():
            self.curtain.setGeometry(self.rect())
        self.dock_layout.follow_width(self.width())

    # --- geometry and closing ----------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        if self.settings is not None:
            save_geometry(self, self.settings)
        self.shutdown()
        super().closeEvent(event)
        self.closed.emit()

    def shutdown(self) -> None:
        """Stop following the replica and close its log (everything is already on disk)."""
        self.shut = True
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        if self.assist_runner is not None:
            self.assist_runner.finish()  # the table closed: every open window closes
            self.assist_runner.detach()
        self.scene.detach()
        self.announcer.detach()
        self.ctl.detach()
        if self.on_leave is not None:  # LAN: leave the table (bye), then close the log
            leave, self.on_leave = self.on_leave, None
            leave()
        else:
            self.replica.close()

