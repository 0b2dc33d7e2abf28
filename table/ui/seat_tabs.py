"""The seat tabs (hot-seat: whose view to show), at the toolbar's end; a watcher's window: a
seat tab per seat at the table (added as players sit), and the controls that move pieces
greyed out.

A watcher plays no seat but may look at the table from any seat's place; its software holds
no secret, so every view shows only public information (hidden cards as backs). Its table
refuses any op but a note or a chat; the window says so up front by greying those controls.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTabBar

from table.core.watchers import is_watcher

from . import theme


def make_seat_bar(ctl: Any, changed: Callable[[int], None]) -> QTabBar:
    """A tab per seat, in its colour (its key in the tooltip: Ctrl+N)."""
    bar = QTabBar()
    bar.setExpanding(False)
    bar.setDocumentMode(True)
    bar.setElideMode(Qt.TextElideMode.ElideRight)
    for seat in ctl.seats:
        bar.addTab(ctl.seat_name(seat))
        bar.setTabToolTip(bar.count() - 1, f"Look from this seat (Ctrl+{seat})")
        bar.setTabTextColor(bar.count() - 1, theme.seat_colour(seat, ctl.seat_colour(seat)))
    bar.setCurrentIndex(ctl.seats.index(ctl.seat) if ctl.seat in ctl.seats else 0)
    bar.currentChanged.connect(changed)
    bar.setToolTip("Hot-seat: you play every seat. Pick whose view to show.")
    return bar


def name_tabs(window: Any) -> None:
    """The seats' names and colours as they are now on their tabs (a player who joined, a bot
    that took a seat or gave it back)."""
    bar, ctl = window.seat_bar, window.ctl
    for i, seat in enumerate(ctl.seats[:bar.count()]):
        bar.setTabText(i, ctl.seat_name(seat))
        bar.setTabTextColor(i, theme.seat_colour(seat, ctl.seat_colour(seat)))


WATCHER_TIP = "Watching: pick whose place to look from (only public information is shown)."


def sync_watcher_tabs(window: Any) -> None:
    """Rebuild the seat bar of a watcher's window when the seats at the table changed."""
    ctl, bar = window.ctl, window.seat_bar
    if not is_watcher(ctl.replica.state, ctl.replica.peer_id):
        return
    seats = ctl.seats
    names = [ctl.seat_name(s) for s in seats]
    if [bar.tabText(i) for i in range(bar.count())] == names:
        return
    bar.blockSignals(True)
    while bar.count():
        bar.removeTab(0)
    for seat, name in zip(seats, names, strict=True):
        bar.addTab(name)
        bar.setTabTextColor(bar.count() - 1, theme.seat_colour(seat, ctl.seat_colour(seat)))
    bar.setCurrentIndex(seats.index(ctl.seat) if ctl.seat in seats else 0)
    bar.blockSignals(False)
    bar.setToolTip(WATCHER_TIP)
    window.seat_tabs.setVisible(len(seats) > 1)


WATCHING_TIP = "You are watching: watchers chat and add notes, they do not move pieces."


def grey_out_moves(window: Any) -> None:
    """In a watcher's window, the toolbar's moves and the turn panel's buttons are disabled."""
    ctl = window.ctl
    if not is_watcher(ctl.replica.state, ctl.replica.peer_id):
        return
    moves = [window.act_undo, window.act_redo, window.act_flip, window.act_rotate, window.act_draw,
             window.act_end, window.act_end_game, window.act_next_phase]
    for control in [*moves, window.turn.next_phase, window.turn.end_turn, window.turn.phase]:
        control.setEnabled(False)
        control.setToolTip(WATCHING_TIP)
    button = window.declaring.button  # none without a rules assist
    if button is not None:
        button.setEnabled(False)
        button.setToolTip(WATCHING_TIP)
