"""Driving the table with real mouse and keyboard events, in scene coordinates."""
from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent, QWheelEvent
from PySide6.QtWidgets import QApplication, QGraphicsView, QWidget

LEFT = Qt.MouseButton.LeftButton


def show_active(qtbot, w: QWidget, size: tuple[int, int]) -> QWidget:  # type: ignore[no-untyped-def]
    """`w` shown at `size`, exposed and the active window (keyboard shortcuts need it); closed
    by qtbot after the test."""
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w)
    return w


def vp(view: QGraphicsView, scene_pos: QPointF) -> QPoint:
    return view.mapFromScene(scene_pos)


def _send(view: QGraphicsView, kind: QEvent.Type, pos: QPoint, button: Qt.MouseButton,
          buttons: Qt.MouseButton, mods: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
          ) -> None:
    vpw = view.viewport()
    ev = QMouseEvent(kind, QPointF(pos), QPointF(vpw.mapToGlobal(pos)), button, buttons, mods)
    QApplication.sendEvent(vpw, ev)


def drag(view: QGraphicsView, start: QPointF, end: QPointF, *, steps: int = 6,
         mods: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    a, b = vp(view, start), vp(view, end)
    _send(view, QEvent.Type.MouseButtonPress, a, LEFT, LEFT, mods)
    for i in range(1, steps + 1):
        p = a + (b - a) * i / steps
        _send(view, QEvent.Type.MouseMove, p, Qt.MouseButton.NoButton, LEFT, mods)
    _send(view, QEvent.Type.MouseButtonRelease, b, LEFT, Qt.MouseButton.NoButton, mods)


def hover(view: QGraphicsView, at: QPointF) -> None:
    """The pointer moved onto `at` (scene coordinates), no button held: sent to the viewport as
    the window system hands it on (offscreen, a window an earlier test left behind could
    otherwise take a move sent through the window system)."""
    _send(view, QEvent.Type.MouseMove, vp(view, at), Qt.MouseButton.NoButton,
          Qt.MouseButton.NoButton)


def click(view: QGraphicsView, at: QPointF, *, double: bool = False) -> None:
    p = vp(view, at)
    _send(view, QEvent.Type.MouseButtonPress, p, LEFT, LEFT)
    _send(view, QEvent.Type.MouseButtonRelease, p, LEFT, Qt.MouseButton.NoButton)
    if double:
        _send(view, QEvent.Type.MouseButtonDblClick, p, LEFT, LEFT)
        _send(view, QEvent.Type.MouseButtonRelease, p, LEFT, Qt.MouseButton.NoButton)


def wheel(view: QGraphicsView, at: QPointF, steps: int) -> None:
    p = vp(view, at)
    vpw = view.viewport()
    ev = QWheelEvent(QPointF(p), QPointF(vpw.mapToGlobal(p)), QPoint(0, 0),
                     QPoint(0, 120 * steps), Qt.MouseButton.NoButton,
                     Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(vpw, ev)


def cards_in(replica, zone_id: str) -> list[str]:  # type: ignore[no-untyped-def]
    return replica.state.cards_in(zone_id)


def right_click(view: QGraphicsView, at: QPointF) -> None:
    """A right-click at a scene position, as the window system sends it: the press, the
    release, then the context-menu event to the viewport."""
    from PySide6.QtGui import QContextMenuEvent

    p = vp(view, at)
    right = Qt.MouseButton.RightButton
    _send(view, QEvent.Type.MouseButtonPress, p, right, right)
    _send(view, QEvent.Type.MouseButtonRelease, p, right, Qt.MouseButton.NoButton)
    vpw = view.viewport()
    QApplication.sendEvent(vpw, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, p,
                                                  vpw.mapToGlobal(p)))


def open_menu() -> object:
    """The popup menu now shown (a context menu), or fail."""
    from PySide6.QtWidgets import QMenu

    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu), f"no menu is open (popup: {menu!r})"
    return menu


def menu_texts(menu: object) -> list[str]:
    return [a.text() for a in menu.actions() if not a.isSeparator()]  # type: ignore[attr-defined]


def choose(*path: str) -> None:
    """Walk the open popup menu by keyboard: for each entry, move down to it and press Enter
    (a submenu opens with Right)."""
    from PySide6.QtTest import QTest

    for text in path:
        menu = open_menu()
        actions = [a for a in menu.actions() if a.isEnabled() and a.isVisible()  # type: ignore
                   and not a.isSeparator() and not (a.menu() is None and a.text() == "" )]
        texts = [a.text() for a in actions]
        assert text in texts, f"{text!r} not in the menu {texts}"
        target = actions[texts.index(text)]
        for _ in range(len(menu.actions()) + 2):  # type: ignore[attr-defined]
            if menu.activeAction() is target:  # type: ignore[attr-defined]
                break
            QTest.keyClick(menu, Qt.Key.Key_Down)  # type: ignore[arg-type]
        assert menu.activeAction() is target, f"cannot reach {text!r} by keyboard"  # type: ignore
        if target.menu() is not None:
            QTest.keyClick(menu, Qt.Key.Key_Right)  # type: ignore[arg-type]
        else:
            QTest.keyClick(menu, Qt.Key.Key_Return)  # type: ignore[arg-type]
        QApplication.processEvents()


def answer_next_dialog(qtbot, value):  # type: ignore[no-untyped-def]
    """Type `value` into the next input dialog and press Enter, once it shows."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QInputDialog

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QInputDialog):
            QTimer.singleShot(10, answer)
            return
        dialog.setIntValue(value) if dialog.inputMode() == QInputDialog.InputMode.IntInput \
            else dialog.setTextValue(str(value))
        qtbot.keyClick(dialog, Qt.Key.Key_Return)

    QTimer.singleShot(0, answer)


def choose_when_open(*path: str) -> None:
    """`choose(*path)` as soon as a popup menu shows (for menus run by exec(), which block)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QMenu

    def attempt() -> None:
        if isinstance(QApplication.activePopupWidget(), QMenu):
            choose(*path)
        else:
            QTimer.singleShot(10, attempt)

    QTimer.singleShot(0, attempt)
