"""The end of a hot-seat game, by real clicks: Play hot-seat, End the game… (seat 2 wins), OK:
the table shows "… won" with Replay, Report and New game. Report writes the game's page and
opens it; Replay opens the replay of the log; New game opens a new table of the same game.
Undo takes the result away, Redo shows it again. Back on the start screen the ended game is
under Replay, not Resume."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox, QToolBar, QWidget


def click(widget: QWidget) -> None:
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     widget.rect().center())


def test_the_end_is_shown_with_replay_report_and_new_game(qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QDesktopServices

    from table.ui.game_report import report_missing
    from table.ui.settings import Settings
    from table.ui.shell import Shell

    opened: list[str] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url.toLocalFile()))
    shell = Shell(Settings.load())
    qtbot.addWidget(shell.start)
    shell.show_start()
    start = shell.start
    start.game.setCurrentIndex(start.game.findData("gauntlet"))
    click(start.play)
    window = shell.tables[0]
    qtbot.addWidget(window)
    log = str(window.replica.log.path)
    bar = window.findChild(QToolBar, "toolbar-table")
    click(bar.widgetForAction(window.act_end_game))
    dialog = window.end_dialog
    QTest.mouseClick(dialog.winners[2], Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     QPoint(8, dialog.winners[2].height() // 2))
    click(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok))

    view: Any = window.findChild(QWidget, "end-view")
    qtbot.waitUntil(lambda: view.isVisible())
    name = window.ctl.seat_name(2)
    assert view.headline.text() == f"{name} won" and "victory" in view.details.text()
    assert view.geometry().intersects(window.view.rect())  # over the table, in view
    window.activateWindow()
    qtbot.waitUntil(lambda: window.isActiveWindow())
    QTest.keyClick(window.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # undo it
    qtbot.waitUntil(lambda: not view.isVisible())
    assert window.replica.state.result is None and not shell.settings.last_ended
    QTest.keyClick(window.view, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)  # redo
    qtbot.waitUntil(lambda: view.isVisible())
    if not report_missing():
        click(view.report)
        qtbot.waitUntil(lambda: bool(opened), timeout=30000)
        page = Path(opened[0])
        assert page.exists() and name in page.read_text(encoding="utf-8")
    click(view.replay)
    assert [w.path for w in shell.replays] == [Path(log)]
    shell.replays[0].close()
    click(view.new_game)
    assert len(shell.tables) == 1 and shell.tables[0] is not window  # the ended one closed
    fresh = shell.tables[0]
    qtbot.addWidget(fresh)
    assert fresh.ctl.catalog.module.id == "gauntlet" and fresh.replica.state.result is None
    fresh.close()

    assert start.isVisible() and start.replay_last.isVisible()
    assert start.replay_note.text() == f"Gauntlet: {name} won (by victory)"
    assert shell.settings.resumable() == Path(fresh.replica.log.path)  # the new game
    click(start.replay_last)
    assert [w.path for w in shell.replays] == [Path(log)]
    for w in shell.replays:
        w.close()
