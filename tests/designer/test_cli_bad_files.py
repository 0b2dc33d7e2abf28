"""Every command that reads a log answers a missing, foreign or folder path with one clear line
naming it and exit code 1 (no traceback); a damaged log is read and the damage reported."""
from __future__ import annotations

from pathlib import Path

import pytest

from table.app.cli import main
from table.bench.simulated_sessions import play_session
from table.games import find_module

COMMANDS = [["check"], ["log", "show"], ["log", "hash"], ["log", "export"], ["report"]]


def bad_paths(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    foreign = tmp_path / "notes.txt"
    foreign.write_text("not a log\n")
    return {"missing": (tmp_path / "nope.sandlog", "no such file"),
            "foreign": (foreign, "not a Sandtable log"),
            "folder": (tmp_path, "")}


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
@pytest.mark.parametrize("kind", ["missing", "foreign", "folder"])
def test_one_line_and_exit_1(tmp_path, capsys, command, kind) -> None:  # type: ignore[no-untyped-def]
    path, words = bad_paths(tmp_path)[kind]
    args = [*command, str(path)]
    if command == ["report"]:
        args += ["--out", str(tmp_path / "r.html"), "--no-progress"]
    code = main(args)
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in out + err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and str(path) in lines[0] and words in lines[0], err
    assert not (tmp_path / "r.html").exists()


def test_a_damaged_log_is_read_and_its_damage_named(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    good = tmp_path / "g.sandlog"
    play_session(find_module("gauntlet"), 2, 5, good, turns=6)
    data = bytearray(good.read_bytes())
    data[len(data) // 2] ^= 0xFF
    bad = tmp_path / "bad.sandlog"
    bad.write_bytes(bytes(data))
    assert main(["log", "show", str(bad)]) == 0
    out, err = capsys.readouterr()
    assert "[salvaged]" in out and "at byte" in err and "salvage mode" in err
    assert main(["check", str(bad)]) == 0
    capsys.readouterr()
    assert main(["report", str(bad), "--out", str(tmp_path / "r.html"), "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert "damaged" in err and "salvage mode" in err
    assert "salvage mode" in (tmp_path / "r.html").read_text()


def _first_records(log: Path, count: int, out: Path) -> Path:
    """The log's header and its first `count` records: a table closed early."""
    import struct

    data, offset = log.read_bytes(), 8
    for _ in range(count):
        length, _crc = struct.unpack_from(">II", data, offset)
        offset += 8 + length
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data[:offset])
    return out


def test_a_table_closed_before_any_seat_was_taken_is_a_row_of_the_report(tmp_path, capsys
                                                                         ) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "logs").mkdir()
    play_session(find_module("gauntlet"), 2, 5, tmp_path / "logs" / "whole.sandlog", turns=4)
    other = tmp_path / "other.sandlog"  # another table, of which only the setup's start is kept
    play_session(find_module("gauntlet"), 2, 6, other, turns=1)
    _first_records(other, 3, tmp_path / "logs" / "early.sandlog")
    assert main(["report", str(tmp_path / "logs"), "--out", str(tmp_path / "r.html"),
                 "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "2 session(s)" in out
    page = (tmp_path / "r.html").read_text()
    assert "no seat taken" in page and "2 players" in page


@pytest.mark.parametrize("command", [["report", "--no-progress", "--out"], ["dataset", "--out"]],
                         ids=lambda c: c[0])
def test_an_output_where_a_file_stands_is_one_line_and_exit_1(tmp_path, capsys, command
                                                              ) -> None:  # type: ignore[no-untyped-def]
    log = tmp_path / "g.sandlog"
    play_session(find_module("gauntlet"), 2, 5, log, turns=2)
    blocker = tmp_path / "taken"
    blocker.write_text("a file, not a folder\n")
    code = main([command[0], str(log), *command[1:], str(blocker / "out" / "x.html")])
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in out + err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and str(blocker) in lines[0] and "a folder is needed" in lines[0], err
