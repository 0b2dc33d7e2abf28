"""Start a table from a position on the start screen, and save its position from the table's
Game menu, with real clicks (the file dialogs answer with a path)."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog, QMenu, QToolButton

from table.ui.settings import Settings

DATA = Path(__file__).resolve().parents[1] / "games" / "data"


def _click_menu_item(menu: QMenu, text: str) -> None:
    """While a popup menu is open, click its item `text` where it is drawn."""
    assert menu.isVisible()
    action = next(a for a in menu.actions() if a.text() == text)
    QTest.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(action).center())


def test_start_from_a_position_and_save_it_again(  # type: ignore[no-untyped-def]
        qtbot, tmp_path, monkeypatch):
    from table.ui.shell import Shell

    source = DATA / "gauntlet.toml"
    saved = tmp_path / "saved.toml"
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(source), ""))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(saved), ""))
    shell = Shell(Settings.load())
    qtbot.addWidget(shell.start)
    shell.show_start()
    qtbot.mouseClick(shell.start.from_position, Qt.MouseButton.LeftButton)
    assert len(shell.tables) == 1
    table = shell.tables[0]
    qtbot.addWidget(table)
    assert table.replica.state.phase == "Capture" and table.replica.state.seats[1].name == "Ada"
    button = table.findChild(QToolButton, "game-menu")
    assert button is not None
    table.resize(1800, 1000)
    qtbot.waitExposed(table)
    table.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is table)
    QTimer.singleShot(300, lambda: _click_menu_item(button.menu(), "Save position…"))
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)  # the menu pops up
    qtbot.waitUntil(saved.exists, timeout=3000)
    # hot-seat: the whole position, the same file it started from
    assert saved.read_text(encoding="utf-8") == source.read_text(encoding="utf-8")
    table.close()
