"""The `tag` op: what a session is (group, event, players, free tags), each op changing only
what it names, the latest in canonical order winning; and a log read past damaged magic and a
damaged header, keeping its table id from the header's copy."""
from __future__ import annotations

from pathlib import Path

import pytest

from table.core import actions as act
from table.core.errors import LogError
from table.core.logfile import read_log
from table.core.render import Renderer
from table.core.replica import Replica


def test_tags_change_only_what_each_op_names() -> None:
    r = Replica("t", "a")
    r.issue("hello", {"name": "a"})
    act.tag(r, group="Tuesday club", event="Spring con", add=["solo", "short"],
            players={1: "Ana", 2: "Bo"})
    act.tag(r, add=["blind"], remove=["short"], players={2: ""})
    assert r.state.tags == {"group": "Tuesday club", "event": "Spring con",
                            "tags": ["blind", "solo"], "players": {"1": "Ana"}}
    act.tag(r, group="")
    assert "group" not in r.state.tags and r.state.tags["event"] == "Spring con"
    text = Renderer(r.state, r.knowledge, -1).line(r.records()[2])
    assert "+blind" in text and "-short" in text and "seat 2" in text
    bad = r.issue("tag", {"add": [""]})
    assert r.records()[-1].op is bad and "as text" in (r.records()[-1].void or "")
    with pytest.raises(act.ActionError):
        act.tag(r)


def test_damaged_magic_and_header_keep_the_table_id(tmp_path: Path) -> None:
    path = tmp_path / "a.sandlog"
    r = Replica("tbl-7", "p1", log_path=path, game="gauntlet")
    r.issue("hello", {"name": "x"})
    act.tag(r, group="Thursday")
    r.close()
    data = path.read_bytes()
    both = tmp_path / "both.sandlog"
    both.write_bytes(b"SANDLOG9" + b"\xff" * 30 + data[38:])  # magic and header frame
    contents = read_log(both)
    assert contents.header["table"] == "tbl-7" and contents.header["recovered"]
    assert "damaged magic" in contents.problems[0]
    assert Replica.from_log(both).state.tags == {"group": "Thursday"}
    other = tmp_path / "other.sandlog"
    other.write_bytes(b"SANDLOG2" + data[8:])  # a readable header of this format: damage only
    assert read_log(other).header["table"] == "tbl-7"
    foreign = tmp_path / "foreign.sandlog"
    foreign.write_bytes(b"SANDLOG2" + b"\x00\x00\x00\x05" + b"\x01" * 40)
    with pytest.raises(LogError, match="format b'2' is not supported"):
        read_log(foreign)
