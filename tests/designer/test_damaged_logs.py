"""Damaged logs are read as far as they go: flipped bytes, a bad length field and a truncated
tail, in a log one author wrote (hot-seat: salvage mode) and in a log of many authors (a LAN
peer's). Each test counts the ops recovered against the op records left intact."""
from __future__ import annotations

from pathlib import Path

import msgpack
import pytest

from table.bench.simulated_sessions import play_session
from table.core.logfile import MAGIC, LogReader
from table.core.replica import Replica
from table.games import find_module


def frames(data: bytes) -> list[tuple[int, int]]:
    """(offset, total size) of every frame after the magic; the header is frame 0."""
    out, offset = [], len(MAGIC)
    while offset < len(data):
        length = int.from_bytes(data[offset:offset + 4], "big")
        out.append((offset, 8 + length))
        offset += 8 + length
    return out


@pytest.fixture(scope="module")
def hotseat(tmp_path_factory) -> Path:  # type: ignore[no-untyped-def]
    path = tmp_path_factory.mktemp("damage") / "hotseat.sandlog"
    play_session(find_module("mantle-of-the-keeper"), 3, 7, path, turns=9)
    return path


@pytest.fixture(scope="module")
def lan_peer(tmp_path_factory) -> Path:  # type: ignore[no-untyped-def]
    """Peer B's log of a two-peer table: its own ops and the ones it received from A."""
    folder = tmp_path_factory.mktemp("damage-lan")
    a = Replica("t", "peer-a", log_path=folder / "a.sandlog")
    b = Replica("t", "peer-b", log_path=folder / "b.sandlog")
    a.receive(b.issue("seat", {"seat": 2}).to_wire())
    b.receive(a.issue("seat", {"seat": 1}).to_wire())
    for who, seat in ((a, 1), (b, 2)):
        op = who.issue("create", {"id": f"k{seat}", "kind": "counter"}, seat=seat)
        (b if who is a else a).receive(op.to_wire())
    for i in range(40):
        who, other, seat = (a, b, 1) if i % 3 else (b, a, 2)
        op = who.issue("counter", {"id": f"k{seat}", "add": 1}, seat=seat)
        other.receive(op.to_wire())
    a.close()
    b.close()
    return folder / "b.sandlog"


def runs(indices: set[int]) -> int:
    """How many stretches of consecutive frames `indices` make."""
    return sum(1 for i in indices if i - 1 not in indices)


def op_records(data: bytes) -> int:
    """Records after the header that hold an op (not the module's blob record)."""
    count = 0
    for offset, size in frames(data)[1:]:
        record = msgpack.unpackb(data[offset + 8:offset + size])
        count += type(record) is list or (type(record) is dict and "op" in record)
    return count


def blob_records(data: bytes) -> int:
    """Records that hold no op: the header's copy, the module's blob."""
    return len(frames(data)) - 1 - op_records(data)


def damaged(src: Path, dst: Path, *, flip: list[int] = (), length: list[int] = (),
            cut: int = 0) -> tuple[Path, set[int]]:
    """Copy `src` with bytes flipped inside frames `flip`, the length field of frames `length`
    made absurd, and `cut` bytes cut off the end. Returns the file and the damaged frames."""
    data = bytearray(src.read_bytes())
    spots = frames(bytes(data))
    hurt: set[int] = set()
    for index in flip:
        offset, size = spots[index]
        data[offset + 8 + size // 3] ^= 0x5A
        hurt.add(index)
    for index in length:
        offset, _size = spots[index]
        data[offset] ^= 0x40  # a length of gigabytes: past the end and over the limit
        hurt.add(index)
    if cut:
        end = len(data) - cut
        hurt |= {i for i, (offset, size) in enumerate(spots) if offset + size > end}
        del data[end:]
    dst.write_bytes(bytes(data))
    return dst, hurt


CASES = {
    "five flipped bytes": dict(flip=[20, 60, 61, 140, 200]),
    "a bad length field": dict(length=[90]),
    "a truncated tail": dict(cut=7),
    "all three": dict(flip=[30, 125], length=[100], cut=3),
}


@pytest.mark.parametrize("case", CASES)
def test_one_author_log_recovers_every_intact_op(hotseat: Path, tmp_path: Path,
                                                 case: str) -> None:
    path, hurt = damaged(hotseat, tmp_path / "d.sandlog", **CASES[case])
    intact = op_records(hotseat.read_bytes()) - len(hurt)  # the blob record is never hurt here
    reader = LogReader(path)
    # resync: nothing after damage is lost
    assert sum(1 for _ in reader.records()) == intact + blob_records(hotseat.read_bytes())
    assert len(reader.damage) == runs(hurt)  # each damaged stretch reported once
    replica = Replica.from_log(path)
    assert len(replica.records()) == intact  # every intact op is applied
    if CASES[case].get("flip") or CASES[case].get("length"):  # a lost op before the end
        assert replica.salvaged and len(replica.lost) >= 1
        assert any("salvage mode" in r for r in replica.reports)
    for damage in replica.damage:
        assert damage.start in {frames(hotseat.read_bytes())[i][0] for i in hurt}


@pytest.mark.parametrize("case", CASES)
def test_many_author_log_reads_every_intact_record(lan_peer: Path, tmp_path: Path,
                                                   case: str) -> None:
    spec = {k: [i % 40 + 3 for i in v] if isinstance(v, list) else v
            for k, v in CASES[case].items()}
    path, hurt = damaged(lan_peer, tmp_path / "d.sandlog", **spec)
    intact = op_records(lan_peer.read_bytes()) - len(hurt)
    reader = LogReader(path)
    assert sum(1 for _ in reader.records()) == intact + blob_records(lan_peer.read_bytes())
    replica = Replica.from_log(path)
    # many authors: no salvage (a peer gets the lost op back by catch-up); the intact ops are
    # either applied or reported as waiting for the lost one, none disappears
    waiting = sum(len(p) for p in replica.store.pending.values())
    assert len(replica.records()) + waiting == intact
    assert not replica.salvaged
    if waiting:
        assert any(f"{waiting} op(s) wait" in r for r in replica.reports)


def test_a_damaged_header_is_rebuilt_from_the_records_after_it(hotseat: Path,
                                                               tmp_path: Path) -> None:
    intact = LogReader(hotseat).header
    path, _ = damaged(hotseat, tmp_path / "h.sandlog", flip=[0])
    reader = LogReader(path)
    assert reader.recovered and reader.header["recovered"] is True
    for key in ("game", "game_hash", "peer"):
        assert reader.header[key] == intact[key], key
    assert len(reader.damage) == 1 and reader.damage[0].start == len(MAGIC)
    replica = Replica.from_log(path)
    assert len(replica.records()) == op_records(hotseat.read_bytes())  # every op kept
    assert any("header was damaged" in r for r in replica.reports)


def test_a_header_with_nothing_after_it_is_refused_with_one_line(hotseat: Path,
                                                                 tmp_path: Path) -> None:
    from table.core.errors import LogError

    data = hotseat.read_bytes()
    offset, size = frames(data)[0]
    broken = bytearray(data[:offset + size])
    broken[offset + 8 + size // 3] ^= 0x5A
    (tmp_path / "h.sandlog").write_bytes(bytes(broken))
    with pytest.raises(LogError, match="no readable header"):
        LogReader(tmp_path / "h.sandlog")
