"""The table window's toolbar: its actions, the zoom, the Declare and Game menus, the way back
to the start screen, and at its end the seat tabs (hot-seat: whose view; the table keeps the
row they would take)."""
from __future__ import annotations

from typing import Any

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QSizePolicy, QToolBar, QWidget

from .declaring import Declaring
from .game_menu import build_game_menu


def build_toolbar(w: Any) -> None:
    """The toolbar of the table window `w` (a TableWindow, its actions made)."""
    bar = QToolBar("Table")
    bar.setObjectName("toolbar-table")
    bar.setMovable(False)
    for act in (w.act_undo, w.act_redo, w.act_flip, w.act_rotate, w.act_draw, w.act_end,
                w.act_note, w.act_end_game, w.act_fit, w.act_help):
        bar.addAction(act)
    if len(w.ctl.playable_seats) > 1:
        bar.addAction(w.act_curtain)
    w.zoom_label = QLabel()
    w.view.zoomChanged.connect(lambda z: w.zoom_label.setText(f"  {z * 100:.0f}%  "))
    bar.addSeparator()
    bar.addWidget(w.zoom_label)
    w.declaring = Declaring(w)
    w.pointer = w.declaring.pointer
    w.declare_menu = w.declaring.build_menu(bar, w.start_assist_later)
    w.game_menu = build_game_menu(w, bar)
    w.addToolBar(bar)
    back = QAction("Start screen", w)
    back.setToolTip("Leave this table (it stays saved) and return to the start screen")
    back.triggered.connect(w.close)
    bar.addSeparator()
    bar.addAction(back)
    spacer = QWidget()
    spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
    bar.addWidget(spacer)
    w.seat_tabs = bar.addWidget(w.seat_bar)  # its action shows and hides it
    w.seat_tabs.setVisible(len(w.ctl.playable_seats) > 1)
