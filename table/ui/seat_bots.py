"""\"Add a bot\" on a seat: right-click a seat in the Seats panel (or its tab, hot-seat) to give
it to a bot (an empty seat; in hot-seat also a seat a person hands over), or to take a bot's
seat back.

Who runs the bots is the app's business (table/app/table_bots.py plays them in this process at
a hot-seat table; table/app/lan_bots.py starts each as its own headless peer at a LAN table, so
it holds only its seat's secrets): the window knows them only as `BotSeats`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QMenu, QTreeWidgetItem, QWidget

if TYPE_CHECKING:
    from .main_window import TableWindow

HINT = "Double-click to play this seat; right-click to give it to a bot"


class BotSeats(Protocol):
    """The bots of one table, as its window's menu asks for them."""

    def choices(self) -> list[tuple[str, str]]:
        """(bot name, what a player reads: "Heuristic: plays to win") for this game."""

    def bot_at(self, seat: int) -> str | None:
        """The bot playing `seat` (its name), or None."""

    def why_not(self, seat: int) -> str:
        """Why no bot may take `seat` now ("" when one may)."""

    def add(self, seat: int, name: str) -> None:
        """Give `seat` to the bot `name` (what went wrong is said in the status bar)."""

    def remove(self, seat: int) -> None:
        """Take the bot out of `seat`; the seat is free again (a person plays it here)."""


def install(window: TableWindow, bots: BotSeats) -> None:
    """The bots' right-click menu on this window's seats: a seat's row in the Seats panel, and
    (hot-seat) its tab at the toolbar's end."""
    tree = window.seats.tree
    window.seats.hint = HINT
    window.seats.bots = bots  # kept alive with the window
    window.seats.refresh()
    tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
    tree.customContextMenuRequested.connect(lambda pos: popup(window, bots, pos))
    bar = window.seat_bar
    bar.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
    bar.customContextMenuRequested.connect(lambda pos: _tab_popup(window, bots, pos))


def _tab_popup(window: TableWindow, bots: BotSeats, pos: QPoint) -> None:
    bar = window.seat_bar
    index, seats = bar.tabAt(pos), window.ctl.seats
    if 0 <= index < len(seats):
        menu = seat_menu(bar, bots, seats[index], window.ctl.seat_name(seats[index]))
        window.seats.menu = menu
        menu.popup(bar.mapToGlobal(pos))


def popup(window: TableWindow, bots: BotSeats, pos: QPoint) -> QMenu | None:
    """The menu of the seat row at `pos` (the tree's viewport coordinates), shown."""
    tree = window.seats.tree
    item = tree.itemAt(pos)
    seat = _seat_of(item)
    if seat is None:
        return None
    menu = seat_menu(tree, bots, seat, window.ctl.seat_name(seat))
    window.seats.menu = menu  # kept alive while it shows
    menu.popup(tree.viewport().mapToGlobal(pos))
    return menu


def seat_menu(parent: QWidget, bots: BotSeats, seat: int, name: str) -> QMenu:
    menu = QMenu(parent)
    playing = bots.bot_at(seat)
    if playing is not None:
        act = menu.addAction(f"Remove the bot from {name}")
        act.setToolTip(f"{playing} stops playing; the seat is free again")
        act.triggered.connect(lambda _=False: bots.remove(seat))
        return menu
    why = bots.why_not(seat)
    sub = menu.addMenu("Add a bot")
    if why:
        sub.setEnabled(False)
        menu.addAction(why).setEnabled(False)
        return menu
    choices = bots.choices()
    if not choices:
        sub.setEnabled(False)
        menu.addAction("No bot plays this game").setEnabled(False)
    for bot, label in choices:
        act = sub.addAction(label)
        act.setToolTip(f"{bot} plays {name}")
        act.triggered.connect(lambda _=False, b=bot: bots.add(seat, b))
    return menu


def _seat_of(item: QTreeWidgetItem | None) -> int | None:
    while item is not None:
        seat = item.data(0, Qt.ItemDataRole.UserRole)
        if isinstance(seat, int):
            return seat
        item = item.parent()
    return None


__all__ = ["HINT", "BotSeats", "install", "popup", "seat_menu"]
