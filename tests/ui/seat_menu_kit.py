"""Real input on a table window's seats and menus: a dock's tab, a right-click on a seat's row
of the Seats panel (as the window system sends it), the toolbar's Declare menu, and a popup
menu walked by keyboard without spinning the event loop (usable inside a coroutine)."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QContextMenuEvent, QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu, QTabBar, QToolButton

from tests.ui.helpers import choose_when_open

LEFT, RIGHT = Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton


def click_tab(w: Any, text: str) -> None:
    bar, i = next((b, i) for b in w.findChildren(QTabBar) for i in range(b.count())
                  if b.tabText(i) == text)
    QTest.mouseClick(bar, LEFT, pos=bar.tabRect(i).center())


def right_click_seat(w: Any, seat: int) -> None:
    """A right-click on the seat's row of the Seats panel, as the window system sends it."""
    tree = w.seats.tree
    item = next(tree.topLevelItem(i) for i in range(tree.topLevelItemCount())
                if tree.topLevelItem(i).data(0, Qt.ItemDataRole.UserRole) == seat)
    at = tree.visualItemRect(item).center()
    vp = tree.viewport()
    glob = QPointF(vp.mapToGlobal(at))
    for kind, buttons in ((QEvent.Type.MouseButtonPress, RIGHT),
                          (QEvent.Type.MouseButtonRelease, Qt.MouseButton.NoButton)):
        QApplication.sendEvent(vp, QMouseEvent(kind, QPointF(at), glob, RIGHT, buttons,
                                               Qt.KeyboardModifier.NoModifier))
    QApplication.sendEvent(vp, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, at,
                                                 QPoint(int(glob.x()), int(glob.y()))))


def declare(w: Any, label: str) -> None:
    """The toolbar's Declare button, clicked where it is, and an entry of its menu."""
    button = next(b for b in w.findChildren(QToolButton) if b.text() == "Declare")
    choose_when_open(label)
    QTest.mouseClick(button, LEFT, pos=button.rect().center())


def walk_menu(*path: str) -> None:
    """Choose an entry of the open popup menu by keyboard (Down to it, then Right into a
    submenu or Return), one entry per menu level; no event loop is spun."""
    for text in path:
        menu = QApplication.activePopupWidget()
        assert isinstance(menu, QMenu), f"no menu is open ({menu!r})"
        actions = [a for a in menu.actions() if a.isEnabled() and not a.isSeparator()]
        target = next((a for a in actions if a.text() == text), None)
        assert target is not None, f"{text!r} not in {[a.text() for a in actions]}"
        for _ in range(len(menu.actions()) + 2):
            if menu.activeAction() is target:
                break
            QTest.keyClick(menu, Qt.Key.Key_Down)
        QTest.keyClick(menu, Qt.Key.Key_Right if target.menu() is not None else Qt.Key.Key_Return)
