"""Side panels that leave the table its room. A laptop's window (under NARROW_BELOW wide) has
one column of panels, on the right: the turn on top, the reading panel (the card under the
pointer, its rules text readable) in the middle, and below it the log with chat, the rules
assist, the checklist and the seats as tabs, so the table gets the width of a second column.
A wider window puts the turn, seats and checklist back in a column on the left. Only crossing
the threshold moves anything, so a player's own arrangement of docks is left alone otherwise.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow

NARROW_BELOW = 1700  # window width (px) under which the panels share one column
COLUMN_W = 272       # the one column's width (px): the reading panel's lines stay short
LEFT = ("turn", "checklist", "seats")
TABS = ("log", "chat", "assist", "checklist", "seats", "peers")  # the narrow column's tabs


class DockLayout:
    def __init__(self, window: QMainWindow, docks: dict[str, QDockWidget]) -> None:
        self.window, self.docks = window, docks
        self.narrow = False

    def follow_width(self, width: int) -> None:
        narrow = width < NARROW_BELOW
        if narrow == self.narrow:
            return
        self.narrow = narrow
        if narrow:
            self._one_column()
        else:
            self._two_columns()

    def _one_column(self) -> None:
        w, right = self.window, Qt.DockWidgetArea.RightDockWidgetArea
        column = [self.docks[k] for k in ("turn", "preview", "log")]
        tabs = [self.docks[k] for k in TABS[1:] if k in self.docks]
        shown = {d: not d.isHidden() for d in self.docks.values()}  # a closed one stays so
        for dock in self.docks.values():
            w.removeDockWidget(dock)
        for dock in column:
            w.addDockWidget(right, dock, Qt.Orientation.Vertical)
        for dock in tabs:
            w.tabifyDockWidget(self.docks["log"], dock)
        for dock, visible in shown.items():
            dock.setVisible(visible)
        w.resizeDocks([self.docks["turn"]], [COLUMN_W], Qt.Orientation.Horizontal)
        turn = self.docks["turn"].widget()
        turn_h = max(112, turn.minimumSizeHint().height() + 30) if turn is not None else 112
        w.resizeDocks(column, [turn_h, 330, 320], Qt.Orientation.Vertical)
        self.docks["log"].raise_()

    def _two_columns(self) -> None:
        w = self.window
        right, left = Qt.DockWidgetArea.RightDockWidgetArea, Qt.DockWidgetArea.LeftDockWidgetArea
        for key in LEFT:
            w.addDockWidget(left, self.docks[key])
        w.tabifyDockWidget(self.docks["seats"], self.docks["checklist"])
        if "peers" in self.docks:
            w.addDockWidget(left, self.docks["peers"])
        w.addDockWidget(right, self.docks["preview"])
        w.resizeDocks([self.docks["turn"]], [200], Qt.Orientation.Horizontal)
        self.docks["checklist"].raise_()
