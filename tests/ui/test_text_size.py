"""The text-size setting by its keys (Ctrl+= larger, Ctrl+- smaller): the table is laid out again
for the larger text (the player's cards read larger, the whole table still in view: not a zoom),
the panels and dialogs grow with it, and the next window opens at the size chosen."""
from __future__ import annotations

from PySide6.QtCore import QRect, Qt, QTimer
from PySide6.QtWidgets import QApplication, QInputDialog, QLabel

from table.ui.settings import text_scale
from table.ui.text_size import apply_text_scale
from tests.ui.glyphs import glyph_height
from tests.ui.test_legible_table import measure_cards, open_table, settle


def _own_names(w) -> int:  # type: ignore[no-untyped-def]
    found = measure_cards(w, w.grab().toImage())
    return min(m.px for m in found if m.region == "own hand" and m.role == "name")


def _dialog_text(qtbot, w) -> int:  # type: ignore[no-untyped-def]
    """Open the designer note's dialog by its keys and measure its label's first letter."""
    seen: list[int] = []

    def read() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QInputDialog):
            QTimer.singleShot(20, read)
            return
        label = next(c for c in dialog.findChildren(QLabel) if c.text())
        shot = dialog.grab().toImage()
        seen.append(glyph_height(shot, QRect(label.mapTo(dialog, label.rect().topLeft()),
                                             label.size()).adjusted(-3, -3, 3, 3)))
        dialog.reject()

    QTimer.singleShot(0, read)
    qtbot.keyClick(w.view, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier |
                   Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: bool(seen))
    w.activateWindow()  # the keys go to the table again
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w)
    w.view.setFocus()
    return seen[0]


def test_larger_text_lays_the_table_out_again_and_is_remembered(qtbot, styled) -> None:  # type: ignore[no-untyped-def]
    w = open_table(qtbot, "dead-to-rites")
    try:
        names, dialog = _own_names(w), _dialog_text(qtbot, w)
        font = QApplication.font().pointSizeF()
        for _ in range(2):
            qtbot.keyClick(w.view, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: w.view.text_scale == 1.2)
        settle(qtbot, w)
        assert text_scale() == 1.2  # remembered
        assert QApplication.font().pointSizeF() > font  # every panel and dialog
        assert _own_names(w) > names  # the player's cards read larger
        # laid out again, not zoomed: the whole table is still in view, fitted
        seen = w.view.mapToScene(w.view.viewport().rect()).boundingRect()
        pixel = 2 / w.view.zoom  # give or take the view's rounding
        assert seen.adjusted(-pixel, -pixel, pixel, pixel).contains(w.scene.sceneRect())
        assert w.view.fitting
        assert _dialog_text(qtbot, w) > dialog
        qtbot.keyClick(w.view, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: w.view.text_scale == 1.1)
    finally:
        w.shutdown()
    again = open_table(qtbot, "gauntlet")  # the next window: the size chosen last
    try:
        assert again.view.text_scale == 1.1 and again.view.own_zoom > 0.625
    finally:
        again.shutdown()
        apply_text_scale(scale=1.0)  # the program's font back for the tests after
