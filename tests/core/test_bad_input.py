"""Bad input gets a clear error naming the file and line or record, and loses nothing."""
from __future__ import annotations

import zlib
from pathlib import Path

import msgpack
import pytest

from table.app.cli import main
from table.core.logfile import MAGIC, LogWriter, make_header, read_log
from table.core.replica import Replica


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def _scenario(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


GOOD = [
    '{"table": {"seats": 2, "seed": 1}}',
    '{"seat": 1, "op": "create", "id": "play", "kind": "zone"}',
    '{"seat": 1, "op": "create", "id": "c1", "kind": "card", "to": "play", "card": "iron-wall"}',
    '{"seat": 1, "op": "counter", "id": "c1", "key": "damage", "add": 2}',
]


def test_malformed_jsonl_names_every_bad_line(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    src = _scenario(tmp_path / "ops.jsonl", [
        *GOOD,
        '{"seat": 1, "op": "move", "card": "c1", "to": "play"',            # line 5: bad JSON
        '{"seat": 1, "op": "teleport", "card": "c1"}',                     # line 6: unknown op
        '{"seat": 1, "op": "move", "card": "nowhere:top", "to": "play"}',  # line 7: missing zone
        '{"seat": 1, "op": "move", "card": "c1", "to": "play", "speed": 3}',  # line 8: bad field
    ])
    out = tmp_path / "out.sandlog"
    code, _, err = run(capsys, "log", "import", str(src), "--out", str(out))
    assert code == 1
    for line in (5, 6, 7, 8):
        assert f"ops.jsonl:{line}:" in err
    assert "no zone 'nowhere'" in err
    assert not out.exists()  # nothing half-written


def test_good_scenario_imports_and_shows(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    src = _scenario(tmp_path / "ops.jsonl", GOOD)
    out = tmp_path / "out.sandlog"
    code, stdout, _ = run(capsys, "log", "import", str(src), "--out", str(out))
    assert code == 0 and "ops" in stdout
    code, stdout, _ = run(capsys, "log", "show", str(out), "--all")
    assert code == 0 and "changed iron-wall damage by +2" in stdout.replace("Seat 1 changed", "changed")


def test_an_op_naming_a_missing_object_is_void_in_a_log_not_an_error(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "t.sandlog"
    r = Replica("t", "p", log_path=path)
    r.issue("seat", {"seat": 1})
    r.issue("move", {"id": "ghost", "to": "table"}, seat=1)
    r.close()
    code, stdout, _ = run(capsys, "log", "show", str(path), "--all")
    assert code == 0
    assert "[void: object 'ghost' does not exist]" in stdout


def test_wrong_version_log_is_refused_clearly(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "future.sandlog"
    header = make_header("t", "p")
    header["version"] = 99
    LogWriter(path, header).close()
    code, _, err = run(capsys, "log", "hash", str(path))
    assert code == 1
    assert "future.sandlog" in err and "version 99 is not supported" in err
    (tmp_path / "other.sandlog").write_bytes(b"PK\x03\x04 not a log at all")
    code, _, err = run(capsys, "log", "show", str(tmp_path / "other.sandlog"))
    assert code == 1 and "not a Sandtable log" in err


def _log_with_ops(path: Path, count: int) -> Replica:
    r = Replica("t", "p", log_path=path)
    r.issue("seat", {"seat": 1})
    r.issue("create", {"id": "k", "kind": "counter"}, seat=1)
    for _ in range(count):
        r.issue("counter", {"id": "k", "add": 1}, seat=1)
    r.close()
    return r


def test_truncated_log_recovers_every_complete_record(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "crash.sandlog"
    _log_with_ops(path, 10)
    data = path.read_bytes()
    path.write_bytes(data[:-5])  # the last record was cut mid-write
    replica = Replica.from_log(path)
    assert replica.state.objs["k"].counters["value"] == 9  # 12 ops written, the 12th lost
    # (record 1 is the header, 2 its copy)
    assert any("record 14" in p and "truncated" in p for p in replica.reports)
    code, out, err = run(capsys, "log", "hash", str(path))
    assert code == 0 and len(out.strip()) == 32
    assert "crash.sandlog: record 14 at byte" in err


def test_corrupted_record_in_the_middle_is_skipped_and_the_rest_kept(tmp_path: Path) -> None:
    path = tmp_path / "bitrot.sandlog"
    _log_with_ops(path, 10)
    data = bytearray(path.read_bytes())
    # find the 7th frame (the 5th op: the header and its copy come first) and flip a byte
    offset = len(MAGIC)
    for _ in range(6):
        offset += 8 + int.from_bytes(data[offset:offset + 4], "big")
    data[offset + 10] ^= 0xFF
    path.write_bytes(bytes(data))
    contents = read_log(path)
    assert len(contents.records) == 12  # the header's copy, 12 op records, one lost
    assert any("record 7" in p and "checksum mismatch" in p for p in contents.problems)
    # one author wrote it: the ops after the lost one are applied in salvage mode, and marked
    replica = Replica.from_log(path)
    assert any("salvage mode" in p for p in replica.reports)
    assert len(replica.records()) == 11 and len(replica.salvaged) == 7  # ops 6-12
    assert len(replica.lost) == 1
    # a table reopened to keep playing never salvages: it must not reuse the lost numbers
    reopened = Replica.from_log(path, salvage=False)
    assert any("wait for ops this log lacks" in p for p in reopened.reports)


def test_a_record_that_is_not_an_op_is_reported_with_its_number(tmp_path: Path) -> None:
    path = tmp_path / "odd.sandlog"
    _log_with_ops(path, 2)
    payload = msgpack.packb(["not", "an", "op"])
    with open(path, "ab") as f:
        f.write(len(payload).to_bytes(4, "big") + zlib.crc32(payload).to_bytes(4, "big") + payload)
    replica = Replica.from_log(path)
    assert replica.state.objs["k"].counters["value"] == 2
    assert any("record 7" in p and "array of 9 fields" in p for p in replica.reports)
