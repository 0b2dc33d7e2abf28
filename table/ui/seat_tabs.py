"""A watcher's window: a seat tab per seat at the table (added as players sit), and the
controls that move pieces greyed out.

A watcher plays no seat but may look at the table from any seat's place; its software holds
no secret, so every view shows only public information (hidden cards as backs). Its table
refuses any op but a note or a chat; the window says so up front by greying those controls.
"""
from __future__ import annotations

from typing import Any

from table.core.watchers import is_watcher

from . import theme

WATCHER_TIP = "Watching: pick whose place to look from (only public information is shown)."


def sync_watcher_tabs(window: Any) -> None:
    """Rebuild the seat bar of a watcher's window when the seats at the table changed."""
    ctl, bar = window.ctl, window.seat_bar
    if not is_watcher(ctl.replica.state, ctl.replica.peer_id):
        return
    seats = ctl.seats
    names = [f"{ctl.seat_name(s)}  (Ctrl+{s})" for s in seats]
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
    bar.setVisible(len(seats) > 1)


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
