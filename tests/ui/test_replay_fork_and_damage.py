"""The replay's Fork button clicked where it is on screen; a damaged log opens with what it lost
shown in the window and the salvaged ops marked."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from table.bench.simulated_sessions import play_session
from table.games import find_module


@pytest.fixture(scope="module")
def log_path(tmp_path_factory):  # type: ignore[no-untyped-def]
    path = tmp_path_factory.mktemp("replay-fork") / "gauntlet.sandlog"
    play_session(find_module("gauntlet"), 2, 23, path, turns=6)
    return path


def open_window(qtbot, path, **kwargs):  # type: ignore[no-untyped-def]
    from table.ui.replay.run import open_replay

    w = open_replay(path, **kwargs)
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    qtbot.waitExposed(w)
    return w


def test_fork_button_click_forks_at_the_current_op(qtbot, log_path, tmp_path) -> None:  # type: ignore[no-untyped-def]
    opened = []
    w = open_window(qtbot, log_path, on_fork=lambda replica, catalog: opened.append(replica))
    w.fork_path = lambda: tmp_path / "fork.sandlog"
    k = len(w.seeker) // 2
    w.seek(k)
    button = w.fork
    assert button.isVisible()
    QTest.mouseClick(button, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     button.rect().center())
    qtbot.waitUntil(lambda: bool(opened))
    assert len(opened[0].records()) == k
    assert (tmp_path / "fork.sandlog").exists()
    w.shutdown()


def test_damaged_log_shows_what_was_lost_and_marks_salvaged_ops(qtbot, log_path,
                                                                tmp_path) -> None:  # type: ignore[no-untyped-def]
    data = bytearray(Path(log_path).read_bytes())
    data[len(data) // 3] ^= 0xFF  # one flipped byte in the first third
    damaged = tmp_path / "damaged.sandlog"
    damaged.write_bytes(bytes(data))
    w = open_window(qtbot, damaged)
    assert w.damage.isVisible()
    text = w.damage.text()
    assert "Damaged log" in text and "at byte" in text and "Salvage mode" in text
    total = len(w.seeker)
    assert total == len(w.source.records()) and total > 10
    lines = [w.log_model.text(i) for i in range(w.log_model.rowCount())]
    salvaged = [line for line in lines if "⚠ salvaged" in line]
    assert len(salvaged) == len(w.source.salvaged) > 0
    assert f"of {total}" in w.where.text() and "salvaged" in w.where.text()  # at the end
    w.shutdown()


def test_a_sound_log_shows_no_damage_banner(qtbot, log_path) -> None:  # type: ignore[no-untyped-def]
    w = open_window(qtbot, log_path)
    assert not w.damage.isVisible() and not w.source.salvaged
    w.shutdown()
