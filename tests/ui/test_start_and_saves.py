"""Start screen, saving as you play, resuming, read-only logs, settings, the screenshot command."""
from __future__ import annotations

import argparse
from pathlib import Path

from PySide6.QtCore import Qt

from table.core.replica import Replica
from table.ui.settings import Settings, games_dir


def _shell(qtbot):  # type: ignore[no-untyped-def]
    from table.ui.shell import Shell

    shell = Shell(Settings.load())
    qtbot.addWidget(shell.start)
    shell.show_start()
    return shell


def test_start_screen_offers_games_and_says_lan_comes_later(qtbot):  # type: ignore[no-untyped-def]
    shell = _shell(qtbot)
    s = shell.start
    ids = [s.game.itemData(i) for i in range(s.game.count())]
    assert "sample" in ids
    assert not s.host.isEnabled() and not s.join.isEnabled()  # no network wired in here
    assert "not available" in s.host.toolTip()
    shell.set_lan(lambda: None, lambda: None)  # the app wires LAN play in
    assert s.host.isEnabled() and s.join.isEnabled()
    assert not s.resume.isEnabled()  # nothing saved yet
    if "dead-to-rites" in ids:
        s.game.setCurrentIndex(ids.index("dead-to-rites"))
        assert s.seats.value() == 4 and len(s.deck_pickers) == 4


def test_play_saves_as_it_goes_and_resumes(qtbot):  # type: ignore[no-untyped-def]
    shell = _shell(qtbot)
    s = shell.start
    s.game.setCurrentIndex(s.game.findData("sample"))
    s.seats.setValue(2)
    qtbot.mouseClick(s.play, Qt.MouseButton.LeftButton)
    assert len(shell.tables) == 1 and not s.isVisible()
    table = shell.tables[0]
    qtbot.addWidget(table)
    table.draw_one()
    table.scene.bump_counter("p1.favor", 3)
    log = Path(shell.settings.last_log)
    assert log.parent == games_dir() and log.exists()
    # the log on disk already holds everything shown (write-ahead), before any close
    assert Replica.from_log(log).state.objs["p1.favor"].counters["value"] == 3
    hash_before = table.replica.public_state_hash()
    table.close()
    assert s.isVisible() and s.resume.isEnabled()
    # reopening the program offers the game again; resuming keeps appending to the same log
    again = Settings.load()
    assert again.resumable() == log
    assert shell.resume(str(log))
    resumed = shell.tables[-1]
    qtbot.addWidget(resumed)
    assert resumed.replica.public_state_hash() == hash_before
    assert len(resumed.scene.cards) == len(table.scene.cards)
    resumed.scene.bump_counter("p1.favor", 1)
    resumed.close()
    assert Replica.from_log(log).state.objs["p1.favor"].counters["value"] == 4


def test_open_log_read_only(qtbot):  # type: ignore[no-untyped-def]
    from table.ui.sample import sample_table

    path = games_dir() / "old.sandlog"
    sample_table(2, log_path=path).close()
    shell = _shell(qtbot)
    w = shell.open_read_only(str(path))
    assert w is not None
    qtbot.addWidget(w)
    n = len(w.replica.records())
    w.scene.bump_counter("p1.favor", 1)
    assert len(w.replica.records()) == n  # refused, with a message
    assert "read-only" in w.statusBar().currentMessage()
    w.close()


def test_settings_round_trip_and_damaged_file(tmp_path):  # type: ignore[no-untyped-def]
    s = Settings(name="Ada", colour="#ff0000", last_game="gauntlet")
    s.save()
    assert Settings.load().name == "Ada"
    Settings.path().write_text("{not json", encoding="utf-8")
    assert Settings.load().name == ""


def test_screenshot_command(qtbot, tmp_path):  # type: ignore[no-untyped-def]
    from table.app.commands import window

    parser = argparse.ArgumentParser()
    window.register(parser.add_subparsers())
    out = tmp_path / "shot.png"
    args = parser.parse_args(["screenshot", "--game", "sample", "--seats", "2", "--seat", "2",
                              "--size", "800x600", "--out", str(out)])
    assert args.handler(args) == 0
    from PySide6.QtGui import QImage

    img = QImage(str(out))
    assert img.width() == 800 and img.height() == 600
