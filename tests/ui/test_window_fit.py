"""Window sizes: fitted to the screen's available area with the frame's room, moved inside it,
and remembered per kind of window. (The real screens: tests/ui/test_xwindow.py.)"""
from __future__ import annotations

from PySide6.QtCore import QMargins, QRect, QSize

from table.ui import window_fit
from table.ui.window_fit import fitting, inside


def test_a_large_size_shrinks_to_the_area_less_the_frame() -> None:
    area = QRect(0, 0, 1366, 768)
    frame = QMargins(1, 20, 1, 5)
    assert fitting(QSize(1500, 950), area, frame) == QSize(1364, 743)
    assert fitting(QSize(600, 400), area, frame) == QSize(600, 400)  # small ones stay


def test_a_frame_off_the_screen_moves_back_in_as_little_as_it_can() -> None:
    area = QRect(0, 24, 1366, 744)  # a panel along the top
    assert inside(QRect(-30, 0, 800, 600), area) == QRect(0, 24, 800, 600)
    assert inside(QRect(900, 400, 800, 600), area) == QRect(566, 168, 800, 600)
    assert inside(QRect(10, 30, 800, 600), area) == QRect(10, 30, 800, 600)


def test_the_replay_window_remembers_its_size(qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from table.ui.replay.window import ReplayWindow
    from table.ui.sample import sample_catalog, sample_table

    source = sample_table(2)
    first = ReplayWindow(source, sample_catalog(), flags=None)
    qtbot.addWidget(first)
    assert first.size() == QSize(1500, 950)  # offscreen: no screen to fit, the asked size
    first.show()
    qtbot.waitExposed(first)
    first.resize(1250, 777)
    first.close()
    again = ReplayWindow(source, sample_catalog(), flags=None)
    qtbot.addWidget(again)
    assert again.size() == QSize(1250, 777)
    # on a real 1366x768 screen the remembered size is fitted to it, frame and all
    monkeypatch.setattr(window_fit, "real_screen", lambda: True)
    monkeypatch.setattr(window_fit, "screen_area", lambda _w: QRect(0, 0, 1300, 700))
    third = ReplayWindow(source, sample_catalog(), flags=None)
    qtbot.addWidget(third)
    guess = window_fit.FRAME_GUESS
    assert third.size() == QSize(1250, 700 - guess.top() - guess.bottom())  # only the height
