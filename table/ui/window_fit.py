"""Every window opens inside the screen it is on, its frame (title bar, borders) included, at
the size the player last gave it.

Before a window is first shown its frame is unknown (the window manager adds it), so a typical
frame's room is kept free; once shown, the real frame is measured and the window shrunk or
moved until all of it is on the screen's available area (without the desktop's panels). Sizes
are remembered per kind of window in window-sizes.ini beside settings.json (QSettings: each
window writes only its own key, so two windows never overwrite each other's).

A table window also comes back with its docks where the player left them (the settings).

Offscreen rendering (tests, `sandtable screenshot`) has no screen to fit: the size asked for
is the picture's size there, and is kept.
"""
from __future__ import annotations

import logging

from PySide6.QtCore import QByteArray, QEvent, QMargins, QObject, QRect, QSettings, QSize, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMainWindow, QWidget

from .settings import Settings, config_dir

log = logging.getLogger(__name__)

FRAME_GUESS = QMargins(4, 32, 4, 8)  # left, top, right, bottom: a common title bar and border
WINDOWLESS = ("offscreen", "minimal")
SETTLE_MS = (0, 150, 600)  # window managers frame a window a moment after it is mapped


def real_screen() -> bool:
    """Windows here go on a screen a person looks at (not offscreen)."""
    return QGuiApplication.platformName() not in WINDOWLESS


def store() -> QSettings:
    return QSettings(str(config_dir() / "window-sizes.ini"), QSettings.Format.IniFormat)


def screen_area(window: QWidget) -> QRect:
    """The available area of the screen the window is on (its parent's, for a dialog)."""
    parent = window.parentWidget()
    screen = parent.window().screen() if parent is not None else None
    screen = screen or window.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else QRect(0, 0, 1 << 14, 1 << 14)


def frame_margins(window: QWidget) -> QMargins:
    """The window manager's frame around the window: measured once shown, else a guess."""
    if not window.isVisible():
        return FRAME_GUESS
    frame, inner = window.frameGeometry(), window.geometry()
    return QMargins(inner.left() - frame.left(), inner.top() - frame.top(),
                    frame.right() - inner.right(), frame.bottom() - inner.bottom())


def fitting(want: QSize, area: QRect, margins: QMargins) -> QSize:
    """`want`, no larger than what fits in `area` with its frame."""
    return QSize(min(want.width(), area.width() - margins.left() - margins.right()),
                 min(want.height(), area.height() - margins.top() - margins.bottom()))


def inside(frame: QRect, area: QRect) -> QRect:
    """The frame moved (not resized) to lie in the area, as near to where it was as it can."""
    x = max(area.left(), min(frame.left(), area.right() + 1 - frame.width()))
    y = max(area.top(), min(frame.top(), area.bottom() + 1 - frame.height()))
    return QRect(x, y, frame.width(), frame.height())


class WindowFit(QObject):
    """Fits one top-level window (see the module's text). `key` names its kind; `default` is
    its size on a first run, before the player gave it one.

    It keeps nothing on its Python side: the window is its parent and the key its object name
    (both kept by Qt), so a fitter whose Python wrapper was collected while its window lives
    (a dialog its opener did not keep) still works when Qt calls its event filter."""

    def __init__(self, window: QWidget, key: str, default: QSize) -> None:
        super().__init__(window)
        self.setObjectName(key)
        saved = store().value(f"{key}/size")
        want = saved if isinstance(saved, QSize) and saved.isValid() else default
        window.resize(want)
        self.clamp()
        window.installEventFilter(self)

    @property
    def window(self) -> QWidget:
        parent = self.parent()
        assert isinstance(parent, QWidget)
        return parent

    @property
    def key(self) -> str:
        return self.objectName()

    def clamp(self) -> None:
        """Before the window is shown: its size, shrunk to fit with a frame's room."""
        if real_screen():
            area = screen_area(self.window)
            self.window.resize(fitting(self.window.size(), area, frame_margins(self.window)))

    def keep_inside(self) -> None:
        """Once shown: all of the frame on the screen, shrinking the window if it must."""
        w = self.window
        if not real_screen() or not w.isVisible() or w.isMaximized() or w.isFullScreen():
            return
        area, margins = screen_area(w), frame_margins(w)
        size = fitting(w.size(), area, margins)
        if size != w.size():
            w.resize(size)
        outer = QRect(w.frameGeometry().topLeft(), size.grownBy(margins))
        target = inside(outer, area)
        if target.topLeft() != outer.topLeft():
            w.move(target.topLeft())  # a window's position is its frame's

    def remember(self) -> None:
        w = self.window
        size = w.normalGeometry().size() if w.isMaximized() else w.size()
        if size.isValid() and not size.isEmpty():
            store().setValue(f"{self.key}/size", size)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.parent():
            if event.type() == QEvent.Type.Show:
                for delay in SETTLE_MS:
                    QTimer.singleShot(delay, self, self.keep_inside)
            elif event.type() == QEvent.Type.Hide:  # closed or hidden: its size for next time
                self.remember()
        return False


def fit_window(window: QWidget, key: str, width: int, height: int) -> WindowFit:
    """Fit `window` (see WindowFit); keeps the fitter alive as the window's child."""
    return WindowFit(window, key, QSize(width, height))


def restore_geometry(window: QMainWindow, settings: Settings) -> None:
    """The window's size, place and docks as the player left them (a bad record: ignored)."""
    try:
        if settings.geometry:
            window.restoreGeometry(QByteArray.fromHex(settings.geometry.encode()))
        if settings.window_state:
            window.restoreState(QByteArray.fromHex(settings.window_state.encode()))
    except (ValueError, TypeError):
        log.warning("ignoring saved window geometry")


def save_geometry(window: QMainWindow, settings: Settings) -> None:
    settings.geometry = bytes(window.saveGeometry().toHex().data()).decode()
    settings.window_state = bytes(window.saveState().toHex().data()).decode()
    settings.save()
