"""Game → End the game…: the toolbar button opens the dialog; ticking a winner, choosing how it
ended and a victory condition, and clicking OK logs an `end` op the report reads."""
from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox, QToolBar


def click(widget) -> None:  # type: ignore[no-untyped-def]
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     widget.rect().center())


def tick(box) -> None:  # type: ignore[no-untyped-def]
    """Click a checkbox on its box (its widget is wider than the box and the label)."""
    QTest.mouseClick(box, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     QPoint(8, box.height() // 2))


def open_dialog(qtbot, w):  # type: ignore[no-untyped-def]
    bar = w.findChild(QToolBar, "toolbar-table")
    button = bar.widgetForAction(w.act_end_game)
    assert button is not None and button.isVisible()
    click(button)
    qtbot.waitUntil(lambda: getattr(w, "end_dialog", None) is not None
                    and w.end_dialog.isVisible())
    return w.end_dialog


def test_end_the_game_logs_the_result(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from table.games import find_module
    from table.games.setup import new_table
    from table.ui.catalog import Catalog
    from table.ui.main_window import TableWindow

    module = find_module("gauntlet")
    replica = new_table(module, 2, log_path=tmp_path / "g.sandlog")
    w = TableWindow(replica, Catalog.from_module(module))
    qtbot.addWidget(w)
    w.resize(1500, 950)
    w.show()
    qtbot.waitExposed(w)
    dialog = open_dialog(qtbot, w)
    tick(dialog.winners[2])
    assert dialog.winners[2].isChecked()
    dialog.how.setFocus()
    assert dialog.how.currentData() == "victory"
    dialog.condition.setFocus()
    QTest.keyClick(dialog.condition, Qt.Key.Key_Down)  # the first condition the module names
    assert dialog.condition.currentData() == "Ran the Gauntlet (won the Last Stand)"
    dialog.scores[2].setFocus()
    dialog.scores[2].selectAll()
    QTest.keyClicks(dialog.scores[2], "7")
    click(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok))
    qtbot.waitUntil(lambda: replica.state.result is not None)
    result = replica.state.result
    assert result["winners"] == [2] and result["how"] == "victory"
    assert result["condition"] == "Ran the Gauntlet (won the Last Stand)"
    assert result["scores"] == {"2": 7}
    replica.close()
    from table.report.session import read_session

    session = read_session(tmp_path / "g.sandlog", assist=False)
    assert session.winners == {2} and session.how == "victory" and session.finished
    w.shutdown()


def test_cancel_logs_nothing_and_a_draw_has_no_winner(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    replica = window.ctl.replica
    dialog = open_dialog(qtbot, window)
    click(dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel))
    assert replica.state.result is None
    dialog = open_dialog(qtbot, window)
    dialog.how.setFocus()
    QTest.keyClick(dialog.how, Qt.Key.Key_Down)
    QTest.keyClick(dialog.how, Qt.Key.Key_Down)
    QTest.keyClick(dialog.how, Qt.Key.Key_Down)  # victory → concession → time → draw
    assert dialog.how.currentData() == "draw" and not dialog.winners[1].isEnabled()
    click(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok))
    qtbot.waitUntil(lambda: replica.state.result is not None)
    assert replica.state.result["how"] == "draw" and replica.state.result["winners"] == []
