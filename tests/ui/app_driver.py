"""The real program (table.app.desktop.run_app, with no command: the start screen) with a hand
a test controls from outside: one JSON command per line on stdin, one JSON answer per line on
stdout (``{"id": n, "ok": true, "value": ...}``).

The hand acts only as a person at the screen would: it clicks buttons and list items and types
into fields with QTest (real mouse and key events sent to the widget where it is shown), and
it reads what the windows show. Run: ``python tests/ui/app_driver.py`` (offscreen or a real
display); ``AppProcess`` in tests/ui/test_lan_back_in.py speaks to it.
"""
from __future__ import annotations

import json
import re
import sys
import threading
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from PySide6.QtCore import QObject, QPoint, Qt, Signal
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QLineEdit,
    QToolBar,
    QTreeWidget,
    QWidget,
)

LEFT = Qt.MouseButton.LeftButton


def _visible_windows() -> list[QWidget]:
    return [w for w in QApplication.topLevelWidgets() if w.isVisible()]


def _window(name: str) -> QWidget:
    """The visible top-level window whose object name is `name`, or whose title matches it."""
    for w in _visible_windows():
        if w.objectName() == name or re.search(name, w.windowTitle()):
            return w
    raise LookupError(f"no window {name!r} is shown: "
                      f"{[(w.objectName(), w.windowTitle()) for w in _visible_windows()]}")


def _plain(text: str) -> str:
    return text.replace("&", "")


def _widget(window: QWidget, target: str) -> QWidget:
    """A widget of the window: an attribute path ("name", "position.edit"), an object name,
    or a visible button's text."""
    obj: Any = window
    try:
        for part in target.split("."):  # "winners.2": the dict's entry for seat 2
            obj = obj[int(part)] if isinstance(obj, dict) else getattr(obj, part)
        if isinstance(obj, QWidget):
            return obj
    except (AttributeError, KeyError, ValueError):
        pass
    found = window.findChild(QWidget, target)
    if found is not None and found.isVisible():
        return found
    for button in window.findChildren(QAbstractButton):
        if button.isVisible() and _plain(button.text()) == target:
            return button
    bar = window.findChild(QToolBar)
    if bar is not None:
        for action in bar.actions():
            if _plain(action.text()) == target:
                widget = bar.widgetForAction(action)
                if widget is not None:
                    return widget
    raise LookupError(f"no {target!r} in {window.objectName() or window.windowTitle()!r}")


class Hand(QObject):
    command = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.command.connect(self.run)

    def run(self, line: str) -> None:
        cmd = json.loads(line)
        ident = cmd.pop("id", None)
        try:
            value = getattr(self, "do_" + cmd.pop("do"))(**cmd)
            answer = {"id": ident, "ok": True, "value": value}
        except Exception as err:  # the test reads why
            answer = {"id": ident, "ok": False, "error": f"{type(err).__name__}: {err}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()

    # --- acting ---------------------------------------------------------------------------
    def do_click(self, window: str, target: str) -> str:
        widget = _widget(_window(window), target)
        if not widget.isEnabled():
            raise RuntimeError(f"{target!r} is disabled")
        point = QPoint(8, widget.height() // 2) if widget.inherits("QCheckBox") else \
            widget.rect().center()
        QTest.mouseClick(widget, LEFT, Qt.KeyboardModifier.NoModifier, point)
        return _plain(getattr(widget, "text", lambda: "")())

    def do_type(self, window: str, target: str, text: str) -> None:
        widget = _widget(_window(window), target)
        assert isinstance(widget, QLineEdit)
        QTest.mouseClick(widget, LEFT)
        QTest.keyClick(widget, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        QTest.keyClick(widget, Qt.Key.Key_Delete)
        QTest.keyClicks(widget, text)
        QTest.keyClick(widget, Qt.Key.Key_Tab)  # leaving the field (editingFinished)

    def do_choose(self, window: str, target: str, text: str) -> str:
        """Pick an entry of a drop-down with the keyboard (Home, then Down until it shows)."""
        box = _widget(_window(window), target)
        assert isinstance(box, QComboBox)
        box.setFocus()
        QTest.keyClick(box, Qt.Key.Key_Home)
        for _ in range(box.count()):
            if box.currentText() == text:
                return text
            QTest.keyClick(box, Qt.Key.Key_Down)
        if box.currentText() != text:
            raise LookupError(f"{text!r} is not among {[box.itemText(i) for i in range(box.count())]}")
        return text

    def do_pick(self, window: str, target: str, text: str) -> str:
        """Click the row of a list whose first column starts with `text`."""
        tree = _widget(_window(window), target)
        assert isinstance(tree, QTreeWidget)
        for i in range(tree.topLevelItemCount()):
            item = tree.topLevelItem(i)
            if item is not None and item.text(0).startswith(text):
                rect = tree.visualItemRect(item)
                QTest.mouseClick(tree.viewport(), LEFT, Qt.KeyboardModifier.NoModifier,
                                 rect.center())
                return item.text(0)
        raise LookupError(f"no row {text!r}")

    def do_key(self, window: str, key: str, target: str = "view") -> None:
        """A key pressed with the focus on the table (its view), as in play."""
        widget = _widget(_window(window), target)
        widget.setFocus()
        QTest.keyClick(widget, getattr(Qt.Key, f"Key_{key}"))

    def do_close(self, window: str) -> None:
        """The window's close button (the window manager asks the window to close)."""
        _window(window).close()

    # --- reading --------------------------------------------------------------------------
    def do_shown(self) -> list[list[str]]:
        return [[w.objectName(), w.windowTitle()] for w in _visible_windows()]

    def do_start(self) -> dict[str, Any]:
        start = _window("start")
        return {"offers": {log: [b.text(), b.isEnabled()]
                           for log, b in start.rejoin_buttons.items()},  # type: ignore[attr-defined]
                "resume": start.resume.isEnabled(),  # type: ignore[attr-defined]
                "replay": start.replay_last.isVisible(),  # type: ignore[attr-defined]
                "replay_note": start.replay_note.text(),  # type: ignore[attr-defined]
                "name": start.name.text()}  # type: ignore[attr-defined]

    def do_dialog(self, window: str) -> dict[str, Any]:
        w = _window(window)
        status = getattr(w, "status", None)
        return {"status": status.text() if status is not None else "",
                "go": _plain(w.go.text()) if hasattr(w, "go") else "",
                "tables": [w.tables.topLevelItem(i).text(0)
                           for i in range(w.tables.topLevelItemCount())]
                if isinstance(getattr(w, "tables", None), QTreeWidget) else [],
                "seat": w.seat.currentText() if isinstance(getattr(w, "seat", None), QComboBox)
                else ""}

    def do_table(self, window: str) -> dict[str, Any]:
        """What a table window holds: its log, ops, public hash, seats, peers, the end."""
        w: Any = _window(window)
        r = w.replica
        end = w.findChild(QWidget, "end-view")
        panel = w.peers_panel
        return {"log": str(getattr(r.log, "path", "") or ""), "peer": r.peer_id,
                "ops": sum(r.version_vector().values()), "hash": r.public_state_hash(),
                "seats": sorted(r.my_seats),
                "peers": [[p.name, list(p.seats), p.status] for p in panel.current]
                if panel is not None else [],
                "end": end.text() if end is not None and end.isVisible() else "",
                "status": w.statusBar().currentMessage()}


def main() -> int:
    app = QApplication.instance() or QApplication(["sandtable"])
    hand = Hand()

    def read() -> None:
        for line in sys.stdin:
            if line.strip():
                hand.command.emit(line)

    threading.Thread(target=read, daemon=True).start()
    from table.app.desktop import run_app

    sys.stdout.write(json.dumps({"id": 0, "ok": True, "value": "ready"}) + "\n")
    sys.stdout.flush()
    assert app is not None
    return run_app([])


if __name__ == "__main__":
    sys.exit(main())
