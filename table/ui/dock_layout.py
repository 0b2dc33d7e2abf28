"""Side panels that leave the table its room: in a narrow window the left column (turn,
checklist, seats) joins the right one as tabs, so the table gets the width of one column
more; widened again, the panels go back. Only crossing the threshold moves anything, so a
player's own arrangement of docks is left alone otherwise."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow

NARROW_BELOW = 1100  # window width (px) under which the panels share one column
LEFT = ("turn", "checklist", "seats")


class DockLayout:
    def __init__(self, window: QMainWindow, docks: dict[str, QDockWidget]) -> None:
        self.window, self.docks = window, docks
        self.narrow = False

    def follow_width(self, width: int) -> None:
        narrow = width < NARROW_BELOW
        if narrow == self.narrow:
            return
        self.narrow = narrow
        right, left = Qt.DockWidgetArea.RightDockWidgetArea, Qt.DockWidgetArea.LeftDockWidgetArea
        anchor = self.docks["log"]
        for key in LEFT:
            dock = self.docks.get(key)
            if dock is None:
                continue
            if narrow:
                self.window.addDockWidget(right, dock)
                self.window.tabifyDockWidget(anchor, dock)
            else:
                self.window.addDockWidget(left, dock)
        if not narrow:
            self.window.tabifyDockWidget(self.docks["seats"], self.docks["checklist"])
            self.window.resizeDocks([self.docks["turn"]], [200], Qt.Orientation.Horizontal)
        self.docks["turn" if narrow else "checklist"].raise_()
