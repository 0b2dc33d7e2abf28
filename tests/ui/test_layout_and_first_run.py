"""The table uses the window it has, each seat sees its own area at the bottom, and the run
script installs only when it must."""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from tests.ui.helpers import wheel

ROOT = Path(__file__).resolve().parents[2]


def test_the_view_refits_when_the_window_or_a_dock_changes_size(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    w.view.fit_table()  # the whole table: its zoom follows the room the view has
    before = w.view.zoom
    w.resize(900, 700)
    qtbot.waitUntil(lambda: abs(w.view.zoom - before) > 1e-3)
    small = w.view.zoom
    for dock in w.docks.values():  # the panels closed: the table takes the room
        dock.hide()
    qtbot.waitUntil(lambda: w.view.zoom > small + 1e-3)
    # a zoom by hand (the wheel) is kept: resizing no longer refits
    wheel(w.view, w.view.mapToScene(w.view.viewport().rect().center()), -1)
    chosen = w.view.zoom
    w.resize(1200, 800)
    qtbot.wait(50)
    assert abs(w.view.zoom - chosen) < 1e-6


def test_each_seat_sees_its_own_area_at_the_bottom(window, qtbot):  # type: ignore[no-untyped-def]
    w = window
    def at_the_bottom(seat: int) -> bool:  # the others' areas above it, or beside it
        areas = w.scene.layout.seat_areas
        return all(areas[seat].bottom() >= a.bottom() and areas[seat].left() <= a.left()
                   for a in areas.values())

    assert at_the_bottom(1) and not at_the_bottom(2)  # North plays: North at the bottom
    qtbot.keyClick(w, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert at_the_bottom(2) and not at_the_bottom(1)  # East plays: East at the bottom
    hand = w.scene.zones["p2.hand"]
    assert hand.rect.top() > w.scene.layout.middle.bottom()
    # the cards followed their zones
    card = w.scene.cards[w.replica.state.objs["p2.hand"].children[0]]
    assert hand.rect.contains(card.scenePos())


def _fake_repo(tmp: Path) -> tuple[Path, Path]:
    """A copy of the run script beside a pyproject.toml and a lock, with a stand-in uv that
    records each call and "installs" a sandtable command that says how it was called."""
    (tmp / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "run.sh", tmp / "scripts" / "run.sh")
    shutil.copy(ROOT / "scripts" / "check_display.sh", tmp / "scripts" / "check_display.sh")
    shutil.copy(ROOT / "scripts" / "uv.sh", tmp / "scripts" / "uv.sh")
    (tmp / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp / "uv.lock").write_text("version = 1\n")
    bin_dir = tmp / ".venv" / "bin"
    calls = tmp / "uv-calls"
    uv = tmp / "fake-uv"
    uv.write_text(f"#!/bin/sh\necho \"$@\" >> {calls}\nmkdir -p {bin_dir}\n"
                  f"printf '#!/bin/sh\\necho played \"$@\"\\n' > {bin_dir}/sandtable\n"
                  f"chmod +x {bin_dir}/sandtable\n")
    uv.chmod(uv.stat().st_mode | stat.S_IEXEC)
    return tmp, calls


@pytest.mark.processes
def test_run_script_installs_from_the_lock_once_and_again_only_when_it_changes(tmp_path):  # type: ignore[no-untyped-def]
    repo, calls = _fake_repo(tmp_path)
    env = {**os.environ, "SANDTABLE_UV": str(repo / "fake-uv"), "SANDTABLE_PURE_CORE": "1"}

    def run() -> str:
        out = subprocess.run(["bash", str(repo / "scripts" / "run.sh"), "--game", "gauntlet"],
                             capture_output=True, text=True, env=env, timeout=60)
        assert out.returncode == 0, out.stderr
        return out.stdout

    assert "played play --game gauntlet" in run()
    assert calls.read_text().count("sync --locked") == 1
    run()
    assert calls.read_text().count("sync --locked") == 1  # nothing changed: no install
    (repo / "uv.lock").write_text("version = 1\n# another lock\n")
    out = run()
    assert calls.read_text().count("sync --locked") == 2 and "from uv.lock" in out
    (repo / "pyproject.toml").write_text("[project]\nname = 'x'\nversion = '2'\n")
    run()
    assert calls.read_text().count("sync --locked") == 3


def test_a_narrow_window_puts_the_panels_in_one_column(window, qtbot):  # type: ignore[no-untyped-def]
    from PySide6.QtCore import Qt as _Qt

    w = window
    right = _Qt.DockWidgetArea.RightDockWidgetArea
    w.resize(1800, 1000)  # wide: a column of panels on each side
    qtbot.waitUntil(lambda: w.dockWidgetArea(w.docks["turn"]) != right)
    wide_view = w.view.width()
    w.resize(795, 600)
    qtbot.waitUntil(lambda: w.dockWidgetArea(w.docks["turn"]) == right)
    assert w.dockWidgetArea(w.docks["checklist"]) == right
    qtbot.waitUntil(lambda: w.view.width() > 795 * 0.55)  # the table keeps most of the window
    w.resize(1800, 1000)
    qtbot.waitUntil(lambda: w.dockWidgetArea(w.docks["turn"]) != right)
    assert abs(w.view.width() - wide_view) < 80
