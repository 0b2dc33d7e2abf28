"""A whole turn of each game played by keys alone in a real window, ending in the same saved
position as the same turn played by mouse.

From the same position (tests/ui/turns/GAME.toml, seeded): the turn is played by mouse on a
table window (double-clicks, drags, right-click menus, buttons: turn_drivers.Mouse), and by keys
on another (turn_drivers.Keys: real key events, each recorded by its xdotool name). Then the
program itself (`sandtable play --position`) opens in an Xvfb screen and gets those keys from
the X server (xdotool key: no mouse event at all); its log, saved as a position
(table/games/position_writer.py), is the mouse turn's position to the letter.
"""
from __future__ import annotations

import difflib
import time
from pathlib import Path
from typing import Any

import pytest

from tests.ui.helpers import show_active
from tests.ui.screen_kit import ROOT, Screen, have_x
from tests.ui.turn_drivers import TURNS, Keys, Mouse

pytestmark = [pytest.mark.xwindow, pytest.mark.processes,
              pytest.mark.skipif(not have_x(), reason="needs Xvfb and xdotool")]
TURNS_DIR = Path(__file__).parent / "turns"


def _played(game: str, driver: type, qtbot: Any) -> tuple[str, int, Any]:
    """The turn played on a table window by `driver`: the saved position, the number of ops
    in the log, and the driver (the keys it pressed)."""
    from PySide6.QtWidgets import QGraphicsView

    from table.games.position import read_position
    from table.games.position_table import start_position
    from table.games.position_writer import replica_position
    from table.ui.catalog import Catalog
    from table.ui.main_window import TableWindow

    position = read_position(TURNS_DIR / f"{game}.toml")
    replica = start_position(position)
    w = TableWindow(replica, Catalog.from_module(position.module))
    show_active(qtbot, w, (1366, 740))
    w.view.fit_legible()
    w.view.setFocus()
    # the keys and the ops are the question here, not how the table looks: no repaints
    w.view.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.NoViewportUpdate)
    d = driver(w)
    TURNS[game](w, d)
    saved = replica_position(replica, position.module), len(replica.records()), d
    w.shutdown()
    return saved


def _log_records(home: Path) -> int:
    from table.core.replica import Replica

    logs = sorted((home / "games").glob("*.sandlog")) if (home / "games").exists() else []
    try:
        return len(Replica.from_log(logs[-1]).records()) if logs else 0
    except Exception:  # caught mid-write: read it again
        return 0


def test_a_whole_turn_of_each_game_by_keys_in_a_real_window_ends_where_the_mouse_turn_does(
        qtbot: Any, tmp_path: Path) -> None:
    games = sorted(TURNS)
    screens = {g: Screen(tmp_path / g) for g in games}
    try:
        apps = {g: screens[g].start("app", [str(ROOT / ".venv" / "bin" / "sandtable"), "play",
                                            "--position", str(TURNS_DIR / f"{g}.toml")],
                                    env={"SANDTABLE_HOME": str(tmp_path / g / "home")})
                for g in games}  # the programs start while the turns are played offscreen
        played = {}
        for game in games:
            by_mouse, ops, _ = _played(game, Mouse, qtbot)
            by_keys, key_ops, keys = _played(game, Keys, qtbot)
            assert by_keys == by_mouse, game + "".join(difflib.unified_diff(
                by_mouse.splitlines(True), by_keys.splitlines(True), "mouse", "keys"))
            assert key_ops == ops
            played[game] = (by_mouse, ops, keys.pressed)
        for game in games:
            by_mouse, ops, pressed = played[game]
            in_window = _in_a_window(screens[game], apps[game], tmp_path / game / "home",
                                     pressed, ops)
            assert in_window == by_mouse, game + "".join(difflib.unified_diff(
                by_mouse.splitlines(True), in_window.splitlines(True), "mouse",
                "keys in a window"))
    finally:
        for screen in screens.values():
            screen.close()


def _in_a_window(screen: Screen, app: Any, home: Path, pressed: list[str], ops: int) -> str:
    """Send the keys to the program's window (no mouse event); its log, saved as a position."""
    from table.core.replica import Replica
    from table.games import find_module
    from table.games.position_writer import replica_position

    screen.focus_window("Sandtable")
    end = time.monotonic() + 60
    seen = -1
    # the table set up and shown: its log holds records and no more come (on a busy machine
    # the first keys could otherwise reach a window still settling its focus)
    while (now := _log_records(home)) < 1 or now != seen:
        assert app.proc.poll() is None and time.monotonic() < end, \
            "the table window did not open" + screen.stderr_tails()
        seen = now
        time.sleep(0.5)
    screen.keys(*pressed, delay_ms=25)
    end = time.monotonic() + 30
    while (logged := _log_records(home)) < ops:
        if time.monotonic() > end:
            screen.shot("after-keys")
            raise AssertionError(f"the window logged {logged} ops of {ops}; keys sent: "
                                 f"{pressed}; screen: {screen.dir}" + screen.stderr_tails())
        time.sleep(0.2)
    app.stop()
    log = sorted((home / "games").glob("*.sandlog"))[-1]
    replica = Replica.from_log(log)
    return replica_position(replica, find_module(str(replica.game)))
