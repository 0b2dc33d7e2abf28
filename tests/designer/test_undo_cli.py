"""Undo and redo in the JSON op form, run as a user runs it: `sandtable log import`, then
`sandtable position save` / `log show` on the log it wrote (each a separate process)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

pytestmark = pytest.mark.processes

ROOT = Path(__file__).resolve().parents[2]
TABLE = {"table": {"game": "dead-to-rites", "seats": 4, "seed": 7}}


def sandtable(*args: str | Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "table.app.cli", *map(str, args)],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)


def imported(folder: Path, *ops: dict[str, object]) -> tuple[Path, subprocess.CompletedProcess[str]]:
    folder.mkdir(exist_ok=True)
    src, log = folder / "ops.jsonl", folder / "t.sandlog"
    src.write_text("\n".join(json.dumps(line) for line in (TABLE, *ops)) + "\n")
    return log, sandtable("log", "import", src, "--out", log)


def position(tmp_path: Path, log: Path) -> dict[str, object]:
    out = tmp_path / "pos.toml"
    done = sandtable("position", "save", log, "--out", out)
    assert done.returncode == 0, done.stderr
    return tomllib.loads(out.read_text())


PLUS = {"seat": 1, "op": "counter", "id": "p1.favor", "add": 1}
UNDO, REDO = {"seat": 1, "op": "undo"}, {"seat": 1, "op": "redo"}


def test_plus_plus_undo_undo_leaves_the_tracker_where_it_started(tmp_path) -> None:  # type: ignore[no-untyped-def]
    log, done = imported(tmp_path, PLUS, PLUS, UNDO, UNDO)
    assert done.returncode == 0, done.stderr
    start, _ = imported(tmp_path / "start")
    assert position(tmp_path, log) == position(tmp_path, start)  # the whole table, as it began
    raised, _ = imported(tmp_path / "raised", PLUS, PLUS)
    assert position(tmp_path, raised)["counters"] == {"p1.favor": 2}
    shown = sandtable("log", "show", log)
    assert "void" not in shown.stdout
    assert shown.stdout.count("undid their op") == 2


def test_redo_brings_back_what_undo_took_and_a_third_undo_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    log, done = imported(tmp_path, PLUS, PLUS, PLUS, UNDO, UNDO, REDO)
    assert done.returncode == 0, done.stderr
    assert position(tmp_path, log)["counters"] == {"p1.favor": 2}
    _, refused = imported(tmp_path / "more", PLUS, UNDO, UNDO)
    assert refused.returncode == 1
    assert "ops.jsonl:4: Nothing of yours to undo since the game began" in refused.stderr


def test_a_card_played_from_hand_then_undone_is_in_the_hand(tmp_path) -> None:  # type: ignore[no-untyped-def]
    play = {"seat": 1, "op": "move", "card": "p1.hand:top", "to": "p1.play", "face_up": True}
    log, done = imported(tmp_path, play)
    assert done.returncode == 0, done.stderr
    after_play = position(tmp_path, log)
    (card,) = after_play["zones"]["p1.play"]  # type: ignore[index]
    name = card if isinstance(card, str) else card["card"]
    log, done = imported(tmp_path / "undone", play, UNDO)
    assert done.returncode == 0, done.stderr
    zones = position(tmp_path, log)["zones"]
    assert "p1.play" not in zones or zones["p1.play"] == []  # type: ignore[operator]
    assert name in zones["p1.hand"]  # type: ignore[index]
    # seat 2's view of the log: the play named it (it was seen), the hand does not
    seen = sandtable("log", "show", log, "--seat", "2").stdout
    assert f"moved {name}" in seen and "undid their op #" in seen
    assert "the card went back, hidden again" in seen
