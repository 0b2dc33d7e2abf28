"""The table's Game menu: saving the table's situation as a position file (docs/positions.md)
and printing the module's cards (print/print_dialog.py)."""
from __future__ import annotations

from pathlib import Path
from typing import Protocol

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QToolBar, QToolButton, QWidget

from table.core.replica import Replica

from .controller import TableController


class GameMenuHost(Protocol):
    """What the Game menu needs of the table window."""
    replica: Replica
    ctl: TableController
    act_save_position: QAction  # set here: the menu's Save position action

    def save_position(self) -> None: ...
    def window(self) -> QWidget: ...  # the parent of its menu and dialogs


def build_game_menu(window: GameMenuHost, bar: QToolBar) -> QMenu:
    menu = QMenu("Game", window.window())
    window.act_save_position = menu.addAction("Save position…")
    window.act_save_position.triggered.connect(lambda _=False: window.save_position())
    act_print = menu.addAction("Print cards…")
    act_print.triggered.connect(lambda _=False: _print_cards(window))
    button = QToolButton()
    button.setObjectName("game-menu")
    button.setText("Game")
    button.setToolTip("Save this table's situation as a position file (docs/positions.md), "
                      "or print the game's cards")
    button.setMenu(menu)
    button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
    bar.addSeparator()
    bar.addWidget(button)
    return menu


def _print_cards(window: GameMenuHost) -> None:
    from .print.print_dialog import open_print_dialog

    open_print_dialog(window)  # the window (its parent) keeps it while it is open


def save_position(window: GameMenuHost) -> None:
    """Write the table as a position file: what this peer knows (others' hidden cards "?")."""
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    from table.games import find_module
    from table.games.position_writer import replica_position

    try:
        module = find_module(window.replica.game)
    except (LookupError, ValueError) as err:
        QMessageBox.warning(window.window(), "Cannot save the position", str(err))
        return
    path, _ = QFileDialog.getSaveFileName(window.window(), "Save position", "position.toml",
                                          "Positions (*.toml)")
    if not path:
        return
    text = replica_position(window.replica, module)
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as err:
        QMessageBox.warning(window.window(), "Cannot save the position", str(err))
        return
    unknown = text.count('"?"')
    window.ctl.status.emit(f"Position saved to {path}" + (
        f" ({unknown} hidden card(s) you cannot see are written \"?\")" if unknown else ""))
