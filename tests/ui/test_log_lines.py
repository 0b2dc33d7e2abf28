"""The log panel on a laptop: a line the narrow panel cuts short is read whole under the pointer."""
from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from tests.ui.helpers import show_active


def test_a_log_line_cut_short_reads_whole_under_the_pointer(qtbot) -> None:  # type: ignore[no-untyped-def]
    from table.ui.main_window import TableWindow
    from table.ui.sample import sample_catalog, sample_table

    w = TableWindow(sample_table(2), sample_catalog())
    show_active(qtbot, w, (1366, 768))
    try:
        log = w.log_panel.list
        room = log.viewport().width()
        cut = [log.item(i) for i in range(log.count())
               if log.fontMetrics().horizontalAdvance(log.item(i).text()) > room]
        assert cut, f"no log line is wider than the panel's {room} px"
        line = cut[-1]
        log.scrollToItem(line)
        at = log.visualItemRect(line).center()
        # what the window system sends once the pointer rests on the line
        QApplication.sendEvent(log.viewport(), QHelpEvent(
            QEvent.Type.ToolTip, at, log.viewport().mapToGlobal(at)))
        qtbot.waitUntil(QToolTip.isVisible)
        assert QToolTip.text() == line.text()
    finally:
        QToolTip.hideText()
        w.shutdown()

