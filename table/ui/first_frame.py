"""Run something once a widget has painted its first frame (work the first frame does not need,
such as loading the network stack, waits for it however long the start takes)."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget


class _FirstPaint(QObject):
    def __init__(self, widget: QWidget, then: Callable[[], object], delay_ms: int) -> None:
        super().__init__(widget)  # lives as long as the widget, or until it fires
        self._then, self._delay = then, delay_ms
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            watched.removeEventFilter(self)
            QTimer.singleShot(self._delay, self._then)
            self.deleteLater()
        return False


def after_first_frame(widget: QWidget, then: Callable[[], object], delay_ms: int = 0) -> None:
    """Call `then` `delay_ms` after `widget` first paints (the frame is on screen by then)."""
    _FirstPaint(widget, then, delay_ms)


def paint_first_frame(widget: QWidget, timeout_s: float = 10.0) -> bool:
    """Process Qt's events (no event loop running yet) until `widget` has painted, or
    `timeout_s` passed (a platform that never paints); whether it painted."""
    import time

    from PySide6.QtCore import QEventLoop
    from PySide6.QtWidgets import QApplication

    painted: list[bool] = []
    _FirstPaint(widget, lambda: painted.append(True), 0)
    deadline = time.monotonic() + timeout_s
    while not painted and time.monotonic() < deadline:
        QApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
    return bool(painted)
