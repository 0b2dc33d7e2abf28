"""Driving the table with real mouse and keyboard events, in scene coordinates."""
from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent, QWheelEvent
from PySide6.QtWidgets import QApplication, QGraphicsView

LEFT = Qt.MouseButton.LeftButton


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
    state = replica.state
    return [c for c in state.objs[zone_id].children if state.objs[c].kind == "card"]
