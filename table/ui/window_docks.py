"""The table window's side panels, each in a dock: turn, seats, checklist on the left; the card,
the log, chat and the rules assist on the right (a LAN table adds its peers). A laptop's window
has them all in one column on the right (dock_layout.py)."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

from .dock_layout import DockLayout
from .panels.assist_panel import AssistPanel
from .panels.chat_panel import ChatPanel
from .panels.checklist_panel import ChecklistPanel
from .panels.log_panel import LogPanel
from .panels.seats_panel import SeatsPanel
from .panels.turn_panel import TurnPanel
from .preview import CardPreview


def _dock(window: QMainWindow, title: str, widget: QWidget,
          area: Qt.DockWidgetArea) -> QDockWidget:
    dock = QDockWidget(title, window)
    dock.setObjectName(f"dock-{title}")
    dock.setWidget(widget)
    dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable |
                     QDockWidget.DockWidgetFeature.DockWidgetFloatable |
                     QDockWidget.DockWidgetFeature.DockWidgetClosable)
    window.addDockWidget(area, dock)
    return dock


def build_docks(w: Any) -> None:
    """Make the panels of the table window `w` (a TableWindow) and dock them."""
    left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
    w.turn = TurnPanel(w.ctl)
    w.seats = SeatsPanel(w.ctl)
    w.checklist = ChecklistPanel(w.ctl)
    w.chat = ChatPanel(w.ctl)
    w.preview = CardPreview(w.ctl)
    w.log_panel = LogPanel(w.ctl)
    w.assist = AssistPanel(w.ctl, w.assist_runner, waiting=w.assist_runner is None and
                           w.start_assist_later is not None)
    if w.assist_runner is not None:  # a resumed table shows its flags in the log at once
        w.log_panel.flags_at = w.assist_runner.flags_at
        w.log_panel.rebuild()
    w.docks = docks = {
        "turn": _dock(w, "Turn", w.turn, left),
        "seats": _dock(w, "Seats", w.seats, left),
        "checklist": _dock(w, "Checklist", w.checklist, left),
        "preview": _dock(w, "Card", w.preview, right),
        "log": _dock(w, "Log", w.log_panel, right),
        "chat": _dock(w, "Chat", w.chat, right),
        "assist": _dock(w, "Rules assist", w.assist, right),
    }
    docks["assist"].visibilityChanged.connect(w.assist.in_sight)
    if w.peers_panel is not None:
        docks["peers"] = _dock(w, "Peers", w.peers_panel, left)
    w.tabifyDockWidget(docks["log"], docks["chat"])
    w.tabifyDockWidget(docks["log"], docks["assist"])
    w.tabifyDockWidget(docks["seats"], docks["checklist"])
    w.dock_layout = DockLayout(w, docks)
    docks["log"].raise_()
    docks["checklist"].raise_()
    w.resizeDocks([docks["turn"], docks["preview"]], [200, 270], Qt.Orientation.Horizontal)
    w.resizeDocks([docks["turn"], docks["seats"]], [150, 600], Qt.Orientation.Vertical)
    w.resizeDocks([docks["preview"], docks["log"]], [430, 400], Qt.Orientation.Vertical)
